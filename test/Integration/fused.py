# RUN: %python %s
# The fused ops against float64 NumPy written from their descriptions in
# RLXFusedOps.td: fused_matmul_bias_act (every activation, with and without
# bias, transpose_b, batch broadcasting), fused_residual_layer_norm and
# fused_residual_rms_norm (both results), fused_swiglu,
# fused_attention_block (qkv_bias / out_bias, rope neox and gptj,
# grouped-query and multi-query kv_heads, masks none, causal,
# sliding_window, custom and bias, a scale, E != H D) and
# fused_transformer_layer (BERT post-LN: gelu and other activations,
# epsilon, masks). Each op stands for a chain of primitives whose
# intermediate results have the element type, so the references round to
# it after each step of the chain (a no-op in effect for f64).

import math

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from rlxtest import Case, Suite, rand, weight
from rlxtest import tensor_type as T

# fused_swiglu accepts a rank-1 input (as its type inference and the
# round-trip test do), but unfusing it builds rlx.matmul on the rank-1
# input, which needs rank >= 2: rlx-run aborts with "Failed to infer result
# type(s)" (LLVM ERROR).
KNOWN_FAILURES = []

suite = Suite("fused", KNOWN_FAILURES)
r = rlxtest.rng()
CHUNK = 8  # compile time grows faster than linearly with attention ops
ACTIVATIONS = ["none", "relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh"]
# The references round like the chain, so f16 / bf16 results are off by
# about an ulp at most.
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-11, 1e-11), "f16": (2e-3, 2e-3),
       "bf16": (1e-2, 1e-2)}
# Whole attention blocks and layers: a few more roundings.
BLOCK_TOL = {"f32": (2e-5, 2e-5), "f64": (1e-10, 1e-10), "f16": (4e-3, 4e-3),
             "bf16": (2e-2, 2e-2)}


def rounder(elem):
    """The values of `elem` as float64 (rounding each chain step)."""
    return lambda x: rlxtest.as_elem(np.asarray(x, np.float64),
                                     elem).astype(np.float64)


def activation(x, kind):
    t = torch.from_numpy(np.asarray(x, np.float64))
    return {"none": lambda: t, "relu": lambda: torch.relu(t),
            "gelu": lambda: F.gelu(t),
            "gelu_tanh": lambda: F.gelu(t, approximate="tanh"),
            "silu": lambda: F.silu(t), "sigmoid": lambda: torch.sigmoid(t),
            "tanh": lambda: torch.tanh(t)}[kind]().numpy()


def f32(v):
    return float(np.float32(v))


def functional(args, results):
    return "({}) -> {}".format(", ".join(t for _, t, _ in args), results)


# --------------------------------------------------------------------------
# fused_matmul_bias_act
# --------------------------------------------------------------------------


def mba_case(name, act, elem="f32", xshape=(3, 5, 8), N=6, bias=True,
             transpose_b=False, wshape=None):
    K = xshape[-1]
    rnd = rounder(elem)
    x = rand(r, xshape, elem, -2, 2)
    wshape = wshape or ((N, K) if transpose_b else (K, N))
    w = weight(r, wshape, K, elem)
    wm = np.swapaxes(w, -1, -2) if transpose_b else w
    y = rnd(np.matmul(x.astype(np.float64), wm.astype(np.float64)))
    args = [("%x", T(x.shape, elem), x), ("%w", T(w.shape, elem), w)]
    if bias:
        b = rand(r, (y.shape[-1],), elem, -1, 1)
        y = rnd(y + b)
        args.append(("%b", T(b.shape, elem), b))
    e = rnd(activation(y, act))
    body = "%y = rlx.fused_matmul_bias_act {}{} activation = {} : {}".format(
        ", ".join(n for n, _, _ in args),
        " transpose_b true" if transpose_b else "", act,
        ", ".join(t for _, t, _ in args))
    rt, at = TOL[elem]
    return Case("matmul_bias_act/%s/%s/%s" % (act, elem, name), args, body,
                [("%y", T(e.shape, elem))], [e], (rt, at * math.sqrt(K)))


cases = []
for act in ACTIVATIONS:
    cases += [mba_case("bias", act),
              mba_case("nobias", act, bias=False),
              mba_case("tb_bias", act, transpose_b=True),
              mba_case("tb_nobias", act, xshape=(4, 8), transpose_b=True,
                       bias=False)]
