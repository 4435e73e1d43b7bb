# RUN: %python %s
# rlx.int8_matmul (i8 x i8 summed in i32) against NumPy's int64 product,
# exactly, on the full int8 range (-128 and 127 included): odd shapes
# (k not a multiple of 4, m and n not multiples of the kernel's 4 x 32
# tiles), transpose_a / transpose_b (strided views into the kernel),
# batched with broadcasting batch dims, and the largest sums (all -128)
# that stay in i32, the kernel's tile and block edges, and a constant B
# (a weight: packed once, rlx_cpu_gemm_s8_constant_b). The CPU pipeline
# calls rlx_cpu_gemm_s8 (AVX-512 VNNI where the CPU has it) for every one
# of them.

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


def case(name, a_shape, b_shape, ta=False, tb=False, fill=None,
         constant_b=False):
    a, b = ints(a_shape, fill), ints(b_shape, fill)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    if ta:
        a64 = np.swapaxes(a64, -1, -2)
    if tb:
        b64 = np.swapaxes(b64, -1, -2)
    want = np.matmul(a64, b64)
    assert np.abs(want).max() < 2 ** 31
    flags = (" transpose_a true" if ta else "") + (" transpose_b true" if tb else "")
    args = [("%a", T(a_shape, "i8"), a)]
    body = "%%y = rlx.int8_matmul %%a, %%b%s : %s, %s" % (
        flags, T(a_shape, "i8"), T(b_shape, "i8"))
    if constant_b:
        # B's bytes as a hex literal: a weight of the program.
        body = '%%b = rlx.constant dense<"0x%s"> : %s\n' % (
            b.tobytes().hex().upper(), T(b_shape, "i8")) + body
    else:
        args.append(("%b", T(b_shape, "i8"), b))
    return Case(name, args, body, [("%y", T(want.shape, "i32"))],
                [want.astype(np.int32)])


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
    # Past the kernel's 6 x 64 tiles by one, and past its k (768) and row
    # (384) blocks by one.
    case("tile_edges", (7, 20), (20, 65)),
    case("blocks", (385, 769), (769, 65)),
    # A constant B, packed at its first call and kept (one call each, then
    # three calls through one cache slot for the broadcast batch); a batch
    # of constant B views (a different view per call) is packed per call.
    case("constant_b", (13, 70), (70, 130), constant_b=True),
    case("constant_b_blocks", (400, 1000), (1000, 67), constant_b=True),
    case("constant_b_transposed", (9, 70), (33, 70), tb=True,
         constant_b=True),
    case("constant_b_broadcast", (3, 7, 20), (20, 17), constant_b=True),
    case("constant_b_batched", (2, 5, 12), (2, 12, 9), constant_b=True),
    case("constant_b_largest", (4, 4096), (4096, 40), fill=-128,
         constant_b=True),
])
suite.finish()
