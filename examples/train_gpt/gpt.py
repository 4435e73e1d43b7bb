# ===- gpt.py - a character-level GPT in rlx and in PyTorch ------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""A small GPT-style decoder trained on characters, written twice: with
the rlx builder (one training step = one compiled function) and with
PyTorch (the reference), from the same initial weights and on the same
batches.

The model: token and position embeddings, `layers` pre-LN decoder blocks
(causal multi-head attention, GELU MLP of 4x width, residuals), a final
layer norm and logits by the token embedding transposed (tied). The loss
is the mean cross-entropy of the next character at every position.

The step, `train_step(x, y, t, params..., m..., v...)`, returns
`(loss, t + 1, params'..., m'..., v'...)`: `rlx.grad` of the loss with
respect to the parameters, then AdamW (PyTorch's formula, decay on the
rank-2 parameters only) written in rlx ops in the same function, so
that a step is one call and the optimizer state travels as arguments and
results.

Nothing here needs a GPU: `bench/gpu/train_gpt.py` compiles the same
step for CUDA, `examples/train_gpt/train.py` runs it on the CPU.
"""

import dataclasses
import math

import numpy as np

# base-files ships it on every Debian system (~35 KB of ASCII).
TEXT = "/usr/share/common-licenses/GPL-3"


@dataclasses.dataclass
class Config:
    vocab: int = 0          # set from the text
    layers: int = 2
    d_model: int = 64
    heads: int = 4
    context: int = 64
    batch: int = 16
    # At 3e-3 this model's training is chaotic over steps 20-100 (PyTorch
    # in float32 and in float64 drift 5% apart); at 1e-3 it is not, and
    # ends at the same loss after 200 steps.
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.99
    eps: float = 1e-8
    weight_decay: float = 0.01
    ln_eps: float = 1e-5
    dtype: str = "float32"  # NumPy's name; float64 for exact comparisons
    # How rlx looks up the token embeddings: "gather" (rlx.gather, whose
    # gradient is rlx.scatter_add), or "onehot" (a one-hot [.., vocab]
    # matrix times the table, for targets without scatter_add: Vulkan,
    # Metal).
    embedding: str = "gather"


def load_text(path=TEXT):
    """The file's characters as int64 ids and the sorted alphabet."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    return np.array([index[c] for c in text], dtype=np.int64), chars


def param_specs(cfg):
    """(name, shape, kind) of every parameter, in argument order. kind:
    'embed' (normal 0.02), 'matrix' (normal 0.02), 'proj' (normal
    0.02/sqrt(2*layers), the residual projections as in GPT-2), 'zeros',
    'ones'."""
    d, specs = cfg.d_model, [("wte", (cfg.vocab, cfg.d_model), "embed"),
                             ("wpe", (cfg.context, cfg.d_model), "embed")]
    for i in range(cfg.layers):
        p = "h%d." % i
        specs += [(p + "ln1.g", (d,), "ones"), (p + "ln1.b", (d,), "zeros"),
                  (p + "qkv.w", (d, 3 * d), "matrix"),
                  (p + "qkv.b", (3 * d,), "zeros"),
                  (p + "out.w", (d, d), "proj"), (p + "out.b", (d,), "zeros"),
                  (p + "ln2.g", (d,), "ones"), (p + "ln2.b", (d,), "zeros"),
                  (p + "fc.w", (d, 4 * d), "matrix"),
                  (p + "fc.b", (4 * d,), "zeros"),
                  (p + "proj.w", (4 * d, d), "proj"),
                  (p + "proj.b", (d,), "zeros")]
    return specs + [("lnf.g", (d,), "ones"), ("lnf.b", (d,), "zeros")]


def decayed(kind):
    """Whether AdamW decays a parameter of this kind: every rank-2 one
    (embeddings and matrices, as nanoGPT), not biases and norm gains."""
    return kind in ("embed", "matrix", "proj")


def init_params(cfg, seed=0):
    """The initial weights (of cfg.dtype) from one NumPy generator: both
    implementations start from these arrays."""
    rng = np.random.default_rng(seed)
    out = []
    for name, shape, kind in param_specs(cfg):
        if kind == "zeros":
            a = np.zeros(shape)
        elif kind == "ones":
            a = np.ones(shape)
        else:
            std = 0.02 / math.sqrt(2 * cfg.layers) if kind == "proj" else 0.02
            a = rng.normal(0.0, std, shape)
        out.append(a.astype(cfg.dtype))
    return out


