# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan %python %s
# Matmuls through the Vulkan pipeline's tiled kernel (rlx-gpu-tile-matmul:
# blocks staged in workgroup memory, a register tile per thread) on shapes
# its tiles do not divide: a single element, odd sizes below one tile,
# sizes one past a tile (129 = 128 + 1), several k steps with a partial
# last one, transposes, batches and broadcast batch dims, in f32, f16 and
# bf16 (f32 accumulation; bf16 stored as 16-bit words). Each case runs with
# the pipeline's default tiles (128 x 128 x 8, 8 x 8 per thread) and with
# small tiles (16 x 16 x 4, 2 x 2 per thread), so that modest shapes span
# many workgroups and k steps. Fresh operands uniform in [-1, 1), results
# poisoned first, against NumPy in float64 with rlxtest.matmul_tolerance:
# rtol = atol = 1e-5 sqrt(k) for f32; f16 rtol 1e-2, atol 1e-2 sqrt(k);
# bf16 rtol 1.5e-2, atol 2e-2 sqrt(k) (the results are rounded to f16 or
# bf16).

import sys

import numpy as np

import rlxtest
from rlxtest import Case, Suite, matmul_tolerance, rand
from rlxtest import tensor_type as T

SMALL = ("--vulkan-options=matmul-tile-m=16 matmul-tile-n=16 "
         "matmul-tile-k=4 matmul-thread-m=2 matmul-thread-n=2")
suites = [Suite("tiled_matmul"), Suite("tiled_matmul small", flags=[SMALL])]
r = rlxtest.rng()


def case(elem, m, k, n, batch_a=(), batch_b=(), ta=False, tb=False):
    """rlx.matmul of [batch_a, m, k] x [batch_b, k, n], A stored as
    [.., k, m] with ta and B as [.., n, k] with tb."""
    sa = batch_a + ((k, m) if ta else (m, k))
    sb = batch_b + ((n, k) if tb else (k, n))
    a, b = rand(r, sa, elem, -1, 1), rand(r, sb, elem, -1, 1)
    at = np.swapaxes(a, -1, -2) if ta else a
    bt = np.swapaxes(b, -1, -2) if tb else b
    e = np.matmul(at.astype(np.float64), bt.astype(np.float64))
    attrs = (" transpose_a true" if ta else "") + (
        " transpose_b true" if tb else "")
    name = "tiled_matmul/%s/%s_%s%s%s" % (
        elem, "x".join(map(str, sa)), "x".join(map(str, sb)),
        "/ta" if ta else "", "/tb" if tb else "")
    return Case(name, [("%a", T(sa, elem), a), ("%b", T(sb, elem), b)],
                "%c = rlx.matmul %a, %b{} : {}, {}".format(
                    attrs, T(sa, elem), T(sb, elem)),
                [("%c", T(e.shape, elem))], [e], matmul_tolerance(elem, k))


cases = []
for elem in ["f32", "f16", "bf16"]:
    cases += [
        case(elem, 1, 1, 1),
        case(elem, 7, 13, 5),
        case(elem, 129, 33, 65),
        case(elem, 64, 64, 64),
        case(elem, 129, 33, 65, ta=True),
        case(elem, 129, 33, 65, tb=True),
        case(elem, 31, 50, 17, ta=True, tb=True),
        case(elem, 17, 40, 23, batch_a=(3,), batch_b=(3,)),
        case(elem, 19, 29, 31, batch_a=(4,), batch_b=(4,), tb=True),
    ]
cases += [
    case("f32", 9, 20, 11, batch_a=(2, 1), batch_b=(3,)),
    case("f32", 130, 200, 70),
    case("f32", 65, 9, 129, batch_a=(2,), batch_b=(2,), ta=True),
]

for suite in suites:
    suite.run(cases)
sys.exit(1 if [s.finish(exit=False) for s in suites].count(True) else 0)
