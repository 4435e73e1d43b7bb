# RUN: %python %s %rlx_build_dir/bin
# ===- llm_generate.py - model files to text: rlx.llm.load, rlx-generate === #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
# Text in, text out, from files our own writers make:
# - a tiny random llama as a GGUF file (q/k permuted as llama.cpp's
#   converter does; tensors in every supported type: F32 norms, F16, BF16,
#   Q4_0, Q8_0, Q4_K, Q5_K, Q6_K) with a SentencePiece tokenizer trained here
#   (python3-sentencepiece) in its metadata;
# - a tiny random qwen2 as a Hugging Face folder (config.json,
#   model.safetensors, a byte-level BPE tokenizer.json).
# rlx.llm.load(...).generate_ids (greedy) must equal the float64 reference
# decoder (Inputs/llm_reference.py) on the weights as stored (dequantized;
# the dequantizers are checked bit for bit in gguf.py), token for token;
# the prompt's encoding equals sentencepiece's; rlx-generate prints the
# same ids; sampling with a seed repeats and stays in the vocabulary; bad
# files end in an error naming what is wrong. Fresh seed each run
# (RLX_TEST_SEED=N repeats one).

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import sentencepiece as spm

import rlx.llm
from rlx.llm import gguf, model as M, tokenizer as T

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "Inputs"))
import llm_reference  # noqa: E402
from llm_reference import reference_generate  # noqa: E402

TOOLS = sys.argv[1] if len(sys.argv) > 1 else "build/bin"
SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))
print("seed", SEED, "(rerun with RLX_TEST_SEED=%d)" % SEED)
rng = np.random.default_rng(SEED)
failures = []
NEW = 12


def fail(msg):
    print("FAIL", msg)
    failures.append(msg)


def random_weights(c):
    return llm_reference.random_weights(
        {n: M._weight_shape(c, n) for n in M.weight_names(c)}, rng)


def check_greedy(label, llm, c, W, prompt_ids):
    got = llm.generate_ids(prompt_ids, NEW, stop_at_eos=False)
    want, want_logits = reference_generate(c, W, prompt_ids, NEW)
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            top = np.sort(want_logits[i])[-2:]
            gap = (top[1] - top[0]) / np.max(np.abs(want_logits[i]))
            if gap < 1e-3:
                print("%s: step %d is a near tie (gap %.2g); compared up "
                      "to it" % (label, i, gap))
                return got[:i]
            fail("%s: step %d token %d, reference %d" % (label, i, g, w))
            return got
    print("%s: %d greedy tokens equal to the float64 reference" %
          (label, len(got)))
    return got


tmp = tempfile.mkdtemp(prefix="rlx-llm-")

# --------------------------------------------------------------------------
# A llama GGUF with a SentencePiece tokenizer.
# --------------------------------------------------------------------------

words = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "far", "away",
         "café", "über", "and", "then", "slept", "under", "tree", "sun"]
corpus = os.path.join(tmp, "corpus.txt")
with open(corpus, "w") as f:
    for _ in range(400):
        f.write(" ".join(rng.choice(words, int(rng.integers(3, 12)))) + "\n")
spm.SentencePieceTrainer.train(
    input=corpus, model_prefix=os.path.join(tmp, "sp"), vocab_size=320,
    hard_vocab_limit=False,
    model_type="bpe", byte_fallback=True, character_coverage=1.0,
    bos_id=1, eos_id=2, unk_id=0, pad_id=-1, minloglevel=2)
sp = spm.SentencePieceProcessor(model_file=os.path.join(tmp, "sp.model"))
n_vocab = sp.get_piece_size()


def piece_type(i):
    if sp.is_unknown(i):
        return T.TOKEN_UNKNOWN
    if sp.is_control(i):
        return T.TOKEN_CONTROL
    if sp.is_byte(i):
        return T.TOKEN_BYTE
    return T.TOKEN_NORMAL


