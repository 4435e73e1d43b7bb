# RUN: %python %s %rlx_src_root
# rlx.from_onnx on the models of Inputs/import_models.py exported by
# torch.onnx.export at opsets 13 and 17: each is imported, run on the CPU
# and compared with PyTorch's output in float64 (relative 1e-9) and
# float32 (relative 1e-4 of the output's scale); gradients of the MLP's
# and the Llama layer's outputs through rlx.grad against torch.autograd;
# the BERT and Llama layers exported at opset 17 show the fusions of the
# hand-written examples/ layers; ONNX's activation ops (Elu, Selu, Celu,
# Softplus, Softsign, PRelu, Shrink, ThresholdedRelu, Mish) as single
# nodes against NumPy references of their definitions.
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

# ---- ONNX's activation ops, single nodes (onnx.helper, opset 17) ------- #
# Each on fresh inputs of shape [3, 5, 7] (PRelu also [2, 3, 5, 7]) that
# mix N(0, 4^2), +-30, zeros, the op's thresholds and values 1e-9 off
# them, in float64 (against the NumPy reference of the ONNX definition,
# relative 1e-12 of max |ref|) and float32 (1e-6).
from onnx import helper, numpy_helper, TensorProto  # noqa: E402

rng = rlxtest.rng()


def f32(v):
    """An attribute's value as ONNX stores it (float32)."""
    return float(np.float32(v))


def softplus_ref(x):
    return np.log1p(np.exp(x))


def elu_ref(x, alpha=1.0):
    return np.where(x >= 0, x, alpha * (np.exp(x) - 1))


def selu_ref(x, alpha=1.67326319217681884765625,
             gamma=1.05070102214813232421875):
    return np.where(x <= 0, gamma * (alpha * np.exp(x) - alpha), gamma * x)


def celu_ref(x, alpha=1.0):
    return np.maximum(0, x) + np.minimum(0, alpha * (np.exp(x / alpha) - 1))


def shrink_ref(x, lambd=0.5, bias=0.0):
    return np.where(x < -lambd, x + bias, np.where(x > lambd, x - bias, 0.0))


def activation_input(shape, points):
    x = rng.standard_normal(shape) * 4.0
    flat = x.reshape(-1)
    special = [30.0, -30.0, 29.5, -29.5, 0.0, -0.0]
    for p in points:
        special += [p, -p, p + 1e-9, p - 1e-9, -p + 1e-9, -p - 1e-9]
    idx = rng.choice(flat.size, len(special), replace=False)
    flat[idx] = special
    return x


def activation(name, op, attrs, ref, points=(), slope=None,
               slope_input=False, shape=(3, 5, 7), nodes=None):
    """op(x) (or PRelu(x, slope), slope an initializer or an input) in
    float64 and float32, against ref(x[, slope]) in float64."""
    for dtype, tp, rtol in ((np.float64, TensorProto.DOUBLE, 1e-12),
                            (np.float32, TensorProto.FLOAT, 1e-6)):
        x = activation_input(shape, points).astype(dtype)
        inputs = [helper.make_tensor_value_info("x", tp, list(shape))]
        inits, feeds = [], [x]
        if slope is not None:
            s = np.asarray(slope, np.float64).astype(dtype)
            if slope_input:
                inputs.append(helper.make_tensor_value_info(
                    "slope", tp, list(s.shape)))
                feeds.append(s)
            else:
                inits.append(numpy_helper.from_array(s, "slope"))
        graph = helper.make_graph(
            nodes or [helper.make_node(
                op, ["x"] + (["slope"] if slope is not None else []),
                ["y"], name="act", **attrs)], "activation", inputs,
            [helper.make_tensor_value_info("y", tp, list(shape))], inits)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 17)])
        args = [x.astype(np.float64)] + [
            np.asarray(f, np.float64) for f in feeds[1:]]
        if slope is not None and not slope_input:
            args.append(np.asarray(slope, np.float64).astype(dtype)
                        .astype(np.float64))
        want = ref(*args)
        what = "%s %s" % (name, np.dtype(dtype).name)
        try:
            got = rlx.from_onnx(model)(*feeds)
        except Exception as error:  # noqa: BLE001 - reported
            failures.append("%s: %s: %s" % (what, type(error).__name__,
                                            error))
            continue
        if got.dtype != dtype or not np.all(np.isfinite(got)):
            failures.append("%s: %s result or not finite" % (what,
                                                             got.dtype))
            continue
        M.close(what, got, want, rtol, failures)


