# RUN: %python %s
# rlx-auto-mixed-precision against float64 references on fresh random
# inputs:
# - a post-LN transformer FFN block (matmul, bias, GELU, matmul, bias,
#   residual, layer norm) under the default policy (matmuls in bf16, the
#   norm in f32) matches a float64 NumPy emulation of that policy (the same
#   ops rounded to bf16 where the policy computes in bf16) to within two
#   bf16 rounding steps, the float64 result within bf16's error, and
#   differs from the f32 program (so bf16 really ran);
# - the gradients of a loss through the same block, rlx.grad after the
#   pass, match torch.autograd in float64 within bf16's error;
# - with matmuls in f16, a loss scaled by 1e-8 has gradients that flush to
#   zero in f16, and loss-scale=2^20 recovers them (within f16's error).

import math
import os
import tempfile

import numpy as np
import torch

import rlxtest
from rlxtest import assert_close, round_bf16

suite = rlxtest.Suite("amp")
r = rlxtest.rng()
N, E, F = 16, 64, 128

# The block's ops, on %x and the weights %w1 ... %beta.
OPS = """
  %h = rlx.matmul %x, %w1 : tensor<{N}x{E}xf32>, tensor<{E}x{F}xf32>
  %hb = rlx.add %h, %b1 : tensor<{N}x{F}xf32>, tensor<{F}xf32>
  %a = rlx.gelu %hb : tensor<{N}x{F}xf32>
  %o = rlx.matmul %a, %w2 : tensor<{N}x{F}xf32>, tensor<{F}x{E}xf32>
  %ob = rlx.add %o, %b2 : tensor<{N}x{E}xf32>, tensor<{E}xf32>
  %r = rlx.add %ob, %x : tensor<{N}x{E}xf32>
  %y = rlx.layer_norm %r, %g, %beta : tensor<{N}x{E}xf32>, tensor<{E}xf32>
""".format(N=N, E=E, F=F)

BLOCK = """
  %w1 = rlx.param "w1" : tensor<{E}x{F}xf32>
  %b1 = rlx.param "b1" : tensor<{F}xf32>
  %w2 = rlx.param "w2" : tensor<{F}x{E}xf32>
  %b2 = rlx.param "b2" : tensor<{E}xf32>
  %g = rlx.param "g" : tensor<{E}xf32>
  %beta = rlx.param "beta" : tensor<{E}xf32>
""".format(E=E, F=F) + OPS

FORWARD = """
func.func @main(%x: tensor<{N}x{E}xf32>) -> tensor<{N}x{E}xf32> {{
{block}
  return %y : tensor<{N}x{E}xf32>
}}
""".format(N=N, E=E, block=BLOCK)

# The loss is the mean squared distance to a target; @main returns it and
# its gradients with respect to x and the two matmul weights (arguments,
# so that rlx.grad differentiates them).
LOSS = """
func.func private @loss(%x: tensor<{N}x{E}xf32>, %t: tensor<{N}x{E}xf32>,
                        %w1: tensor<{E}x{F}xf32>, %w2: tensor<{F}x{E}xf32>,
                        %b1: tensor<{F}xf32>, %b2: tensor<{E}xf32>,
                        %g: tensor<{E}xf32>, %beta: tensor<{E}xf32>)
    -> tensor<f32> {{
{ops}
  %d = rlx.sub %y, %t : tensor<{N}x{E}xf32>
  %d2 = rlx.mul %d, %d : tensor<{N}x{E}xf32>
  %l = rlx.reduce mean %d2 axes = [0, 1] : tensor<{N}x{E}xf32>
  return %l : tensor<f32>
}}

func.func @main(%x: tensor<{N}x{E}xf32>, %t: tensor<{N}x{E}xf32>,
                %w1: tensor<{E}x{F}xf32>, %w2: tensor<{F}x{E}xf32>)
    -> (tensor<f32>, tensor<{N}x{E}xf32>, tensor<{E}x{F}xf32>,
        tensor<{F}x{E}xf32>) {{
  %b1 = rlx.param "b1" : tensor<{F}xf32>
  %b2 = rlx.param "b2" : tensor<{E}xf32>
  %g = rlx.param "g" : tensor<{E}xf32>
  %beta = rlx.param "beta" : tensor<{E}xf32>
  %l, %dx, %dw1, %dw2 = rlx.grad @loss(%x, %t, %w1, %w2, %b1, %b2, %g, %beta)
      wrt [0, 2, 3]
      : (tensor<{N}x{E}xf32>, tensor<{N}x{E}xf32>, tensor<{E}x{F}xf32>,
         tensor<{F}x{E}xf32>, tensor<{F}xf32>, tensor<{E}xf32>,
         tensor<{E}xf32>, tensor<{E}xf32>)
      -> (tensor<f32>, tensor<{N}x{E}xf32>, tensor<{E}x{F}xf32>,
          tensor<{F}x{E}xf32>)
  return %l, %dx, %dw1, %dw2 : tensor<f32>, tensor<{N}x{E}xf32>,
      tensor<{E}x{F}xf32>, tensor<{F}x{E}xf32>
}}
""".format(N=N, E=E, F=F, ops=OPS)

