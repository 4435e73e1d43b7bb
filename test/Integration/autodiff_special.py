# RUN: %python %s
# Derivatives that finite differences cannot check, against their
# definitions in NumPy: rlx.cast (gradient cast back), rlx.stop_gradient
# (none flows), rlx.fake_quantize with each straight-through estimator
# (per tensor and per channel); and rlx.vmap against the callee run on each
# slice and against NumPy.

import numpy as np

import rlxtest
from rlxtest import Suite, assert_close, rand

suite = Suite("autodiff_special")
r = rlxtest.rng()

SRC = """
func.func @cast_up(%x: tensor<3x4xf32>, %w: tensor<3x4xf64>) -> tensor<f64> {
  %c = rlx.cast %x : tensor<3x4xf32> -> tensor<3x4xf64>
  %p = rlx.mul %c, %w : tensor<3x4xf64>
  %s = rlx.reduce sum %p axes = [0, 1] : tensor<3x4xf64>
  return %s : tensor<f64>
}
func.func @stop(%x: tensor<3x4xf64>) -> tensor<f64> {
  %c = rlx.stop_gradient %x : tensor<3x4xf64>
  %p = rlx.mul %x, %c : tensor<3x4xf64>
  %s = rlx.reduce sum %p axes = [0, 1] : tensor<3x4xf64>
  return %s : tensor<f64>
}
%FQ%
func.func @per_row(%x: tensor<4xf64>, %w: tensor<4x3xf64>) -> tensor<3xf64> {
  %r = rlx.reshape %x : tensor<4xf64> -> tensor<1x4xf64>
  %m = rlx.matmul %r, %w : tensor<1x4xf64>, tensor<4x3xf64>
  %t = rlx.tanh %m : tensor<1x3xf64>
  %y = rlx.reshape %t : tensor<1x3xf64> -> tensor<3xf64>
  return %y : tensor<3xf64>
}
func.func @main(%x32: tensor<3x4xf32>, %w: tensor<3x4xf64>, %x: tensor<3x4xf64>,
                %xs: tensor<5x4xf64>, %wv: tensor<4x3xf64>, %x0: tensor<4xf64>,
                %x1: tensor<4xf64>, %x2: tensor<4xf64>, %x3: tensor<4xf64>,
                %x4: tensor<4xf64>) -> (%RTYPES%) {
  %l0, %g0 = rlx.grad @cast_up(%x32, %w) wrt [0]
      : (tensor<3x4xf32>, tensor<3x4xf64>) -> (tensor<f64>, tensor<3x4xf32>)
  %l1, %g1 = rlx.grad @stop(%x) wrt [0]
      : (tensor<3x4xf64>) -> (tensor<f64>, tensor<3x4xf64>)
%FQCALLS%
  %v = rlx.vmap @per_row(%xs, %wv) in_axes [0, -1] out_axes [1]
      : (tensor<5x4xf64>, tensor<4x3xf64>) -> tensor<3x5xf64>
  %y0 = call @per_row(%x0, %wv) : (tensor<4xf64>, tensor<4x3xf64>) -> tensor<3xf64>
  %y1 = call @per_row(%x1, %wv) : (tensor<4xf64>, tensor<4x3xf64>) -> tensor<3xf64>
  %y2 = call @per_row(%x2, %wv) : (tensor<4xf64>, tensor<4x3xf64>) -> tensor<3xf64>
  %y3 = call @per_row(%x3, %wv) : (tensor<4xf64>, tensor<4x3xf64>) -> tensor<3xf64>
  %y4 = call @per_row(%x4, %wv) : (tensor<4xf64>, tensor<4x3xf64>) -> tensor<3xf64>
  return %RETS% : %RTYPES%
}
"""

FQ_FN = """
func.func @fq_%(name)s(%%x: tensor<3x4xf64>, %%w: tensor<3x4xf64>) -> tensor<f64> {
  %%s = rlx.constant dense<%(scale)s> : %(stype)s
  %%z = rlx.constant dense<%(zp)s> : %(ztype)s
  %%q = rlx.fake_quantize %%x, %%s, %%z {bits = 4 : i64, ste = "%(ste)s"%(axis)s}
      : tensor<3x4xf64>, %(stype)s, %(ztype)s
  %%p = rlx.mul %%q, %%w : tensor<3x4xf64>
  %%r = rlx.reduce sum %%p axes = [0, 1] : tensor<3x4xf64>
  return %%r : tensor<f64>
}
"""

