# RUN: %python %s
# rlx.from_torch on the torch.nn modules that import-ops.py does not
# cover: every activation module of torch.nn with its F.* function (and
# in-place and Tensor-method spellings), pooling with ceil_mode (and
# average pooling without count_include_pad or with divisor_override),
# adaptive average pooling to any size, dropout and torchvision's
# stochastic_depth and drop_block2d in eval mode, nn.MultiheadAttention
# (batch first or not, unbatched, boolean and float attn_mask,
# key_padding_mask, need_weights averaged or per head, with and without
# bias, kdim/vdim, add_bias_kv, add_zero_attn), nn.TransformerEncoderLayer
# and nn.TransformerDecoderLayer (norm first or last, relu and gelu) and
# the nn.TransformerEncoder / nn.TransformerDecoder stacks. Each module
# runs on odd shapes in float64 and is compared with PyTorch's eval
# output: |rlx - torch| <= 1e-9 * max |torch|.
import sys
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import rlx
import rlxtest

try:
    import torchvision
    import torchvision.ops
except ImportError:
    torchvision = None

warnings.filterwarnings("ignore")
print("seed", rlxtest.SEED)
gen = torch.Generator().manual_seed(rlxtest.SEED)
torch.manual_seed(rlxtest.SEED)
failures = []
RTOL = 1e-9


def randn(*shape, scale=1.0):
    return torch.randn(*shape, dtype=torch.float64, generator=gen) * scale


def run(name, module, inputs):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(randn(*p.shape, scale=0.5))
    module = module.double().eval()
    with torch.no_grad():
        want = module(*inputs)
    want = [w.numpy() for w in (want if isinstance(want, tuple)
                                else (want,)) if w is not None]
    try:
        got = rlx.from_torch(module, inputs)(*[x.numpy() for x in inputs])
    except Exception as error:  # noqa: BLE001 - reported
        failures.append("%s: %s: %s" % (name, type(error).__name__, error))
        return
    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(want):
        failures.append("%s: %d outputs, PyTorch gives %d" % (
            name, len(got), len(want)))
        return
    worst = 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        err = np.abs(np.asarray(g, np.float64) - w).max() / max(
            np.abs(w).max(), 1e-30)
        worst = max(worst, err)
        if g.shape != w.shape or g.dtype != w.dtype or not err <= RTOL:
            failures.append("%s, output %d: error %.3g, %s %s vs %s %s" % (
                name, i, err, g.shape, g.dtype, w.shape, w.dtype))
    print("ok %s (%d outputs, max relative error %.1e)" % (
        name, len(want), worst))


class Apply(nn.Module):
    """The modules of a list, each applied to x."""

    def __init__(self, *modules):
        super().__init__()
        self.ms = nn.ModuleList(modules)

    def forward(self, x):
        return tuple(m(x) for m in self.ms)


# Inputs span the activations' kinks and saturation: [-8, 8] and zeros.
x = randn(3, 6, 5, scale=3.0)
x[0, 0, :3] = torch.tensor([0.0, 0.5, -0.5], dtype=torch.float64)
run("activation modules", Apply(
    nn.Hardswish(), nn.Hardsigmoid(), nn.Mish(), nn.ELU(), nn.ELU(0.5),
    nn.SELU(), nn.CELU(), nn.CELU(1.7), nn.GELU(), nn.GELU("tanh"),
    nn.SiLU(), nn.Softplus(), nn.Softplus(2.0, 3.0), nn.Softsign(),
    nn.Tanhshrink(), nn.LogSigmoid(), nn.PReLU(), nn.PReLU(6),
    nn.LeakyReLU(0.2), nn.ReLU6(), nn.Hardtanh(-0.7, 1.3),
    nn.Hardshrink(), nn.Hardshrink(1.1), nn.Softshrink(),
    nn.Softshrink(0.8), nn.Threshold(0.3, -2.0), nn.GLU(1), nn.GLU(-2),
    nn.Softmin(1), nn.Softmax(-1), nn.LogSoftmax(1), nn.Softmax2d(),
    nn.RReLU(), nn.Sigmoid(), nn.Tanh(), nn.ReLU(), nn.Identity()), (x,))


class Functional(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(6, dtype=torch.float64))

    def forward(self, x):
        return (F.hardswish(x), F.hardsigmoid(x), F.mish(x), F.elu(x, 1.3),
                F.selu(x), F.celu(x, 0.6), F.softplus(x, beta=0.5),
                F.softsign(x), F.tanhshrink(x), F.logsigmoid(x),
                F.prelu(x, self.w), F.rrelu(x, 0.1, 0.3),
                F.hardshrink(x, 0.4), F.softshrink(x, 0.3),
                F.threshold(x, 0.1, 20.0), F.glu(x, 1), F.softmin(x, -1),
                F.gelu(x, approximate="tanh"), F.relu6(x), F.silu(x),
                torch.selu(x), torch.celu(x), torch.prelu(x, self.w),
                x.relu(), x.hardshrink(0.2), x.clamp_min(0.2),
                x.clamp_max(-0.1), F.elu(x.clone(), inplace=True),
                F.relu(x.clone(), inplace=True),
                F.hardtanh(x.clone(), inplace=True),
                F.leaky_relu(x.clone(), 0.3, inplace=True),
                torch.sigmoid(x).sigmoid_(), F.log_softmax(x, dim=1),
                F.softmax(x, 2))


