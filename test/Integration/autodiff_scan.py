# RUN: %python %s
# rlx.scan differentiated as a loop (a reverse scan for the VJP, a scan of
# (carry, tangent) for the JVP), in float64 against PyTorch autograd of the
# same loop written out: gradients of an RNN-like scan (forward and
# reverse, with a weight captured by the body) and of selective_scan, and
# Hessian-vector products (rlx.jvp of a function returning rlx.grad, which
# differentiates the reverse scan again) against
# torch.autograd.functional.hvp. rtol 1e-9 (atol 1e-12 max|torch|).

import numpy as np
import torch

import rlxtest
from rlxtest import Suite, assert_close, rand

suite = Suite("autodiff_scan")
r = rlxtest.rng()

L, N = 5, 3
RNN = """
func.func @rnn%(tag)s(%%h0: tensor<3xf64>, %%a: tensor<5x3xf64>, %%w: tensor<3xf64>) -> tensor<f64> {
  %%h, %%ys = rlx.scan init(%%h0 : tensor<3xf64>) xs(%%a : tensor<5x3xf64>)%(attr)s
      -> (tensor<3xf64>, tensor<5x3xf64>) {
  ^bb0(%%c: tensor<3xf64>, %%xt: tensor<3xf64>):
    %%m = rlx.mul %%c, %%w : tensor<3xf64>
    %%s = rlx.add %%m, %%xt : tensor<3xf64>
    %%n = rlx.tanh %%s : tensor<3xf64>
    %%o = rlx.mul %%n, %%c : tensor<3xf64>
    rlx.yield %%n, %%o : tensor<3xf64>, tensor<3xf64>
  }
  %%q = rlx.mul %%ys, %%ys : tensor<5x3xf64>
  %%l1 = rlx.reduce sum %%q axes = [0, 1] : tensor<5x3xf64>
  %%hh = rlx.mul %%h, %%w : tensor<3xf64>
  %%l2 = rlx.reduce sum %%hh axes = [0] : tensor<3xf64>
  %%l = rlx.add %%l1, %%l2 : tensor<f64>
  return %%l : tensor<f64>
}

func.func @rnn%(tag)s_grad(%%h0: tensor<3xf64>, %%a: tensor<5x3xf64>, %%w: tensor<3xf64>) -> (tensor<3xf64>, tensor<5x3xf64>, tensor<3xf64>) {
  %%l, %%g:3 = rlx.grad @rnn%(tag)s(%%h0, %%a, %%w) wrt [0, 1, 2]
      : (tensor<3xf64>, tensor<5x3xf64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>, tensor<5x3xf64>, tensor<3xf64>)
  return %%g#0, %%g#1, %%g#2 : tensor<3xf64>, tensor<5x3xf64>, tensor<3xf64>
}
"""

SSM = """
func.func @ssm(%u: tensor<1x2x4xf64>, %dt: tensor<1x2x4xf64>, %a: tensor<2x3xf64>, %b: tensor<1x3x4xf64>, %c: tensor<1x3x4xf64>, %d: tensor<2xf64>) -> tensor<f64> {
  %y = rlx.selective_scan %u, %dt, %a, %b, %c, %d {delta_softplus = true}
      : tensor<1x2x4xf64>, tensor<1x2x4xf64>, tensor<2x3xf64>, tensor<1x3x4xf64>, tensor<1x3x4xf64>, tensor<2xf64>
  %q = rlx.mul %y, %y : tensor<1x2x4xf64>
  %l = rlx.reduce sum %q axes = [0, 1, 2] : tensor<1x2x4xf64>
  return %l : tensor<f64>
}

func.func @ssm_grad(%u: tensor<1x2x4xf64>, %dt: tensor<1x2x4xf64>, %a: tensor<2x3xf64>, %b: tensor<1x3x4xf64>, %c: tensor<1x3x4xf64>, %d: tensor<2xf64>) -> (tensor<1x2x4xf64>, tensor<1x2x4xf64>, tensor<2x3xf64>) {
  %l, %g:3 = rlx.grad @ssm(%u, %dt, %a, %b, %c, %d) wrt [0, 1, 2]
      : (tensor<1x2x4xf64>, tensor<1x2x4xf64>, tensor<2x3xf64>, tensor<1x3x4xf64>, tensor<1x3x4xf64>, tensor<2xf64>) -> (tensor<f64>, tensor<1x2x4xf64>, tensor<1x2x4xf64>, tensor<2x3xf64>)
  return %g#0, %g#1, %g#2 : tensor<1x2x4xf64>, tensor<1x2x4xf64>, tensor<2x3xf64>
}
"""

RT = ["tensor<3xf64>", "tensor<5x3xf64>", "tensor<3xf64>"]
ST = ["tensor<1x2x4xf64>", "tensor<1x2x4xf64>", "tensor<2x3xf64>",
      "tensor<1x3x4xf64>", "tensor<1x3x4xf64>", "tensor<2xf64>"]
