#!/usr/bin/env python3
# ===- train.py - a tiny llama trained here, written as a GGUF file -=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Makes examples/tiny_llm/tiny-llama.gguf, the model of the README's
"Running an LLM": a 2-layer llama (hidden 64, grouped-query attention)
trained with PyTorch on the CPU for a minute on sentences of a small
grammar, with a SentencePiece tokenizer trained here on the same text, and
written in the GGUF layout llama.cpp uses (q/k rows permuted for its rope;
Q8_0 matrices, F32 norms), by rlx.llm.gguf:

  PYTHONPATH=build/python /usr/bin/python3 examples/tiny_llm/train.py

Needs python3-torch and python3-sentencepiece. The file in the repository
was made by this script (seed 0); a rerun makes a similar model."""

import math
import os
import random
import tempfile

import numpy as np
import sentencepiece as spm
import torch

from rlx.llm import gguf
from rlx.llm import model as M

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tiny-llama.gguf")

ADJ = ["small", "big", "old", "young", "happy", "sleepy", "red", "quiet"]
NOUN = ["cat", "dog", "bird", "fox", "child", "farmer", "king", "robot"]
VERB = ["sat", "slept", "ran", "danced", "waited", "sang", "looked"]
PREP = ["on", "under", "near", "behind", "beside"]
PLACE = ["the mat", "the tree", "the river", "the house", "the hill",
         "the old bridge", "the red door"]


def sentence(rng):
    s = "the %s %s %s %s %s" % (rng.choice(ADJ), rng.choice(NOUN),
                                rng.choice(VERB), rng.choice(PREP),
                                rng.choice(PLACE))
    if rng.random() < 0.4:
        s += " and then it %s" % rng.choice(VERB)
    return s + "."


class TinyLlama(torch.nn.Module):
    """Hugging Face's LlamaModel math (neox rope, RMSNorm, SwiGLU, GQA)."""

    def __init__(self, c):
        super().__init__()
        self.c = c
        H, Hkv, D, hid = c.n_heads, c.n_kv_heads, c.head_dim, c.hidden
        lin = lambda i, o: torch.nn.Linear(i, o, bias=False)  # noqa: E731
        self.embed = torch.nn.Embedding(c.vocab, hid)
        self.layers = torch.nn.ModuleList()
        for _ in range(c.n_layers):
            self.layers.append(torch.nn.ModuleDict(dict(
                q=lin(hid, H * D), k=lin(hid, Hkv * D), v=lin(hid, Hkv * D),
                o=lin(H * D, hid), gate=lin(hid, c.ffn), up=lin(hid, c.ffn),
                down=lin(c.ffn, hid))))
        self.norms = torch.nn.Parameter(torch.ones(2 * c.n_layers + 1, hid))
        self.head = lin(hid, c.vocab)
        inv = 1.0 / c.rope_theta ** (torch.arange(0, D, 2).double() / D)
        ang = torch.arange(c.max_seq).double()[:, None] * inv
        emb = torch.cat([ang, ang], -1)
        self.register_buffer("cos", emb.cos().float())
        self.register_buffer("sin", emb.sin().float())

    def norm(self, x, i):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) +
                               self.c.rms_eps) * self.norms[i]

    def rope(self, x):
        S, half = x.shape[2], x.shape[-1] // 2
        rot = torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * self.cos[:S] + rot * self.sin[:S]

    def forward(self, ids):
        c = self.c
        B, S = ids.shape
        H, Hkv, D = c.n_heads, c.n_kv_heads, c.head_dim
        x = self.embed(ids)
        mask = torch.ones(S, S, dtype=torch.bool).tril()
        for i, L in enumerate(self.layers):
            h = self.norm(x, 2 * i)
            q = self.rope(L["q"](h).view(B, S, H, D).transpose(1, 2))
            k = self.rope(L["k"](h).view(B, S, Hkv, D).transpose(1, 2))
            v = L["v"](h).view(B, S, Hkv, D).transpose(1, 2)
            k = k.repeat_interleave(H // Hkv, 1)
            v = v.repeat_interleave(H // Hkv, 1)
            a = (q @ k.transpose(-1, -2)) / math.sqrt(D)
            a = torch.softmax(a.masked_fill(~mask, float("-inf")), -1) @ v
            x = x + L["o"](a.transpose(1, 2).reshape(B, S, H * D))
            h = self.norm(x, 2 * i + 1)
            x = x + L["down"](torch.nn.functional.silu(L["gate"](h)) *
                              L["up"](h))
        return self.head(self.norm(x, 2 * c.n_layers))

    def gguf_weights(self):
        """The weights under GGUF names, in Hugging Face row order."""
        W = {"token_embd.weight": self.embed.weight,
             "output_norm.weight": self.norms[2 * self.c.n_layers],
             "output.weight": self.head.weight}
        names = dict(q="attn_q", k="attn_k", v="attn_v", o="attn_output",
                     gate="ffn_gate", up="ffn_up", down="ffn_down")
        for i, L in enumerate(self.layers):
            for short, name in names.items():
                W["blk.%d.%s.weight" % (i, name)] = L[short].weight
            W["blk.%d.attn_norm.weight" % i] = self.norms[2 * i]
            W["blk.%d.ffn_norm.weight" % i] = self.norms[2 * i + 1]
        return {k: v.detach().numpy().astype(np.float32) for k, v in
                W.items()}


def main():
    rng = random.Random(0)
    torch.manual_seed(0)
    text = [sentence(rng) for _ in range(4000)]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus.txt")
        with open(corpus, "w") as f:
            f.write("\n".join(text) + "\n")
        spm.SentencePieceTrainer.train(
            input=corpus, model_prefix=os.path.join(tmp, "sp"),
            vocab_size=160, model_type="bpe", character_coverage=1.0,
            bos_id=1, eos_id=2, unk_id=0, pad_id=-1, minloglevel=2)
        sp = spm.SentencePieceProcessor(
            model_file=os.path.join(tmp, "sp.model"))
    n = sp.get_piece_size()
    c = M.LlamaConfig(architecture="llama", vocab=n, hidden=64, n_layers=2,
                      n_heads=4, n_kv_heads=2, head_dim=16, ffn=192,
                      rope_theta=10000.0, rms_eps=1e-5, max_seq=128,
                      tie_embeddings=False, attention_bias=False,
                      qk_norm=False, rope_style="neox")
    stream = []
    for line in text:
        stream += [1] + sp.encode(line) + [2]
    data = torch.tensor(stream)
    model = TinyLlama(c)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    S, B = 64, 32
    for step in range(800):
        starts = torch.randint(0, len(data) - S - 1, (B,))
        batch = torch.stack([data[s:s + S + 1] for s in starts])
        logits = model(batch[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, n),
                                                 batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 200 == 0 or step == 799:
            print("step %d loss %.3f" % (step, loss.item()))

    W, gc = M.permute_qk_for_gguf(model.gguf_weights(), c)
    types = {k: ("F32" if k.endswith("norm.weight") else "Q8_0")
             for k in W}

    def kind(i):
        if sp.is_unknown(i):
            return 2
        return 3 if sp.is_control(i) else 1

    metadata = {
        "general.architecture": "llama", "general.name": "rlx-tiny-llama",
        "llama.block_count": c.n_layers, "llama.context_length": c.max_seq,
        "llama.embedding_length": c.hidden,
        "llama.feed_forward_length": c.ffn,
        "llama.attention.head_count": c.n_heads,
        "llama.attention.head_count_kv": c.n_kv_heads,
        "llama.rope.freq_base": c.rope_theta,
        "llama.attention.layer_norm_rms_epsilon": c.rms_eps,
        "tokenizer.ggml.model": "llama",
        "tokenizer.ggml.tokens": [sp.id_to_piece(i) for i in range(n)],
        "tokenizer.ggml.scores": [float(sp.get_score(i)) for i in range(n)],
        "tokenizer.ggml.token_type": [kind(i) for i in range(n)],
        "tokenizer.ggml.bos_token_id": 1, "tokenizer.ggml.eos_token_id": 2,
        "tokenizer.ggml.unknown_token_id": 0,
        "tokenizer.ggml.add_bos_token": True,
    }
    gguf.write_gguf(OUT, metadata, W, types=types)
    print("wrote %s (%d bytes)" % (OUT, os.path.getsize(OUT)))


if __name__ == "__main__":
    main()
