# RUN: %python %s
# An MLP trained from Python for a few SGD steps with rlx.grad, the same
# steps taken by PyTorch (CPU, float64) from the same weights: the losses
# and the final weights agree.
import sys

import numpy as np
import torch

import rlx
import rlxtest

ctx = rlx.Context()
r = rlxtest.rng()
print("seed", rlxtest.SEED)
N, D, H, C = 16, 10, 12, 4
types = [ctx.tensor((N, D), "f64"), ctx.tensor((N,), "i64"),
         ctx.tensor((D, H), "f64"), ctx.tensor((H,), "f64"),
         ctx.tensor((H, C), "f64"), ctx.tensor((C,), "f64")]
with rlx.Function("loss", types) as loss:
    x, labels, w1, b1, w2, b2 = loss.args
    h = rlx.gelu(rlx.add(rlx.matmul(x, w1), b1))
    logits = rlx.add(rlx.matmul(h, w2), b2)
    loss.returns(rlx.softmax_cross_entropy(logits, labels))
step = rlx.compile(rlx.grad(loss, wrt=[2, 3, 4, 5]))

x = r.standard_normal((N, D))
labels = r.integers(0, C, N).astype(np.int64)
params = [r.standard_normal((D, H)) / np.sqrt(D), np.zeros(H),
          r.standard_normal((H, C)) / np.sqrt(H), np.zeros(C)]
torch_params = [torch.tensor(p, requires_grad=True) for p in params]
lr = 0.5
failures = []
losses = []
for it in range(5):
    out = step(x, labels, *params)
    value, grads = out[0], out[1:]
    losses.append(float(value))
    params = [p - lr * g for p, g in zip(params, grads)]

    tw1, tb1, tw2, tb2 = torch_params
    th = torch.nn.functional.gelu(torch.tensor(x) @ tw1 + tb1)
    tloss = torch.nn.functional.cross_entropy(th @ tw2 + tb2,
                                              torch.tensor(labels))
    tloss.backward()
    with torch.no_grad():
        for p in torch_params:
            p -= lr * p.grad
            p.grad.zero_()
    print("step %d: rlx loss %.6f, torch loss %.6f" % (it, value,
                                                     tloss.item()))
    if not np.isclose(value, tloss.item(), rtol=1e-9, atol=1e-12):
        failures.append("step %d: loss %r vs torch %r" % (it, value,
                                                         tloss.item()))
for i, (p, tp) in enumerate(zip(params, torch_params)):
    if not np.allclose(p, tp.detach().numpy(), rtol=1e-8, atol=1e-10):
        failures.append("weight %d differs from torch by %g" % (
            i, np.max(np.abs(p - tp.detach().numpy()))))
if not losses[-1] < 0.9 * losses[0]:
    failures.append("training did not lower the loss: %s" % losses)
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
