# RUN: %python %s
# gather (index_select / embedding lookup) and scatter_add (index_add) on
# every element type they take, along first, middle, last and negative axes,
# with repeated indices, rank-0 and 2-D indices, and dynamic dims.

import numpy as np

import rlxtest
from rlxtest import FLOATS, INTS, Case, Suite, rand, sum_tolerance
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("gather_scatter", KNOWN_FAILURES)
r = rlxtest.rng()
CPLX = "complex<f32>"
ALL = FLOATS + INTS + ["i1", CPLX]


def idx(n, shape):
    return r.integers(0, n, shape).astype(np.int64)


def gather_case(name, elem, tshape, ishape, axis, tdims=None, idims=None):
    table = rand(r, tshape, elem, -100, 100)
    ax = axis % len(tshape)
    ids = idx(tshape[ax], ishape)
    tt, ti = T(tdims or tshape, elem), T(idims or ishape, "i64")
    td = list(tdims or tshape)
    rdims = td[:ax] + list(idims or ishape) + td[ax + 1:]
    return Case(name, [("%t", tt, table), ("%i", ti, ids)],
                "%g = rlx.gather %t, %i axis = {} : {}, {}".format(axis, tt, ti),
                [("%g", T(rdims, elem))], [np.take(table, ids, axis=ax)],
                (0, 0))


# Embedding lookup (axis 0, 2-D indices with repeats) on every type.
suite.run([gather_case("gather/%s/axis0" % e, e, (5, 3), (2, 4), 0)
           for e in ALL])

suite.run([
    gather_case("gather/f32/axis1", "f32", (3, 6, 4), (5,), 1),
    gather_case("gather/f32/axis2", "f32", (3, 2, 7), (4,), 2),
    gather_case("gather/f32/axis-1", "f32", (4, 6), (3, 2), -1),
    gather_case("gather/f32/axis-2", "f32", (2, 5, 3), (6,), -2),
    gather_case("gather/f32/rank0_index", "f32", (4, 6), (), 0),
    gather_case("gather/i64/rank0_index_axis1", "i64", (4, 6), (), 1),
    gather_case("gather/f32/rank1_table", "f32", (9,), (4, 3), 0),
    gather_case("gather/f32/dyn_table", "f32", (7, 8), (5,), 0,
                tdims=(None, 8)),
    gather_case("gather/f32/dyn_ids", "f32", (7, 8), (6,), 0,
                idims=(None,)),
    gather_case("gather/f32/dyn_both_axis1", "f32", (3, 7), (2, 5), 1,
                tdims=(None, 7), idims=(2, None)),
])


def scatter_case(name, elem, bshape, n, axis, bdims=None, dyn_n=False,
                 direct=False):
    """scatter_add into base + base (into the argument itself if direct)."""
    lo, hi = {"i8": (-128, 128), "ui8": (0, 256)}.get(elem, (-100, 100))
    if elem in FLOATS or elem == CPLX:
        lo, hi = -2, 2
    ax = axis % len(bshape)
    ushape = list(bshape)
    ushape[ax] = n
    base = rand(r, bshape, elem, lo, hi)
    upd = rand(r, ushape, elem, lo, hi)
    ids = idx(bshape[ax], (n,))
    ids[:2] = ids[2] if n > 2 else ids[:2]  # a repeated index
    wide = {CPLX: np.complex128}.get(elem, np.int64 if elem in INTS
                                     else np.float64)
    e = np.moveaxis(base.astype(wide) * (1 if direct else 2), ax, 0).copy()
    np.add.at(e, ids, np.moveaxis(upd.astype(wide), ax, 0))
    e = np.moveaxis(e, 0, ax)
    if elem in INTS:
        e = e.astype(base.dtype)  # wraps
    # Repeated indices add in the element type, possibly through partial
    # sums much larger than a result that cancels: bound each rounding.
    terms = np.moveaxis(np.abs(base.astype(wide)) * (1 if direct else 2),
                        ax, 0).copy()
    np.add.at(terms, ids, np.moveaxis(np.abs(upd.astype(wide)), ax, 0))
    tol = sum_tolerance(elem, float(np.abs(terms).max()),
                        int(np.bincount(ids).max()) + 1)
    udims = list(bdims or bshape)
    udims[ax] = None if dyn_n else n
    tb, ti, tu = (T(bdims or bshape, elem), T((None if dyn_n else n,), "i64"),
                  T(udims, elem))
    body = "%s = rlx.scatter_add {}, %i, %u axis = {} : {}, {}, {}".format(
        "%b" if direct else "%bb", axis, tb, ti, tu)
    if not direct:
        body = "%bb = rlx.add %b, %b : {}\n{}".format(tb, body)
    return Case(name, [("%b", tb, base), ("%i", ti, ids), ("%u", tu, upd)],
                body, [("%s", tb)], [e], None if elem in INTS else tol)


