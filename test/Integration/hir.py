# RUN: %python %s
# The rlx_hir blocks (rlx-run lowers them with --rlx-lower-hir) against
# float64 NumPy written from their descriptions in RLXHIROps.td (and those
# of rlx.rope, rlx.attention, rlx.layer_norm, rlx.rms_norm they refer to):
# linear (every activation, with and without bias, rank 2 and 3), mlp,
# swiglu, embedding, layer_norm, rms_norm, attention_block (masks none,
# causal, sliding_window and an attn_mask; rope neox and gptj; qkv and out
# biases; grouped-query and multi-query heads; a scale), transformer_layer
# (bert and llama), conv_block (strides, padding, dilations, activations),
# on f32 and f64; then the two example layers, examples/bert_layer_hir.mlir
# and examples/llama_layer_hir.mlir (both of its functions), run as they
# are on random weights. The references compute in float64 without
# rounding between steps; the f32 tolerances grow with the length of the
# reductions.

import math
import os

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from hir_reference import (activation, attention_block, bert_layer,
                           bert_weights, f32, f64, layer_norm, linear,
                           llama_layer, llama_weights, rms_norm, swiglu)
from rlxtest import Case, Suite, rand, weight
from rlxtest import tensor_type as T

# linear, mlp and swiglu accept a rank-1 input (their verifiers ask for
# rank >= 1; the descriptions say [..., K]), but --rlx-lower-hir builds
# rlx.fused_matmul_bias_act (linear, mlp) or, for swiglu's down
# projection, rlx.matmul on the rank-1 value, and both need rank >= 2:
# rlx-run fails with "'rlx.fused_matmul_bias_act' op operand 'lhs' must
# have rank at least 2, got 1" ('rlx.matmul' for swiglu), then "cannot
# lower this block to rlx".
KNOWN_FAILURES = []

suite = Suite("hir", KNOWN_FAILURES)
r = rlxtest.rng()
CHUNK = 8  # compile time grows faster than linearly with attention ops
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ACTIVATIONS = ["none", "relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh"]
# (rtol, atol) of one short chain; atol is scaled by sqrt(K) for a matmul
# of inner size K.
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-11, 1e-11)}
# Whole attention blocks, layers and conv blocks: more roundings.
BLOCK_TOL = {"f32": (2e-5, 2e-5), "f64": (1e-10, 1e-10)}


def functional(args, result):
    return "({}) -> {}".format(", ".join(t for _, t, _ in args), result)


def attr_dict(attrs):
    return " {%s}" % ", ".join(attrs) if attrs else ""


# --------------------------------------------------------------------------
# linear, mlp, swiglu
# --------------------------------------------------------------------------


def linear_case(name, act, elem="f32", xshape=(2, 3, 8), N=6, bias=True,
                default_act=False):
    K = xshape[-1]
    x = rand(r, xshape, elem)
    w = weight(r, (K, N), K, elem)
    args = [("%x", T(x.shape, elem), x), ("%w", T(w.shape, elem), w)]
    b = None
    if bias:
        b = rand(r, (N,), elem, -1, 1)
        args.append(("%b", T(b.shape, elem), b))
    e = activation(linear(x, w, b), act)
    attrs = [] if default_act else ['activation = "%s"' % act]
    ty = T(e.shape, elem)
    body = "%y = rlx_hir.linear {}{} : {}".format(
        ", ".join(n for n, _, _ in args), attr_dict(attrs),
        functional(args, ty))
    rt, at = TOL[elem]
    return Case("linear/%s/%s/%s" % (act, elem, name), args, body,
                [("%y", ty)], [e], (rt, at * math.sqrt(K)))


