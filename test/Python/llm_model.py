# RUN: %python %s
# ===- llm_model.py - rlx.llm.model against a float64 NumPy decoder --=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
# rlx.llm.model's decoders (Llama, Qwen2, Qwen3) on tiny random models
# against a float64 NumPy reference (Inputs/llm_reference.py, from the HF
# definitions of LlamaModel / Qwen2Model / Qwen3Model). The reference has no
# KV cache: it recomputes the whole sequence at every step, so it checks
# the program's cache logic (prefill of the prompt in one step, then one
# token per step). Greedy generation must agree token for token and the
# logits of every step within 1e-4 (relative to the largest logit).
# Also: llama.cpp's GGUF q/k permutation with gptj rope gives the logits
# of the Hugging Face weights with neox rope; a batch of two sequences;
# config_from_hf / config_from_gguf. Fresh seed each run
# (RLX_TEST_SEED=N repeats one).

import os
import sys
import time

import numpy as np

from rlx.llm import model as M

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "Inputs"))
import llm_reference  # noqa: E402
from llm_reference import reference_generate, reference_logits  # noqa: E402

SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))
print("seed", SEED, "(rerun with RLX_TEST_SEED=%d)" % SEED)
rng = np.random.default_rng(SEED)
failures = []
PROMPT, NEW = 5, 24
RTOL = 1e-4


def fail(msg):
    print("FAIL", msg)
    failures.append(msg)


# --------------------------------------------------------------------------
# Tiny random models in Hugging Face layout (neox row order), GGUF names.
# --------------------------------------------------------------------------

def random_config(arch, tie):
    # (hidden 48 works too, but its programs take seconds more to JIT on
    # their first call.)
    hidden = int(rng.choice([32, 64]))
    head_dim = int(rng.choice([8, 16]))
    return M.LlamaConfig(
        architecture=arch, vocab=int(rng.integers(64, 301)), hidden=hidden,
        n_layers=int(rng.integers(2, 4)), n_heads=4, n_kv_heads=2,
        head_dim=head_dim, ffn=int(rng.choice([64, 96, 128])),
        rope_theta=float(rng.choice([10000.0, 1000000.0, 500.0])),
        rms_eps=float(rng.choice([1e-5, 1e-6])), max_seq=64,
        tie_embeddings=tie, attention_bias=(arch == "qwen2"),
        qk_norm=(arch == "qwen3"), rope_style="neox")


def random_weights(c):
    return llm_reference.random_weights(
        {n: M._weight_shape(c, n) for n in M.weight_names(c)}, rng)


