# RUN: %python %s
# examples/train_mlp.mlir (50 SGD steps of an MLP classifier, the gradient
# by rlx.grad inside an rlx.scan) against the same loop in PyTorch (float32
# on the CPU, autograd) from the same random initial weights and data: the
# loss of every step and the final weights agree within float32 tolerance.

import os

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from rlxtest import Suite, assert_close

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
suite = Suite("train_mlp")
r = rlxtest.rng()
STEPS, LR = 50, 0.5

x = r.standard_normal((64, 8)).astype(np.float32)
# Labels from a random linear teacher, so that the data can be learnt.
labels = np.argmax(x @ r.standard_normal((8, 4)), axis=1).astype(np.int64)
params = [(r.standard_normal((8, 32)) / np.sqrt(8)).astype(np.float32),
          (0.1 * r.standard_normal(32)).astype(np.float32),
          (r.standard_normal((32, 4)) / np.sqrt(32)).astype(np.float32),
          (0.1 * r.standard_normal(4)).astype(np.float32)]


def torch_training():
    ps = [torch.tensor(p, requires_grad=True) for p in params]
    xt, lt = torch.tensor(x), torch.tensor(labels)
    losses = []
    for _ in range(STEPS):
        h = torch.tanh(xt @ ps[0] + ps[1])
        loss = F.cross_entropy(h @ ps[2] + ps[3], lt)
        losses.append(loss.item())
        grads = torch.autograd.grad(loss, ps)
        with torch.no_grad():
            ps = [(p - LR * g).requires_grad_() for p, g in zip(ps, grads)]
    return np.array(losses, np.float32), [p.detach().numpy() for p in ps]


def check():
    with open(os.path.join(ROOT, "examples", "train_mlp.mlir")) as f:
        src = f.read()
    rc, log, outs = rlxtest.run(src, [x, labels] + params, 5)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    losses, final = torch_training()
    print("loss: step 0 %.6f, step %d %.6f (torch %.6f, %.6f)" %
          (outs[0][0], STEPS - 1, outs[0][-1], losses[0], losses[-1]))
    assert losses[-1] < 0.5 * losses[0], "the reference does not train"
    assert np.all(np.isfinite(outs[0]))
    assert_close(outs[0], losses, 1e-4, 1e-5, "losses")
    for i, (a, e) in enumerate(zip(outs[1:], final)):
        assert_close(a, e, 1e-3, 1e-4, "final parameter #%d" % i)


suite.check("sgd_50_steps", check)
suite.finish()
