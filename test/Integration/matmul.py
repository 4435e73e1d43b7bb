# RUN: %python %s
# matmul: every numeric element type, transpose_a / transpose_b, batched with
# broadcasting batch dims (size 1, rank differences), dynamic dims. Every
# case runs twice: with generated code, and with --blas (f32/f64 matmuls
# call the BLAS library; the other types keep generated code).

import sys

import numpy as np

import rlxtest
from rlxtest import FLOATS, INTS, Case, Suite, matmul_tolerance, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suites = [Suite("matmul", KNOWN_FAILURES),
          Suite("matmul --blas", KNOWN_FAILURES, flags=["--blas"])]
r = rlxtest.rng()
CPLX = "complex<f32>"


def operand(elem, shape):
    if elem in INTS:  # i8/ui8 products wrap; ui8 values above 127
        lo, hi = {"ui8": (0, 256), "ui32": (0, 70000)}.get(elem, (-100, 100))
        return rand(r, shape, elem, lo, hi)
    return rand(r, shape, elem, -1, 1)


def reference(a, b, elem):
    if elem in INTS:  # modular arithmetic, as the result type wraps
        return np.matmul(a.astype(np.int64), b.astype(np.int64)).astype(
            a.dtype)
    wide = np.complex128 if elem == CPLX else np.float64
    return np.matmul(a.astype(wide), b.astype(wide))


def case(elem, sa, sb, ta=False, tb=False, da=None, db=None, dr=None, tag=""):
    """matmul of [.., M, K] x [.., K, N] given as sa, sb (already transposed
    as stored when ta / tb); da, db, dr: types with dynamic dims."""
    a, b = operand(elem, sa), operand(elem, sb)
    at = np.swapaxes(a, -1, -2) if ta else a
    bt = np.swapaxes(b, -1, -2) if tb else b
    e = reference(at, bt, elem)
    tya, tyb = T(da or sa, elem), T(db or sb, elem)
    attrs = (" transpose_a true" if ta else "") + (
        " transpose_b true" if tb else "")
    types = tya if tya == tyb else "%s, %s" % (tya, tyb)
    name = "matmul/%s/%s_%s%s%s%s" % (
        elem, "x".join(map(str, sa)), "x".join(map(str, sb)),
        "/ta" if ta else "", "/tb" if tb else "", tag)
    return Case(name, [("%a", tya, a), ("%b", tyb, b)],
                "%c = rlx.matmul %a, %b{} : {}".format(attrs, types),
                [("%c", T(dr or e.shape, elem))], [e],
                matmul_tolerance(elem, at.shape[-1]))


def run_all(cases):
    for suite in suites:
        suite.run(cases)


# Every type: plain 2-D, both transposes, batched.
run_all([case(e, (5, 7), (7, 6)) for e in FLOATS + INTS + [CPLX]] +
          [case(e, (7, 5), (6, 7), ta=True, tb=True)
           for e in FLOATS + INTS + [CPLX]] +
          [case(e, (2, 3, 4), (2, 4, 5)) for e in FLOATS + INTS + [CPLX]])

# Transposes, batch broadcasting and rank differences (f32); a longer K.
run_all([
    case("f32", (6, 5), (6, 4), ta=True),
    case("f32", (5, 6), (4, 6), tb=True),
    case("f32", (2, 3, 6, 5), (2, 3, 4, 6), ta=True, tb=True),
    case("f32", (2, 1, 5, 6), (3, 6, 4)),
    case("f32", (3, 5, 6), (6, 4)),
    case("f32", (5, 6), (2, 3, 6, 4)),
    case("f32", (1, 5, 6), (4, 6, 2)),
    case("f32", (4, 1, 5, 6), (1, 3, 7, 6), tb=True),
    case("f32", (2, 1, 6, 5), (1, 3, 6, 4), ta=True),
    case("f32", (1, 1), (1, 1)),
    case("f32", (9, 1), (1, 8)),
    case("f32", (3, 256), (256, 5)),
    case("f64", (3, 2, 5, 6), (2, 6, 4)),
    case("f16", (2, 1, 5, 64), (3, 64, 4)),
    case("bf16", (4, 64), (2, 64, 3)),
    case("i32", (2, 1, 4, 5), (3, 5, 2)),
])

# Shapes the register tiles divide (M by 8, N by 32 for f32 and 16 for
# f64): rlx-cpu-vectorize-matmul's path, with transposes, batch dims,
# broadcast batch dims and rank differences.
run_all([
    case("f32", (16, 24), (24, 64)),
    case("f32", (24, 16), (64, 24), ta=True, tb=True),
    case("f32", (8, 40), (32, 40), tb=True),
    case("f32", (40, 8), (40, 32), ta=True),
    case("f32", (2, 8, 16), (2, 16, 32)),
    case("f32", (2, 1, 16, 8), (3, 8, 32)),
    case("f32", (3, 8, 48), (48, 96)),
    case("f32", (8, 48), (2, 48, 32)),
    case("f64", (16, 9), (9, 32)),
    case("f64", (2, 8, 5), (5, 16)),
    case("f32", (64, 128), (128, 64)),
])

# Long reductions in blocks of k (k-block 256), and B's column panels packed
# where its rows are 4 KiB apart (1024 f32, 512 f64) and four or more row
# blocks read them: with and without batch dims, broadcast ones included.
run_all([
    case("f32", (16, 512), (512, 64)),
    case("f32", (32, 768), (768, 1024)),
    case("f32", (2, 32, 512), (512, 1024)),
    case("f32", (2, 32, 256), (2, 256, 1024)),
    case("f32", (2, 32, 256), (1, 256, 1024)),
    case("f32", (2, 1, 32, 512), (1, 3, 512, 1024)),
    case("f64", (32, 512), (512, 512)),
    case("f64", (40, 768), (768, 512)),
])

# Dynamic dims: M, the batch, K.
run_all([
    case("f32", (7, 6), (6, 5), da=(None, 6), dr=(None, 5), tag="/dyn_m"),
    case("f32", (3, 4, 6), (3, 6, 5), da=(None, 4, 6), db=(None, 6, 5),
         dr=(None, 4, 5), tag="/dyn_batch"),
    case("f32", (4, 9), (9, 3), da=(4, None), db=(None, 3), tag="/dyn_k"),
    case("f32", (6, 4), (5, 4), tb=True, da=(None, 4), dr=(None, 5),
         tag="/dyn_m"),
])

sys.exit(1 if [s.finish(exit=False) for s in suites].count(True) else 0)
