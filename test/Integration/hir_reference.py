"""Float64 references of the rlx_hir blocks, written from their
descriptions in RLXHIROps.td (and those of rlx.rope, rlx.attention,
rlx.layer_norm, rlx.rms_norm they refer to), and random weights of the
BERT and Llama layers in their operand order: hir.py checks every block
with them, Metal/spirv_cross.py the Llama layer of examples/."""

import math

import numpy as np
import torch

import rlxtest
from rlxtest import rand, weight


def f64(x):
    return np.asarray(x, np.float64)


def f32(v):
    return float(np.float32(v))


def erf(x):
    return torch.erf(torch.from_numpy(f64(x))).numpy()


def activation(x, kind):
    x = f64(x)
    if kind == "none":
        return x
    if kind == "relu":
        return np.maximum(x, 0)
    if kind == "gelu":
        return x * 0.5 * (1 + erf(x / math.sqrt(2)))
    if kind == "gelu_tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                      (x + 0.044715 * x ** 3)))
    if kind == "silu":
        return x / (1 + np.exp(-x))
    if kind == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if kind == "tanh":
        return np.tanh(x)
    raise ValueError(kind)


def linear(x, w, b=None):
    y = f64(x) @ f64(w)
    return y if b is None else y + f64(b)


def layer_norm(x, g, b, eps):
    x = f64(x)
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * f64(g) + f64(b)


def rms_norm(x, g, eps):
    x = f64(x)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * f64(g)


def swiglu(x, wg, wu, wd):
    return (activation(linear(x, wg), "silu") * linear(x, wu)) @ f64(wd)


def rope(x, cos, sin, style):
    """x [B, H, S, D]; cos, sin [S, D/2]. neox pairs (x[i], x[i + D/2]),
    gptj (x[2i], x[2i + 1]); each pair (a, b) -> (a c - b s, a s + b c)."""
    x, cos, sin = f64(x), f64(cos), f64(sin)
    D = x.shape[-1]
    y = np.empty_like(x)
    for i in range(D // 2):
        ia, ib = (i, i + D // 2) if style == "neox" else (2 * i, 2 * i + 1)
        a, b = x[..., ia], x[..., ib]
        c, s = cos[:, i], sin[:, i]
        y[..., ia] = a * c - b * s
        y[..., ib] = a * s + b * c
    return y


def attention(q, k, v, kind="none", window=None, mask=None, scale=None):
    """softmax(scale q k^T + mask) v per batch and query head; query head h
    reads kv head h // (H / Hkv); rows with no visible key give zeros."""
    B, H, S, D = q.shape
    Hkv, Skv = k.shape[1], k.shape[2]
    scale = 1 / math.sqrt(D) if scale is None else f32(scale)
    out = np.zeros(q.shape[:3] + (v.shape[-1],))
    for b in range(B):
        for h in range(H):
            kv = h // (H // Hkv)
            s = scale * (f64(q[b, h]) @ f64(k[b, kv]).T)
            visible = np.ones((S, Skv), bool)
            for i in range(S):
                for j in range(Skv):
                    last = i + Skv - S
                    if kind == "causal":
                        visible[i, j] = j <= last
                    elif kind == "sliding_window":
                        visible[i, j] = last - window < j <= last
            if kind == "custom":
                visible = np.broadcast_to(mask, (B, H, S, Skv))[b, h]
            elif kind == "bias":
                s = s + np.broadcast_to(f64(mask), (B, H, S, Skv))[b, h]
            for i in range(S):
                if not visible[i].any():
                    continue
                e = np.where(visible[i], np.exp(s[i] - s[i][visible[i]].max()),
                             0.0)
                out[b, h, i] = (e / e.sum()) @ f64(v[b, kv])
    return out


def attention_block(x, wqkv, wout, H, Hkv=None, kind="none", bqkv=None,
                    bout=None, cos=None, sin=None, style="neox", window=None,
                    mask=None, scale=None):
    """rlx_hir.attention_block: x [B, S, E] @ w_qkv [E, (H + 2 Hkv) D]
    (+ qkv_bias), split into q, k, v heads [B, heads, S, D], rope on q and
    k, attention, heads back to [B, S, H D], @ w_out (+ out_bias)."""
    Hkv = Hkv or H
    B, S, E = x.shape
    D = wqkv.shape[1] // (H + 2 * Hkv)
    qkv = linear(x, wqkv, bqkv)

    def heads(start, n):
        return qkv[..., start:start + n * D].reshape(B, S, n, D) \
            .transpose(0, 2, 1, 3)
    q, k, v = heads(0, H), heads(H * D, Hkv), heads((H + Hkv) * D, Hkv)
    if cos is not None:
        q, k = rope(q, cos, sin, style), rope(k, cos, sin, style)
    a = attention(q, k, v, kind, window, mask, scale)
    return linear(a.transpose(0, 2, 1, 3).reshape(B, S, H * D), wout, bout)


def bert_layer(x, w, H, kind="none", eps=1e-12, act="gelu"):
    (wqkv, bqkv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2) = w
    h = layer_norm(f64(x) + attention_block(x, wqkv, wo, H, kind=kind,
                                            bqkv=bqkv, bout=bo),
                   g1, b1, eps)
    f = linear(activation(linear(h, w1, c1), act), w2, c2)
    return layer_norm(h + f, g2, b2, eps)


def llama_layer(x, w, H, Hkv, kind="causal", eps=1e-6, style="neox"):
    (an, wqkv, wo, cos, sin, fn, wg, wu, wd) = w
    h = f64(x) + attention_block(rms_norm(x, an, eps), wqkv, wo, H, Hkv, kind,
                                 cos=cos, sin=sin, style=style)
    return h + swiglu(rms_norm(h, fn, eps), wg, wu, wd)


def rope_tables(S, D, elem, base=10000.0):
    """Llama's cos/sin [S, D/2]: angle pos * base^(-2i/D)."""
    theta = np.arange(S)[:, None] * base ** (-2.0 * np.arange(D // 2) / D)
    return (rlxtest.as_elem(np.cos(theta), elem),
            rlxtest.as_elem(np.sin(theta), elem))


def bert_weights(r, E, Fh, elem):
    return [weight(r, (E, 3 * E), E, elem), rand(r, (3 * E,), elem, -0.5, 0.5),
            weight(r, (E, E), E, elem), rand(r, (E,), elem, -0.5, 0.5),
            rand(r, (E,), elem, 0.5, 1.5), rand(r, (E,), elem, -0.5, 0.5),
            weight(r, (E, Fh), E, elem), rand(r, (Fh,), elem, -0.5, 0.5),
            weight(r, (Fh, E), Fh, elem), rand(r, (E,), elem, -0.5, 0.5),
            rand(r, (E,), elem, 0.5, 1.5), rand(r, (E,), elem, -0.5, 0.5)]


def llama_weights(r, E, H, Hkv, D, Fh, S, elem, random_rope=False):
    if random_rope:
        theta = r.uniform(-np.pi, np.pi, (S, D // 2))
        cos = rlxtest.as_elem(np.cos(theta), elem)
        sin = rlxtest.as_elem(np.sin(theta), elem)
    else:
        cos, sin = rope_tables(S, D, elem)
    return [rand(r, (E,), elem, 0.5, 1.5),
            weight(r, (E, (H + 2 * Hkv) * D), E, elem),
            weight(r, (H * D, E), H * D, elem), cos, sin,
            rand(r, (E,), elem, 0.5, 1.5),
            weight(r, (E, Fh), E, elem), weight(r, (E, Fh), E, elem),
            weight(r, (Fh, E), Fh, elem)]