# Axis 0 with repeated indices on every numeric type (integers wrap).
suite.run([scatter_case("scatter_add/%s/axis0" % e, e, (6, 4), 5, 0)
           for e in FLOATS + INTS + [CPLX]])

suite.run([
    scatter_case("scatter_add/f32/axis1", "f32", (3, 7, 2), 4, 1),
    scatter_case("scatter_add/f32/axis-1", "f32", (4, 5), 8, -1),
    scatter_case("scatter_add/i32/axis2", "i32", (2, 3, 4), 6, 2),
    scatter_case("scatter_add/f64/axis-2", "f64", (2, 5, 3), 3, -2),
    scatter_case("scatter_add/f32/rank1", "f32", (10,), 12, 0),
    scatter_case("scatter_add/f32/dyn_base", "f32", (6, 4), 5, 0,
                 bdims=(None, 4)),
    scatter_case("scatter_add/f32/dyn_indices", "f32", (6, 4), 9, 0,
                 dyn_n=True),
    scatter_case("scatter_add/f32/dyn_rows_axis1", "f32", (5, 6), 3, 1,
                 bdims=(None, 6)),
    # Straight into the argument, whose buffer the result may reuse.
    scatter_case("scatter_add/f32/axis0/direct", "f32", (6, 4), 5, 0,
                 direct=True),
    scatter_case("scatter_add/i64/dyn_indices/direct", "i64", (6, 4), 9, 0,
                 dyn_n=True, direct=True),
])

# The base is used again after the scatter: the scatter must not clobber it.
b, u = rand(r, (5, 3), "f32"), rand(r, (4, 3), "f32")
i = idx(5, (4,))
e = b.astype(np.float64).copy()
np.add.at(e, i, u)
suite.run([Case("scatter_add/f32/base_reused",
                [("%b", "tensor<5x3xf32>", b), ("%i", "tensor<4xi64>", i),
                 ("%u", "tensor<4x3xf32>", u)], """
    %s = rlx.scatter_add %b, %i, %u axis = 0 : tensor<5x3xf32>, tensor<4xi64>, tensor<4x3xf32>
    %d = rlx.sub %s, %b : tensor<5x3xf32>
    %m = rlx.mul %s, %b : tensor<5x3xf32>""",
                [("%d", "tensor<5x3xf32>"), ("%m", "tensor<5x3xf32>")],
                [e - b, e * b]),
           # Ops that may update their operand in place, on an argument that
           # is also returned: the returned argument must be untouched.
           Case("scatter_add/f32/arg_also_returned",
                [("%b", "tensor<5x3xf32>", b), ("%i", "tensor<4xi64>", i),
                 ("%u", "tensor<4x3xf32>", u)], """
    %c = rlx.cumsum %b axis = 1 : tensor<5x3xf32>
    %s = rlx.scatter_add %b, %i, %u axis = 0 : tensor<5x3xf32>, tensor<4xi64>, tensor<4x3xf32>""",
                [("%c", "tensor<5x3xf32>"), ("%b", "tensor<5x3xf32>"),
                 ("%s", "tensor<5x3xf32>")],
                [np.cumsum(b.astype(np.float64), 1), b, e])])

suite.finish()