def batches(data, cfg, steps, seed=1):
    """`steps` batches (x, y) of int64 [batch, context]: windows of the text
    at offsets from a seeded generator, y the next characters."""
    rng = np.random.default_rng(seed)
    T = cfg.context
    for _ in range(steps):
        starts = rng.integers(0, len(data) - T - 1, cfg.batch)
        x = np.stack([data[s:s + T] for s in starts])
        y = np.stack([data[s + 1:s + T + 1] for s in starts])
        yield x, y


# ---------------------------------------------------------------- rlx ---


def _rlx_loss(rlx, cfg, x, y, params):
    """The mean next-character cross-entropy, built with rlx ops."""
    B, T, D, H = cfg.batch, cfg.context, cfg.d_model, cfg.heads
    ctx, dtype = x.context, params[0].dtype
    P = dict(zip([n for n, _, _ in param_specs(cfg)], params))

    def ln(h, name):
        return rlx.layer_norm(h, P[name + ".g"], P[name + ".b"],
                              epsilon=cfg.ln_eps)

    def heads(qkv, i):
        # [B, T, 3D] -> the i-th of q, k, v as [B, H, T, D/H]
        part = rlx.narrow(qkv, axis=2, start=i * D, length=D)
        part = rlx.reshape(part, result_types=[
            ctx.tensor((B, T, H, D // H), dtype)])
        return rlx.transpose(part, permutation=[0, 2, 1, 3])

    if cfg.embedding == "gather":
        tok = rlx.gather(P["wte"], x, axis=0)                # [B, T, D]
    else:
        ids = rlx.reshape(x, result_types=[ctx.tensor((B, T, 1), "i64")])
        vocab = rlx.constant(value=np.arange(cfg.vocab, dtype=np.int64))
        onehot = rlx.cast(rlx.cmp(ids, vocab, predicate="eq"),
                          result_types=[ctx.tensor((B, T, cfg.vocab), dtype)])
        tok = onehot @ P["wte"]
    h = tok + P["wpe"]
    for i in range(cfg.layers):
        p = "h%d." % i
        qkv = ln(h, p + "ln1") @ P[p + "qkv.w"] + P[p + "qkv.b"]
        o = rlx.attention(heads(qkv, 0), heads(qkv, 1), heads(qkv, 2),
                          mask="causal")                     # [B, H, T, D/H]
        o = rlx.reshape(rlx.transpose(o, permutation=[0, 2, 1, 3]),
                        result_types=[ctx.tensor((B, T, D), dtype)])
        h = h + (o @ P[p + "out.w"] + P[p + "out.b"])
        f = rlx.gelu(ln(h, p + "ln2") @ P[p + "fc.w"] + P[p + "fc.b"])
        h = h + (f @ P[p + "proj.w"] + P[p + "proj.b"])
    h = rlx.reshape(ln(h, "lnf"), result_types=[ctx.tensor((B * T, D), dtype)])
    logits = rlx.matmul(h, P["wte"], transpose_b=True)       # [B*T, vocab]
    labels = rlx.reshape(y, result_types=[ctx.tensor((B * T,), "i64")])
    return rlx.softmax_cross_entropy(logits, labels)


def build_step(cfg, ctx=None):
    """The module of `@train_step` (and the private `@loss` it
    differentiates); returns the step's rlx.Function."""
    import rlx
    ctx = ctx or rlx.Context()
    specs = param_specs(cfg)
    dtype = rlx.numpy_to_mlir(cfg.dtype)
    ptypes = [ctx.tensor(shape, dtype) for _, shape, _ in specs]
    xy = [ctx.tensor((cfg.batch, cfg.context), "i64")] * 2
    with rlx.Function("loss", xy + ptypes, private=True) as loss:
        loss.returns(_rlx_loss(rlx, cfg, loss.args[0], loss.args[1],
                               loss.args[2:]))
    n = len(specs)
    scalar = ctx.tensor((), dtype)
    with rlx.Function("train_step", xy + [scalar] + ptypes * 3,
                      module=loss.module) as step:
        x, y, t = step.args[:3]
        params = step.args[3:3 + n]
        ms, vs = step.args[3 + n:3 + 2 * n], step.args[3 + 2 * n:]
        out = rlx.ops.grad([x, y] + params, callee=loss,
                           wrt=list(range(2, 2 + n)),
                           result_types=[scalar] + ptypes)
        value, grads = out[0], out[1:]

        def const(v):
            return rlx.constant(value=np.array(v, cfg.dtype))

        # AdamW as torch.optim.AdamW computes it (step t counted from 1).
        t1 = t + const(1.0)
        bc1 = const(1.0) - rlx.pow(const(cfg.beta1), t1)
        bc2 = const(1.0) - rlx.pow(const(cfg.beta2), t1)
        step_size = const(cfg.lr) / bc1
        bc2_sqrt = rlx.sqrt(bc2)
        new_p, new_m, new_v = [], [], []
        for (_, _, kind), p, g, m, v in zip(specs, params, grads, ms, vs):
            if decayed(kind):
                p = p * const(1.0 - cfg.lr * cfg.weight_decay)
            m = m * const(cfg.beta1) + g * const(1.0 - cfg.beta1)
            v = v * const(cfg.beta2) + (g * g) * const(1.0 - cfg.beta2)
            denom = rlx.sqrt(v) / bc2_sqrt + const(cfg.eps)
            new_p.append(p - step_size * (m / denom))
            new_m.append(m)
            new_v.append(v)
        step.returns([value, t1] + new_p + new_m + new_v)
    return step


# ------------------------------------------------------------ PyTorch ---


def torch_loss(cfg, x, y, params):
    """The same loss in PyTorch, on tensors in param_specs' order."""
    import torch
    import torch.nn.functional as F
    B, T, D, H = cfg.batch, cfg.context, cfg.d_model, cfg.heads
    P = dict(zip([n for n, _, _ in param_specs(cfg)], params))

    def ln(h, name):
        return F.layer_norm(h, (D,), P[name + ".g"], P[name + ".b"],
                            cfg.ln_eps)

    h = P["wte"][x] + P["wpe"]
    for i in range(cfg.layers):
        p = "h%d." % i
        qkv = ln(h, p + "ln1") @ P[p + "qkv.w"] + P[p + "qkv.b"]
        q, k, v = (t.reshape(B, T, H, D // H).transpose(1, 2)
                   for t in qkv.split(D, dim=2))
        if hasattr(F, "scaled_dot_product_attention"):      # PyTorch 2
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            causal = torch.ones(T, T, dtype=torch.bool,
                                device=x.device).tril()
            s = (q @ k.transpose(-1, -2)) / math.sqrt(D // H)
            o = s.masked_fill(~causal, float("-inf")).softmax(-1) @ v
        o = o.transpose(1, 2).reshape(B, T, D)
        h = h + (o @ P[p + "out.w"] + P[p + "out.b"])
        f = F.gelu(ln(h, p + "ln2") @ P[p + "fc.w"] + P[p + "fc.b"])
        h = h + (f @ P[p + "proj.w"] + P[p + "proj.b"])
    logits = ln(h, "lnf").reshape(B * T, D) @ P["wte"].t()
    return F.cross_entropy(logits, y.reshape(B * T))


def torch_trainer(cfg, init, device="cpu", compiled=False):
    """(params, step): the parameters as torch leaves and a step function
    (x, y) -> loss tensor taking one torch.optim.AdamW step (the same
    hyper-parameters, decay on the same parameters). `compiled`: the loss
    (forward and backward) by torch.compile and AdamW with fused=True,
    PyTorch 2's fastest way to run this step on a GPU."""
    import torch
    params = [torch.tensor(a, device=device, requires_grad=True)
              for a in init]
    kinds = [k for _, _, k in param_specs(cfg)]
    groups = [{"params": [p for p, k in zip(params, kinds) if decayed(k)],
               "weight_decay": cfg.weight_decay},
              {"params": [p for p, k in zip(params, kinds) if not decayed(k)],
               "weight_decay": 0.0}]
    opt = torch.optim.AdamW(groups, lr=cfg.lr, betas=(cfg.beta1, cfg.beta2),
                            eps=cfg.eps, **({"fused": True} if compiled
                                            else {}))
    loss_fn = torch.compile(torch_loss) if compiled else torch_loss

    def step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(cfg, x, y, params)
        loss.backward()
        opt.step()
        return loss.detach()
    return params, step
