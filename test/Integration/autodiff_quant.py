# RUN: %python %s
# Gradients of rlx.fake_quantize with respect to its input and its scale
# (LSQ, per tensor and per channel) against PyTorch autograd of
# torch._fake_quantize_learnable_per_{tensor,channel}_affine, on fresh
# random inputs away from rounding ties, with codes clipped at both ends.
# torch's learnable kernels only take float32, so the inputs are float32
# values, rlx computes in float64 and the comparison allows float32
# rounding: rtol 1e-5 (atol 1e-5 max|torch|; for the loss and the scale
# gradient, float32 sums whose terms may cancel, 1e-5 times the sum of
# their magnitudes). The loss and both gradients are also checked at 1e-9
# against a float64 NumPy evaluation of the LSQ formulas. rlx.jvp
# along random directions of x and the scale is checked against
# <dx, vx> + <ds, vs> from the float64 gradients. Per-tensor zero points are
# non-negative: torch's per-tensor backward reads the zero point as
# trunc(zp + 0.5), so for a negative one (-5 -> -4) it differentiates
# another function than its forward computes; the per-channel kernels
# have no such quirk.

import numpy as np
import torch

import rlxtest
from rlxtest import Suite, assert_close
from rlxtest import tensor_type as T

suite = Suite("autodiff_quant")
r = rlxtest.rng()

FN = """
func.func @fq%(i)d(%%x: %(xt)s, %%s: %(st)s, %%w: %(xt)s) -> tensor<f64> {
  %%z = rlx.constant dense<%(zp)s> : %(zt)s
  %%q = rlx.fake_quantize %%x, %%s, %%z {bits = %(bits)d : i64, ste = "clipped_identity"%(axis)s}
      : %(xt)s, %(st)s, %(zt)s
  %%p = rlx.mul %%q, %%w : %(xt)s
  %%l = rlx.reduce sum %%p axes = [%(axes)s] : %(xt)s
  return %%l : tensor<f64>
}
"""


def f32_values(x):
    return np.asarray(x, np.float32).astype(np.float64)


def away_from_ties(x, scale):
    """x nudged so that x / scale is at least 0.02 from a half-integer."""
    u = x / scale
    frac = u - np.floor(u)
    near = np.abs(frac - 0.5) < 0.02
    return np.where(near, (np.floor(u) + 0.3) * scale, x)


class Case:
    def __init__(self, name, shape, bits, axis, scale, zp, lo, hi):
        self.name, self.shape, self.bits, self.axis = name, shape, bits, axis
        self.scale = f32_values(scale)
        self.zp = np.asarray(zp, np.int32)
        if axis is None:
            s = self.scale
        else:
            bshape = [1] * len(shape)
            bshape[axis] = -1
            s = self.scale.reshape(bshape)
        x = away_from_ties(r.uniform(lo, hi, shape), s)
        # Two elements clamped for sure, one at each end.
        qmin, qmax = -2 ** (bits - 1), 2 ** (bits - 1) - 1
        sb = np.broadcast_to(s, shape).reshape(-1)
        zb = np.broadcast_to(self.zp if axis is None else
                             self.zp.reshape(bshape), shape).reshape(-1)
        flat = x.reshape(-1)
        flat[0] = (qmin - zb[0] - 2.3) * sb[0]
        flat[1] = (qmax - zb[1] + 2.3) * sb[1]
        self.x = f32_values(flat.reshape(shape))
        self.w = f32_values(r.uniform(-1, 1, shape))
        self.vx = r.uniform(-1, 1, shape)
        self.vs = r.uniform(-1, 1, self.scale.shape)


cases = [
    Case("per_tensor/bits4", (3, 5), 4, None, 0.1, 0, -1.2, 1.2),
    Case("per_tensor/bits4_zp", (4, 6), 4, None, 0.07, 3, -1.0, 0.6),
    Case("per_tensor/bits8", (2, 3, 4), 8, None, 0.013, 5, -2.0, 2.0),
    Case("per_channel/axis0", (3, 8), 4, 0, [0.1, 0.05, 0.2], [0, 2, -3],
         -1.2, 1.2),
    Case("per_channel/axis1", (5, 4), 4, 1, [0.08, 0.15, 0.05, 0.11],
         [1, 0, -2, 4], -1.0, 1.0),
    Case("per_channel/axis2_bits6", (2, 3, 3), 6, 2, [0.02, 0.03, 0.05],
         [0, -7, 5], -1.0, 1.0),
]

fns, calls, rets, rtypes, inputs, args = [], [], [], [], [], []
for i, c in enumerate(cases):
    xt = T(c.shape, "f64")
    st = T(c.scale.shape, "f64")
    zt = T(c.zp.shape, "i32")
    zp = ("%d" % int(c.zp) if c.zp.ndim == 0
          else "[%s]" % ", ".join(str(v) for v in c.zp))
    fns.append(FN % dict(i=i, xt=xt, st=st, zt=zt, zp=zp, bits=c.bits,
                         axis="" if c.axis is None else
                         ", axis = %d : i64" % c.axis,
                         axes=", ".join(str(k) for k in range(len(c.shape)))))
    names = []
    for v, t in ((c.x, xt), (c.scale, st), (c.w, xt), (c.vx, xt),
                 (c.vs, st), (np.zeros(c.shape), xt)):
        names.append("%%a%d" % len(inputs))
        args.append("%s: %s" % (names[-1], t))
        inputs.append(np.asarray(v, np.float64))
    calls.append("  %%l%d, %%dx%d, %%ds%d = rlx.grad @fq%d(%s) wrt [0, 1] : "
                 "(%s, %s, %s) -> (tensor<f64>, %s, %s)" %
                 (i, i, i, i, ", ".join(names[:3]), xt, st, xt, xt, st))
    calls.append("  %%y%d, %%t%d = rlx.jvp @fq%d(%s) tangents(%s) : "
                 "(%s, %s, %s, %s, %s, %s) -> (tensor<f64>, tensor<f64>)" %
                 (i, i, i, ", ".join(names[:3]), ", ".join(names[3:]), xt, st,
                  xt, xt, st, xt))
    rets += ["%%l%d" % i, "%%dx%d" % i, "%%ds%d" % i, "%%t%d" % i]
    rtypes += ["tensor<f64>", xt, st, "tensor<f64>"]

