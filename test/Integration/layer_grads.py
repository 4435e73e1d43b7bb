# RUN: %python %s
# Gradients of a BERT-base layer and a Llama decoder layer (and small ones)
# (rlx_hir.transformer_layer, lowered to MIR, then rlx.grad) with respect to
# the input and every parameter (for Llama also the rope tables), against
# PyTorch autograd of the same layer written in torch: float64 to a relative
# error of 1e-9 and float32 to 1e-4, each measured against the largest
# magnitude of that gradient. The loss is sum(c * layer(x)) with a random c.

import math

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from rlxtest import Suite, rand, weight
from rlxtest import tensor_type as T

suite = Suite("layer_grads")
r = rlxtest.rng()
RTOL = {"f64": 1e-9, "f32": 1e-4}


def layer_norm(x, g, b, eps):
    m = x.mean(-1, keepdim=True)
    v = ((x - m) ** 2).mean(-1, keepdim=True)
    return (x - m) / torch.sqrt(v + eps) * g + b


def rms_norm(x, g, eps):
    return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * g


def rope(x, cos, sin):  # neox: pairs (x[i], x[i + D/2])
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], -1)


def attention_block(x, wqkv, wout, H, Hkv, causal, bqkv=None, bout=None,
                    cos=None, sin=None):
    B, S, E = x.shape
    D = wqkv.shape[1] // (H + 2 * Hkv)
    qkv = x @ wqkv + (0 if bqkv is None else bqkv)

    def heads(start, n):
        return qkv[..., start:start + n * D].reshape(B, S, n, D) \
            .transpose(1, 2)
    q, k, v = heads(0, H), heads(H * D, Hkv), heads((H + Hkv) * D, Hkv)
    if cos is not None:
        q, k = rope(q, cos, sin), rope(k, cos, sin)
    k, v = k.repeat_interleave(H // Hkv, 1), v.repeat_interleave(H // Hkv, 1)
    s = q @ k.transpose(-1, -2) / math.sqrt(D)
    if causal:
        s = s.masked_fill(torch.ones(S, S, dtype=torch.bool).triu(1),
                          float("-inf"))
    a = torch.softmax(s, -1) @ v
    y = a.transpose(1, 2).reshape(B, S, H * D) @ wout
    return y if bout is None else y + bout


def bert(x, w, H, eps):
    (wqkv, bqkv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2) = w
    h = layer_norm(x + attention_block(x, wqkv, wo, H, H, False, bqkv, bo),
                   g1, b1, eps)
    return layer_norm(h + F.gelu(h @ w1 + c1) @ w2 + c2, g2, b2, eps)


def llama(x, w, H, Hkv, eps):
    (an, wqkv, wo, cos, sin, fn, wg, wu, wd) = w
    h = x + attention_block(rms_norm(x, an, eps), wqkv, wo, H, Hkv, True,
                            cos=cos, sin=sin)
    n = rms_norm(h, fn, eps)
    return h + (F.silu(n @ wg) * (n @ wu)) @ wd


def layer_check(style, elem, tag, B=2, S=5, E=32, H=4, Hkv=2, Fh=64):
    D = E // H
    x = rand(r, (B, S, E), elem, -1.5, 1.5)
    if style == "bert":
        eps = 1e-12
        w = [weight(r, (E, 3 * E), E, elem), rand(r, (3 * E,), elem, -.5, .5),
             weight(r, (E, E), E, elem), rand(r, (E,), elem, -.5, .5),
             rand(r, (E,), elem, .5, 1.5), rand(r, (E,), elem, -.5, .5),
             weight(r, (E, Fh), E, elem), rand(r, (Fh,), elem, -.5, .5),
             weight(r, (Fh, E), Fh, elem), rand(r, (E,), elem, -.5, .5),
             rand(r, (E,), elem, .5, 1.5), rand(r, (E,), elem, -.5, .5)]
        attrs = 'style = "bert", num_heads = %d : i64, epsilon = 1.0e-12 : f32' % H
    else:
        eps = 1e-6
        theta = r.uniform(-np.pi, np.pi, (S, D // 2))
        w = [rand(r, (E,), elem, .5, 1.5),
             weight(r, (E, (H + 2 * Hkv) * D), E, elem),
             weight(r, (E, E), E, elem),
             rlxtest.as_elem(np.cos(theta), elem),
             rlxtest.as_elem(np.sin(theta), elem),
             rand(r, (E,), elem, .5, 1.5), weight(r, (E, Fh), E, elem),
             weight(r, (E, Fh), E, elem), weight(r, (Fh, E), Fh, elem)]
        attrs = ('style = "llama", num_heads = %d : i64, num_kv_heads = %d '
                 ': i64, mask = "causal", epsilon = 1.0e-6 : f32' % (H, Hkv))
    c = rand(r, (B, S, E), elem, -1, 1)
    inputs = [x] + w + [c]
    types = [T(a.shape, elem) for a in inputs]
    n = len(inputs)
    names = ["%%a%d" % i for i in range(n)]
    sig = ", ".join("%s: %s" % nt for nt in zip(names, types))
    ty = types[0]
    src = """
func.func @layer(%s) -> %s {
  %%y = rlx_hir.transformer_layer %s {%s} : (%s) -> %s
  return %%y : %s
}
func.func @loss(%s) -> tensor<%s> {
  %%y = call @layer(%s) : (%s) -> %s
  %%p = rlx.mul %%y, %%a%d : %s
  %%s = rlx.reduce sum %%p axes = [0, 1, 2] : %s
  return %%s : tensor<%s>
}
func.func @main(%s) -> (%s) {
  %%g:%d = rlx.grad @loss(%s) wrt [%s] : (%s) -> (tensor<%s>, %s)
  return %s : %s
}
""" % (", ".join("%s: %s" % nt for nt in zip(names[:-1], types[:-1])), ty,
       ", ".join(names[:-1]), attrs, ", ".join(types[:-1]), ty, ty,
       sig, elem, ", ".join(names[:-1]), ", ".join(types[:-1]), ty, n - 1, ty,
       ty, elem,
       sig, ", ".join(types[:-1]),
       n, ", ".join(names), ", ".join(str(i) for i in range(n - 1)),
       ", ".join(types), elem, ", ".join(types[:-1]),
       ", ".join("%%g#%d" % (i + 1) for i in range(n - 1)),
       ", ".join(types[:-1]))

    def check():
        rc, log, outs = rlxtest.run(src, inputs, n - 1)
        assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])
        ts = [torch.tensor(np.asarray(a, np.float64), requires_grad=True)
              for a in inputs[:-1]]
        fn = bert if style == "bert" else llama
        args = (ts[0], ts[1:], H) + ((Hkv,) if style == "llama" else ())
        y = fn(*args, float(np.float32(eps)))
        loss = (y * torch.tensor(np.asarray(c, np.float64))).sum()
        grads = torch.autograd.grad(loss, ts)
        worst = max(float(np.abs(a - e.numpy()).max()) /
                    max(float(np.abs(e.numpy()).max()), 1e-30)
                    for a, e in zip(outs, grads))
        print("%s/%s/%s: %d gradients, worst error / max |grad| = %.2e" %
              (style, tag, elem, len(grads), worst))
        for i, (a, e) in enumerate(zip(outs, grads)):
            e = e.numpy()
            scale = max(float(np.abs(e).max()), 1e-30)
            rlxtest.assert_close(a, e, RTOL[elem], RTOL[elem] * scale,
                                 "%s d/d(input #%d)" % (style, i),
                                 dtype=rlxtest.NPY[elem])
    suite.check("%s/%s/%s" % (style, tag, elem), check)


for elem in ("f64", "f32"):
    layer_check("bert", elem, "small")
    layer_check("llama", elem, "small")
    # BERT-base (hidden 768, 12 heads, FFN 3072) and the Llama layer of
    # examples/llama_layer_hir.mlir (hidden 512, 8 query / 2 kv heads, FFN
    # 1376), on short sequences.
    layer_check("bert", elem, "base", B=1, S=8, E=768, H=12, Fh=3072)
    layer_check("llama", elem, "example", B=1, S=16, E=512, H=8, Hkv=2,
                Fh=1376)
suite.finish()
