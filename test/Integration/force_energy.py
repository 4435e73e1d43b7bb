# RUN: %python %s
# examples/force_energy.mlir: the gradient of a force/energy loss whose
# forces are themselves a gradient (second order through an MLP potential)
# against PyTorch autograd with create_graph=True, in float64 (relative
# error 1e-9 against each gradient's largest magnitude).

import os

import numpy as np
import torch

import rlxtest
from rlxtest import Suite, assert_close

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
suite = Suite("force_energy")
r = rlxtest.rng()

w1 = r.standard_normal((3, 16)) / np.sqrt(3)
b1 = 0.1 * r.standard_normal(16)
w2 = r.standard_normal((16, 1)) / 4
pos = r.uniform(-1.5, 1.5, (8, 3))
f_ref = r.standard_normal((8, 3))
e_ref = np.array(r.standard_normal())


def reference():
    ps = [torch.tensor(p, requires_grad=True) for p in (w1, b1, w2)]
    p = torch.tensor(pos, requires_grad=True)
    energy = (torch.tanh(p @ ps[0] + ps[1]) @ ps[2]).sum()
    (de,) = torch.autograd.grad(energy, p, create_graph=True)
    loss = 0.9 * ((-de - torch.tensor(f_ref)) ** 2).mean() + \
        0.1 * (energy - torch.tensor(e_ref)) ** 2
    grads = torch.autograd.grad(loss, ps)
    return [loss.detach().numpy()] + [g.numpy() for g in grads]


def check():
    with open(os.path.join(ROOT, "examples", "force_energy.mlir")) as f:
        src = f.read()
    rc, log, outs = rlxtest.run(src, [w1, b1, w2, pos, f_ref, e_ref], 4)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    for i, (a, e) in enumerate(zip(outs, reference())):
        scale = max(float(np.abs(e).max()), 1e-30)
        assert_close(a, e, 1e-9, 1e-9 * scale, "result #%d" % i)


suite.check("force_energy_second_order", check)
suite.finish()
