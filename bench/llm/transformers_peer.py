#!/usr/bin/env python3
# ===- transformers_peer.py - the peer figure for GPU decoding --------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""transformers' greedy `generate` on the GPU machine, on a randomly
initialised model of a given shape (no download: the machine has no
network), batch 1, bf16: the decode tokens/s that RLX's GPU decoding is to
be measured against (issue "LLM decode at the memory-bandwidth limit").

  python3 bench/llm/transformers_peer.py [--shape 8b|1b] [--tokens 64]
      [--compile]   # also with torch.compile and a static cache

Prints the decode tokens/s (prompt excluded: the time of generating
N + 1 tokens minus that of 1) and the weights' bytes per second."""

import argparse
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM

SHAPES = {
    # Llama-3.1-8B's and Llama-3.2-1B's shapes.
    "8b": dict(hidden_size=4096, intermediate_size=14336,
               num_hidden_layers=32, num_attention_heads=32,
               num_key_value_heads=8, vocab_size=128256,
               tie_word_embeddings=False),
    "1b": dict(hidden_size=2048, intermediate_size=8192,
               num_hidden_layers=16, num_attention_heads=32,
               num_key_value_heads=8, vocab_size=128256,
               tie_word_embeddings=True),
}


def timed_generate(model, prompt, n, **kw):
    torch.cuda.synchronize()
    start = time.perf_counter()
    model.generate(prompt, max_new_tokens=n, min_new_tokens=n,
                   do_sample=False, pad_token_id=0, **kw)
    torch.cuda.synchronize()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shape", choices=SHAPES, default="8b")
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--prompt", type=int, default=16)
    parser.add_argument("--compile", action="store_true")
    args = parser.parse_args()
    config = LlamaConfig(**SHAPES[args.shape], rope_theta=500000.0,
                         max_position_embeddings=4096)
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config).to(torch.bfloat16).eval()
    params = sum(p.numel() for p in model.parameters())
    prompt = torch.randint(0, config.vocab_size, (1, args.prompt),
                           device="cuda")
    modes = [("eager", {})]
    if args.compile:
        modes.append(("torch.compile, static cache",
                      dict(cache_implementation="static")))
    print("shape %s: %.2fB parameters, %.1f GB bf16, prompt %d, %d tokens, "
          "%s" % (args.shape, params / 1e9, params * 2 / 1e9, args.prompt,
                  args.tokens, torch.cuda.get_device_name()))
    for name, kw in modes:
        if name.startswith("torch.compile"):
            # (reduce-overhead's CUDA graphs reject the static cache across
            # generate calls in this transformers release.)
            model.forward = torch.compile(model.forward)
        with torch.no_grad():
            for _ in range(2):  # warm-up (and compile)
                timed_generate(model, prompt, 4, **kw)
            one = min(timed_generate(model, prompt, 1, **kw)
                      for _ in range(3))
            many = min(timed_generate(model, prompt, args.tokens + 1, **kw)
                       for _ in range(3))
        rate = args.tokens / (many - one)
        print("%s: decode %.1f tokens/s, %.0f GB/s of weights" %
              (name, rate, rate * params * 2 / 1e9))


if __name__ == "__main__":
    main()
