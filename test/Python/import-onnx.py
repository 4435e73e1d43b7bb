# RUN: %python %s %rlx_src_root
# rlx.from_onnx on the models of Inputs/import_models.py exported by
# torch.onnx.export at opsets 13 and 17: each is imported, run on the CPU
# and compared with PyTorch's output in float64 (relative 1e-9) and
# float32 (relative 1e-4 of the output's scale); gradients of the MLP's
# and the Llama layer's outputs through rlx.grad against torch.autograd;
# the BERT and Llama layers exported at opset 17 show the fusions of the
# hand-written examples/ layers.
import io
import os
import sys
import warnings

import numpy as np
import torch

import rlx
import rlxtest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
import import_models as M  # noqa: E402

warnings.filterwarnings("ignore")
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(HERE))
print("seed", rlxtest.SEED)
gen = torch.Generator().manual_seed(rlxtest.SEED)
failures = []


def export(model, args, opset):
    f = io.BytesIO()
    torch.onnx.export(model, args, f, opset_version=opset)
    return f.getvalue()


def check(name, make, inputs, opsets=(13, 17)):
    """Exported in float64 and float32 at each opset, imported, run."""
    model64 = M.randomize(make().double(), gen)
    state = model64.state_dict()
    imported = {}
    for dtype, rtol in ((torch.float64, 1e-9), (torch.float32, 1e-4)):
        model = make().to(dtype)
        model.load_state_dict({k: v.to(dtype) if v.is_floating_point()
                               else v for k, v in state.items()})
        model.eval()
        args = tuple(x.to(dtype) if x.is_floating_point() else x
                     for x in inputs)
        with torch.no_grad():
            want = model(*args)
        want = [t.numpy() for t in (want if isinstance(want, tuple)
                                    else (want,))]
        for opset in opsets:
            m = rlx.from_onnx(export(model, args, opset))
            got = m(*[x.numpy() for x in args])
            got = got if isinstance(got, tuple) else (got,)
            for i, (g, w) in enumerate(zip(got, want)):
                M.close("%s opset %d %s output %d" % (
                    name, opset, str(dtype)[6:], i), g, w, rtol, failures)
            imported[(dtype, opset)] = m
    return imported[(torch.float64, opsets[-1])]


def grad_check(name, make, x):
    model = M.randomize(make().double(), gen)
    r = torch.randn(model(x).shape, dtype=torch.float64, generator=gen)
    loss = M.WeightedSum(model, r).eval()
    m = rlx.from_onnx(export(loss, (x,), 17), params_as_args=True)
    n = len(m.param_args)
    g = rlx.grad(m.function, wrt=list(range(n + 1)))
    out = rlx.compile(g)(x.numpy(), *[m.params[p] for p in m.param_args])
    xt = x.clone().requires_grad_(True)
    value = loss(xt)
    value.backward()
    M.close("%s loss" % name, out[0], value.item(), 1e-10, failures)
    M.close("%s gradient of the input" % name, out[1], xt.grad.numpy(),
            1e-9, failures)
    # Initializers are named by the state_dict key, or (weights the export
    # transposed) onnx::MatMul_N: those are matched by value.
    params = {k: v.detach().numpy() for k, v in loss.named_parameters()}
    grads = {k: v.grad.numpy() for k, v in loss.named_parameters()}
    matched = 0
    for p, got in zip(m.param_args, out[2:]):
        value = m.params[p]
        for k, v in params.items():
            if v.shape == value.shape and np.array_equal(v, value):
                want = grads[k]
            elif v.T.shape == value.shape and np.array_equal(v.T, value):
                want = grads[k].T
            else:
                continue
            M.close("%s gradient of %s (%s)" % (name, p, k), got, want,
                    1e-9, failures)
            matched += 1
            break
        else:
            # A buffer (the loss's r): an initializer, not a parameter.
            if any(np.array_equal(b.numpy(), value)
                   for b in loss.buffers()):
                matched += 1
    if matched != len(m.param_args):
        failures.append("%s: %d of %d initializers matched a parameter" %
                        (name, matched, len(m.param_args)))


inputs = M.example_inputs(gen)
for name in ("MLP", "CNN", "SeqConv"):
    check(name, getattr(M, name), inputs[name])
bert = check("BertLayer", M.BertLayer, inputs["BertLayer"])
check("Bert", M.Bert, inputs["Bert"], opsets=(17,))
llama = check("LlamaLayer", M.LlamaLayer, inputs["LlamaLayer"])

inputs = M.example_inputs(gen)
grad_check("MLP", M.MLP, inputs["MLP"][0])
grad_check("LlamaLayer", M.LlamaLayer, inputs["LlamaLayer"][0])

M.compare_fusions(ROOT, bert, llama, " (ONNX)", failures)

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
