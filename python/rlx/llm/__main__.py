# ===- __main__.py - rlx-generate: text from a language model ------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""rlx-generate MODEL --prompt TEXT [-n N] [--temperature T] [--top-k K]
[--top-p P] [--seed S] [--max-seq L] [--dequantize]: loads a .gguf file or a Hugging Face
folder, generates N tokens on the CPU and prints the prompt and its
continuation, then the prompt step's time and the decode tokens/s on
stderr."""

import argparse
import sys

from . import DEFAULT_MAX_SEQ, load


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="rlx-generate",
        description="Generates text with a llama, qwen2 or qwen3 model "
        "from a GGUF file or a Hugging Face folder, compiled by RLX for "
        "the CPU.")
    parser.add_argument("model", help="a .gguf file or a folder with "
                        "config.json, *.safetensors and tokenizer.json")
    parser.add_argument("--prompt", required=True)
    parser.add_argument("-n", "--max-new-tokens", type=int, default=32)
    parser.add_argument("--temperature", type=float, default=0.0,
                        help="0 (the default) is greedy")
    parser.add_argument("--top-k", type=int, default=0, help="0: off")
    parser.add_argument("--top-p", type=float, default=1.0, help="1: off")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seq", type=int, default=None,
                        help="KV cache length (default: the model's "
                        "context length, at most %d)" % DEFAULT_MAX_SEQ)
    parser.add_argument("--ids", action="store_true",
                        help="also print the generated token ids")
    parser.add_argument("--dequantize", action="store_true",
                        help="dequantize a GGUF file's quantized matrices "
                        "to float32 at load (by default they stay in their "
                        "blocks)")
    args = parser.parse_args(argv)
    try:
        llm = load(args.model, max_seq=args.max_seq,
                   packed=not args.dequantize)
        prompt_ids = llm.encode(args.prompt)
        ids = llm.generate_ids(prompt_ids, args.max_new_tokens,
                               temperature=args.temperature,
                               top_k=args.top_k, top_p=args.top_p,
                               seed=args.seed)
    except (ValueError, OSError) as error:  # GGUFError is a ValueError
        print("rlx-generate: error: %s" % error, file=sys.stderr)
        return 1
    # The prompt and its continuation, decoded together (a SentencePiece
    # piece carries the space before it).
    print(llm.decode(list(prompt_ids) + list(ids)), flush=True)
    if args.ids:
        print(" ".join(map(str, ids)))
    rate = llm.decode_tokens_per_second
    print("rlx-generate: compiled in %.2f s; %d prompt tokens in %.3f s, "
          "%d new tokens, %s tokens/s decoding" % (
              llm.compile_seconds, len(prompt_ids), llm.prefill_seconds or 0,
              len(ids), "%.1f" % rate if rate else "-"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
