# RUN: %python %s
# Higher-order derivatives by nesting transforms, in float64:
#   hvp = rlx.jvp of a function returning rlx.grad, against central finite
#         differences of the gradient (relative error < 1e-6) and against
#         torch.autograd.functional.hvp (1e-9);
#   grad of grad (sum(w * grad f)) = H w, against PyTorch (1e-9);
#   the third derivative D3f[v, v, .] as jvp of jvp of grad, against the
#         analytic -c cos(x) v^2 of f = sum(c sin(x)) and against PyTorch for
#         an MLP (1e-9).

import numpy as np
import torch

import rlxtest
from rlxtest import Suite, assert_close

suite = Suite("autodiff_higher")
r = rlxtest.rng()

T = "tensor<%sxf64>"

# f(x, W) = sum(tanh(x W) * softplus-like exp terms): non-separable in x.
F = """
func.func @f(%x: tensor<2x4xf64>, %w: tensor<4x3xf64>) -> tensor<f64> {
  %m = rlx.matmul %x, %w : tensor<2x4xf64>, tensor<4x3xf64>
  %t = rlx.tanh %m : tensor<2x3xf64>
  %s = rlx.sin %x : tensor<2x4xf64>
  %e = rlx.exp %s : tensor<2x4xf64>
  %a = rlx.reduce sum %t axes = [0, 1] : tensor<2x3xf64>
  %b = rlx.reduce sum %e axes = [0, 1] : tensor<2x4xf64>
  %tt = rlx.mul %t, %t : tensor<2x3xf64>
  %c = rlx.reduce sum %tt axes = [0, 1] : tensor<2x3xf64>
  %ab = rlx.mul %a, %b : tensor<f64>
  %y = rlx.add %ab, %c : tensor<f64>
  return %y : tensor<f64>
}

func.func @g(%x: tensor<2x4xf64>, %w: tensor<4x3xf64>) -> tensor<2x4xf64> {
  %l, %dx = rlx.grad @f(%x, %w) wrt [0]
      : (tensor<2x4xf64>, tensor<4x3xf64>) -> (tensor<f64>, tensor<2x4xf64>)
  return %dx : tensor<2x4xf64>
}

// H v: forward mode over the gradient.
func.func @hv(%x: tensor<2x4xf64>, %w: tensor<4x3xf64>, %v: tensor<2x4xf64>) -> tensor<2x4xf64> {
  %z = rlx.constant dense<0.0> : tensor<4x3xf64>
  %g, %h = rlx.jvp @g(%x, %w) tangents(%v, %z)
      : (tensor<2x4xf64>, tensor<4x3xf64>, tensor<2x4xf64>, tensor<4x3xf64>)
      -> (tensor<2x4xf64>, tensor<2x4xf64>)
  return %h : tensor<2x4xf64>
}

// sum(u * grad f): its gradient is H u (reverse over reverse).
func.func @gu(%x: tensor<2x4xf64>, %w: tensor<4x3xf64>, %u: tensor<2x4xf64>) -> tensor<f64> {
  %g = call @g(%x, %w) : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x4xf64>
  %p = rlx.mul %g, %u : tensor<2x4xf64>
  %s = rlx.reduce sum %p axes = [0, 1] : tensor<2x4xf64>
  return %s : tensor<f64>
}

// D3f[v, v, .]: forward over forward over reverse.
func.func @third(%x: tensor<2x4xf64>, %w: tensor<4x3xf64>, %v: tensor<2x4xf64>) -> tensor<2x4xf64> {
  %zw = rlx.constant dense<0.0> : tensor<4x3xf64>
  %zv = rlx.constant dense<0.0> : tensor<2x4xf64>
  %h, %d = rlx.jvp @hv(%x, %w, %v) tangents(%v, %zw, %zv)
      : (tensor<2x4xf64>, tensor<4x3xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<4x3xf64>, tensor<2x4xf64>)
      -> (tensor<2x4xf64>, tensor<2x4xf64>)
  return %d : tensor<2x4xf64>
}

// Separable: f = sum(c sin(x)), D3f[v, v, .] = -c cos(x) v^2.
func.func @s(%x: tensor<5xf64>, %c: tensor<5xf64>) -> tensor<f64> {
  %s = rlx.sin %x : tensor<5xf64>
  %p = rlx.mul %s, %c : tensor<5xf64>
  %y = rlx.reduce sum %p axes = [0] : tensor<5xf64>
  return %y : tensor<f64>
}
func.func @sg(%x: tensor<5xf64>, %c: tensor<5xf64>) -> tensor<5xf64> {
  %l, %d = rlx.grad @s(%x, %c) wrt [0] : (tensor<5xf64>, tensor<5xf64>) -> (tensor<f64>, tensor<5xf64>)
  return %d : tensor<5xf64>
}
func.func @shv(%x: tensor<5xf64>, %c: tensor<5xf64>, %v: tensor<5xf64>) -> tensor<5xf64> {
  %z = rlx.constant dense<0.0> : tensor<5xf64>
  %g, %h = rlx.jvp @sg(%x, %c) tangents(%v, %z)
      : (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>) -> (tensor<5xf64>, tensor<5xf64>)
  return %h : tensor<5xf64>
}

func.func @main(%x: tensor<2x4xf64>, %w: tensor<4x3xf64>, %v: tensor<2x4xf64>,
                %u: tensor<2x4xf64>, %h: tensor<f64>, %sx: tensor<5xf64>,
                %sc: tensor<5xf64>, %sv: tensor<5xf64>)
    -> (tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>,
        tensor<2x4xf64>, tensor<5xf64>) {
  %hv = call @hv(%x, %w, %v) : (tensor<2x4xf64>, tensor<4x3xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>
  %hd = rlx.mul %v, %h : tensor<2x4xf64>, tensor<f64>
  %xp = rlx.add %x, %hd : tensor<2x4xf64>
  %xm = rlx.sub %x, %hd : tensor<2x4xf64>
  %gp = call @g(%xp, %w) : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x4xf64>
  %gm = call @g(%xm, %w) : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x4xf64>
  %l, %hu = rlx.grad @gu(%x, %w, %u) wrt [0]
      : (tensor<2x4xf64>, tensor<4x3xf64>, tensor<2x4xf64>) -> (tensor<f64>, tensor<2x4xf64>)
  %d3 = call @third(%x, %w, %v) : (tensor<2x4xf64>, tensor<4x3xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>
  %z = rlx.constant dense<0.0> : tensor<5xf64>
  %zz = rlx.constant dense<0.0> : tensor<5xf64>
  %sh, %s3 = rlx.jvp @shv(%sx, %sc, %sv) tangents(%sv, %z, %zz)
      : (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>) -> (tensor<5xf64>, tensor<5xf64>)
  return %hv, %gp, %gm, %hu, %d3, %s3
      : tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>,
        tensor<2x4xf64>, tensor<5xf64>
}
"""