def mlp_case(name, act, elem="f32", xshape=(4, 12), Hd=16, N=5):
    K = xshape[-1]
    x = rand(r, xshape, elem)
    w1, w2 = weight(r, (K, Hd), K, elem), weight(r, (Hd, N), Hd, elem)
    b1, b2 = rand(r, (Hd,), elem, -1, 1), rand(r, (N,), elem, -1, 1)
    args = [("%x", T(x.shape, elem), x), ("%w1", T(w1.shape, elem), w1),
            ("%b1", T(b1.shape, elem), b1), ("%w2", T(w2.shape, elem), w2),
            ("%b2", T(b2.shape, elem), b2)]
    e = linear(activation(linear(x, w1, b1), act or "gelu"), w2, b2)
    ty = T(e.shape, elem)
    attrs = ['activation = "%s"' % act] if act else []
    body = "%y = rlx_hir.mlp %x, %w1, %b1, %w2, %b2{} : {}".format(
        attr_dict(attrs), functional(args, ty))
    rt, at = TOL[elem]
    return Case("mlp/%s/%s/%s" % (act or "default", elem, name), args, body,
                [("%y", ty)], [e], (rt, at * math.sqrt(K + Hd)))


def swiglu_case(name, elem="f32", xshape=(2, 3, 16), Fh=24, N=None):
    E = xshape[-1]
    N = N or E
    x = rand(r, xshape, elem)
    wg, wu = weight(r, (E, Fh), E, elem), weight(r, (E, Fh), E, elem)
    wd = weight(r, (Fh, N), Fh, elem)
    args = [("%x", T(x.shape, elem), x), ("%wg", T(wg.shape, elem), wg),
            ("%wu", T(wu.shape, elem), wu), ("%wd", T(wd.shape, elem), wd)]
    e = swiglu(x, wg, wu, wd)
    ty = T(e.shape, elem)
    body = "%y = rlx_hir.swiglu %x, %wg, %wu, %wd : {}".format(
        functional(args, ty))
    rt, at = TOL[elem]
    return Case("swiglu/%s/%s" % (elem, name), args, body, [("%y", ty)], [e],
                (rt, at * math.sqrt(E + Fh)))


cases = []
for act in ACTIVATIONS:
    cases += [linear_case("bias", act),
              linear_case("nobias", act, xshape=(5, 8), bias=False)]
cases += [
    linear_case("default_act", "none", default_act=True),
    linear_case("default_act_nobias", "none", bias=False, default_act=True),
    linear_case("rank4", "silu", xshape=(2, 2, 3, 8), N=4),
    linear_case("k64", "gelu_tanh", xshape=(6, 64), N=32),
    linear_case("bias", "gelu", "f64"),
    linear_case("nobias", "relu", "f64", bias=False),
    mlp_case("default", None),
    mlp_case("relu", "relu"),
    mlp_case("silu_rank3", "silu", xshape=(2, 3, 12)),
    mlp_case("default", None, "f64"),
    swiglu_case("b2s3"),
    swiglu_case("rank2_n_ne_e", xshape=(5, 16), Fh=40, N=8),
    swiglu_case("e64", xshape=(1, 4, 64), Fh=96),
    swiglu_case("b2s3", "f64"),
]
suite.run(cases)

# --------------------------------------------------------------------------
# embedding, layer_norm, rms_norm
# --------------------------------------------------------------------------


def embedding_case(name, elem="f32", V=10, E=4, ids_shape=(2, 3)):
    table = rand(r, (V, E), elem)
    ids = r.integers(0, V, ids_shape).astype(np.int64)
    ty = T(ids_shape + (E,), elem)
    args = [("%t", T(table.shape, elem), table), ("%i", T(ids_shape, "i64"),
                                                  ids)]
    body = "%y = rlx_hir.embedding %t, %i : {}".format(functional(args, ty))
    return Case("embedding/%s/%s" % (elem, name), args, body, [("%y", ty)],
                [f64(table)[ids]], (0, 0))


def norm_case(kind, name, elem="f32", shape=(2, 3, 16), eps=None):
    d = shape[-1]
    x = rand(r, shape, elem, -2, 2)
    g, b = rand(r, (d,), elem, 0.5, 1.5), rand(r, (d,), elem, -1, 1)
    args = [("%x", T(shape, elem), x), ("%g", T((d,), elem), g)]
    if kind == "layer_norm":
        args.append(("%b", T((d,), elem), b))
        e = layer_norm(x, g, b, f32(1e-5 if eps is None else eps))
    else:
        e = rms_norm(x, g, f32(1e-6 if eps is None else eps))
    ty = T(shape, elem)
    attrs = [] if eps is None else ["epsilon = %.6e : f32" % eps]
    body = "%y = rlx_hir.{} {}{} : {}".format(
        kind, ", ".join(n for n, _, _ in args), attr_dict(attrs),
        functional(args, ty))
    rt, at = TOL[elem]
    return Case("%s/%s/%s" % (kind, elem, name), args, body, [("%y", ty)],
                [e], (rt, at * 2))


