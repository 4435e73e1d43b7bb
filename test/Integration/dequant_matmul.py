# RUN: %python %s
# rlx.dequant_matmul with the int8_block, int8_block_asym and int4_block
# schemes against float64 NumPy: decode W [N, K] (w * scale, (w - zp) *
# scale, (nibble - 8) * scale with the low nibble first; scale per row and
# block), then x @ W^T, for 2-D and batched inputs and f32/bf16 activations.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("dequant_matmul", KNOWN_FAILURES)
r = rlxtest.rng()
TOL = {"f32": (1e-5, 1e-5), "bf16": (2e-2, 2e-2)}


def case(scheme, block, xshape, n, elem="f32"):
    k = xshape[-1]
    x = rand(r, xshape, elem)
    s = rand(r, (n, k // block), "f32", 0.002, 0.02)
    args = [("%x", T(xshape, elem), x)]
    if scheme == "int4_block":
        w = r.integers(0, 256, (n, k // 2)).astype(np.uint8)
        q = np.empty((n, k))
        q[:, 0::2], q[:, 1::2] = w & 15, w >> 4
        dec = (q - 8) * np.repeat(s, block, 1)
        args.append(("%w", T(w.shape, "ui8"), w))
    else:
        w = r.integers(-128, 128, (n, k)).astype(np.int8)
        dec = w.astype(np.float64)
        args.append(("%w", T(w.shape, "i8"), w))
    args.append(("%s", T(s.shape, "f32"), s))
    if scheme == "int8_block_asym":
        z = rlxtest.as_elem(r.integers(-8, 8, s.shape), "f32")
        dec = dec - np.repeat(z, block, 1)
        args.append(("%z", T(z.shape, "f32"), z))
    if scheme != "int4_block":
        dec = dec * np.repeat(s, block, 1)
    if elem == "bf16":
        dec = rlxtest.as_elem(dec, "bf16").astype(np.float64)
    ref = x.astype(np.float64) @ dec.T
    out = list(xshape[:-1]) + [n]
    body = "%y = rlx.dequant_matmul #rlx.quant<{}, {}> {} : {}".format(
        scheme, block, ", ".join(a for a, _, _ in args),
        ", ".join(t for _, t, _ in args))
    return Case("%s/%d/%s/%s" % (scheme, block, elem,
                                 "x".join(map(str, xshape))),
                args, body, [("%y", T(out, elem))], [ref], TOL[elem])


cases = []
for scheme in ("int8_block", "int8_block_asym", "int4_block"):
    cases += [case(scheme, 32, (4, 64), 16), case(scheme, 16, (2, 3, 64), 8),
              case(scheme, 64, (5, 128), 12, "bf16")]
suite.run(cases)
suite.finish()
