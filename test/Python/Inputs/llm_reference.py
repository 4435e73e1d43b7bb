# ===- llm_reference.py - a float64 NumPy decoder (Llama, Qwen) ---=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
# The reference the LLM tests compare with: Hugging Face's decoder math
# (LlamaModel / Qwen2Model / Qwen3Model) in float64, written from the
# architectures' definitions, with no KV cache (the whole sequence is
# recomputed at every step). Weights under GGUF names, [out, in], in the
# Hugging Face row order (neox rope); `c` is an rlx.llm.model.LlamaConfig
# (only its numbers are read). Also the tests' random weights.

import numpy as np


def rms_norm(x, w, eps):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * w


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def reference_logits(c, W, ids):
    """Logits [S, vocab] of every position of `ids` (float64)."""
    W = {k: v.astype(np.float64) for k, v in W.items()}
    S, D, H, Hkv = len(ids), c.head_dim, c.n_heads, c.n_kv_heads
    inv_freq = 1.0 / c.rope_theta ** (np.arange(0, D, 2) / D)
    freqs = np.arange(S)[:, None] * inv_freq[None]
    emb = np.concatenate([freqs, freqs], axis=-1)  # [S, D]
    cos, sin = np.cos(emb), np.sin(emb)
    mask = np.triu(np.full((S, S), -np.inf), 1)
    x = W["token_embd.weight"][np.asarray(ids)]
    for i in range(c.n_layers):
        p = "blk.%d." % i
        h = rms_norm(x, W[p + "attn_norm.weight"], c.rms_eps)
        q = h @ W[p + "attn_q.weight"].T
        k = h @ W[p + "attn_k.weight"].T
        v = h @ W[p + "attn_v.weight"].T
        if c.attention_bias:
            q = q + W[p + "attn_q.bias"]
            k = k + W[p + "attn_k.bias"]
            v = v + W[p + "attn_v.bias"]
        q = q.reshape(S, H, D).transpose(1, 0, 2)      # [H, S, D]
        k = k.reshape(S, Hkv, D).transpose(1, 0, 2)
        v = v.reshape(S, Hkv, D).transpose(1, 0, 2)
        if c.qk_norm:
            q = rms_norm(q, W[p + "attn_q_norm.weight"], c.rms_eps)
            k = rms_norm(k, W[p + "attn_k_norm.weight"], c.rms_eps)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = H // Hkv                                 # repeat_kv
        k, v = np.repeat(k, rep, axis=0), np.repeat(v, rep, axis=0)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(D) + mask
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        o = (probs @ v).transpose(1, 0, 2).reshape(S, H * D)
        x = x + o @ W[p + "attn_output.weight"].T
        h = rms_norm(x, W[p + "ffn_norm.weight"], c.rms_eps)
        g = h @ W[p + "ffn_gate.weight"].T
        u = h @ W[p + "ffn_up.weight"].T
        x = x + (g / (1 + np.exp(-g)) * u) @ W[p + "ffn_down.weight"].T
    x = rms_norm(x, W["output_norm.weight"], c.rms_eps)
    head = W.get("output.weight", W["token_embd.weight"])
    return x @ head.T


def reference_generate(c, W, prompt, n_new):
    ids, all_logits = list(prompt), []
    for _ in range(n_new):
        logits = reference_logits(c, W, ids)[-1]
        all_logits.append(logits)
        ids.append(int(np.argmax(logits)))
    return ids[len(prompt):], all_logits


def random_weights(shapes, rng):
    """Random float32 weights for `shapes` (GGUF name -> shape): norms near
    1, biases small, the embedding standard normal, matrices scaled by
    1/sqrt(in) so that activations stay of order 1 through the layers."""
    W = {}
    for name, shape in shapes.items():
        if name.endswith("norm.weight"):
            w = 1.0 + 0.2 * rng.standard_normal(shape)
        elif name.endswith(".bias"):
            w = 0.3 * rng.standard_normal(shape)
        elif name == "token_embd.weight":
            w = rng.standard_normal(shape)
        else:
            w = rng.standard_normal(shape) / np.sqrt(shape[1])
        W[name] = w.astype(np.float32)
    return W
