# RUN: %python %s %rlx_src_root
# rlx.from_torch on models written in plain PyTorch (Inputs/
# import_models.py: an MLP, a CNN, a 1-D conv sequence model, a BERT
# encoder layer, a 2-layer BERT, a Llama decoder layer with GQA and rope):
# each is imported, run on the CPU and compared with PyTorch's output in
# float64 (relative 1e-9) and float32 (relative 1e-4 of the output's
# scale); the gradients of a loss through rlx.grad are compared with
# torch.autograd in float64; the BERT and Llama layers show the fusions of
# the hand-written examples/ layers.
import os
import sys

import numpy as np
import torch

import rlx
import rlxtest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
import import_models as M  # noqa: E402

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(HERE))
print("seed", rlxtest.SEED)
gen = torch.Generator().manual_seed(rlxtest.SEED)
failures = []


def outputs(y):
    return [t.detach().numpy() for t in (y if isinstance(y, tuple)
                                         else (y,))]


def forward(name, make, inputs):
    """float64 and float32: rlx's output against PyTorch's."""
    state = None
    for dtype, rtol in ((torch.float64, 1e-9), (torch.float32, 1e-4)):
        model = make().to(dtype)
        if state is None:
            M.randomize(model, gen)
            state = model.state_dict()
        else:  # the same weights, rounded to float32
            model.load_state_dict({k: v.to(dtype) if v.is_floating_point()
                                   else v for k, v in state.items()})
            model.eval()
        args = tuple(x.to(dtype) if x.is_floating_point() else x
                     for x in inputs)
        imported = rlx.from_torch(model, args)
        got = imported(*[x.numpy() for x in args])
        got = got if isinstance(got, tuple) else (got,)
        with torch.no_grad():
            want = outputs(model(*args))
        for i, (g, w) in enumerate(zip(got, want)):
            M.close("%s %s output %d" % (name, str(dtype)[6:], i), g, w,
                    rtol, failures)
    return imported


class Loss(torch.nn.Module):
    """mean((model(x)[0] - target)^2)."""

    def __init__(self, model, target):
        super().__init__()
        self.model = model
        self.register_buffer("target", target)

    def forward(self, x0, x1=None, x2=None):
        y = self.model(*[x for x in (x0, x1, x2) if x is not None])
        y = y[0] if isinstance(y, tuple) else y
        return ((y - self.target) ** 2).mean()


def gradients(name, make, inputs):
    """rlx.grad of the loss with respect to every parameter against
    torch.autograd, float64."""
    model = M.randomize(make().double(), gen)
    with torch.no_grad():
        y = model(*inputs)
    y = y[0] if isinstance(y, tuple) else y
    loss = Loss(model, torch.randn(y.shape, dtype=torch.float64,
                                   generator=gen)).eval()
    imported = rlx.from_torch(loss, inputs, params_as_args=True)
    n = len(inputs)
    g = rlx.grad(imported.function,
                 wrt=list(range(n, n + len(imported.param_args))))
    out = rlx.compile(g)(*[x.numpy() for x in inputs],
                         *[imported.params[p] for p in imported.param_args])
    value = loss(*inputs)
    value.backward()
    M.close("%s loss" % name, out[0], value.item(), 1e-10, failures)
    torch_params = dict(loss.named_parameters())
    wants = []
    for p in imported.param_args:
        grad = torch_params[p].grad
        want = np.zeros(torch_params[p].shape) if grad is None \
            else grad.numpy()
        wants.append(want.T if p in imported.transposed else want)
    # One scale for all: the gradient of a key bias is exactly zero in
    # exact arithmetic, rounding noise in both.
    scale = max(np.abs(w).max() for w in wants)
    errors = [np.abs(got - want).max() / scale
              for got, want in zip(out[1:], wants)]
    worst = int(np.argmax(errors))
    if not errors[worst] <= 1e-9:
        failures.append("%s gradient of %s: relative error %.3g" % (
            name, imported.param_args[worst], errors[worst]))
    else:
        print("ok %s gradients of %d params (relative error %.2g)" % (
            name, len(errors), errors[worst]))


inputs = M.example_inputs(gen)
for name in ("MLP", "CNN", "SeqConv", "Bert"):
    forward(name, getattr(M, name), inputs[name])
bert = forward("BertLayer", M.BertLayer, inputs["BertLayer"])
llama = forward("LlamaLayer", M.LlamaLayer, inputs["LlamaLayer"])

inputs = M.example_inputs(gen)
for name in ("MLP", "CNN", "SeqConv", "BertLayer", "LlamaLayer"):
    gradients(name, getattr(M, name), inputs[name])

M.compare_fusions(ROOT, bert, llama, "", failures)

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