suite.run(cases)

cases = []
for elem in ("f64", "f16", "bf16"):
    cases += [mba_case("bias", "gelu", elem),
              mba_case("tb", "silu", elem, transpose_b=True),
              mba_case("nobias", "relu", elem, bias=False),
              mba_case("bias", "gelu_tanh", elem, xshape=(4, 16), N=8)]
cases += [
    mba_case("bcast_batch", "relu", xshape=(2, 1, 4, 8), N=5,
             wshape=(3, 8, 5), bias=False),
    mba_case("bcast_batch_bias", "tanh", xshape=(2, 1, 4, 8), N=5,
             wshape=(3, 8, 5)),
    mba_case("batched_w_tb", "sigmoid", xshape=(3, 4, 8), N=6,
             wshape=(3, 6, 8), transpose_b=True),
    mba_case("k64", "gelu", xshape=(5, 64), N=32),
]
suite.run(cases)

# --------------------------------------------------------------------------
# fused_residual_layer_norm / fused_residual_rms_norm
# --------------------------------------------------------------------------


def residual_case(kind, name, elem, shape, eps=None):
    d = shape[-1]
    rnd = rounder(elem)
    x, res = rand(r, shape, elem, -2, 2), rand(r, shape, elem, -2, 2)
    g, b = rand(r, (d,), elem, 0.5, 1.5), rand(r, (d,), elem, -1, 1)
    s = rnd(x.astype(np.float64) + res)
    tx, tg = T(shape, elem), T((d,), elem)
    attr = "" if eps is None else " {epsilon = %.6e : f32}" % eps
    args = [("%x", tx, x), ("%r", tx, res), ("%g", tg, g)]
    if kind == "layer_norm":
        e = rlxtest.layer_norm_reference(s, g, b,
                                         f32(1e-5 if eps is None else eps))
        args.append(("%b", tg, b))
    else:
        e = rlxtest.rms_norm_reference(s, g, f32(1e-6 if eps is None else eps))
    body = "%y, %s = rlx.fused_residual_{} {}{} : {}, {}".format(
        kind, ", ".join(n for n, _, _ in args), attr, tx, tg)
    return Case("residual_%s/%s/%s" % (kind, elem, name), args, body,
                [("%y", tx), ("%s", tx)], [e, s],
                [TOL[elem], rlxtest.TOL[elem]])


cases = []
for kind in ("layer_norm", "rms_norm"):
    for elem in ("f32", "f64", "f16", "bf16"):
        cases += [residual_case(kind, "b2s3d32", elem, (2, 3, 32)),
                  residual_case(kind, "eps", elem, (4, 16), eps=0.25)]
    cases += [residual_case(kind, "rank1", "f32", (24,)),
              residual_case(kind, "long", "f32", (2, 768), eps=1e-12),
              residual_case(kind, "d1", "f32", (3, 1))]
suite.run(cases)

# --------------------------------------------------------------------------
# fused_swiglu
# --------------------------------------------------------------------------


def swiglu_case(name, elem, xshape, Fh):
    E = xshape[-1]
    rnd = rounder(elem)
    x = rand(r, xshape, elem, -2, 2)
    wg, wu = weight(r, (E, Fh), E, elem), weight(r, (E, Fh), E, elem)
    x64 = x.astype(np.float64)
    gate = rnd(activation(rnd(x64 @ wg), "silu"))
    up = rnd(x64 @ wu)
    e = rnd(gate * up)
    tx, tw = T(xshape, elem), T((E, Fh), elem)
    rt, at = TOL[elem]
    return Case("swiglu/%s/%s" % (elem, name),
                [("%x", tx, x), ("%wg", tw, wg), ("%wu", tw, wu)],
                "%y = rlx.fused_swiglu %x, %wg, %wu : {}, {}".format(tx, tw),
                [("%y", T(e.shape, elem))], [e], (rt, at * math.sqrt(E)))


cases = []
for elem in ("f32", "f64", "f16", "bf16"):
    cases.append(swiglu_case("b2s3", elem, (2, 3, 16), 24))
