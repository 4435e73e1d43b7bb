#!/usr/bin/env python3
#===- bench/compile/bert_program.py - N-layer BERT programs --------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
"""Writes a BERT encoder of N layers as one function, the shape an importer
produces for a whole model: `rlx_hir.transformer_layer` (post-LN, GELU)
chained N times, every layer with its own 12 weights.

  bert_program.py --layers 12 [--grad] [--seq 128] [--hidden 768] > m.mlir

--grad writes instead `@train`: the loss (the mean of the encoder's output)
and its rlx.grad with respect to every layer's weights.
"""
import argparse


def layer_weights(h, ffn):
    return [(f"{h}x{3 * h}", "w_qkv"), (f"{3 * h}", "b_qkv"),
            (f"{h}x{h}", "w_o"), (f"{h}", "b_o"),
            (f"{h}", "ln1_g"), (f"{h}", "ln1_b"),
            (f"{h}x{ffn}", "w_1"), (f"{ffn}", "b_1"),
            (f"{ffn}x{h}", "w_2"), (f"{h}", "b_2"),
            (f"{h}", "ln2_g"), (f"{h}", "ln2_b")]


def encoder(name, layers, batch, seq, h, ffn, heads, result):
    """The encoder function; `result` is 'output' or 'loss'."""
    act = f"tensor<{batch}x{seq}x{h}xf32>"
    ws = layer_weights(h, ffn)
    params = []
    for i in range(layers):
        params += [(f"%{n}_{i}", f"tensor<{s}xf32>") for s, n in ws]
    args = [("%x", act)] + params
    ret = act if result == "output" else "tensor<f32>"
    lines = [f"func.func @{name}("
             + ",\n    ".join(f"{a}: {t}" for a, t in args)
             + f") -> {ret} {{"]
    cur = "%x"
    types = ", ".join([act] + [f"tensor<{s}xf32>" for s, _ in ws])
    for i in range(layers):
        ops = ", ".join([cur] + [f"%{n}_{i}" for _, n in ws])
        lines.append(
            f"  %h{i} = rlx_hir.transformer_layer {ops}\n"
            f"      {{style = \"bert\", num_heads = {heads} : i64, "
            f"epsilon = 1.0e-12 : f32}}\n      : ({types}) -> {act}")
        cur = f"%h{i}"
    if result == "loss":
        lines.append(f"  %loss = rlx.reduce mean {cur} axes = [0, 1, 2] "
                     f": {act}")
        cur = "%loss"
    lines.append(f"  return {cur} : {ret}\n}}")
    return "\n".join(lines), args


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--layers", type=int, default=12)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=128)
    p.add_argument("--hidden", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    p.add_argument("--grad", action="store_true",
                   help="write the loss and its rlx.grad (@train)")
    a = p.parse_args()
    ffn = 4 * a.hidden
    if not a.grad:
        text, _ = encoder("bert", a.layers, a.batch, a.seq, a.hidden, ffn,
                          a.heads, "output")
        print(text)
        return
    text, args = encoder("loss", a.layers, a.batch, a.seq, a.hidden, ffn,
                         a.heads, "loss")
    print(text)
    print()
    sig = ", ".join(t for _, t in args)
    wrt = ", ".join(str(i) for i in range(1, len(args)))
    grads = ", ".join(f"%g{i}" for i in range(1, len(args)))
    gtypes = ", ".join(t for _, t in args[1:])
    print("func.func @train("
          + ",\n    ".join(f"{a_}: {t}" for a_, t in args)
          + f") -> (tensor<f32>, {gtypes}) {{")
    print(f"  %l, {grads} = rlx.grad @loss("
          + ", ".join(a_ for a_, _ in args) + f") wrt [{wrt}]\n"
          f"      : ({sig}) -> (tensor<f32>, {gtypes})")
    print(f"  return %l, {grads} : tensor<f32>, {gtypes}\n}}")


if __name__ == "__main__":
    main()
