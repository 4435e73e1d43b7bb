#!/usr/bin/env python3
# ===- hf_check.py - rlx.llm against transformers and tokenizers ---=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""rlx.llm checked against Hugging Face's own libraries, which only the GPU
machine has (transformers, tokenizers, safetensors), in two steps:

  # here (RLX built): tiny random llama / qwen2 / qwen3 models as Hugging
  # Face folders, and the 128 greedy tokens rlx.llm generates from each
  PYTHONPATH=build/python /usr/bin/python3 bench/llm/hf_check.py make OUT

  # there (no MLIR needed): transformers generates from the same folders
  # and must give the same tokens; a byte-level BPE trained there with
  # `tokenizers` encodes 10,000 lines identically with rlx.llm.tokenizer
  python3 bench/llm/hf_check.py check OUT

OUT travels to the GPU machine with the working tree (an untracked folder;
delete it after). `check` prints one line per model and one for the
tokenizer, and exits 1 on a mismatch."""

import json
import os
import sys

import numpy as np

NEW = 128
PROMPT = 8
ARCHS = {
    "llama": dict(cls="LlamaForCausalLM", bias=False, qk_norm=False),
    "qwen2": dict(cls="Qwen2ForCausalLM", bias=True, qk_norm=False),
    "qwen3": dict(cls="Qwen3ForCausalLM", bias=False, qk_norm=True),
}


def hf_config(arch, c):
    config = {"architectures": [ARCHS[arch]["cls"]],
              "model_type": arch, "vocab_size": c["vocab"],
              "hidden_size": c["hidden"],
              "intermediate_size": c["ffn"],
              "num_hidden_layers": c["layers"],
              "num_attention_heads": c["heads"],
              "num_key_value_heads": c["kv_heads"],
              "head_dim": c["head_dim"], "rms_norm_eps": 1e-6,
              "rope_theta": c["theta"], "max_position_embeddings": 256,
              "tie_word_embeddings": c["tie"], "hidden_act": "silu",
              "torch_dtype": "float32", "attention_bias": False}
    if arch == "qwen2":
        del config["attention_bias"]  # Qwen2's q/k/v always have biases
    return config


def random_state(arch, c, rng):
    H, Hkv, D, hid = c["heads"], c["kv_heads"], c["head_dim"], c["hidden"]
    mat = lambda o, i: (rng.standard_normal((o, i)) / np.sqrt(i)).astype(
        np.float32)
    norm = lambda n: (1 + 0.2 * rng.standard_normal(n)).astype(np.float32)
    s = {"model.embed_tokens.weight":
         rng.standard_normal((c["vocab"], hid)).astype(np.float32),
         "model.norm.weight": norm(hid)}
    if not c["tie"]:
        s["lm_head.weight"] = mat(c["vocab"], hid)
    for i in range(c["layers"]):
        p = "model.layers.%d." % i
        s[p + "input_layernorm.weight"] = norm(hid)
        s[p + "post_attention_layernorm.weight"] = norm(hid)
        s[p + "self_attn.q_proj.weight"] = mat(H * D, hid)
        s[p + "self_attn.k_proj.weight"] = mat(Hkv * D, hid)
        s[p + "self_attn.v_proj.weight"] = mat(Hkv * D, hid)
        s[p + "self_attn.o_proj.weight"] = mat(hid, H * D)
        if ARCHS[arch]["bias"]:
            for n, rows in (("q", H * D), ("k", Hkv * D), ("v", Hkv * D)):
                s[p + "self_attn.%s_proj.bias" % n] = (
                    0.3 * rng.standard_normal(rows)).astype(np.float32)
        if ARCHS[arch]["qk_norm"]:
            s[p + "self_attn.q_norm.weight"] = norm(D)
            s[p + "self_attn.k_norm.weight"] = norm(D)
        s[p + "mlp.gate_proj.weight"] = mat(c["ffn"], hid)
        s[p + "mlp.up_proj.weight"] = mat(c["ffn"], hid)
        s[p + "mlp.down_proj.weight"] = mat(hid, c["ffn"])
    return s


def byte_level_tokenizer_json(vocab_size):
    """A byte-level BPE tokenizer.json with the 256 byte symbols and an
    end-of-text token (the models are fed token ids; rlx.llm.load wants a
    tokenizer beside the weights)."""
    from rlx.llm.tokenizer import bytes_to_unicode
    chars = bytes_to_unicode()
    vocab = {chars[b]: b for b in range(256)}
    extra = [{"id": i, "content": "<|extra_%d|>" % i, "special": True}
             for i in range(256, vocab_size)]
    return {"model": {"type": "BPE", "vocab": vocab, "merges": []},
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
                              "use_regex": True},
            "added_tokens": extra}


def make(out):
    import rlx.llm
    from rlx.llm import gguf
    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    os.makedirs(out, exist_ok=True)
    summary = {}
    for arch in ARCHS:
        c = dict(vocab=300, hidden=64, ffn=160, layers=3, heads=4,
                 kv_heads=2, head_dim=16, tie=(arch != "llama"),
                 theta=float(rng.choice([10000.0, 1000000.0])))
        folder = os.path.join(out, arch)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(hf_config(arch, c), f, indent=1)
        gguf.write_safetensors(os.path.join(folder, "model.safetensors"),
                               random_state(arch, c, rng))
        with open(os.path.join(folder, "tokenizer.json"), "w") as f:
            json.dump(byte_level_tokenizer_json(c["vocab"]), f)
        llm = rlx.llm.load(folder, max_seq=PROMPT + NEW)
        prompt = [int(t) for t in rng.integers(0, 256, PROMPT)]
        ids = llm.generate_ids(prompt, NEW, stop_at_eos=False)
        summary[arch] = {"prompt": prompt, "rlx": ids}
        print("%s: rlx generated %d tokens" % (arch, len(ids)))
    with open(os.path.join(out, "rlx_tokens.json"), "w") as f:
        json.dump(summary, f)


def check_models(out):
    import torch
    from transformers import AutoModelForCausalLM
    with open(os.path.join(out, "rlx_tokens.json")) as f:
        summary = json.load(f)
    ok = True
    for arch, run in summary.items():
        model = AutoModelForCausalLM.from_pretrained(
            os.path.join(out, arch), torch_dtype=torch.float32,
            attn_implementation="eager").eval()
        prompt = torch.tensor([run["prompt"]])
        with torch.no_grad():
            gen = model.generate(prompt, max_new_tokens=NEW, do_sample=False,
                                 min_new_tokens=NEW, pad_token_id=0,
                                 output_scores=True,
                                 return_dict_in_generate=True)
        theirs = gen.sequences[0, len(run["prompt"]):].tolist()
        ours = run["rlx"]
        same = 0
        while same < min(len(ours), len(theirs)) and \
                ours[same] == theirs[same]:
            same += 1
        note = ""
        if same < NEW:
            scores = gen.scores[same][0].double()
            top = torch.topk(scores, 2).values
            gap = float((top[0] - top[1]) / scores.abs().max())
            note = " (first difference at %d: ours %d, theirs %d, their " \
                   "top-2 gap %.2g of the largest logit)" % (
                       same, ours[same], theirs[same], gap)
            ok &= gap < 1e-4  # a near tie is float32 rounding, not a bug
        print("%s: %d of %d greedy tokens equal to transformers'%s" %
              (arch, same, NEW, note))
    return ok


def check_tokenizer():
    import random
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, \
        trainers
    # The module alone: the rlx package needs a build of RLX to import.
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "rlx_llm_tokenizer", os.path.join(os.path.dirname(__file__), "..",
                                          "..", "python", "rlx", "llm",
                                          "tokenizer.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from_tokenizer_json = module.from_tokenizer_json
    rng = random.Random(int.from_bytes(os.urandom(4), "little"))
    syllables = ["the", "an", "ing", "ed", "pro", "con", "ta", "zen", "qu",
                 "ou", "café", "über", "東京", "мир", " ", "  ", "\n", "'s",
                 "'ll", "123", "4567", "!", "?", ",", ".", "😀", "\t"]
    lines = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 30)))
             for _ in range(10000)]
    tok = Tokenizer(models.BPE())
    # llama-3's split regex, as its tokenizer.json has it.
    pattern = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|"
               r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(pattern=__import__("tokenizers").Regex(pattern),
                             behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=1000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<|begin_of_text|>", "<|end_of_text|>"])
    tok.train_from_iterator(lines, trainer)
    path = "/tmp/rlx_hf_tokenizer.json"
    tok.save(path)
    ours = from_tokenizer_json(path)
    differ = [line for line in lines
              if ours.encode(line, add_bos=False) != tok.encode(line).ids]
    round_trip = sum(ours.decode(ours.encode(line, add_bos=False)) != line
                     for line in lines)
    print("tokenizer: byte-level BPE trained by tokenizers (%d tokens): "
          "%d of %d lines encode identically; %d round trips differ" %
          (tok.get_vocab_size(), len(lines) - len(differ), len(lines),
           round_trip))
    for line in differ[:3]:
        print("  differs: %r: ours %s, theirs %s" % (
            line, ours.encode(line, add_bos=False), tok.encode(line).ids))
    return not differ and not round_trip


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("make", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        ok = check_tokenizer()
        ok = check_models(sys.argv[2]) and ok
        sys.exit(0 if ok else 1)