cases += [swiglu_case("rank1", "f32", (8,), 4),
          swiglu_case("rank1", "bf16", (8,), 4),
          swiglu_case("e64", "f32", (5, 64), 40),
          swiglu_case("rank4", "f32", (2, 2, 3, 8), 12)]
suite.run(cases)

# --------------------------------------------------------------------------
# fused_attention_block
# --------------------------------------------------------------------------


def attention_block(rnd, x, wqkv, wout, H, Hkv, kind, qkv_bias=None,
                    out_bias=None, cos=None, sin=None, style="neox",
                    window=None, mask=None, scale=None):
    """Steps 1-5 of fused_attention_block's description."""
    B, S, E = x.shape
    D = wqkv.shape[1] // (H + 2 * Hkv)
    qkv = rnd(x @ wqkv)
    if qkv_bias is not None:
        qkv = rnd(qkv + qkv_bias)

    def heads(start, n):
        return qkv[..., start:start + n * D].reshape(B, S, n, D) \
            .transpose(0, 2, 1, 3)
    q, k, v = heads(0, H), heads(H * D, Hkv), heads((H + Hkv) * D, Hkv)
    if cos is not None:
        q = rnd(rlxtest.rope_reference(q, cos, sin, style))
        k = rnd(rlxtest.rope_reference(k, cos, sin, style))
    a = rnd(rlxtest.attention_reference(q, k, v, kind, window, mask, scale))
    y = rnd(a.transpose(0, 2, 1, 3).reshape(B, S, H * D) @ wout)
    if out_bias is not None:
        y = rnd(y + out_bias)
    return y


def block_case(name, elem="f32", B=2, S=5, E=16, H=4, Hkv=None, D=None,
               kind="none", qkv_bias=False, out_bias=False, rope_style=None,
               window=None, mshape=None, scale=None):
    Hkv_ = Hkv or H
    D = D or E // H
    rnd = rounder(elem)
    ops = rlxtest.attention_block_operands(
        r, elem, B, S, E, H, Hkv_, D, qkv_bias, out_bias, bool(rope_style),
        kind, mshape)
    x, wqkv, wout, args, syntax = ops.x, ops.wqkv, ops.wout, ops.args, \
        ops.syntax
    bq, bo, cos, sin, mask = ops.bq, ops.bo, ops.cos, ops.sin, ops.mask
    syntax += " heads = %d" % H
    if Hkv is not None:
        syntax += " kv_heads = %d" % Hkv
    syntax += " mask = %s" % kind
    if window is not None:
        syntax += " window = %d" % window
    attrs = []
    if rope_style == "gptj":
        attrs.append('rope_style = "gptj"')
    if scale is not None:
        attrs.append("scale = %.6e : f32" % scale)
    if attrs:
        syntax += " {%s}" % ", ".join(attrs)
    e = attention_block(rnd, x.astype(np.float64), wqkv, wout, H, Hkv_, kind,
                        bq, bo, cos, sin, rope_style or "neox", window, mask,
                        scale)
    tx = T(x.shape, elem)
    body = "%y = rlx.fused_attention_block %x, %wqkv, %wo{} : {}".format(
        syntax, functional(args, tx))
    return Case("attention_block/%s/%s" % (elem, name), args, body,
                [("%y", tx)], [e], BLOCK_TOL[elem])


# Attention blocks compile slowly (~0.5 s each): each case combines several
# of the options.
suite.run([
    block_case("bare"),
    block_case("causal_biases_rope_neox_gqa", kind="causal", Hkv=2,
               qkv_bias=True, out_bias=True, rope_style="neox"),
    block_case("window3_rope_gptj_mqa_qkv_bias", kind="sliding_window",
               window=3, S=7, Hkv=1, qkv_bias=True, rope_style="gptj"),
    block_case("window1_out_bias_kv_eq_heads", kind="sliding_window",
               window=1, Hkv=4, out_bias=True),
    block_case("custom_scale_out_bias", kind="custom", mshape=(5, 5),
               scale=0.25, out_bias=True),
    block_case("bias_rope_gptj_gqa", kind="bias", mshape=(2, 1, 5, 5),
               Hkv=2, rope_style="gptj", qkv_bias=True),
    block_case("e_ne_hd_causal", E=12, H=2, D=8, kind="causal",
               qkv_bias=True, out_bias=True),
    block_case("decode_s1_rope_neox", S=1, E=16, H=2, kind="causal",
               rope_style="neox"),
    block_case("causal_rope_biases", "f64", kind="causal",
               rope_style="neox", qkv_bias=True, out_bias=True),
    block_case("gqa_window_gptj_biases", "f16", kind="sliding_window",
               window=2, Hkv=2, rope_style="gptj", qkv_bias=True,
               out_bias=True),
    block_case("gqa_causal_neox", "bf16", kind="causal", Hkv=2,
               rope_style="neox"),
], chunk=CHUNK)

