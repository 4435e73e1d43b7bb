# RUN: %python %s
# dot_general: batch and contracting dims in every position (leading,
# middle, trailing, several of each in any order, negative indices), no
# batch dims, no contracting dims (outer products), a full contraction to a
# scalar, dynamic dims, and the float, integer and complex element types,
# against numpy.einsum in float64 (complex128, int64). The result is the
# batch dims (in the order of lhs_batch_dims), then lhs's free dims, then
# rhs's free dims.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("linalg_extra", KNOWN_FAILURES)
r = rlxtest.rng()
C = "complex<f32>"


def tol(elem, red):
    """A sum of `red` products: f32/f64 absolute error grows with it;
    f16/bf16 accumulate in f32 and round the result once; integers are
    exact."""
    return {"f32": (1e-5, 1e-6 * red), "f64": (1e-12, 1e-13 * red),
            "f16": (2e-3, 1e-3), "bf16": (1e-2, 1e-2),
            C: (1e-5, 2e-6 * red)}.get(elem, (0, 0))


def dg_case(name, elem, lshape, rshape, lb, rb, lc, rc, ldims=None,
            rdims=None, lo=-2, hi=2):
    lrank, rrank = len(lshape), len(rshape)
    pos = lambda d, rank: d % rank
    lbp, rbp = [pos(d, lrank) for d in lb], [pos(d, rrank) for d in rb]
    lcp, rcp = [pos(d, lrank) for d in lc], [pos(d, rrank) for d in rc]
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    ls, rs = [None] * lrank, [None] * rrank
    for a, b in zip(lbp, rbp):
        ls[a] = rs[b] = next(letters)
    for a, b in zip(lcp, rcp):
        ls[a] = rs[b] = next(letters)
    lfree = [i for i in range(lrank) if ls[i] is None]
    rfree = [i for i in range(rrank) if rs[i] is None]
    for i in lfree:
        ls[i] = next(letters)
    for i in rfree:
        rs[i] = next(letters)
    out = [ls[a] for a in lbp] + [ls[i] for i in lfree] + \
        [rs[i] for i in rfree]
    spec = "%s,%s->%s" % ("".join(ls), "".join(rs), "".join(out))

    a = rand(r, lshape, elem, lo, hi)
    b = rand(r, rshape, elem, lo, hi)
    wide = {C: np.complex128, "i8": np.int64, "i16": np.int64,
            "i32": np.int64, "i64": np.int64}.get(elem, np.float64)
    e = np.einsum(spec, a.astype(wide), b.astype(wide))
    if elem in rlxtest.INTS:
        info = np.iinfo(rlxtest.NPY[elem])
        assert info.min <= e.min() and e.max() <= info.max, name
        e = e.astype(rlxtest.NPY[elem])
    ld, rd = ldims or lshape, rdims or rshape
    # A result dim is dynamic when its operand dims are (a batch dim when
    # both are).
    odims = [ld[x] if (ld[x] is not None or rd[y] is None) else rd[y]
             for x, y in zip(lbp, rbp)]
    odims += [ld[i] for i in lfree] + [rd[i] for i in rfree]
    ta, tb = T(ld, elem), T(rd, elem)
    body = ("%y = rlx.dot_general %a, %b batch [{}] x [{}] contracting [{}] "
            "x [{}] : {}, {}".format(*(", ".join(map(str, v))
                                       for v in (lb, rb, lc, rc)), ta, tb))
    red = int(np.prod([lshape[i] for i in lcp])) if lcp else 1
    return Case("dot_general/%s/%s" % (elem, name),
                [("%a", ta, a), ("%b", tb, b)], body,
                [("%y", T(odims, elem))], [e], tol(elem, red))