activation("Elu", "Elu", {}, elu_ref, (0.0,))
activation("Elu alpha 0.7", "Elu", {"alpha": 0.7},
           lambda x: elu_ref(x, f32(0.7)), (0.0,))
activation("Selu", "Selu", {}, selu_ref, (0.0,))
activation("Selu alpha 2 gamma 0.3", "Selu", {"alpha": 2.0, "gamma": 0.3},
           lambda x: selu_ref(x, 2.0, f32(0.3)), (0.0,))
activation("Celu", "Celu", {}, celu_ref, (0.0,))
activation("Celu alpha 2.5", "Celu", {"alpha": 2.5},
           lambda x: celu_ref(x, 2.5), (0.0,))
activation("Celu alpha 0.3", "Celu", {"alpha": 0.3},
           lambda x: celu_ref(x, f32(0.3)), (0.0,))
activation("Softplus", "Softplus", {}, softplus_ref, (0.0, 20.0))
activation("Softsign", "Softsign", {}, lambda x: x / (1 + np.abs(x)),
           (0.0, 1.0))
activation("Mish", "Mish", {}, lambda x: x * np.tanh(softplus_ref(x)),
           (0.0, 20.0))
activation("Mish as Softplus, Tanh, Mul", None, {},
           lambda x: x * np.tanh(softplus_ref(x)), (0.0,), nodes=[
               helper.make_node("Softplus", ["x"], ["sp"]),
               helper.make_node("Tanh", ["sp"], ["th"]),
               helper.make_node("Mul", ["x", "th"], ["y"])])
activation("Shrink", "Shrink", {}, shrink_ref, (0.5,))
activation("Shrink lambd 1.5 bias 0.7", "Shrink",
           {"lambd": 1.5, "bias": 0.7},
           lambda x: shrink_ref(x, 1.5, f32(0.7)), (1.5,))
activation("Shrink lambd 0 bias -2", "Shrink", {"lambd": 0.0, "bias": -2.0},
           lambda x: shrink_ref(x, 0.0, -2.0), (0.0,))
activation("ThresholdedRelu", "ThresholdedRelu", {},
           lambda x: np.where(x > 1.0, x, 0.0), (1.0,))
activation("ThresholdedRelu alpha -0.7", "ThresholdedRelu", {"alpha": -0.7},
           lambda x: np.where(x > f32(-0.7), x, 0.0), (0.7,))


def prelu_ref(x, slope):
    return np.where(x < 0, slope * x, x)


for label, shape, slope, as_input in (
        ("per channel [3, 1, 1]", (2, 3, 5, 7),
         rng.standard_normal((3, 1, 1)), False),
        ("scalar []", (3, 5, 7), 0.25, False),
        ("[1]", (3, 5, 7), [-1.5], True),
        ("[7]", (3, 5, 7), rng.standard_normal(7), True),
        ("[5, 1]", (3, 5, 7), rng.standard_normal((5, 1)), False),
        ("[3, 5, 7]", (3, 5, 7), rng.standard_normal((3, 5, 7)), True)):
    activation("PRelu slope %s%s" % (label, " (input)" if as_input else ""),
               "PRelu", {}, prelu_ref, (0.0,), slope=slope,
               slope_input=as_input, shape=shape)


def activation_error(label, node, shape, inits=()):
    graph = helper.make_graph(
        [node], "bad", [helper.make_tensor_value_info(
            "x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        list(inits))
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)])
    try:
        rlx.from_onnx(model)
    except rlx.UnsupportedError as error:
        if "'%s' (%s)" % (node.name, node.op_type) not in str(error):
            failures.append("%s: %s" % (label, error))
        else:
            print("ok %s: %s" % (label, error))
        return
    failures.append("%s: imported" % label)


activation_error("Celu alpha 0", helper.make_node(
    "Celu", ["x"], ["y"], name="celu0", alpha=0.0), (3, 5, 7))
activation_error("PRelu slope [5] on [3, 5, 7]", helper.make_node(
    "PRelu", ["x", "s"], ["y"], name="prelu_bad"), (3, 5, 7),
    [numpy_helper.from_array(np.ones(5, np.float32), "s")])

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
