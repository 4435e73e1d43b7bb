# RUN: %python %s
# The torch.* / Tensor.* / F.* calls and modules that rlx.from_torch
# translates beyond those of the models of import-torch.py, each in a small
# module compared with PyTorch in float64; the same modules exported to
# ONNX (opset 17) and imported with rlx.from_onnx where torch.onnx can
# export them. Unsupported nodes are errors naming the node and its source
# line (from_torch) or its name and op_type (from_onnx).
import inspect
import io
import math
import sys
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import rlx
import rlxtest

warnings.filterwarnings("ignore")
print("seed", rlxtest.SEED)
gen = torch.Generator().manual_seed(rlxtest.SEED)
failures = []


def randn(*shape):
    return torch.randn(*shape, dtype=torch.float64, generator=gen)


def scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None):
    """F.scaled_dot_product_attention as PyTorch 2 documents it; used where
    PyTorch has none (1.x)."""
    s = q @ k.transpose(-2, -1) * (scale if scale is not None
                                   else 1 / math.sqrt(q.shape[-1]))
    if is_causal:
        keep = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        s = s.masked_fill(~keep, float("-inf"))
    elif attn_mask is not None and attn_mask.dtype == torch.bool:
        s = s.masked_fill(~attn_mask, float("-inf"))
    elif attn_mask is not None:
        s = s + attn_mask
    return torch.softmax(s, -1) @ v


if hasattr(F, "scaled_dot_product_attention"):
    sdpa = F.scaled_dot_product_attention
else:
    # A leaf of the trace named as PyTorch 2's function.
    torch.fx.wrap("scaled_dot_product_attention")

    def sdpa(*args, **kwargs):
        return scaled_dot_product_attention(*args, **kwargs)


class Elementwise(nn.Module):
    def forward(self, x, y):
        a = torch.clamp(x, -0.5, 0.7) + F.leaky_relu(y, 0.2) - x.abs() * 2
        b = torch.where(x > y, torch.exp(x), torch.log(y.abs() + 1.0))
        c = x.pow(3) + y ** 2 + torch.sqrt(x * x + 1) / torch.rsqrt(
            y * y + 2)
        d = torch.maximum(x, y) * torch.minimum(x, 0.25 - y) + torch.sin(x) \
            - torch.cos(y) + F.hardtanh(x, -0.3, 0.3) + F.relu6(y * 8)
        e = F.gelu(x, approximate="tanh") + torch.sigmoid(y) + F.silu(x) + \
            torch.tanh(y) + 1.0 - x
        return a, b, c, d, e


class Shapes(nn.Module):
    def forward(self, x):
        a, b = torch.split(x, [2, 4], dim=1)
        c, d, e = x.chunk(3, dim=-1)
        s = torch.stack([c, d, e], dim=1).flatten(2)
        f = x[:, 1:5:2, None, ..., -1]
        g = x[..., ::3].permute(2, 0, 1).reshape(-1, 6)
        h = torch.cat([a, b.flip(1)], dim=1).transpose(0, 2).contiguous()
        i = x[:, :, 0].unsqueeze(-1).expand(-1, -1, 4).repeat(1, 2, 1)
        j = torch.repeat_interleave(x[:1], 2, dim=0).squeeze(0)
        k = x.view(x.size(0), -1).t()
        return a * 2, s, f, g, h, i, j, k


class Reductions(nn.Module):
    def forward(self, x):
        values, indices = x.max(dim=1)
        return (x.sum(), x.mean(dim=(0, 2), keepdim=True), x.amax(-1),
                x.amin(0), values, indices, x.argmax(dim=-1),
                x.var(dim=1), x.std(dim=-1, unbiased=False),
                torch.cumsum(x, dim=1), F.log_softmax(x, dim=1),
                x.prod(dim=2))


class Indexing(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(10, 4, dtype=torch.float64,
                                              generator=gen))

    def forward(self, x, ids, mask):
        a = self.table[ids]
        b = torch.index_select(x, 1, ids[0])
        c = x.masked_fill(mask, -1.5)
        d = F.embedding(ids, self.table)
        return a, b, c, d


class Attention(nn.Module):
    """scaled_dot_product_attention (causal, a boolean mask, an additive
    mask, a scale) and attention written out with a boolean mask input."""

    def forward(self, q, k, v, keep, bias):
        a = sdpa(q, k, v, is_causal=True)
        b = sdpa(q, k, v, attn_mask=keep)
        c = sdpa(q, k, v, attn_mask=bias, scale=0.3)
        s = torch.matmul(q, k.transpose(-2, -1)) * 0.25
        s = s.masked_fill(~keep, float("-inf"))
        d = torch.matmul(F.softmax(s, dim=-1), v)
        return a, b, c, d


