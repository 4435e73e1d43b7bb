# RUN: %python %s
# The dedicated backward ops (attention_backward, layer_norm_backward,
# rms_norm_backward, conv2d_backward_input/weight,
# softmax_cross_entropy_backward) against torch.autograd.grad of the
# float64 PyTorch forward with the same incoming cotangent: every attention
# mask kind with grouped-query heads and fully masked rows, explicit scales
# and epsilons, strided/padded (also asymmetrically)/dilated/grouped
# convolutions whose window leaves input rows unread, dynamic dims, and
# f32/f64/f16/bf16. Errors are measured against the largest magnitude of
# each expected cotangent (gradients are sums, so single elements can be
# near zero).

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("backward", KNOWN_FAILURES)
r = rlxtest.rng()
RTOL = {"f32": 1e-4, "f64": 1e-10, "f16": 2e-2, "bf16": 2e-2}


def t64(x):
    return torch.tensor(np.asarray(x, np.float64), requires_grad=True)


def grads(out, inputs, cotangent):
    gs = torch.autograd.grad(out, inputs, torch.tensor(
        np.asarray(cotangent, np.float64)))
    return [g.detach().numpy() for g in gs]


def tols(expected, elem):
    """(rtol, atol) per result: atol relative to the largest magnitude."""
    rtol = RTOL[elem]
    return [(rtol, rtol * max(float(np.abs(e).max()), 1e-30))
            for e in expected]


def sized(shape, dyn):
    return [None if i in dyn else d for i, d in enumerate(shape)]


# ---------------------------------------------------------------------------
# attention_backward
# ---------------------------------------------------------------------------

def attention_case(name, kind, B=2, H=4, Hkv=2, S=5, Skv=5, D=8, Dv=None,
                   elem="f32", window=None, mshape=None, scale=None,
                   dyn=(), mask=None):
    Dv = Dv or D
    q = rand(r, (B, H, S, D), elem, -1.5, 1.5)
    k = rand(r, (B, Hkv, Skv, D), elem, -1.5, 1.5)
    v = rand(r, (B, Hkv, Skv, Dv), elem, -1, 1)
    if mask is None and kind == "custom":
        mask = r.random(mshape) < 0.6
    elif kind == "bias":
        mask = rand(r, mshape, elem, -2, 2)
    tq, tk, tv = (T(sized(a.shape, dyn), elem) for a in (q, k, v))
    qt, kt, vt = t64(q), t64(k), t64(v)
    out = rlxtest.attention_torch(qt, kt, vt, kind, window, mask, scale)
    o = rlxtest.as_elem(out.detach().numpy(), elem)
    do = rand(r, o.shape, elem, -1, 1)
    to = T(sized(o.shape, dyn), elem)
    args = [("%q", tq, q), ("%k", tk, k), ("%v", tv, v), ("%o", to, o),
            ("%do", to, do)]
    if mask is not None:
        args.append(("%m", T(mask.shape, "i1" if kind == "custom" else elem),
                     mask))
    attrs = " window = %d" % window if window else ""
    if scale is not None:
        attrs += " {scale = %.6e : f32}" % scale
    body = ("%dq, %dk, %dv = rlx.attention_backward %q, %k, %v, %o, %do{} "
            "mask = {}{} : {}".format(", %m" if mask is not None else "",
                                      kind, attrs,
                                      ", ".join(t for n, t, _ in args
                                                if n != "%do")))
    e = grads(out, (qt, kt, vt), do)
    return Case("attention/%s/%s/%s" % (kind, elem, name), args, body,
                [("%dq", tq), ("%dk", tk), ("%dv", tv)], e, tols(e, elem))