c = M.LlamaConfig(
    architecture="llama", vocab=n_vocab, hidden=64, n_layers=3, n_heads=4,
    n_kv_heads=2, head_dim=16, ffn=256, rope_theta=10000.0, rms_eps=1e-5,
    max_seq=64, tie_embeddings=False, attention_bias=False, qk_norm=False,
    rope_style="neox")
W = random_weights(c)
GW, gc = M.permute_qk_for_gguf(W, c)
# In-dim 64 (a multiple of 32) for Q4_0/Q8_0; ffn_down's in-dim 256 for the
# K quants, one per layer.
types = {"token_embd.weight": "Q8_0", "output.weight": "F16"}
for i, k_quant in enumerate(("Q4_K", "Q5_K", "Q6_K")):
    p = "blk.%d." % i
    types.update({p + "attn_q.weight": "Q4_0", p + "attn_k.weight": "Q8_0",
                  p + "attn_v.weight": "F16", p + "attn_output.weight": "BF16",
                  p + "ffn_gate.weight": "Q4_0", p + "ffn_up.weight": "Q8_0",
                  p + "ffn_down.weight": k_quant})
metadata = {
    "general.architecture": "llama", "general.name": "tiny-llama",
    "llama.block_count": c.n_layers, "llama.context_length": c.max_seq,
    "llama.embedding_length": c.hidden, "llama.feed_forward_length": c.ffn,
    "llama.attention.head_count": c.n_heads,
    "llama.attention.head_count_kv": c.n_kv_heads,
    "llama.rope.freq_base": c.rope_theta,
    "llama.attention.layer_norm_rms_epsilon": c.rms_eps,
    "tokenizer.ggml.model": "llama",
    "tokenizer.ggml.tokens": [sp.id_to_piece(i) for i in range(n_vocab)],
    "tokenizer.ggml.scores": [float(sp.get_score(i)) for i in range(n_vocab)],
    "tokenizer.ggml.token_type": [piece_type(i) for i in range(n_vocab)],
    "tokenizer.ggml.bos_token_id": 1, "tokenizer.ggml.eos_token_id": 2,
    "tokenizer.ggml.unknown_token_id": 0,
    "tokenizer.ggml.add_bos_token": True,
}
path = os.path.join(tmp, "tiny-llama.gguf")
gguf.write_gguf(path, metadata, GW, types=types)

# The reference runs on the weights as stored, back in Hugging Face order.
stored = gguf.GGUFFile(path)
SW, _ = M.unpermute_qk_from_gguf({n: stored.tensor(n) for n in GW}, gc)
llm = rlx.llm.load(path)
# The Q4_0, Q8_0, Q4_K, Q5_K and Q6_K matrices stay in their blocks (the
# program multiplies by them with rlx.dequant_matmul); the rest is float32.
kept = {n for n in GW if M.is_matrix(n) and types.get(n) in M.PACKED_TYPES}
if set(llm.model._packed) != kept:
    fail("packed matrices %s, expected %s" % (sorted(llm.model._packed),
                                              sorted(kept)))
text = "the cat sat on the mat and then slept"
ids = llm.encode(text)
want_ids = [1] + sp.encode(text)
if ids != want_ids:
    fail("llama: the prompt encodes as %s, sentencepiece %s" % (ids,
                                                                want_ids))
got = check_greedy("llama gguf", llm, c, SW, ids)
out_text = llm.decode(got)
# (Random ids spell invalid UTF-8, whose replacement characters
# sentencepiece counts differently; the text of valid ids must agree.)
if "\ufffd" not in sp.decode(got) and out_text != sp.decode(got):
    fail("llama: decode %r, sentencepiece %r" % (out_text, sp.decode(got)))
if llm.decode(ids) != sp.decode(ids):
    fail("llama: decode of the prompt %r, sentencepiece %r" %
         (llm.decode(ids), sp.decode(ids)))
print("llama gguf: %r -> %r" % (text, out_text))

