# RUN: %python %s
# rlx-auto-mixed-precision with matmul=fp8 on the CPU, against an
# independent float64 reference on fresh random inputs: a linear layer
# (matmul with a constant weight, bias, tanh) whose weight the pass
# quantizes to e4m3 per output channel at compile time. The reference
# quantizes the weight with fp8ref (the format written out from its
# definition; scale = the channel's largest magnitude / 448, round to
# nearest even), decodes it to bf16 as
# the dequant_matmul lowering does, rounds x to bf16, and computes the
# rest in float64 (the product rounded to bf16). The program must match
# it within bf16's rounding, and must differ from the unquantized f32
# layer by more (the fp8 weights really ran). Both weight layouts
# (transpose_b or not).

import numpy as np

import rlxtest
from fp8ref import round_e4m3
from rlxtest import round_bf16

suite = rlxtest.Suite("amp_fp8")
r = rlxtest.rng()
N, K, M = 12, 48, 24


def dense(a):
    return "dense<%s>" % np.array2string(
        a, separator=", ", threshold=1 << 30, floatmode="unique",
        max_line_width=1 << 30)


def layer(w, b, transposed):
    wt = "tensor<%dx%dxf32>" % w.shape
    return """
func.func @main(%x: tensor<{N}x{K}xf32>) -> tensor<{N}x{M}xf32> {{
  %w = rlx.constant {w} : {wt}
  %b = rlx.constant {b} : tensor<{M}xf32>
  %h = rlx.matmul %x, %w{t} : tensor<{N}x{K}xf32>, {wt}
  %hb = rlx.add %h, %b : tensor<{N}x{M}xf32>, tensor<{M}xf32>
  %y = rlx.tanh %hb : tensor<{N}x{M}xf32>
  return %y : tensor<{N}x{M}xf32>
}}
""".format(N=N, K=K, M=M, w=dense(w), wt=wt, b=dense(b),
           t=" transpose_b true" if transposed else "")


def fp8_weight(w_kn):
    """w [K, N] quantized per column to e4m3 and decoded, in float64."""
    amax = np.abs(w_kn).max(axis=0).astype(np.float64)
    scale = np.where(amax > 0, amax / 448, 1.0).astype(np.float32)
    q = round_e4m3((w_kn / scale).astype(np.float32))
    return q * scale.astype(np.float64)


def check(transposed):
    x = r.standard_normal((N, K)).astype(np.float32)
    w = (r.standard_normal((K, M)) / np.sqrt(K)).astype(np.float32)
    b = (0.1 * r.standard_normal(M)).astype(np.float32)
    stored = np.ascontiguousarray(w.T) if transposed else w
    amp = rlxtest.opt(layer(stored, b, transposed),
                      "--rlx-auto-mixed-precision=policy=matmul=fp8")
    assert "rlx.dequant_matmul #rlx.quant<fp8_e4m3>" in amp, amp
    rc, log, outs = rlxtest.run(amp, [x], 1)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    y = outs[0].astype(np.float64)
    # The dequant_matmul decodes the weight into x's type (bf16).
    h = round_bf16(round_bf16(x.astype(np.float64)) @
                   round_bf16(fp8_weight(w)))
    ref = np.tanh(h + b.astype(np.float64))
    exact = np.tanh(x.astype(np.float64) @ w + b)
    err = np.abs(y - ref).max()
    err_exact = np.abs(y - exact).max()
    # tanh's outputs lie in [-1, 1]: a few bf16 steps (2^-8) absolutely.
    assert err <= 1.6e-2, "max error %.2e against the fp8 emulation" % err
    assert err_exact > 2 * err, (
        "the fp8 program is as close to the f32 layer (%.2e) as to the fp8 "
        "emulation (%.2e): were the weights quantized?" % (err_exact, err))


suite.check("linear_kn", lambda: check(False))
suite.check("linear_nk_transpose_b", lambda: check(True))
suite.finish()