x = r.standard_normal((N, E)).astype(np.float32)
target = r.standard_normal((N, E)).astype(np.float32)
params = {
    "w1": (r.standard_normal((E, F)) / np.sqrt(E)).astype(np.float32),
    "b1": (0.1 * r.standard_normal(F)).astype(np.float32),
    "w2": (r.standard_normal((F, E)) / np.sqrt(F)).astype(np.float32),
    "b2": (0.1 * r.standard_normal(E)).astype(np.float32),
    "g": (1 + 0.1 * r.standard_normal(E)).astype(np.float32),
    "beta": (0.1 * r.standard_normal(E)).astype(np.float32),
}


def run_with_params(source, inputs, n_outputs, names=tuple(params)):
    with tempfile.TemporaryDirectory(prefix="amp-") as d:
        extra = []
        for name in names:
            value = params[name]
            path = os.path.join(d, name + ".npy")
            np.save(path, value)
            extra.append("--param=%s=%s" % (name, path))
        rc, log, outs = rlxtest.run(source, inputs, n_outputs, extra=extra)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    return outs


def gelu(v):
    return 0.5 * v * (1 + np.vectorize(math.erf)(v / np.sqrt(2)))


def layer_norm(v, g, b, eps=1e-5):
    mu = v.mean(-1, keepdims=True)
    var = ((v - mu) ** 2).mean(-1, keepdims=True)
    return (v - mu) / np.sqrt(var + eps) * g + b


def block_reference(bf16):
    """The block in float64; with `bf16`, every value the policy computes
    in bf16 is rounded to bf16 (matmul operands and results, the bias adds
    and the GELU); the residual add and the norm stay unrounded."""
    rnd = round_bf16 if bf16 else (lambda v: v)
    p = {k: v.astype(np.float64) for k, v in params.items()}
    x64 = x.astype(np.float64)
    h = rnd(rnd(x64) @ rnd(p["w1"]))
    a = rnd(gelu(rnd(h + rnd(p["b1"]))))
    o = rnd(rnd(a @ rnd(p["w2"])) + rnd(p["b2"]))
    return layer_norm(o + x64, p["g"], p["beta"])


def check_forward():
    f32 = run_with_params(FORWARD, [x], 1)[0]
    amp = run_with_params(rlxtest.opt(FORWARD, "--rlx-auto-mixed-precision"),
                          [x], 1)[0]
    exact, emulated = block_reference(False), block_reference(True)
    scale = np.abs(exact).max()
    # Two bf16 steps of the largest value: our products accumulate in f32
    # and round once, the emulation in float64.
    assert_close(amp, emulated, 0, 2 * 2.0 ** -8 * scale, "amp vs emulation",
                 np.float32)
    assert_close(amp, exact, 0, 0.05 * scale, "amp vs float64", np.float32)
    assert_close(f32, exact, 0, 1e-5 * scale, "f32 vs float64", np.float32)
    diff = np.abs(amp - f32).max()
    print("max |amp - f32| = %.3g, max |amp - emulated| = %.3g" %
          (diff, np.abs(amp - emulated).max()))
    assert diff > 1e-4 * scale, "the AMP program computed in f32"