# Dequantized at load, the same logits (float32 sums in another order).
plain = rlx.llm.load(path, packed=False)
if plain.model._packed:
    fail("packed=False kept %s packed" % sorted(plain.model._packed))
a, b = llm.model.step(ids, 0), plain.model.step(ids, 0)
if np.max(np.abs(a - b)) > 1e-4 * np.max(np.abs(b)):
    fail("packed and dequantized weights: logits differ by %g (max |logit| "
         "%g)" % (np.max(np.abs(a - b)), np.max(np.abs(b))))

# Tied embeddings (no output.weight in the file): the head multiplies by
# token_embd's Q8_0 blocks while the embedding gathers from float32.
tied_path = os.path.join(tmp, "tiny-llama-tied.gguf")
gguf.write_gguf(tied_path, metadata,
                {n: w for n, w in GW.items() if n != "output.weight"},
                types={n: t for n, t in types.items() if n != "output.weight"})
tied, tied_plain = rlx.llm.load(tied_path), rlx.llm.load(tied_path,
                                                         packed=False)
if "output.weight" not in tied.model._packed:
    fail("tied embeddings: the head is not packed (%s)" %
         sorted(tied.model._packed))
a, b = tied.model.step(ids, 0), tied_plain.model.step(ids, 0)
if np.max(np.abs(a - b)) > 1e-4 * np.max(np.abs(b)):
    fail("tied embeddings: packed and dequantized logits differ by %g" %
         np.max(np.abs(a - b)))

# rlx-generate prints the same ids.
run = subprocess.run([os.path.join(TOOLS, "rlx-generate"), path, "--prompt",
                      text, "-n", str(len(got)), "--ids"],
                     capture_output=True, text=True)
if run.returncode != 0:
    fail("rlx-generate exited %d: %s" % (run.returncode, run.stderr))
else:
    printed = [int(t) for t in run.stdout.strip().splitlines()[-1].split()]
    if printed[:len(got)] != got:
        fail("rlx-generate printed %s, generate_ids %s" % (printed, got))
    if "tokens/s" not in run.stderr:
        fail("rlx-generate printed no speed: %r" % run.stderr)
    print("rlx-generate: same ids;", run.stderr.strip())

# Sampling: the same seed repeats, another seed may differ, ids in range.
opts = dict(temperature=0.8, top_k=20, top_p=0.9, stop_at_eos=False)
a = llm.generate_ids(ids, NEW, seed=7, **opts)
b = llm.generate_ids(ids, NEW, seed=7, **opts)
if a != b:
    fail("sampling with one seed differs: %s vs %s" % (a, b))
if not all(0 <= t < n_vocab for t in a):
    fail("sampled ids out of the vocabulary: %s" % a)
print("sampling (seed 7): %s" % a)

# --------------------------------------------------------------------------
# A qwen2 Hugging Face folder with a byte-level BPE tokenizer.json.
# --------------------------------------------------------------------------

byte_chars = T.bytes_to_unicode()
vocab = {byte_chars[b]: b for b in range(256)}
merges = []
for pair in (("t", "h"), ("th", "e"), ("Ġ", "t"), ("Ġt", "he"), ("a", "t"),
             ("c", "at"), ("Ġ", "c"), ("Ġc", "at")):
    merges.append(" ".join(pair))
    vocab["".join(pair)] = len(vocab)
eos = len(vocab)
folder = os.path.join(tmp, "tiny-qwen2")
os.makedirs(folder)
with open(os.path.join(folder, "tokenizer.json"), "w") as f:
    json.dump({"model": {"type": "BPE", "vocab": vocab, "merges": merges},
               "pre_tokenizer": {"type": "ByteLevel",
                                 "add_prefix_space": False,
                                 "use_regex": True},
               "added_tokens": [{"id": eos, "content": "<|endoftext|>",
                                 "special": True}]}, f)
