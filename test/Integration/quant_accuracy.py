# RUN: %python %s
# Issue 22's accuracy targets on a fixed seed (bench/cpu/quant_accuracy.py
# prints the table): the digits MLP trained with rlx.grad, quantized to
# int8 after training (PTQ: rlx-run --calibrate, rlx-quant-insert,
# rlx-quant-propagate) loses at most 1 point of test accuracy against f32,
# and after quantization-aware fine-tuning (rlx-insert-fake-quant before
# rlx.grad) at most 0.5. The f32 accuracy is checked against NumPy's
# forward pass with the same weights, and the quantized programs must
# hold the int8 matmuls and fake quantizations (a pass that did nothing
# would meet the targets).

import importlib.util
import os

import numpy as np

from rlxtest import Suite

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
spec = importlib.util.spec_from_file_location(
    "quant_accuracy", os.path.join(ROOT, "bench", "cpu", "quant_accuracy.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

SEED = 0
suite = Suite("quant_accuracy")
r = bench.measure(SEED)
print("seed %d: loss %.3f -> %.3f; test accuracy f32 %.2f%%, PTQ int8 %s, "
      "QAT int8 %s" % (SEED, r["loss_first"], r["loss_last"], r["f32"],
                       r["ptq"], r["qat"]))


def f32():
    w1, b1, w2, b2 = (w.astype(np.float64) for w in r["weights"])
    logits = np.tanh(r["x_test"] @ w1 + b1) @ w2 + b2
    numpy = 100.0 * np.mean(np.argmax(logits, 1) == r["y_test"])
    # One test image is 0.28 points; float32 vs float64 logits may flip a
    # near tie.
    assert abs(r["f32"] - numpy) <= 0.3, "rlx %.2f%%, NumPy %.2f%%" % (
        r["f32"], numpy)
    assert r["loss_last"] < 0.2 * r["loss_first"], "the model did not train"
    assert r["f32"] >= 95, "f32 accuracy %.2f%%" % r["f32"]


def ptq(method):
    n = r["int8_matmuls"][method]
    assert n == 2, "%d rlx.int8_matmul in the PTQ program, expected 2" % n
    acc = r["ptq"][method]
    assert r["f32"] - acc <= 1.0, "PTQ %.2f%% vs f32 %.2f%%" % (acc, r["f32"])


def qat(method):
    assert r["fake_quantizes"] >= 4, \
        "%d rlx.fake_quantize in the QAT program" % r["fake_quantizes"]
    acc = r["qat"][method]
    assert r["f32"] - acc <= 0.5, "QAT %.2f%% vs f32 %.2f%%" % (acc, r["f32"])


suite.check("f32", f32)
for m in bench.METHODS:
    suite.check("ptq/" + m, lambda: ptq(m))
    suite.check("qat/" + m, lambda: qat(m))
suite.finish()
