# RUN: %python %s
# Post-training quantization and QAT through the passes, against NumPy on
# fresh random inputs:
# - an MLP (matmul, ReLU, matmul with transpose_b) with a calibration
#   record computed here in NumPy from the same inputs: after
#   rlx-quant-insert and rlx-quant-propagate, no float matmul is left, and
#   the result matches a float64 NumPy emulation of int8 quantization
#   (round half to even, clamp, integer products, zero points, per-channel
#   weight scales) up to one quantization step of the hidden layer on an
#   element (where f32 and float64 round a value on either side of a
#   half), and the float64 MLP within int8's error;
# - the same with method=percentile ranges that clip;
# - the same with the weights constants (rlx-specialize-params and the
#   canonicalizer): their quantization and column sums fold away and the
#   result is the unfolded program's, bit for bit; a folded rlx.quantize
#   of a constant equals the lowered op's result and NumPy's, ties and
#   clamped values included;
# - rlx-insert-fake-quant: the forward result matches NumPy fake
#   quantization with per-call ranges (activations per tensor, weights per
#   channel, symmetric).

import json
import os
import tempfile

import numpy as np

import rlxtest
from rlxtest import assert_close

suite = rlxtest.Suite("quant_passes")
r = rlxtest.rng()
B, D, H, C = 16, 64, 32, 10

MLP = """
func.func @main(%x: tensor<{B}x{D}xf32>) -> tensor<{B}x{C}xf32> {{
  %w1 = rlx.param "w1" : tensor<{D}x{H}xf32>
  %w2 = rlx.param "w2" : tensor<{C}x{H}xf32>
  %h = rlx.matmul %x, %w1 : tensor<{B}x{D}xf32>, tensor<{D}x{H}xf32>
  %a = rlx.relu %h : tensor<{B}x{H}xf32>
  %y = rlx.matmul %a, %w2 transpose_b true
      : tensor<{B}x{H}xf32>, tensor<{C}x{H}xf32>
  return %y : tensor<{B}x{C}xf32>
}}
""".format(B=B, D=D, H=H, C=C)

x = (r.standard_normal((B, D)) + 0.3).astype(np.float32)
w1 = (r.standard_normal((D, H)) / np.sqrt(D)).astype(np.float32)
w2 = (r.standard_normal((C, H)) / np.sqrt(H)).astype(np.float32)


def quantize(v, scale, zp):
    return np.clip(np.round(v / scale) + zp, -128, 127)


def affine(lo, hi):
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = np.float32((hi - lo) / 255.0)
    return scale, int(np.clip(np.round(-128 - lo / scale), -128, 127))


def symmetric(lo, hi):
    m = np.maximum(np.abs(lo), np.abs(hi))
    return (m / 127.0).astype(np.float32)


def run_params(text, specialize=False):
    """Runs `text` on x with the weights as params, or with specialize as
    constants (rlx-specialize-params, then the canonicalizer's folds)."""
    with tempfile.TemporaryDirectory(prefix="quant-") as d:
        extra = []
        for name, value in (("w1", w1), ("w2", w2)):
            np.save(os.path.join(d, name + ".npy"), value)
            extra.append("--param=%s=%s/%s.npy" % (name, d, name))
        if specialize:
            text = rlxtest.opt(text, "--rlx-specialize-params=dir=" + d,
                               "--canonicalize")
            extra = []
        rc, log, outs = rlxtest.run(text, [x], 1, extra=extra)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    return outs[0], text