STES = ["identity", "clipped_identity", "tanh", "hard_tanh"]
CHANNEL_SCALES = np.array([0.1, 0.05, 0.2])
CHANNEL_ZPS = np.array([0, 1, -2])
fq_cases = [(ste, False) for ste in STES] + [("clipped_identity", True),
                                             ("tanh", True)]
fns, calls, rets, rtypes = [], [], ["%g0", "%g1"], ["tensor<3x4xf32>",
                                                    "tensor<3x4xf64>"]
for i, (ste, per_channel) in enumerate(fq_cases):
    name = "%s%s" % (ste, "_axis0" if per_channel else "")
    if per_channel:
        params = dict(scale="[%s]" % ", ".join(map(str, CHANNEL_SCALES)),
                      stype="tensor<3xf64>",
                      zp="[%s]" % ", ".join(map(str, CHANNEL_ZPS)),
                      ztype="tensor<3xi32>", axis=", axis = 0 : i64")
    else:
        params = dict(scale="0.1", stype="tensor<f64>", zp="0",
                      ztype="tensor<i32>", axis="")
    fns.append(FQ_FN % dict(name=name, ste=ste, **params))
    calls.append("  %%fl%d, %%fg%d = rlx.grad @fq_%s(%%x, %%w) wrt [0]\n"
                 "      : (tensor<3x4xf64>, tensor<3x4xf64>) -> (tensor<f64>, "
                 "tensor<3x4xf64>)" % (i, i, name))
    rets.append("%%fg%d" % i)
    rtypes.append("tensor<3x4xf64>")
rets += ["%v"] + ["%%y%d" % i for i in range(5)]
rtypes += ["tensor<3x5xf64>"] + ["tensor<3xf64>"] * 5
src = SRC.replace("%FQ%", "".join(fns)).replace(
    "%FQCALLS%", "\n".join(calls)).replace("%RETS%", ", ".join(rets)).replace(
    "%RTYPES%", ", ".join(rtypes))

x32 = rand(r, (3, 4), "f32")
w = rand(r, (3, 4), "f64", -1, 1)
x = rand(r, (3, 4), "f64", -1.2, 1.2)
# One element past the 4-bit range and one inside it for every scale above
# (0.05-0.2 per channel, 0.1 per tensor), so the clipped STE always sees both.
x[0, 0] = -1.2 + 0.2 * r.random()
x[0, 1] = 0.2 * r.random() - 0.1
xs = rand(r, (5, 4), "f64")
wv = rand(r, (4, 3), "f64", -1, 1)
rc, log, outs = rlxtest.run(src, [x32, w, x, xs, wv] + list(xs), len(rets))


def ran():
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])


def ste_grad(ste, per_channel):
    s = CHANNEL_SCALES[:, None] if per_channel else 0.1
    zp = CHANNEL_ZPS[:, None] if per_channel else 0
    u = x / s + zp
    qmin, qmax = -8, 7
    if ste == "identity":
        d = np.ones_like(x)
    elif ste == "clipped_identity":
        d = ((np.round(u) >= qmin) & (np.round(u) <= qmax)).astype(float)
    elif ste == "hard_tanh":
        d = ((u >= qmin) & (u <= qmax)).astype(float)
    else:
        d = 1 - np.tanh((u - (qmin + qmax) / 2) / ((qmax - qmin) / 2)) ** 2
    return w * d


def check_fq(i, ste, per_channel):
    ran()
    g = outs[2 + i]
    e = ste_grad(ste, per_channel)
    assert_close(g, e, 1e-12, 1e-14, "fake_quantize %s" % ste)
    if ste == "clipped_identity":
        assert 0 < np.count_nonzero(g) < g.size, "no clipping exercised"


suite.check("cast/grad_cast_back", lambda: (ran(), assert_close(
    outs[0], w.astype(np.float32), 0, 0, "d cast")))
suite.check("stop_gradient", lambda: (ran(), assert_close(
    outs[1], x, 1e-15, 0, "d sum(x * stop_gradient(x))")))
for i, (ste, per_channel) in enumerate(fq_cases):
    suite.check("fake_quantize/%s%s" % (ste, "/axis0" if per_channel else ""),
                lambda i=i, ste=ste, pc=per_channel: check_fq(i, ste, pc))
k = 2 + len(fq_cases)
suite.check("vmap/loop", lambda: (ran(), assert_close(
    outs[k], np.stack(outs[k + 1:k + 6], axis=1), 0, 0, "vmap vs calls")))
suite.check("vmap/numpy", lambda: (ran(), assert_close(
    outs[k], np.tanh(xs @ wv).T, 1e-12, 1e-14, "vmap vs numpy")))
suite.finish()
