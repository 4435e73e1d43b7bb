# A model written in PyTorch, imported into RLX with rlx.from_torch, run on
# the CPU against PyTorch, fused, and differentiated with rlx.grad.
#   PYTHONPATH=build/python python3 docs/examples/import_torch.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import rlx


class Block(nn.Module):
    """A pre-norm residual MLP block."""

    def __init__(self, dim=32, hidden=64):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x):
        return x + self.down(F.gelu(self.up(self.norm(x))))


torch.manual_seed(0)
block = Block().eval()
x = torch.randn(4, 16, 32)

# Traced by torch.fx at the example's shapes; parameters become rlx.params
# named by their state_dict keys, bound to their values.
model = rlx.from_torch(block, (x,))
print(model.module)
y = model(x.numpy())  # compiled for the CPU once, params passed for it
with torch.no_grad():
    want = block(x).numpy()
print("max |rlx - torch|: %.1e" % np.abs(y - want).max())
print("fusions:", sorted({f["op"] for f in model.fusion_report()["fusions"]}))

# With the parameters as arguments (after the inputs), rlx.grad
# differentiates with respect to them; linear weights are bound transposed,
# [in, out] (the names in `transposed`).
class Loss(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        return self.block(x).pow(2).mean()


loss = rlx.from_torch(Loss(block), (x,), params_as_args=True)
n = len(loss.param_args)
value, *grads = rlx.compile(rlx.grad(loss.function, wrt=range(1, n + 1)))(
    x.numpy(), *loss.param_list())
Loss(block)(x).backward()
for name, g in zip(loss.param_args, grads):
    want = dict(block.named_parameters())[name[len("block."):]].grad.numpy()
    want = want.T if name in loss.transposed else want
    print("%-18s max |rlx - torch.autograd|: %.1e" % (
        name, np.abs(g - want).max()))