def rel_err(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def check_generation(label, c, W, model_config=None, model_weights=None):
    """Greedy decoding of the compiled model against the reference."""
    t0 = time.time()
    model = M.Model(model_config or c, model_weights or W)
    prompt = [int(t) for t in rng.integers(0, c.vocab, PROMPT)]
    got_logits = []
    got = model.generate(prompt, NEW,
                         on_logits=lambda i, l: got_logits.append(l[0]))
    t1 = time.time()
    want, want_logits = reference_generate(c, W, prompt, NEW)
    t2 = time.time()
    worst = 0.0
    for i, (g, w) in enumerate(zip(got_logits, want_logits)):
        err = rel_err(g, w)
        worst = max(worst, err)
        if err > RTOL:
            fail("%s: step %d logits differ by %.3g (relative)" %
                 (label, i, err))
            break
        if got[i] != want[i]:
            top = np.sort(w)[-2:]
            gap = (top[1] - top[0]) / np.max(np.abs(w))
            if gap < 10 * RTOL:
                print("%s: step %d is a near tie (gap %.2g): %d vs %d; "
                      "stopping the comparison here" %
                      (label, i, gap, got[i], want[i]))
            else:
                fail("%s: step %d token %d, reference %d" %
                     (label, i, got[i], want[i]))
            break
    print("%s: %s; %d tokens %s; worst logits error %.2e; "
          "rlx %.2fs (with compiling), reference %.2fs" %
          (label, ", ".join("%s=%s" % (k, getattr(c, k)) for k in (
              "vocab", "hidden", "n_layers", "head_dim", "ffn",
              "tie_embeddings")),
           len(got), "equal" if got == want else "DIFFER", worst,
           t1 - t0, t2 - t1))
    return model, prompt, got_logits


# --------------------------------------------------------------------------
# The three architectures.
# --------------------------------------------------------------------------

start = time.time()
for arch, tie in (("llama", False), ("qwen2", True), ("qwen3", True)):
    c = random_config(arch, tie)
    W = random_weights(c)
    model, prompt, logits = check_generation(arch, c, W)
    if arch == "llama":
        llama = (c, W, model, prompt, logits)

# --------------------------------------------------------------------------
# GGUF's rope: llama.cpp permutes q/k rows for gptj rope; same logits.
# --------------------------------------------------------------------------

c, W, hf_model, prompt, hf_logits = llama
GW, gc = M.permute_qk_for_gguf(W, c)
if gc.rope_style != "gptj":
    fail("permute_qk_for_gguf: rope_style %s" % gc.rope_style)
if np.array_equal(GW["blk.0.attn_q.weight"], W["blk.0.attn_q.weight"]):
    fail("permute_qk_for_gguf left attn_q unchanged")
back, bc = M.unpermute_qk_from_gguf(GW, gc)
if bc.rope_style != "neox" or any(not np.array_equal(back[k], W[k])
                                  for k in W):
    fail("unpermute_qk_from_gguf is not the inverse of permute_qk_for_gguf")
gguf_model = M.Model(gc, GW)
gguf_logits = []
gguf_model.generate(prompt, 6, on_logits=lambda i, l: gguf_logits.append(l))
worst = max(rel_err(g[0], h) for g, h in zip(gguf_logits, hf_logits))
print("llama gptj (GGUF-permuted q/k) vs neox (HF): worst logits error "
      "%.2e" % worst)
if worst > 1e-5:
    fail("GGUF-permuted weights with gptj rope differ from HF with neox by "
         "%.3g" % worst)
# The wrong rope on the permuted weights must differ (the check is live).
wrong = M.Model(M.dataclasses.replace(gc, rope_style="neox"), GW)
if rel_err(wrong.step(np.array(prompt), 0)[0], hf_logits[0]) < 1e-3:
    fail("neox rope on GGUF-permuted weights gave the same logits")

# Qwen2 with biases through the permutation too (biases are rows).
c2 = random_config("qwen2", False)
W2 = random_weights(c2)
p2 = [int(t) for t in rng.integers(0, c2.vocab, PROMPT)]
GW2, gc2 = M.permute_qk_for_gguf(W2, c2)
a = M.Model(c2, W2).step(np.array(p2), 0)[0]
b = M.Model(gc2, GW2).step(np.array(p2), 0)[0]
ref = reference_logits(c2, W2, p2)[-1]
print("qwen2 gptj (permuted, biases) vs neox: %.2e, vs reference %.2e" %
      (rel_err(b, a), rel_err(a, ref)))
if rel_err(b, a) > 1e-5 or rel_err(a, ref) > RTOL:
    fail("qwen2 permuted biases: %.3g / %.3g" % (rel_err(b, a),
                                                  rel_err(a, ref)))

# --------------------------------------------------------------------------
# A batch of two sequences (the llama model), two steps.
# --------------------------------------------------------------------------

c, W = llama[0], llama[1]
bm = M.Model(c, W, batch=2)
prompts = rng.integers(0, c.vocab, (2, PROMPT))
l0 = bm.step(prompts)
nxt = np.argmax(l0, -1)
l1 = bm.step(nxt[:, None])
for b in range(2):
    seq = list(prompts[b]) + [int(nxt[b])]
    ref = reference_logits(c, W, seq)
    e0, e1 = rel_err(l0[b], ref[-2]), rel_err(l1[b], ref[-1])
    print("batch 2, sequence %d: logits errors %.2e, %.2e" % (b, e0, e1))
    if max(e0, e1) > RTOL:
        fail("batch sequence %d: %.3g, %.3g" % (b, e0, e1))

# --------------------------------------------------------------------------
# weights_as_args=False: the weights are rlx.params, bound by name.
# --------------------------------------------------------------------------

import rlx  # noqa: E402

c, W, _, prompt, hf_logits = llama
program = rlx.compile(rlx.Module.parse(
    M.build_program(c, PROMPT, weights_as_args=False), rlx.Context()),
    function="decode_step")
cos, sin = M.rope_tables(c, 0, PROMPT)
caches = [np.zeros((1, c.max_seq, c.n_kv_heads, c.head_dim), np.float32)
          for _ in range(2 * c.n_layers)]  # each updated in place
out = program(np.array([prompt]), np.array(0), cos, sin, *caches,
              *[W[name] for name in program.param_names])
err = rel_err(out[0][0], hf_logits[0])
print("rlx.param weights: logits error %.2e" % err)
if err > 1e-6:
    fail("weights_as_args=False: logits differ by %.3g" % err)

# --------------------------------------------------------------------------
# Configs from Hugging Face config.json and GGUF metadata.
# --------------------------------------------------------------------------

hf = {"architectures": ["Qwen3ForCausalLM"], "vocab_size": 151936,
      "hidden_size": 1024, "num_hidden_layers": 28,
      "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
      "intermediate_size": 3072, "rope_theta": 1000000,
      "rms_norm_eps": 1e-6, "max_position_embeddings": 40960,
      "tie_word_embeddings": True}
hc = M.config_from_hf(hf)
expect = dict(architecture="qwen3", vocab=151936, hidden=1024, n_layers=28,
              n_heads=16, n_kv_heads=8, head_dim=128, ffn=3072,
              rope_theta=1e6, rms_eps=1e-6, max_seq=40960,
              tie_embeddings=True, attention_bias=False, qk_norm=True,
              rope_style="neox")
for k, v in expect.items():
    if getattr(hc, k) != v:
        fail("config_from_hf: %s = %r, expected %r" % (k, getattr(hc, k), v))
q2 = M.config_from_hf(dict(hf, architectures=["Qwen2ForCausalLM"]))
if not q2.attention_bias or q2.qk_norm:
    fail("config_from_hf(Qwen2): bias %s qk_norm %s" % (q2.attention_bias,
                                                       q2.qk_norm))
meta = {"general.architecture": "llama", "llama.block_count": 16,
        "llama.embedding_length": 2048, "llama.feed_forward_length": 8192,
        "llama.attention.head_count": 32, "llama.attention.head_count_kv": 8,
        "llama.rope.freq_base": 500000.0,
        "llama.attention.layer_norm_rms_epsilon": 1e-5,
        "llama.context_length": 131072,
        "tokenizer.ggml.tokens": ["t%d" % i for i in range(1000)]}
gc = M.config_from_gguf(meta)
expect = dict(architecture="llama", vocab=1000, hidden=2048, n_layers=16,
              n_heads=32, n_kv_heads=8, head_dim=64, ffn=8192,
              rope_theta=500000.0, max_seq=131072, rope_style="gptj",
              attention_bias=False, qk_norm=False)
for k, v in expect.items():
    if getattr(gc, k) != v:
        fail("config_from_gguf: %s = %r, expected %r" % (k, getattr(gc, k),
                                                         v))
if M.config_from_gguf(dict(meta, **{"general.architecture": "qwen2"},
                           **{k.replace("llama.", "qwen2."): v
                              for k, v in meta.items()
                              if k.startswith("llama.")})).rope_style \
        != "neox":
    fail("config_from_gguf(qwen2): rope_style is not neox")
for bad in (lambda: M.config_from_gguf({"general.architecture": "mamba"}),
            lambda: M.config_from_hf({"architectures": ["GPT2LMHeadModel"]})):
    try:
        bad()
        fail("an unsupported architecture did not raise")
    except ValueError as e:
        if "mamba" not in str(e) and "GPT2LMHeadModel" not in str(e):
            fail("the error does not name the architecture: %s" % e)
hf_sd = {"model.embed_tokens.weight": np.zeros((4, 2)),
         "model.layers.0.self_attn.q_proj.weight": np.zeros((2, 2)),
         "model.layers.0.mlp.down_proj.weight": np.zeros((2, 3)),
         "model.norm.weight": np.ones(2), "lm_head.weight": np.zeros((4, 2)),
         "model.layers.0.self_attn.rotary_emb.inv_freq": np.ones(1)}
names = sorted(M.weights_from_hf(hf_sd))
if names != ["blk.0.attn_q.weight", "blk.0.ffn_down.weight",
             "output.weight", "output_norm.weight", "token_embd.weight"]:
    fail("weights_from_hf names: %s" % names)

print("total %.1fs" % (time.time() - start))
sys.exit(1 if failures else 0)