def family(elem):
    return [
        # bmm
        dg_case("bmm", elem, (4, 3, 5), (4, 5, 6), [0], [0], [2], [1]),
        # matmul, A^T B, A B^T, A^T B^T
        dg_case("mm", elem, (3, 5), (5, 7), [], [], [1], [0]),
        dg_case("atb", elem, (5, 3), (5, 7), [], [], [0], [0]),
        dg_case("abt", elem, (3, 5), (7, 5), [], [], [1], [1]),
        dg_case("atbt", elem, (5, 3), (7, 5), [], [], [0], [1]),
        # batch in the middle and at the end of the operands
        dg_case("batch_mid", elem, (3, 4, 5), (5, 4, 6), [1], [1], [2], [0]),
        dg_case("batch_last", elem, (3, 5, 4), (6, 5, 4), [2], [2], [1], [1]),
        # two batch dims in swapped orders, two contracting dims
        dg_case("batch2_contract2", elem, (2, 3, 4, 5), (5, 3, 2, 6, 4),
                [2, 0], [4, 2], [3, 1], [0, 1]),
    ]


cases = []
for elem in ("f32", "f64", "f16", "bf16", C):
    cases += family(elem)
cases += [
    dg_case("outer", "f32", (3, 5), (5, 7), [], [], [], []),
    dg_case("outer_vec", "f32", (4,), (6,), [], [], [], []),
    dg_case("dot_vec", "f32", (17,), (17,), [], [], [0], [0]),
    dg_case("full", "f32", (2, 3, 4), (4, 2, 3), [], [], [0, 1, 2],
            [1, 2, 0]),
    dg_case("batch_only", "f32", (3, 4), (3, 5), [0], [0], [], []),
    dg_case("batch_only_same", "f32", (3, 4), (4, 3), [0, 1], [1, 0], [],
            []),
    dg_case("batch_elementwise_dot", "f32", (6, 8), (6, 8), [0], [0], [1],
            [1]),
    dg_case("negative", "f32", (8, 4, 6), (8, 4, 6), [-3], [0], [-1], [-1]),
    dg_case("contract_first_both", "f32", (7, 2, 3), (7, 4), [], [], [0],
            [0]),
    dg_case("free_interleaved", "f32", (2, 5, 3, 4), (4, 6, 5, 2),
            [0], [3], [1, 3], [2, 0]),
    dg_case("batch3", "f32", (2, 3, 4, 5, 6), (6, 2, 4, 3, 7),
            [1, 0, 2], [3, 1, 2], [4], [0]),
    dg_case("long_k", "f32", (2, 512), (512, 3), [], [], [1], [0]),
    dg_case("dyn", "f32", (4, 3, 5), (4, 5, 6), [0], [0], [2], [1],
            ldims=(None, 3, None), rdims=(4, None, None)),
    dg_case("dyn_all", "f32", (3, 5), (7, 5), [], [], [1], [1],
            ldims=(None, None), rdims=(None, None)),
    dg_case("dyn_batch_both", "f32", (2, 3, 4), (2, 4, 5), [0], [0], [2],
            [1], ldims=(None, 3, 4), rdims=(None, 4, 5)),
    dg_case("dyn_f16", "f16", (2, 6), (6, 3), [], [], [1], [0],
            ldims=(None, 6), rdims=(6, None)),
]
# Integers: exact (values small enough that no result overflows).
for elem, lo, hi in (("i8", -3, 4), ("i16", -50, 50), ("i32", -1000, 1000),
                     ("i64", -100000, 100000)):
    cases += [
        dg_case("bmm", elem, (4, 3, 5), (4, 5, 6), [0], [0], [2], [1],
                lo=lo, hi=hi),
        dg_case("abt", elem, (3, 5), (7, 5), [], [], [1], [1], lo=lo, hi=hi),
        dg_case("batch2_contract2", elem, (2, 3, 2, 2), (2, 3, 2, 4, 2),
                [2, 0], [4, 2], [3, 1], [0, 1], lo=lo, hi=hi),
        dg_case("outer", elem, (3,), (4,), [], [], [], [], lo=lo, hi=hi),
    ]
suite.run(cases)

suite.finish()