src = "".join(fns) + "func.func @main(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" \
    % (", ".join(args), ", ".join(rtypes), "\n".join(calls), ", ".join(rets),
       ", ".join(rtypes))
rc, log, outs = rlxtest.run(src, inputs, len(rets))


def broadcast(c, v):
    """A per-channel vector shaped to broadcast against x."""
    if c.axis is None:
        return v
    return np.expand_dims(v, [k for k in range(len(c.shape)) if k != c.axis])


def lsq_reference(c):
    """Loss, d/dx and the per-element terms of d/dscale in float64 (LSQ with
    the clipped straight-through estimator)."""
    qmin, qmax = -2 ** (c.bits - 1), 2 ** (c.bits - 1) - 1
    s, zp = broadcast(c, c.scale), broadcast(c, c.zp)
    u = c.x / s
    code = np.round(u) + zp
    inside = (code >= qmin) & (code <= qmax)
    y = (np.clip(code, qmin, qmax) - zp) * s
    dyds = np.where(inside, np.round(u) - u,
                    np.where(code < qmin, qmin - zp, qmax - zp))
    return np.sum(y * c.w), np.where(inside, c.w, 0.0), dyds * c.w


def per_scale(c, terms):
    """Sums the per-element terms of d/dscale into the scale's shape."""
    if c.axis is None:
        return np.sum(terms)
    return np.sum(terms, axis=tuple(k for k in range(len(c.shape))
                                    if k != c.axis))


def torch_grads(c):
    qmin, qmax = -2 ** (c.bits - 1), 2 ** (c.bits - 1) - 1
    x = torch.tensor(c.x, dtype=torch.float32, requires_grad=True)
    if c.axis is None:
        s = torch.tensor([float(c.scale)], dtype=torch.float32,
                         requires_grad=True)
        z = torch.tensor([float(c.zp)], dtype=torch.float32)
        y = torch._fake_quantize_learnable_per_tensor_affine(
            x, s, z, qmin, qmax, 1.0)
    else:
        s = torch.tensor(c.scale, dtype=torch.float32, requires_grad=True)
        z = torch.tensor(c.zp, dtype=torch.float32)
        y = torch._fake_quantize_learnable_per_channel_affine(
            x, s, z, c.axis, qmin, qmax, 1.0)
    loss = (y * torch.tensor(c.w, dtype=torch.float32)).sum()
    loss.backward()
    # Both clipped ends and the inside must be exercised.
    code = np.round(c.x / (c.scale if c.axis is None else np.expand_dims(
        c.scale, [k for k in range(len(c.shape)) if k != c.axis])))
    code = code + (c.zp if c.axis is None else np.expand_dims(
        c.zp, [k for k in range(len(c.shape)) if k != c.axis]))
    assert (code < qmin).any() and (code > qmax).any() and (
        (code > qmin) & (code < qmax)).any(), "codes do not cover the range"
    # The loss is a float32 sum whose terms may cancel: its rounding is
    # relative to the sum of their magnitudes, not to the loss.
    magnitude = float(np.sum(np.abs(y.detach().numpy().astype(np.float64) *
                                    c.w)))
    return (loss.item(), x.grad.numpy().astype(np.float64),
            s.grad.numpy().astype(np.float64).reshape(c.scale.shape),
            magnitude)


def close(actual, expected, what, magnitude=None, rtol=1e-5):
    expected = np.asarray(expected, np.float64)
    if magnitude is None:
        magnitude = float(np.max(np.abs(expected)))
    atol = rtol * max(magnitude, 1e-3)
    assert_close(actual, expected, rtol, atol, what)


def check(i, c):
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])
    l, dx, ds, t = outs[4 * i:4 * i + 4]
    tl, tdx, tds, magnitude = torch_grads(c)
    rl, rdx, ds_terms = lsq_reference(c)
    rds = per_scale(c, ds_terms)
    ds_magnitude = float(np.max(per_scale(c, np.abs(ds_terms))))
    close(l, rl, c.name + " loss (float64)", magnitude, 1e-9)
    close(dx, rdx, c.name + " d/dx (float64)", rtol=1e-9)
    close(ds, rds, c.name + " d/dscale (float64)", ds_magnitude, 1e-9)
    close(l, tl, c.name + " loss", magnitude)
    close(dx, tdx, c.name + " d/dx")
    close(ds, tds, c.name + " d/dscale", ds_magnitude)
    vs = broadcast(c, c.vs)
    close(t, np.sum(rdx * c.vx) + np.sum(ds_terms * vs), c.name + " jvp",
          float(np.sum(np.abs(rdx * c.vx)) + np.sum(np.abs(ds_terms * vs))),
          1e-9)


for i, c in enumerate(cases):
    suite.check("fake_quantize/" + c.name, lambda i=i, c=c: check(i, c))
suite.finish()