rows_masked = r.random((2, 4, 5, 6)) < 0.6
rows_masked[0, 1, 2] = False
rows_masked[1, :, 4] = False
suite.run([
    attention_case("mha", "none", Hkv=4),
    attention_case("gqa_skv7_dv6", "none", Hkv=2, Skv=7, Dv=6),
    attention_case("mqa", "none", Hkv=1, S=3, Skv=9),
    attention_case("gqa", "causal", Hkv=2, S=6, Skv=6),
    attention_case("mqa_skv_gt_s", "causal", Hkv=1, S=3, Skv=7),
    attention_case("skv_lt_s", "causal", Hkv=2, S=6, Skv=4),
    attention_case("w3_gqa", "sliding_window", Hkv=2, S=8, Skv=8, window=3),
    attention_case("w2_skv_gt_s", "sliding_window", Hkv=4, S=4, Skv=9,
                   window=2),
    attention_case("w1", "sliding_window", Hkv=1, S=5, Skv=5, window=1),
    attention_case("full_gqa", "custom", Hkv=2, S=5, Skv=7,
                   mshape=(2, 4, 5, 7)),
    attention_case("skv", "custom", Hkv=2, S=4, Skv=6, mshape=(6,)),
    attention_case("masked_rows", "custom", Hkv=2, S=5, Skv=6,
                   mask=rows_masked),
    attention_case("full_gqa", "bias", Hkv=2, S=5, Skv=7,
                   mshape=(2, 4, 5, 7)),
    attention_case("b1s_skv", "bias", Hkv=1, S=4, Skv=6, mshape=(2, 1, 4, 6)),
    attention_case("scale", "none", Hkv=2, scale=0.25),
    attention_case("scale", "causal", Hkv=1, S=4, Skv=6, scale=2.0),
    attention_case("decode", "causal", Hkv=1, S=1, Skv=9),
    attention_case("dyn_b_s", "causal", Hkv=2, S=5, Skv=7, dyn=(0, 2)),
    attention_case("d32", "none", H=2, Hkv=2, S=16, Skv=16, D=32),
    attention_case("gqa", "causal", Hkv=2, S=6, Skv=6, elem="f64"),
    attention_case("gqa", "causal", Hkv=2, S=6, Skv=6, elem="f16"),
    attention_case("gqa", "sliding_window", Hkv=2, S=6, Skv=8, window=3,
                   elem="bf16"),
    attention_case("gqa", "bias", Hkv=2, S=4, Skv=5, mshape=(4, 5),
                   elem="bf16"),
], chunk=6)


# ---------------------------------------------------------------------------
# layer_norm_backward / rms_norm_backward
# ---------------------------------------------------------------------------

def attr(eps):
    return "" if eps is None else " {epsilon = %.6e : f32}" % eps


def rms_norm(x, g, eps):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps) * g


def norm_case(op, name, elem, shape, eps=None, dyn=(), offset=0.0):
    d = shape[-1]
    x = rlxtest.as_elem(rand(r, shape, "f64", -2, 2) + offset, elem)
    g = rand(r, (d,), elem, 0.5, 1.5)
    dy = rand(r, shape, elem, -1, 1)
    tx, tg = T(sized(shape, dyn), elem), T((d,), elem)
    xt, gt = t64(x), t64(g)
    if op == "layer_norm":
        e = float(np.float32(1e-5 if eps is None else eps))
        bt = t64(rand(r, (d,), elem, -1, 1))
        out = F.layer_norm(xt, (d,), gt, bt, e)
        e = grads(out, (xt, gt, bt), dy)
        results = [("%dx", tx), ("%dg", tg), ("%db", tg)]
    else:
        e = float(np.float32(1e-6 if eps is None else eps))
        out = rms_norm(xt, gt, e)
        e = grads(out, (xt, gt), dy)
        results = [("%dx", tx), ("%dg", tg)]
    body = "{} = rlx.{}_backward %dy, %x, %g{} : {}, {}".format(
        ", ".join(n for n, _ in results), op, attr(eps), tx, tg)
    return Case("%s/%s/%s" % (op, elem, name),
                [("%dy", tx, dy), ("%x", tx, x), ("%g", tg, g)], body,
                results, e, tols(e, elem))


cases = []
for op in ("layer_norm", "rms_norm"):
    cases += [
        norm_case(op, "rows", "f32", (4, 16)),
        norm_case(op, "rank3", "f32", (2, 3, 32)),
        norm_case(op, "rank1", "f32", (24,)),
        norm_case(op, "long", "f32", (3, 1000)),
        norm_case(op, "eps", "f32", (5, 8), eps=0.1),
        norm_case(op, "dyn", "f32", (3, 5, 16), dyn=(0, 1)),
        norm_case(op, "dyn_feature", "f32", (4, 12), dyn=(1,)),
        norm_case(op, "offset", "f32", (4, 64), offset=5.0),
        norm_case(op, "rows", "f64", (4, 16)),
        norm_case(op, "rows", "f16", (4, 32)),
        norm_case(op, "rows", "bf16", (2, 3, 64)),
        # Many rows of a few features: the GPU targets split the parameter
        # gradients' column sums over blocks and chunks.
        norm_case(op, "many_rows", "f32", (6, 300, 40)),
        norm_case(op, "many_rows", "bf16", (1000, 48)),
    ]
suite.run(cases)


# ---------------------------------------------------------------------------
# conv2d_backward_input / conv2d_backward_weight
# ---------------------------------------------------------------------------