run("activation functions", Functional(), (x,))


class Pools(nn.Module):
    """ceil_mode pooling where the last window hangs over the input (and,
    for 7 = 2 * 3 + 1 with stride 3, where PyTorch drops a window that
    would start in the padding)."""

    def __init__(self):
        super().__init__()
        self.max = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.max_pad = nn.MaxPool2d(3, 2, padding=1, ceil_mode=True)
        self.max_wide = nn.MaxPool2d((2, 3), (3, 3), ceil_mode=True)
        self.avg = nn.AvgPool2d(3, 2, ceil_mode=True)
        self.avg_pad = nn.AvgPool2d(3, 2, padding=1, ceil_mode=True)
        self.avg_nopad = nn.AvgPool2d(3, 2, padding=1, ceil_mode=True,
                                      count_include_pad=False)
        self.avg_floor_nopad = nn.AvgPool2d(3, 2, padding=1,
                                            count_include_pad=False)
        self.avg_div = nn.AvgPool2d(2, 3, ceil_mode=True,
                                    divisor_override=3)
        self.max1d = nn.MaxPool1d(4, 3, padding=2, ceil_mode=True)
        self.avg1d = nn.AvgPool1d(4, 3, padding=1, ceil_mode=True)

    def forward(self, x):
        line = x.flatten(2)
        return (self.max(x), self.max_pad(x), self.max_wide(x), self.avg(x),
                self.avg_pad(x), self.avg_nopad(x), self.avg_floor_nopad(x),
                self.avg_div(x), self.max1d(line), self.avg1d(line),
                F.max_pool2d(x, 2, 2, 0, 1, True),
                F.avg_pool2d(x, 3, 2, 1, True, False),
                F.max_pool2d(-x.abs(), 3, 3, ceil_mode=True))


for shape in ((2, 3, 7, 8), (1, 2, 5, 5), (1, 1, 4, 6)):
    run("pooling %s" % (shape,), Pools(), (randn(*shape),))


class Adaptive(nn.Module):
    """Adaptive average pooling to sizes that do not divide the input's
    (windows of unequal sizes, overlapping, or more outputs than
    inputs)."""

    def __init__(self):
        super().__init__()
        self.a = nn.AdaptiveAvgPool2d((3, 5))
        self.b = nn.AdaptiveAvgPool2d((6, None))
        self.c = nn.AdaptiveAvgPool1d(4)

    def forward(self, x):
        return (self.a(x), self.b(x), self.c(x.flatten(2)),
                F.adaptive_avg_pool2d(x[:, :, :1, :1], 3))


run("adaptive pooling", Adaptive(), (randn(2, 3, 7, 8),))


class EvalIdentities(nn.Module):
    """Dropout modules and functions, stochastic_depth, drop_block2d: the
    identity."""

    def __init__(self):
        super().__init__()
        self.d1 = nn.Dropout1d(0.2)
        self.drops = nn.ModuleList([nn.Dropout(0.3),
                                    nn.Dropout2d(0.5), nn.Dropout3d(0.5),
                                    nn.AlphaDropout(0.2),
                                    nn.FeatureAlphaDropout(0.1)])
        self.depth = torchvision.ops.StochasticDepth(0.2, "batch")
        self.block = torchvision.ops.DropBlock2d(0.3, 3)

    def forward(self, x):
        y = x
        for m in self.drops:
            y = m(y) + 1.0
        return (y, self.d1(x.flatten(2)),
                F.dropout(x, 0.4, training=self.training),
                F.dropout2d(x, 0.4, training=False), F.alpha_dropout(x, 0.1),
                torchvision.ops.stochastic_depth(x, 0.3, "row",
                                                 self.training),
                self.depth(x), self.block(x))


if torchvision is not None:
    run("dropout and stochastic_depth", EvalIdentities(),
        (randn(2, 3, 4, 5),))
else:
    print("torchvision missing: no stochastic_depth")
    failures.append("torchvision is not installed (python3-torchvision)")


# nn.MultiheadAttention.
class MHA(nn.Module):
    def __init__(self, e, heads, batch_first, bias=True, kdim=None,
                 vdim=None, add_bias_kv=False, add_zero_attn=False, **call):
        super().__init__()
        self.attn = nn.MultiheadAttention(
            e, heads, bias=bias, batch_first=batch_first, kdim=kdim,
            vdim=vdim, add_bias_kv=add_bias_kv, add_zero_attn=add_zero_attn)
        self.call = call

    def forward(self, q, k, v, mask0=None, mask1=None):
        masks = [m for m in (mask0, mask1) if m is not None]
        kwargs = dict(self.call)
        names = [n for n in ("attn_mask", "key_padding_mask")
                 if n in kwargs and kwargs[n] is None]
        for n, m in zip(names, masks):
            kwargs[n] = m
        return self.attn(q, k, v, **kwargs)