cases = [embedding_case("ids2d"),
         embedding_case("ids1d", ids_shape=(7,), V=5, E=6),
         embedding_case("ids3d", "f64", ids_shape=(2, 2, 3))]
for kind in ("layer_norm", "rms_norm"):
    cases += [norm_case(kind, "default_eps"),
              norm_case(kind, "eps", shape=(4, 16), eps=0.25),
              norm_case(kind, "rank1", shape=(24,), eps=1e-3),
              norm_case(kind, "d768", shape=(2, 768), eps=1e-12),
              norm_case(kind, "default_eps", "f64", shape=(3, 32)),
              norm_case(kind, "eps", "f64", shape=(2, 2, 8), eps=0.5)]
suite.run(cases)

# --------------------------------------------------------------------------
# attention_block
# --------------------------------------------------------------------------


def block_case(name, elem="f32", B=2, S=5, E=16, H=4, Hkv=None, D=None,
               kind=None, qkv_bias=False, out_bias=False, rope_style=None,
               explicit_neox=False, window=None, mshape=None, scale=None):
    Hkv_ = Hkv or H
    D = D or E // H
    ops = rlxtest.attention_block_operands(
        r, elem, B, S, E, H, Hkv_, D, qkv_bias, out_bias, bool(rope_style),
        kind, mshape)
    x, wqkv, wout, args, syntax = ops.x, ops.wqkv, ops.wout, ops.args, \
        ops.syntax
    bq, bo, cos, sin, mask = ops.bq, ops.bo, ops.cos, ops.sin, ops.mask
    attrs = ["num_heads = %d : i64" % H]
    if Hkv is not None:
        attrs.append("num_kv_heads = %d : i64" % Hkv)
    if kind is not None:
        attrs.append('mask = "%s"' % kind)
    if window is not None:
        attrs.append("window = %d : i64" % window)
    if scale is not None:
        attrs.append("scale = %.6e : f32" % scale)
    if rope_style == "gptj" or explicit_neox:
        attrs.append('rope_style = "%s"' % rope_style)
    e = attention_block(x, wqkv, wout, H, Hkv_, kind or "none", bq, bo, cos,
                        sin, rope_style or "neox", window, mask, scale)
    ty = T(x.shape, elem)
    body = "%y = rlx_hir.attention_block %x, %wqkv, %wo{}{} : {}".format(
        syntax, attr_dict(attrs), functional(args, ty))
    return Case("attention_block/%s/%s" % (elem, name), args, body,
                [("%y", ty)], [e], BLOCK_TOL[elem])


suite.run([
    block_case("bare_default_mask"),
    block_case("none_qkv_bias", kind="none", qkv_bias=True),
    block_case("causal_out_bias", kind="causal", out_bias=True),
    block_case("causal_biases_rope_neox_gqa", kind="causal", Hkv=2,
               qkv_bias=True, out_bias=True, rope_style="neox"),
    block_case("causal_rope_neox_explicit_mqa", kind="causal", Hkv=1,
               rope_style="neox", explicit_neox=True),
    block_case("window2_rope_gptj_gqa", kind="sliding_window", window=2,
               S=7, Hkv=2, rope_style="gptj"),
    block_case("window1_biases", kind="sliding_window", window=1,
               qkv_bias=True, out_bias=True),
    block_case("window_wide_mqa", kind="sliding_window", window=100, Hkv=1),
    block_case("none_rope_gptj_scale", rope_style="gptj", scale=0.25),
    block_case("custom_mask_gqa", kind="custom", mshape=(2, 1, 5, 5),
               Hkv=2),
    block_case("bias_mask_rope", kind="bias", mshape=(5, 5),
               rope_style="neox", out_bias=True),
    block_case("e_ne_hd_gqa_causal", E=12, H=4, Hkv=2, D=6, kind="causal",
               qkv_bias=True),
    block_case("s1_causal_rope", S=1, E=16, H=2, kind="causal",
               rope_style="neox"),
    block_case("b1_s9_gqa_causal_rope", B=1, S=9, E=32, H=4, Hkv=2,
               kind="causal", rope_style="neox"),
    block_case("causal_rope_biases_gqa", "f64", kind="causal", Hkv=2,
               rope_style="neox", qkv_bias=True, out_bias=True),
    block_case("window3_gptj_mqa", "f64", kind="sliding_window", window=3,
               S=6, Hkv=1, rope_style="gptj"),
], chunk=CHUNK)