def conv_case(name, elem="f32", N=2, cin=3, cout=4, hw=(8, 8), k=(3, 3),
              strides=None, padding=None, dilations=None, groups=1,
              dyn_n=False):
    x = rand(r, (N, cin) + hw, elem, -1, 1)
    w = rand(r, (cout, cin // groups) + k, elem, -1, 1)
    s = strides or [1, 1]
    p = padding or [0, 0, 0, 0]
    d = dilations or [1, 1]
    xt, wt = t64(x), t64(w)
    # torch pads symmetrically only: pad (left, right, top, bottom) first.
    out = F.conv2d(F.pad(xt, (p[2], p[3], p[0], p[1])), wt, stride=s,
                   dilation=d, groups=groups)
    dy = rand(r, tuple(out.shape), elem, -1, 1)
    ex, ew = grads(out, (xt, wt), dy)
    attrs = ""
    for key, val in (("strides", strides), ("padding", padding),
                     ("dilations", dilations)):
        if val is not None:
            attrs += " %s = [%s]" % (key, ", ".join(map(str, val)))
    if groups != 1:
        attrs += " groups = %d" % groups
    tdy, tx, tw = (T(a.shape, elem) for a in (dy, x, w))
    cases = []
    if not dyn_n:
        cases.append(Case(
            "conv2d_backward_input/%s/%s" % (elem, name),
            [("%dy", tdy, dy), ("%w", tw, w)],
            "%dx = rlx.conv2d_backward_input %dy, %w{} : {}, {} -> {}".format(
                attrs, tdy, tw, tx),
            [("%dx", tx)], [ex], tols([ex], elem)))
    else:
        tdy, tx = T((None,) + dy.shape[1:], elem), T((None,) + x.shape[1:],
                                                     elem)
    cases.append(Case(
        "conv2d_backward_weight/%s/%s" % (elem, name),
        [("%dy", tdy, dy), ("%x", tx, x)],
        "%dw = rlx.conv2d_backward_weight %dy, %x{} : {}, {} -> {}".format(
            attrs, tdy, tx, tw),
        [("%dw", tw)], [ew], tols([ew], elem)))
    return cases


suite.run(
    conv_case("plain") +
    conv_case("pad1", padding=[1, 1, 1, 1]) +
    conv_case("s2_pad1_leftover", hw=(9, 10), strides=[2, 2],
              padding=[1, 1, 1, 1]) +
    conv_case("s3_unread_rows", hw=(11, 10), strides=[3, 2]) +
    conv_case("asym_pad", hw=(7, 9), padding=[0, 2, 1, 0], strides=[2, 1]) +
    conv_case("dilated", hw=(10, 10), dilations=[2, 3], padding=[2, 2, 1, 1])
    + conv_case("groups2", cin=4, cout=6, groups=2, strides=[2, 2],
                padding=[1, 1, 1, 1], hw=(8, 7)) +
    conv_case("depthwise", cin=4, cout=4, groups=4, padding=[1, 1, 1, 1]) +
    conv_case("k1x2", k=(1, 2), hw=(5, 6), strides=[1, 2]) +
    conv_case("dyn_n", dyn_n=True, strides=[2, 2], padding=[1, 1, 1, 1]) +
    conv_case("s2", elem="f64", strides=[2, 2], padding=[1, 1, 1, 1]) +
    conv_case("s2", elem="f16", strides=[2, 2], padding=[1, 1, 1, 1]) +
    conv_case("groups2", elem="bf16", cin=4, cout=4, groups=2,
              strides=[2, 2], padding=[1, 1, 1, 1]), chunk=8)


# ---------------------------------------------------------------------------
# softmax_cross_entropy_backward
# ---------------------------------------------------------------------------

def ce_case(name, elem, N, C, dyn=False, spread=3.0):
    logits = rand(r, (N, C), elem, -spread, spread)
    labels = r.integers(0, C, (N,))
    dl = rand(r, (), elem, 0.5, 2.0, nonzero=True)
    lt = t64(logits)
    out = F.cross_entropy(lt, torch.from_numpy(labels))
    e = grads(out, (lt,), dl)
    tl = T((None if dyn else N, C), elem)
    ty = T((None if dyn else N,), "i64")
    return Case("softmax_cross_entropy_backward/%s/%s" % (elem, name),
                [("%l", tl, logits), ("%y", ty, labels),
                 ("%g", T((), elem), dl)],
                "%d = rlx.softmax_cross_entropy_backward %l, %y, %g : "
                "{}, {}, {}".format(tl, ty, T((), elem)),
                [("%d", tl)], e, tols(e, elem))


suite.run([
    ce_case("8x10", "f32", 8, 10),
    ce_case("1x5", "f32", 1, 5),
    ce_case("16x3", "f32", 16, 3),
    ce_case("large_logits", "f32", 6, 7, spread=60.0),
    ce_case("dyn", "f32", 5, 9, dyn=True),
    ce_case("8x10", "f64", 8, 10),
    ce_case("8x10", "f16", 8, 10),
    ce_case("8x10", "bf16", 8, 10),
])

suite.finish()
