# RUN: %python %s
# rlx.int8_matmul (i8 x i8 summed in i32) against NumPy's int64 product,
# exactly, on the full int8 range (-128 and 127 included): odd shapes
# (k not a multiple of 4, m and n not multiples of the kernel's 4 x 32
# tiles), transpose_a / transpose_b (strided views into the kernel),
# batched with broadcasting batch dims, and the largest sums (all -128)
# that stay in i32. The CPU pipeline calls rlx_cpu_gemm_s8 (AVX-512 VNNI
# where the CPU has it) for every one of them.

import numpy as np

import rlxtest
from rlxtest import Case, Suite
from rlxtest import tensor_type as T

suite = Suite("int8_matmul")
r = rlxtest.rng()


def ints(shape, fill=None):
    if fill is not None:
        return np.full(shape, fill, np.int8)
    return r.integers(-128, 128, shape, dtype=np.int16).astype(np.int8)


def case(name, a_shape, b_shape, ta=False, tb=False, fill=None):
    a, b = ints(a_shape, fill), ints(b_shape, fill)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    if ta:
        a64 = np.swapaxes(a64, -1, -2)
    if tb:
        b64 = np.swapaxes(b64, -1, -2)
    want = np.matmul(a64, b64)
    assert np.abs(want).max() < 2 ** 31
    flags = (" transpose_a true" if ta else "") + (" transpose_b true" if tb else "")
    return Case(name, [("%a", T(a_shape, "i8"), a), ("%b", T(b_shape, "i8"), b)],
                "%%y = rlx.int8_matmul %%a, %%b%s : %s, %s" % (
                    flags, T(a_shape, "i8"), T(b_shape, "i8")),
                [("%y", T(want.shape, "i32"))], [want.astype(np.int32)])


suite.run([
    case("1x1x1", (1, 1), (1, 1)),
    case("7x13x5", (7, 13), (13, 5)),
    case("129x65x33", (129, 65), (65, 33)),
    case("64x256x96", (64, 256), (256, 96)),
    case("transpose_a", (13, 7), (13, 40), ta=True),
    case("transpose_b", (9, 70), (33, 70), tb=True),
    case("both", (70, 9), (33, 70), ta=True, tb=True),
    case("batched", (3, 5, 20), (20, 17)),
    case("broadcast", (2, 1, 6, 12), (3, 12, 35)),
    case("largest", (4, 4096), (4096, 40), fill=-128),
])
suite.finish()