MAIN = """
func.func @main(%%h0: tensor<3xf64>, %%a: tensor<5x3xf64>, %%w: tensor<3xf64>,
                %%vh: tensor<3xf64>, %%va: tensor<5x3xf64>, %%vw: tensor<3xf64>,
                %%u: %(s0)s, %%dt: %(s1)s, %%sa: %(s2)s, %%sb: %(s3)s, %%sc: %(s4)s, %%sd: %(s5)s,
                %%vu: %(s0)s, %%vdt: %(s1)s, %%vsa: %(s2)s) -> (%(rets)s) {
  %%gf:3 = call @rnnf_grad(%%h0, %%a, %%w) : (%(rt)s) -> (%(rt)s)
  %%gr:3 = call @rnnr_grad(%%h0, %%a, %%w) : (%(rt)s) -> (%(rt)s)
  %%hf:6 = rlx.jvp @rnnf_grad(%%h0, %%a, %%w) tangents(%%vh, %%va, %%vw)
      : (%(rt)s, %(rt)s) -> (%(rt)s, %(rt)s)
  %%hr:6 = rlx.jvp @rnnr_grad(%%h0, %%a, %%w) tangents(%%vh, %%va, %%vw)
      : (%(rt)s, %(rt)s) -> (%(rt)s, %(rt)s)
  %%gs:3 = call @ssm_grad(%%u, %%dt, %%sa, %%sb, %%sc, %%sd) : (%(st)s) -> (%(st3)s)
  %%z3 = rlx.constant dense<0.0> : %(s3)s
  %%z5 = rlx.constant dense<0.0> : %(s5)s
  %%hs:6 = rlx.jvp @ssm_grad(%%u, %%dt, %%sa, %%sb, %%sc, %%sd) tangents(%%vu, %%vdt, %%vsa, %%z3, %%z3, %%z5)
      : (%(st)s, %(st)s) -> (%(st3)s, %(st3)s)
  return %%gf#0, %%gf#1, %%gf#2, %%gr#0, %%gr#1, %%gr#2, %%hf#3, %%hf#4, %%hf#5, %%hr#3, %%hr#4, %%hr#5, %%gs#0, %%gs#1, %%gs#2, %%hs#3, %%hs#4, %%hs#5 : %(rets)s
}
"""

rt, st3 = ", ".join(RT), ", ".join(ST[:3])
src = (RNN % dict(tag="f", attr="") + RNN % dict(tag="r", attr=" {reverse = true}")
       + SSM + MAIN % dict(rt=rt, st=", ".join(ST), st3=st3,
                           rets=", ".join([rt] * 4 + [st3] * 2),
                           **{"s%d" % i: t for i, t in enumerate(ST)}))

rnn_x = [rand(r, (N,), "f64"), rand(r, (L, N), "f64"),
         rand(r, (N,), "f64", -1, 1)]
rnn_v = [rand(r, s.shape, "f64", -1, 1) for s in rnn_x]
ssm_x = [rand(r, (1, 2, 4), "f64"), rand(r, (1, 2, 4), "f64", -1, 0.6),
         rand(r, (2, 3), "f64", -1.5, -0.1), rand(r, (1, 3, 4), "f64"),
         rand(r, (1, 3, 4), "f64"), rand(r, (2,), "f64")]
ssm_v = [rand(r, s.shape, "f64", -1, 1) for s in ssm_x[:3]]
rc, log, outs = rlxtest.run(src, rnn_x + rnn_v + ssm_x + ssm_v, 18)


def rnn(h0, a, w, reverse):
    h, ys = h0, [None] * L
    for t in (range(L - 1, -1, -1) if reverse else range(L)):
        n = torch.tanh(h * w + a[t])
        ys[t], h = n * h, n
    ys = torch.stack(ys)
    return (ys * ys).sum() + (h * w).sum()


def ssm(u, dt, a, b, c, d):
    y = rlxtest.selective_scan_reference(u, dt, a, b, c, d, True, xp=torch)
    return (y * y).sum()


def close(mine, expected, what):
    for k, (m, e) in enumerate(zip(mine, expected)):
        e = e.detach().numpy()
        assert_close(m, e, 1e-9, 1e-12 * max(float(np.abs(e).max()), 1.0),
                     "%s #%d" % (what, k))


def torch_grad(f, xs):
    leaves = [torch.tensor(x, requires_grad=True) for x in xs]
    f(*leaves).backward()
    return [x.grad for x in leaves]


def check(what, first, f, xs, vs, n_wrt):
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])
    if what == "grad":
        close(outs[first:first + n_wrt], torch_grad(f, xs)[:n_wrt], what)
        return
    ts = [torch.tensor(x) for x in xs]
    vt = [torch.tensor(v) for v in vs] + [torch.zeros_like(t)
                                          for t in ts[len(vs):]]
    _, hv = torch.autograd.functional.hvp(lambda *a: f(*a), tuple(ts),
                                          tuple(vt))
    close(outs[first:first + n_wrt], hv[:n_wrt], what)


for name, first, f, xs, vs, n in (
        ("rnn/grad", 0, lambda *a: rnn(*a, False), rnn_x, rnn_v, 3),
        ("rnn_reverse/grad", 3, lambda *a: rnn(*a, True), rnn_x, rnn_v, 3),
        ("rnn/hvp", 6, lambda *a: rnn(*a, False), rnn_x, rnn_v, 3),
        ("rnn_reverse/hvp", 9, lambda *a: rnn(*a, True), rnn_x, rnn_v, 3),
        ("selective_scan/grad", 12, ssm, ssm_x, ssm_v, 3),
        ("selective_scan/hvp", 15, ssm, ssm_x, ssm_v, 3)):
    suite.check(name, lambda first=first, f=f, xs=xs, vs=vs, n=n,
                what=name.split("/")[1]: check(what, first, f, xs, vs, n))
suite.finish()