# --------------------------------------------------------------------------
# transformer_layer
# --------------------------------------------------------------------------


def layer_case(style, name, elem="f32", B=2, S=4, E=16, H=2, Hkv=None,
               Fh=32, kind=None, act=None, eps=None, rope_style=None,
               random_rope=False):
    x = rand(r, (B, S, E), elem, -1.5, 1.5)
    D = E // H
    if style == "bert":
        w = bert_weights(r, E, Fh, elem)
        e = bert_layer(x, w, H, kind or "none",
                       f32(1e-12 if eps is None else eps), act or "gelu")
    else:
        w = llama_weights(r, E, H, Hkv or H, D, Fh, S, elem, random_rope)
        e = llama_layer(x, w, H, Hkv or H, kind or "none",
                        f32(1e-6 if eps is None else eps),
                        rope_style or "neox")
    args = [("%x", T(x.shape, elem), x)] + [
        ("%%w%d" % i, T(v.shape, elem), v) for i, v in enumerate(w)]
    attrs = ['style = "%s"' % style, "num_heads = %d : i64" % H]
    if Hkv is not None:
        attrs.append("num_kv_heads = %d : i64" % Hkv)
    if kind is not None:
        attrs.append('mask = "%s"' % kind)
    if eps is not None:
        attrs.append("epsilon = %.6e : f32" % eps)
    if act is not None:
        attrs.append('activation = "%s"' % act)
    if rope_style is not None:
        attrs.append('rope_style = "%s"' % rope_style)
    ty = T(x.shape, elem)
    body = "%y = rlx_hir.transformer_layer {}{} : {}".format(
        ", ".join(n for n, _, _ in args), attr_dict(attrs),
        functional(args, ty))
    return Case("transformer_layer/%s/%s/%s" % (style, elem, name), args,
                body, [("%y", ty)], [e], BLOCK_TOL[elem])


suite.run([
    layer_case("bert", "default"),
    layer_case("bert", "causal_relu_eps", kind="causal", act="relu",
               eps=1e-3),
    layer_case("bert", "gelu_tanh_h4_e32", E=32, H=4, Fh=64,
               act="gelu_tanh", kind="none"),
    layer_case("bert", "default", "f64"),
    layer_case("llama", "gqa_causal", H=4, Hkv=2, kind="causal"),
    layer_case("llama", "mha_causal_eps", kind="causal", eps=1e-2),
    layer_case("llama", "mqa_none_gptj", H=4, Hkv=1, E=32,
               rope_style="gptj", random_rope=True),
    layer_case("llama", "gqa_causal_neox_explicit", H=4, Hkv=2, S=6,
               kind="causal", rope_style="neox", random_rope=True),
    layer_case("llama", "gqa_causal", "f64", H=4, Hkv=2, kind="causal"),
], chunk=CHUNK)

# --------------------------------------------------------------------------
# conv_block
# --------------------------------------------------------------------------