def ptq(percentile):
    """Calibrates in NumPy, runs the int8 program and checks it."""
    x64, w164, w264 = (v.astype(np.float64) for v in (x, w1, w2))
    h = np.maximum(x64 @ w164, 0)

    def rng(v):
        if percentile:
            return np.percentile(v, 100 - percentile), np.percentile(v, percentile)
        return v.min(), v.max()

    (xlo, xhi), (hlo, hhi) = rng(x64), rng(h)
    taps = {
        "main/matmul0/lhs": {"axis": None, "min": [xlo], "max": [xhi]},
        "main/matmul0/rhs": {"axis": 1, "min": list(w164.min(0)),
                             "max": list(w164.max(0))},
        "main/matmul1/lhs": {"axis": None, "min": [hlo], "max": [hhi]},
        "main/matmul1/rhs": {"axis": 0, "min": list(w264.min(1)),
                             "max": list(w264.max(1))},
    }
    method = "minmax"
    if percentile:
        # The percentile method reads its own range; minmax stays required.
        method = "percentile"
        for t in taps.values():
            t["percentile"] = {"min": t["min"], "max": t["max"]}
    with tempfile.TemporaryDirectory(prefix="record-") as d:
        path = os.path.join(d, "record.json")
        with open(path, "w") as f:
            json.dump({"format": "rlx-calibration", "version": 1,
                       "batches": 1, "taps": taps}, f)
        text = rlxtest.opt(MLP, "--rlx-quant-insert=record=%s method=%s" %
                           (path, method), "--rlx-quant-propagate")
    assert "rlx.int8_matmul" in text and "rlx.matmul" not in text, text
    got, _ = run_params(text)
    # With the weights constants, their quantization and the zero point's
    # column sums fold (only the two activations' quantizes are left), and
    # the result is the unfolded program's, bit for bit.
    folded, ftext = run_params(text, specialize=True)
    assert ftext.count("rlx.quantize") == 2 and "rlx.reduce" not in ftext, \
        ftext
    assert np.array_equal(folded, got), \
        "folded weights: max |difference| %g" % np.abs(folded - got).max()

    # NumPy emulation: scales as f32 (what the attributes hold).
    sx, zx = affine(xlo, xhi)
    s1 = symmetric(w164.min(0), w164.max(0))
    qx, q1 = quantize(x64, sx, zx), quantize(w164, s1, 0)
    hq = np.maximum(((qx - zx) @ q1) * (np.float64(sx) * s1), 0)
    sh, zh = affine(hlo, hhi)
    s2 = symmetric(w264.min(1), w264.max(1))
    qh, q2 = quantize(hq, sh, zh), quantize(w264, s2[:, None], 0)
    want = ((qh - zh) @ q2.T) * (np.float64(sh) * s2)
    step = 2 * float(sh) * np.abs(w264).max()
    assert_close(got, want, 1e-5, step, "int8 vs emulation", np.float32)
    exact = h @ w264.T
    err = np.abs(got - exact).max() / np.abs(exact).max()
    print("%s: max |int8 - float64| / max |float64| = %.4f" %
          (method, err))
    # Clipped (percentile) ranges trade the outliers' error for resolution:
    # only the full range bounds the error.
    assert percentile or err < 0.05, "int8 error %.3g is beyond int8's" % err


def check_fake_quant():
    text = rlxtest.opt(MLP, "--rlx-insert-fake-quant")
    got, _ = run_params(text)

    def fq(v, axis=None):
        if axis is None:
            s = np.float32(np.abs(v).max() / 127)
        else:
            other = tuple(d for d in range(v.ndim) if d != axis)
            s = (np.abs(v).max(axis=other, keepdims=True) / 127)
        s = np.asarray(s, np.float32).astype(np.float64)
        return np.clip(np.round(v / s), -128, 127) * s

    x64, w164, w264 = (v.astype(np.float64) for v in (x, w1, w2))
    h = np.maximum(fq(x64) @ fq(w164, 1), 0)
    want = fq(h) @ fq(w264, 0).T
    step = 2 * np.abs(h).max() / 127 * np.abs(w264).max()
    assert_close(got, want, 1e-5, step, "fake-quant vs NumPy", np.float32)


def check_quantize_constant():
    """rlx.quantize of a constant folds to what the lowered op computes and
    NumPy gives (f32 division, half to even, clamp), ties included."""
    scales = np.array([0.1, 0.25, 3.0], np.float32)
    v = r.standard_normal((40, 3)).astype(np.float32) * 40 * scales
    # Exact halves of a step (x / s = k + 0.5 in f32) and values beyond the
    # clamp.
    v[:8] = ((np.arange(8) - 4 + 0.5)[:, None] * scales).astype(np.float32)
    v[8] = 1000 * scales
    t = rlxtest.tensor_type(v.shape, "f32")
    attrs = ("{scales = array<f32: %s>, zero_points = array<i64: 3, 0, -2>, "
             "axis = 1 : i64}" % ", ".join(repr(float(f)) for f in scales))
    body = "  %%q = rlx.quantize %%w %s : %s\n  return %%q : %s\n}\n" % (
        attrs, t, rlxtest.tensor_type(v.shape, "i8"))
    sig = "-> %s {\n" % rlxtest.tensor_type(v.shape, "i8")
    const = "  %%w = rlx.constant dense<%s> : %s\n" % (
        np.array2string(v, separator=", ", threshold=10 ** 6,
                        floatmode="unique").replace("\n", ""), t)
    folded = rlxtest.opt("func.func @main() " + sig + const + body,
                         "--canonicalize")
    assert "rlx.quantize" not in folded, folded
    rc, log, outs = rlxtest.run(folded, [], 1)
    assert rc == 0, log
    rc, log, lowered = rlxtest.run(
        "func.func @main(%%w: %s) " % t + sig + body, [v], 1)
    assert rc == 0, log
    want = np.clip(np.round(v / scales) + np.array([3, 0, -2]), -128, 127)
    assert np.array_equal(lowered[0], want), "lowered vs NumPy"
    assert np.array_equal(outs[0], want), "folded vs NumPy"


suite.check("quantize_constant", check_quantize_constant)
suite.check("ptq_minmax", lambda: ptq(None))
suite.check("ptq_percentile", lambda: ptq(99.9))
suite.check("fake_quant", check_fake_quant)
suite.finish()