class Norms(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm([4, 6])
        self.bn = nn.BatchNorm1d(4)
        self.conv = nn.Conv2d(4, 8, 3, padding=2, dilation=2, groups=2)
        self.same = nn.Conv1d(4, 4, 4, padding="same")
        self.pool = nn.AvgPool2d(2)
        self.adapt = nn.AdaptiveAvgPool2d((2, 3))
        self.act = nn.ReLU6()

    def forward(self, x):
        a = self.ln(x)
        b = self.bn(x)
        img = x.reshape(x.shape[0], 4, 2, 3).repeat(1, 1, 2, 2)
        c = self.adapt(self.act(self.conv(img)))
        d = self.pool(img) + F.max_pool2d(img, 2)
        e = F.layer_norm(x, [6], self.ln.weight[0], self.ln.bias[1],
                         eps=1e-3) + F.group_norm(img, 2).mean()
        return a, b, c, d, e


class SamePadding(Norms):
    def forward(self, x):
        return self.same(x), F.layer_norm(x, [4, 6])


def run(name, module, inputs, onnx_too=True):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, dtype=torch.float64,
                                generator=gen))
        for b_name, b in module.named_buffers():
            if b.is_floating_point():
                b.copy_(torch.rand(b.shape, dtype=torch.float64,
                                   generator=gen) + 0.5)
    module = module.double().eval()
    with torch.no_grad():
        want = module(*inputs)
    want = [w.numpy() for w in (want if isinstance(want, tuple)
                                else (want,))]
    importers = [("torch", lambda: rlx.from_torch(module, inputs))]
    if onnx_too:
        def from_onnx():
            f = io.BytesIO()
            torch.onnx.export(module, inputs, f, opset_version=17)
            return rlx.from_onnx(f.getvalue())
        importers.append(("onnx", from_onnx))
    for how, load in importers:
        try:
            got = load()(*[x.numpy() for x in inputs])
        except Exception as error:  # noqa: BLE001 - reported
            failures.append("%s via %s: %s: %s" % (name, how,
                                                   type(error).__name__,
                                                   error))
            continue
        got = got if isinstance(got, tuple) else (got,)
        for i, (g, w) in enumerate(zip(got, want)):
            err = np.abs(np.asarray(g, np.float64) - w).max() / max(
                np.abs(w).max(), 1e-30)
            # ONNX's float attributes (LeakyRelu's alpha, ...) are float32.
            tol = 1e-9 if how == "torch" else 1e-7
            if g.shape != w.shape or g.dtype != w.dtype or not err <= tol:
                failures.append("%s via %s, output %d: error %.3g, %s %s "
                                "vs %s %s" % (name, how, i, err, g.shape,
                                              g.dtype, w.shape, w.dtype))
        print("ok %s via %s (%d outputs)" % (name, how, len(want)))


x, y = randn(3, 6, 4), randn(3, 6, 4)
run("elementwise", Elementwise(), (x, y))
run("shapes", Shapes(), (randn(2, 6, 6),))
run("reductions", Reductions(), (randn(3, 5, 4),))
ids = torch.randint(0, 10, (2, 3), generator=gen)
mask = torch.rand(3, 10, generator=gen) > 0.5
run("indexing", Indexing(), (randn(3, 10), ids, mask))
keep = torch.rand(2, 1, 5, 7, generator=gen) > 0.3
keep[..., 0] = True  # every query sees a key (PyTorch gives NaN else)
run("attention", Attention(), (randn(2, 3, 5, 8), randn(2, 3, 7, 8),
                               randn(2, 3, 7, 8), keep, randn(1, 3, 5, 7)),
    onnx_too=hasattr(F, "scaled_dot_product_attention"))
run("norms", Norms(), (randn(5, 4, 6),))
# torch.onnx (1.13) cannot export padding="same".
run("same padding", SamePadding(), (randn(5, 4, 6),), onnx_too=False)


# Errors: the node, its target and its source line.
class Unsupported(nn.Module):
    def forward(self, x):
        return torch.special.erfinv(x.tanh())  # the line named


line = inspect.getsourcelines(Unsupported.forward)[1] + 1
try:
    rlx.from_torch(Unsupported(), (randn(3),))
    failures.append("erfinv imported")
except rlx.UnsupportedError as error:
    text = str(error)
    print("error:", text)
    if "erfinv" not in text or "%s:%d" % (__file__, line) not in text:
        failures.append("the error does not name erfinv and line %d: %s" %
                        (line, text))


class DataDependent(nn.Module):
    def forward(self, x):
        return x * x.sum().item()


try:
    rlx.from_torch(DataDependent(), (randn(3),))
    failures.append("a data-dependent .item() imported")
except (rlx.UnsupportedError, Exception) as error:  # noqa: BLE001
    print("error:", error)
    if not isinstance(error, rlx.UnsupportedError):
        failures.append("item(): %s, not UnsupportedError" %
                        type(error).__name__)

from onnx import helper, TensorProto  # noqa: E402

graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="first"),
     helper.make_node("Hardmax", ["r"], ["y"], name="the_hardmax")],
    "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
try:
    rlx.from_onnx(model)
    failures.append("Hardmax imported")
except rlx.UnsupportedError as error:
    print("error:", error)
    if "the_hardmax" not in str(error) or "Hardmax" not in str(error):
        failures.append("the error does not name the node: %s" % error)
model.opset_import[0].version = 11
try:
    rlx.from_onnx(model)
    failures.append("opset 11 imported")
except rlx.UnsupportedError as error:
    print("error:", error)

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