H = 1e-5
x = r.uniform(-1, 1, (2, 4))
w = r.uniform(-1, 1, (4, 3))
v = r.uniform(-1, 1, (2, 4))
u = r.uniform(-1, 1, (2, 4))
sx, sc, sv = (r.uniform(-2, 2, 5) for _ in range(3))


def torch_f(xt, wt):
    t = torch.tanh(xt @ wt)
    return t.sum() * torch.exp(torch.sin(xt)).sum() + (t * t).sum()


def torch_refs():
    wt = torch.tensor(w)
    xt = torch.tensor(x, requires_grad=True)
    (g,) = torch.autograd.grad(torch_f(xt, wt), xt, create_graph=True)
    vt, ut = torch.tensor(v), torch.tensor(u)
    (hv,) = torch.autograd.grad((g * vt).sum(), xt, create_graph=True)
    (hu,) = torch.autograd.grad((g * ut).sum(), xt, retain_graph=True)
    (d3,) = torch.autograd.grad((hv * vt).sum(), xt)
    return hv.detach().numpy(), hu.numpy(), d3.numpy()


rc, log, outs = rlxtest.run(F, [x, w, v, u, np.array(H), sx, sc, sv], 6)


def ran():
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)


def close(a, e, what, rtol=1e-9):
    ran()
    scale = max(float(np.abs(e).max()), 1e-30)
    assert_close(a, e, rtol, rtol * scale, what)


hv_t, hu_t, d3_t = torch_refs()


def hvp_fd():
    ran()
    hv, gp, gm = outs[0], outs[1], outs[2]
    fd = (gp - gm) / (2 * H)
    err = np.linalg.norm(hv - fd) / np.linalg.norm(fd)
    assert err < 1e-6, "hvp vs FD of the gradient: rel err %.3g" % err


suite.check("hvp/fd", hvp_fd)
suite.check("hvp/torch", lambda: close(outs[0], hv_t, "hvp"))
suite.check("grad_of_grad/torch", lambda: close(outs[3], hu_t, "H u"))
suite.check("third/torch", lambda: close(outs[4], d3_t, "D3f[v,v,.]"))
suite.check("third/analytic",
            lambda: close(outs[5], -sc * np.cos(sx) * sv * sv,
                          "D3 sum(c sin x)"))
suite.finish()