class SelfMHA(MHA):
    def forward(self, x, mask0=None, mask1=None):
        return super().forward(x, x, x, mask0, mask1)


n, s, skv, e, heads = 3, 5, 7, 12, 3
keep_some = torch.rand(s, skv, generator=gen) > 0.6
keep_some[:, 0] = False   # True is "masked" for MultiheadAttention
padding = torch.rand(n, skv, generator=gen) > 0.7
padding[:, 0] = False
float_mask = randn(n * heads, s, skv)
causal = torch.triu(torch.full((s, s), float("-inf"),
                               dtype=torch.float64), 1)
for batch_first in (True, False):
    b = "batch_first" if batch_first else "seq_first"
    shp = (lambda length: (n, length, e) if batch_first else (length, n, e))
    q, k, v = randn(*shp(s)), randn(*shp(skv)), randn(*shp(skv))
    run("mha %s need_weights" % b, MHA(e, heads, batch_first), (q, k, v))
    run("mha %s no weights" % b, MHA(e, heads, batch_first,
                                     need_weights=False), (q, k, v))
    run("mha %s per-head weights, no bias" % b,
        MHA(e, heads, batch_first, bias=False,
            average_attn_weights=False), (q, k, v))
    run("mha %s bool attn_mask + key_padding_mask" % b,
        MHA(e, heads, batch_first, attn_mask=None, key_padding_mask=None),
        (q, k, v, keep_some, padding))
    run("mha %s bool masks, no weights" % b,
        MHA(e, heads, batch_first, attn_mask=None, key_padding_mask=None,
            need_weights=False), (q, k, v, keep_some, padding))
    run("mha %s float 3-D attn_mask" % b,
        MHA(e, heads, batch_first, attn_mask=None, need_weights=False),
        (q, k, v, float_mask))
    run("mha %s float attn_mask, weights" % b,
        MHA(e, heads, batch_first, attn_mask=None), (q, k, v, float_mask))
    run("mha %s kdim vdim" % b, MHA(e, heads, batch_first, kdim=5, vdim=7),
        (q, randn(*shp(skv))[..., :5].contiguous(),
         randn(*shp(skv))[..., :7].contiguous()))
    x = randn(*shp(s))
    run("mha %s self, causal" % b,
        SelfMHA(e, heads, batch_first, attn_mask=None, need_weights=False),
        (x, causal))
    run("mha %s self, key_padding_mask" % b,
        SelfMHA(e, heads, batch_first, key_padding_mask=None),
        (x, padding[:, :s]))
    run("mha %s add_bias_kv, add_zero_attn, masks" % b,
        MHA(e, heads, batch_first, attn_mask=None, key_padding_mask=None,
            add_bias_kv=True, add_zero_attn=True),
        (q, k, v, keep_some, padding))
    run("mha %s add_zero_attn, float mask" % b,
        MHA(e, heads, batch_first, attn_mask=None, add_zero_attn=True,
            need_weights=False), (q, k, v, float_mask))
run("mha unbatched", MHA(e, heads, False, attn_mask=None),
    (randn(s, e), randn(skv, e), randn(skv, e), float_mask[:1, :, :]
     .expand(heads, -1, -1).contiguous()))


class Encoder(nn.Module):
    def __init__(self, *args, mask=False, **kwargs):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(*args, **kwargs)
        self.mask = mask

    def forward(self, x, mask=None, key_padding_mask=None):
        return self.layer(x, mask, key_padding_mask)


class Decoder(nn.Module):
    def __init__(self, *args, **kwargs):
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(*args, **kwargs)

    def forward(self, x, memory, tgt_mask=None):
        return self.layer(x, memory, tgt_mask)


d_model, nhead, ff = 12, 3, 20
for norm_first in (False, True):
    for act in ("relu", "gelu"):
        what = "norm_first=%s %s" % (norm_first, act)
        kw = dict(dim_feedforward=ff, dropout=0.1, activation=act,
                  norm_first=norm_first, batch_first=True)
        src = randn(n, s, d_model)
        run("encoder layer %s" % what, Encoder(d_model, nhead, **kw), (src,))
        run("encoder layer %s, masks" % what, Encoder(d_model, nhead, **kw),
            (src, causal, padding[:, :s]))
        run("decoder layer %s" % what, Decoder(d_model, nhead, **kw),
            (src, randn(n, skv, d_model), causal))
run("encoder layer seq first, GELU module",
    Encoder(d_model, nhead, ff, 0.0, nn.GELU("tanh")),
    (randn(s, n, d_model),))


class Stacks(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(
            d_model, nhead, ff, batch_first=True), 2, nn.LayerNorm(d_model))
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(
            d_model, nhead, ff, batch_first=True, norm_first=True), 2)

    def forward(self, src, tgt, tgt_mask):
        memory = self.encoder(src)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask)


run("encoder and decoder stacks", Stacks(),
    (randn(n, skv, d_model), randn(n, s, d_model), causal))

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