# --------------------------------------------------------------------------
# fused_transformer_layer
# --------------------------------------------------------------------------


def layer_case(name, elem="f32", B=2, S=4, E=16, H=2, Fh=32, kind="none",
               act=None, eps=None, mshape=None):
    rnd = rounder(elem)
    D = E // H
    x = rand(r, (B, S, E), elem, -1.5, 1.5)
    p = {"wqkv": weight(r, (E, 3 * E), E, elem),
         "bqkv": rand(r, (3 * E,), elem, -0.5, 0.5),
         "wo": weight(r, (E, E), E, elem),
         "bo": rand(r, (E,), elem, -0.5, 0.5),
         "g1": rand(r, (E,), elem, 0.5, 1.5),
         "b1": rand(r, (E,), elem, -0.5, 0.5),
         "w1": weight(r, (E, Fh), E, elem),
         "c1": rand(r, (Fh,), elem, -0.5, 0.5),
         "w2": weight(r, (Fh, E), Fh, elem),
         "c2": rand(r, (E,), elem, -0.5, 0.5),
         "g2": rand(r, (E,), elem, 0.5, 1.5),
         "b2": rand(r, (E,), elem, -0.5, 0.5)}
    args = [("%x", T(x.shape, elem), x)] + [
        ("%" + k, T(v.shape, elem), v) for k, v in p.items()]
    mask = None
    syntax = ""
    if kind in ("custom", "bias"):
        mask = (r.random(mshape) < 0.7 if kind == "custom"
                else rand(r, mshape, elem, -2, 2))
        args.append(("%m", T(mshape, "i1" if kind == "custom" else elem),
                     mask))
        syntax += " attn_mask %m"
    syntax += " heads = %d mask = %s" % (H, kind)
    attrs = []
    if act is not None:
        attrs.append('activation = "%s"' % act)
    if eps is not None:
        attrs.append("epsilon = %.6e : f32" % eps)
    if attrs:
        syntax += " {%s}" % ", ".join(attrs)
    e_eps = f32(1e-12 if eps is None else eps)
    x64 = x.astype(np.float64)
    P = {k: v.astype(np.float64) for k, v in p.items()}
    # The description's four lines, each primitive rounded.
    a = attention_block(rnd, x64, P["wqkv"], P["wo"], H, H, kind, P["bqkv"],
                        P["bo"], mask=mask)
    h = rnd(rlxtest.layer_norm_reference(rnd(x64 + a), P["g1"], P["b1"],
                                         e_eps))
    f = rnd(activation(rnd(rnd(h @ P["w1"]) + P["c1"]), act or "gelu"))
    f = rnd(rnd(f @ P["w2"]) + P["c2"])
    e = rnd(rlxtest.layer_norm_reference(rnd(h + f), P["g2"], P["b2"], e_eps))
    tx = T(x.shape, elem)
    body = ("%y = rlx.fused_transformer_layer " +
            ", ".join(n for n, _, _ in args[:13]) + syntax + " : " +
            functional(args, tx))
    return Case("transformer_layer/%s/%s" % (elem, name), args, body,
                [("%y", tx)], [e], BLOCK_TOL[elem])


# Layers compile slowly (~1 s each).
suite.run([
    layer_case("none_gelu_default"),
    layer_case("causal_relu_eps", kind="causal", act="relu", eps=1e-5),
    layer_case("custom_gelu_tanh_h4", kind="custom", mshape=(2, 1, 1, 4),
               act="gelu_tanh", H=4),
    layer_case("bias_silu_explicit_eps", kind="bias", mshape=(4, 4),
               act="silu", eps=1e-12),
    layer_case("causal_gelu", "bf16", kind="causal", act="gelu"),
], chunk=CHUNK)

suite.finish()
