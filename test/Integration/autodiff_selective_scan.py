# RUN: %python %s
# Gradients of rlx.selective_scan (all six operands, with and without
# softplus on delta) against PyTorch autograd of the Mamba reference loop
#   h[t] = exp(dt A) h[t-1] + dt B[t] u[t],  y[t] = C[t] . h[t] + D u[t]
# in float64 on fresh random inputs, for L = sum(y * w): rtol 1e-10 (atol
# 1e-12 max|torch|). (autodiff.py checks the same rules against finite
# differences.)

import numpy as np
import torch

import rlxtest
from rlxtest import Suite, assert_close, rand
from rlxtest import tensor_type as T

suite = Suite("autodiff_selective_scan")
r = rlxtest.rng()

FN = """
func.func @loss%(i)d(%%u: %(tu)s, %%dt: %(tu)s, %%a: %(ta)s, %%b: %(tb)s,
                  %%c: %(tb)s, %%d: %(td)s, %%w: %(tu)s) -> tensor<f64> {
  %%y = rlx.selective_scan %%u, %%dt, %%a, %%b, %%c, %%d%(attr)s
      : %(tu)s, %(tu)s, %(ta)s, %(tb)s, %(tb)s, %(td)s
  %%p = rlx.mul %%y, %%w : %(tu)s
  %%l = rlx.reduce sum %%p axes = [0, 1, 2] : %(tu)s
  return %%l : tensor<f64>
}
"""


def reference(u, dt, a, b, c, d, softplus):
    return rlxtest.selective_scan_reference(u, dt, a, b, c, d, softplus,
                                            xp=torch)


CASES = [(2, 3, 6, 4, False), (1, 4, 9, 2, True), (3, 2, 5, 3, True)]
fns, calls, rets, rtypes, inputs, args, data = [], [], [], [], [], [], []
for i, (batch, channels, length, state, softplus) in enumerate(CASES):
    tu, ta = T((batch, channels, length), "f64"), T((channels, state), "f64")
    tb, td = T((batch, state, length), "f64"), T((channels,), "f64")
    fns.append(FN % dict(i=i, tu=tu, ta=ta, tb=tb, td=td,
                         attr=" {delta_softplus = true}" if softplus else ""))
    vals = [rand(r, (batch, channels, length), "f64"),
            rand(r, (batch, channels, length), "f64",
                 -1.0 if softplus else 0.05, 0.6),
            rand(r, (channels, state), "f64", -1.5, -0.1),
            rand(r, (batch, state, length), "f64"),
            rand(r, (batch, state, length), "f64"),
            rand(r, (channels,), "f64"),
            rand(r, (batch, channels, length), "f64", -1, 1)]
    types = [tu, tu, ta, tb, tb, td, tu]
    names = []
    for v, t in zip(vals, types):
        names.append("%%x%d" % len(inputs))
        args.append("%s: %s" % (names[-1], t))
        inputs.append(v)
    calls.append("  %%l%d, %%g%d:6 = rlx.grad @loss%d(%s) wrt [0, 1, 2, 3, 4, "
                 "5] : (%s) -> (tensor<f64>, %s)" %
                 (i, i, i, ", ".join(names), ", ".join(types),
                  ", ".join(types[:6])))
    rets += ["%%l%d" % i] + ["%%g%d#%d" % (i, k) for k in range(6)]
    rtypes += ["tensor<f64>"] + types[:6]
    data.append((vals, softplus))

src = "".join(fns) + "func.func @main(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" \
    % (", ".join(args), ", ".join(rtypes), "\n".join(calls), ", ".join(rets),
       ", ".join(rtypes))
rc, log, outs = rlxtest.run(src, inputs, len(rets))


def check(i):
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])
    vals, softplus = data[i]
    leaves = [torch.tensor(v, requires_grad=True) for v in vals[:6]]
    loss = (reference(*leaves, softplus) * torch.tensor(vals[6])).sum()
    loss.backward()
    mine = outs[7 * i:7 * i + 7]
    assert_close(mine[0], loss.detach().numpy(), 1e-10, 1e-12, "loss")
    for name, leaf, g in zip(["u", "delta", "A", "B", "C", "D"], leaves,
                             mine[1:]):
        e = leaf.grad.numpy()
        assert_close(g, e, 1e-10, 1e-12 * max(float(np.abs(e).max()), 1.0),
                     "d/d" + name)


for i, (batch, channels, length, state, softplus) in enumerate(CASES):
    suite.check("selective_scan/b%dd%dl%dn%d%s" %
                (batch, channels, length, state,
                 "/softplus" if softplus else ""), lambda i=i: check(i))
suite.finish()