qc = M.LlamaConfig(
    architecture="qwen2", vocab=eos + 1, hidden=64, n_layers=2, n_heads=4,
    n_kv_heads=2, head_dim=16, ffn=128, rope_theta=1000000.0, rms_eps=1e-6,
    max_seq=64, tie_embeddings=True, attention_bias=True, qk_norm=False,
    rope_style="neox")
QW = random_weights(qc)
hf_names = {"token_embd.weight": "model.embed_tokens.weight",
            "output_norm.weight": "model.norm.weight"}
layer_names = {"attn_norm.weight": "input_layernorm.weight",
               "ffn_norm.weight": "post_attention_layernorm.weight",
               "attn_q.weight": "self_attn.q_proj.weight",
               "attn_k.weight": "self_attn.k_proj.weight",
               "attn_v.weight": "self_attn.v_proj.weight",
               "attn_q.bias": "self_attn.q_proj.bias",
               "attn_k.bias": "self_attn.k_proj.bias",
               "attn_v.bias": "self_attn.v_proj.bias",
               "attn_output.weight": "self_attn.o_proj.weight",
               "ffn_gate.weight": "mlp.gate_proj.weight",
               "ffn_up.weight": "mlp.up_proj.weight",
               "ffn_down.weight": "mlp.down_proj.weight"}
state = {}
for name, w in QW.items():
    if name in hf_names:
        state[hf_names[name]] = w
    else:
        layer, rest = name[len("blk."):].split(".", 1)
        state["model.layers.%s.%s" % (layer, layer_names[rest])] = w
gguf.write_safetensors(os.path.join(folder, "model.safetensors"), state)
with open(os.path.join(folder, "config.json"), "w") as f:
    json.dump({"architectures": ["Qwen2ForCausalLM"],
               "vocab_size": qc.vocab, "hidden_size": qc.hidden,
               "num_hidden_layers": qc.n_layers,
               "num_attention_heads": qc.n_heads,
               "num_key_value_heads": qc.n_kv_heads,
               "intermediate_size": qc.ffn, "rope_theta": qc.rope_theta,
               "rms_norm_eps": qc.rms_eps, "max_position_embeddings": 64,
               "tie_word_embeddings": True}, f)
qllm = rlx.llm.load(folder)
qtext = "the cat, the hat"
qids = qllm.encode(qtext)
if qllm.decode(qids) != qtext:
    fail("qwen2: tokenizer round trip %r" % qllm.decode(qids))
check_greedy("qwen2 safetensors", qllm, qc, QW, qids)

# --------------------------------------------------------------------------
# Bad files: an error naming what is wrong, exit status 1.
# --------------------------------------------------------------------------

with open(path, "rb") as f:
    data = f.read()
truncated = os.path.join(tmp, "truncated.gguf")
with open(truncated, "wb") as f:
    f.write(data[:len(data) - 100])
missing = os.path.join(tmp, "missing.gguf")
gguf.write_gguf(missing, metadata, {n: w for n, w in GW.items()
                                    if n != "blk.1.ffn_up.weight"})
mamba = os.path.join(tmp, "mamba.gguf")
gguf.write_gguf(mamba, dict(metadata, **{"general.architecture": "mamba"}),
                {"token_embd.weight": GW["token_embd.weight"]})
for bad, needle in ((truncated, "truncated"),
                    (missing, "blk.1.ffn_up.weight"),
                    (mamba, "mamba"),
                    (os.path.join(tmp, "absent.gguf"), "absent.gguf")):
    run = subprocess.run([os.path.join(TOOLS, "rlx-generate"), bad,
                          "--prompt", "the cat"], capture_output=True,
                         text=True)
    if run.returncode != 1 or needle not in run.stderr or \
            "Traceback" in run.stderr:
        fail("rlx-generate on %s: exit %d, %r" % (os.path.basename(bad),
                                                  run.returncode,
                                                  run.stderr[-300:]))
    else:
        print("bad file %s: %s" % (os.path.basename(bad),
                                   run.stderr.strip().splitlines()[-1]))

sys.exit(1 if failures else 0)
