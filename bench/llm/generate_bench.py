#!/usr/bin/env python3
# ===- generate_bench.py - decode tokens/s on the CPU, against PyTorch === #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Greedy generation on the CPU with rlx.llm.Model against a PyTorch eager
decoder (float32, a static KV cache, attention as softmax(q k^T) v),
both on the same random weights, in one run:

  PYTHONPATH=build/python /usr/bin/python3 bench/llm/generate_bench.py \\
      [--shape tiny|160m|1b] [--tokens 32] [--prompt 16] [--quant Q8_0]

Prints the prompt step's time and the decode tokens/s of each, their
ratio (ours / PyTorch's tokens/s; above 1 means we are faster), the
compile time, and whether the greedy tokens agree (float32 on both sides:
a near tie may part them late). Shapes: tiny (2 layers, hidden 64); 160m
(12 layers, hidden 768, 12 heads, 4 kv heads, ffn 2048, vocab 32000);
1b (Llama-3.2-1B's: 16 layers, hidden 2048, 32 heads, 8 kv heads, head
dim 64, ffn 8192, vocab 128256, tied; 4.9 GB of float32 weights twice).
--quant TYPE stores every matrix in a GGUF block type (Q4_0, Q8_0, Q4_K,
Q5_K, Q6_K) that our program multiplies by packed (rlx.dequant_matmul);
PyTorch gets the same weights dequantized to float32. --plot FILE (.svg
or .png) draws both sides' tokens/s, the prompt step's as prompt tokens
over its time, against the faster side (bench/plot.py)."""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import plot  # noqa: E402

SHAPES = {
    "tiny": dict(vocab=300, hidden=64, n_layers=2, n_heads=4, n_kv_heads=2,
                 head_dim=16, ffn=160, tie=False),
    "160m": dict(vocab=32000, hidden=768, n_layers=12, n_heads=12,
                 n_kv_heads=4, head_dim=64, ffn=2048, tie=False),
    "1b": dict(vocab=128256, hidden=2048, n_layers=16, n_heads=32,
               n_kv_heads=8, head_dim=64, ffn=8192, tie=True),
}


def random_weights(M, c, rng):
    W = {}
    for name in M.weight_names(c):
        shape = M._weight_shape(c, name)
        if name.endswith("norm.weight"):
            w = 1 + 0.1 * rng.standard_normal(shape, np.float32)
        elif name == "token_embd.weight":
            w = rng.standard_normal(shape, np.float32)
        else:
            w = rng.standard_normal(shape, np.float32) / np.float32(
                np.sqrt(shape[1]))
        W[name] = w
    return W


class TorchDecoder:
    """Llama's decoder in PyTorch eager, float32, with a static KV cache
    (what transformers' generate does with a StaticCache), neox rope."""

    def __init__(self, c, W, max_seq):
        import torch
        self.torch = torch
        self.c = c
        self.W = {k: torch.from_numpy(v) for k, v in W.items()}
        D = c.head_dim
        inv = 1.0 / c.rope_theta ** (torch.arange(0, D, 2,
                                                  dtype=torch.float64) / D)
        ang = torch.arange(max_seq, dtype=torch.float64)[:, None] * inv
        emb = torch.cat([ang, ang], -1)
        self.cos, self.sin = emb.cos().float(), emb.sin().float()
        shape = (1, c.n_kv_heads, max_seq, D)
        self.k = [torch.zeros(shape) for _ in range(c.n_layers)]
        self.v = [torch.zeros(shape) for _ in range(c.n_layers)]

    def norm(self, x, w):
        t = self.torch
        return x * t.rsqrt(x.pow(2).mean(-1, keepdim=True) +
                           self.c.rms_eps) * w

    def rope(self, x, pos, n):
        half = x.shape[-1] // 2
        rot = self.torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * self.cos[pos:pos + n] + rot * self.sin[pos:pos + n]

    def step(self, ids, pos):
        t, c, W = self.torch, self.c, self.W
        F = t.nn.functional
        n = len(ids)
        x = W["token_embd.weight"][t.tensor(ids)][None]
        H, Hkv, D = c.n_heads, c.n_kv_heads, c.head_dim
        for i in range(c.n_layers):
            p = "blk.%d." % i
            h = self.norm(x, W[p + "attn_norm.weight"])
            q = F.linear(h, W[p + "attn_q.weight"]).view(1, n, H, D)
            k = F.linear(h, W[p + "attn_k.weight"]).view(1, n, Hkv, D)
            v = F.linear(h, W[p + "attn_v.weight"]).view(1, n, Hkv, D)
            q = self.rope(q.transpose(1, 2), pos, n)
            k = self.rope(k.transpose(1, 2), pos, n)
            self.k[i][:, :, pos:pos + n] = k
            self.v[i][:, :, pos:pos + n] = v.transpose(1, 2)
            L = pos + n
            mask = t.ones(n, L, dtype=t.bool).tril(L - n)
            # (Debian's PyTorch predates scaled_dot_product_attention.)
            kk = self.k[i][:, :, :L].repeat_interleave(H // Hkv, 1)
            vv = self.v[i][:, :, :L].repeat_interleave(H // Hkv, 1)
            scores = (q @ kk.transpose(-1, -2)) / D ** 0.5
            scores = scores.masked_fill(~mask, float("-inf"))
            a = t.softmax(scores, -1) @ vv
            x = x + F.linear(a.transpose(1, 2).reshape(1, n, H * D),
                             W[p + "attn_output.weight"])
            h = self.norm(x, W[p + "ffn_norm.weight"])
            x = x + F.linear(F.silu(F.linear(h, W[p + "ffn_gate.weight"])) *
                             F.linear(h, W[p + "ffn_up.weight"]),
                             W[p + "ffn_down.weight"])
        x = self.norm(x[:, -1], W["output_norm.weight"])
        head = W.get("output.weight", W["token_embd.weight"])
        return F.linear(x, head)[0]


def run_rlx(model, prompt, n):
    times = []
    start = time.perf_counter()
    ids = model.generate(prompt, n,
                         on_logits=lambda i, l: times.append(
                             time.perf_counter()))
    return ids, times[0] - start, (len(times) - 1) / (times[-1] - times[0])


def run_torch(dec, prompt, n):
    import torch
    with torch.no_grad():
        start = time.perf_counter()
        logits = dec.step(prompt, 0)
        first = time.perf_counter()
        ids, pos = [], len(prompt)
        for i in range(n):
            ids.append(int(torch.argmax(logits)))
            if i + 1 < n:
                logits = dec.step([ids[-1]], pos)
                pos += 1
        end = time.perf_counter()
    return ids, first - start, (n - 1) / (end - first)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shape", choices=SHAPES, default="tiny")
    parser.add_argument("--tokens", type=int, default=32)
    parser.add_argument("--prompt", type=int, default=16)
    parser.add_argument("--quant", choices=("Q4_0", "Q8_0", "Q4_K", "Q5_K",
                                            "Q6_K"), default=None,
                        help="keep the matrices in this GGUF block type")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads of both sides (default: every CPU "
                        "of the process; RLX reads RLX_NUM_THREADS)")
    parser.add_argument("--plot", type=plot.plot_file, metavar="FILE",
                        help="also draw the figures (.svg or .png)")
    args = parser.parse_args()
    threads = args.threads or len(os.sched_getaffinity(0))
    os.environ["RLX_NUM_THREADS"] = str(threads)
    import torch
    # (Debian's PyTorch starts with one OpenMP thread here.)
    torch.set_num_threads(threads)
    from rlx.llm import model as M
    s = SHAPES[args.shape]
    max_seq = args.prompt + args.tokens
    c = M.LlamaConfig(architecture="llama", vocab=s["vocab"],
                      hidden=s["hidden"], n_layers=s["n_layers"],
                      n_heads=s["n_heads"], n_kv_heads=s["n_kv_heads"],
                      head_dim=s["head_dim"], ffn=s["ffn"],
                      rope_theta=500000.0, rms_eps=1e-5, max_seq=max_seq,
                      tie_embeddings=s["tie"], attention_bias=False,
                      qk_norm=False, rope_style="neox")
    rng = np.random.default_rng(0)
    W = random_weights(M, c, rng)
    params = sum(w.size for w in W.values())
    ours_w = W
    if args.quant:
        from rlx.llm import gguf
        ours_w = dict(W)
        for name in list(W):
            # Tied embeddings: the head multiplies by a packed copy (as
            # rlx.llm.load does), both sides on the quantized values.
            tied_head = name == "token_embd.weight" and c.tie_embeddings
            if M.is_matrix(name) or tied_head:
                data = gguf.quantize(W[name], args.quant)
                packed = M.PackedWeight(data.reshape(W[name].shape[0], -1),
                                        args.quant)
                W[name] = gguf.dequantize(data, args.quant, W[name].shape)
                ours_w["output.weight" if tied_head else name] = packed
                if tied_head:
                    ours_w[name] = W[name]
        packed = sum(w.data.size if isinstance(w, M.PackedWeight) else
                     w.size * 4 for w in ours_w.values())
        print("matrices in %s: %.2f GB for rlx" % (args.quant, packed / 1e9))
    prompt = [int(t) for t in rng.integers(0, c.vocab, args.prompt)]
    print("shape %s: %.1fM parameters (%.2f GB float32), prompt %d, %d new "
          "tokens; %d threads each (torch %s)" % (
              args.shape, params / 1e6, params * 4 / 1e9, args.prompt,
              args.tokens, threads, torch.__version__))

    model = M.Model(c, ours_w, max_seq=max_seq)
    t = time.perf_counter()
    model.program(args.prompt)
    model.program(1)
    compile_s = time.perf_counter() - t
    ours, our_prefill, our_rate = run_rlx(model, prompt, args.tokens)
    theirs, their_prefill, their_rate = run_torch(
        TorchDecoder(c, W, max_seq), prompt, args.tokens)
    same = 0
    while same < len(ours) and ours[same] == theirs[same]:
        same += 1
    print("rlx:     compile %.1f s, prompt step %.3f s, decode %.2f tokens/s"
          % (compile_s, our_prefill, our_rate))
    print("pytorch: prompt step %.3f s, decode %.2f tokens/s" %
          (their_prefill, their_rate))
    print("ratio (rlx / pytorch decode tokens/s): %.2f; greedy tokens "
          "equal: %d of %d" % (our_rate / their_rate, same, len(ours)))
    if args.plot:
        prompt_step = "prompt step, %d tokens" % args.prompt
        decode = "decode, %d tokens" % args.tokens
        title = "Greedy generation on the CPU, shape %s%s, threads: %d" % (
            args.shape, ", " + args.quant if args.quant else "", threads)
        plot.write_ratio_plot(
            args.plot, title,
            [(prompt_step, "rlx", args.prompt / our_prefill),
             (prompt_step, "pytorch", args.prompt / their_prefill),
             (decode, "rlx", our_rate), (decode, "pytorch", their_rate)],
            lower_is_better=False, unit="tokens/s")


if __name__ == "__main__":
    main()