def torch_grads(loss_scale=1.0):
    p = {k: torch.tensor(v, dtype=torch.float64) for k, v in params.items()}
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    w1 = p["w1"].clone().requires_grad_()
    w2 = p["w2"].clone().requires_grad_()
    h = xt @ w1 + p["b1"]
    a = torch.nn.functional.gelu(h)
    y = torch.nn.functional.layer_norm(a @ w2 + p["b2"] + xt, (E,), p["g"],
                                       p["beta"], 1e-5)
    loss = ((y - torch.tensor(target, dtype=torch.float64)) ** 2).mean()
    grads = torch.autograd.grad(loss, [xt, w1, w2])
    return [loss.item()] + [g.numpy() for g in grads]


def check_grads():
    text = rlxtest.opt(LOSS, "--rlx-auto-mixed-precision",
                       "--rlx-expand-autodiff")
    outs = run_with_params(text, [x, target, params["w1"], params["w2"]], 4,
                           ["b1", "b2", "g", "beta"])
    ref = torch_grads()
    assert_close(outs[0], np.float64(ref[0]), 0.02, 0, "loss", np.float32)
    for name, got, want in zip(["dx", "dw1", "dw2"], outs[1:], ref[1:]):
        assert_close(got, want, 0, 0.05 * np.abs(want).max(), name,
                     np.float32)


SCALED = """
func.func private @loss(%x: tensor<32x16xf32>, %w: tensor<16x8xf32>)
    -> tensor<f32> {
  %y = rlx.matmul %x, %w : tensor<32x16xf32>, tensor<16x8xf32>
  %y2 = rlx.mul %y, %y : tensor<32x8xf32>
  %s = rlx.reduce sum %y2 axes = [0, 1] : tensor<32x8xf32>
  %c = rlx.constant dense<1.0e-8> : tensor<f32>
  %l = rlx.mul %s, %c : tensor<f32>
  return %l : tensor<f32>
}

func.func @main(%x: tensor<32x16xf32>, %w: tensor<16x8xf32>)
    -> (tensor<f32>, tensor<16x8xf32>) {
  %l, %dw = rlx.grad @loss(%x, %w) wrt [1]
      : (tensor<32x16xf32>, tensor<16x8xf32>) -> (tensor<f32>, tensor<16x8xf32>)
  return %l, %dw : tensor<f32>, tensor<16x8xf32>
}
"""


def check_loss_scale():
    xs = r.standard_normal((32, 16)).astype(np.float32)
    ws = (r.standard_normal((16, 8)) / 4).astype(np.float32)
    want = 2e-8 * xs.astype(np.float64).T @ (xs.astype(np.float64) @ ws)
    results = {}
    for scale in (1.0, 2.0 ** 20):
        text = rlxtest.opt(
            SCALED, "--rlx-auto-mixed-precision=policy=matmul=f16 "
            "loss-scale=%r" % scale, "--rlx-expand-autodiff")
        rc, log, outs = rlxtest.run(text, [xs, ws], 2)
        assert rc == 0, log
        results[scale] = outs[1]
    err = {s: np.abs(g - want).max() / np.abs(want).max()
           for s, g in results.items()}
    print("f16 gradient, relative error: unscaled %.3g, loss-scale 2^20 %.3g"
          % (err[1.0], err[2.0 ** 20]))
    assert err[1.0] > 0.5, "f16 gradients without scaling did not underflow"
    assert_close(results[2.0 ** 20], want, 0, 1e-2 * np.abs(want).max(),
                 "dw with loss-scale", np.float32)


suite.check("forward", check_forward)
suite.check("grads", check_grads)
suite.check("loss_scale", check_loss_scale)
suite.finish()