def conv_case(name, elem="f32", xshape=(2, 3, 8, 8), Cout=8, k=(3, 3),
              groups=4, strides=None, padding=None, dilations=None, eps=None,
              act=None):
    N, Cin = xshape[:2]
    x = rand(r, xshape, elem)
    w = weight(r, (Cout, Cin) + k, Cin * int(np.prod(k)), elem)
    b = rand(r, (Cout,), elem, -0.5, 0.5)
    g, beta = rand(r, (Cout,), elem, 0.5, 1.5), rand(r, (Cout,), elem, -1, 1)
    pd = padding or [0] * (2 * len(k))
    # rlx padding [lo0, hi0, lo1, hi1] -> F.pad (lo1, hi1, lo0, hi0).
    xp = F.pad(torch.from_numpy(f64(x)), (pd[2], pd[3], pd[0], pd[1]))
    y = F.conv2d(xp, torch.from_numpy(f64(w)), torch.from_numpy(f64(b)),
                 stride=tuple(strides or (1, 1)),
                 dilation=tuple(dilations or (1, 1)))
    y = F.group_norm(y, groups, torch.from_numpy(f64(g)),
                     torch.from_numpy(f64(beta)),
                     f32(1e-5 if eps is None else eps)).numpy()
    e = activation(y, act or "relu")
    args = [("%x", T(x.shape, elem), x), ("%w", T(w.shape, elem), w),
            ("%b", T(b.shape, elem), b), ("%g", T(g.shape, elem), g),
            ("%beta", T(beta.shape, elem), beta)]
    attrs = ["num_groups = %d : i64" % groups]
    for key, v in (("strides", strides), ("padding", padding),
                   ("dilations", dilations)):
        if v is not None:
            attrs.append("%s = array<i64: %s>" % (key, ", ".join(map(str, v))))
    if eps is not None:
        attrs.append("epsilon = %.6e : f32" % eps)
    if act is not None:
        attrs.append('activation = "%s"' % act)
    ty = T(e.shape, elem)
    body = "%y = rlx_hir.conv_block %x, %w, %b, %g, %beta{} : {}".format(
        attr_dict(attrs), functional(args, ty))
    return Case("conv_block/%s/%s" % (elem, name), args, body, [("%y", ty)],
                [e], BLOCK_TOL[elem])


suite.run([
    conv_case("default_relu"),
    conv_case("pad1_silu", padding=[1, 1, 1, 1], act="silu"),
    conv_case("stride2_asym_pad_none", strides=[2, 1], padding=[0, 2, 1, 0],
              act="none", groups=2),
    conv_case("dilation2_gelu_eps", xshape=(1, 4, 9, 9), Cout=6,
              dilations=[2, 2], groups=3, eps=0.1, act="gelu"),
    conv_case("k1_one_group_tanh", k=(1, 1), groups=1, act="tanh"),
    conv_case("k3x2_groups8", k=(3, 2), Cout=8, groups=8, act="sigmoid"),
    conv_case("pad1", "f64", padding=[1, 1, 1, 1]),
    conv_case("stride2_gelu_tanh", "f64", strides=[2, 2], act="gelu_tanh"),
])

# --------------------------------------------------------------------------
# The examples, run as they are
# --------------------------------------------------------------------------


def example(path, entry, inputs, expected, tol):
    with open(os.path.join(ROOT, "examples", path)) as f:
        source = f.read()

    def check():
        rc, log, outs = rlxtest.run(source, inputs, 1, entry=entry)
        assert rc == 0, "%s: rlx-run exited with %d:\n%s" % (path, rc, log)
        rlxtest.assert_close(outs[0], expected, tol[0], tol[1],
                             "%s @%s" % (path, entry), dtype=np.float32)
    suite.check("example/%s/%s" % (path, entry), check)


# BERT-base: hidden 768, 12 heads, FFN 3072, seq 128.
x = rand(r, (1, 128, 768), "f32", -1.5, 1.5)
w = bert_weights(r, 768, 3072, "f32")
example("bert_layer_hir.mlir", "bert_layer_hir", [x] + w,
        bert_layer(x, w, 12), (2e-5, 4e-5))

# Llama: hidden 512, 8 heads of 64 over 2 kv heads, FFN 1376, seq 16.
x = rand(r, (1, 16, 512), "f32", -1.5, 1.5)
w = llama_weights(r, 512, 8, 2, 64, 1376, 16, "f32")
e = llama_layer(x, w, 8, 2, "causal")
for entry in ("llama_layer_hir", "llama_layer_blocks"):
    example("llama_layer_hir.mlir", entry, [x] + w, e, (2e-5, 4e-5))

suite.finish()
