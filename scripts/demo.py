#!/usr/bin/env python3
# ===- scripts/demo.py - run the examples and check them against NumPy ---=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# Compiles each example in examples/ with rlx-run, runs it on fresh random
# inputs, and prints the output checksum, the largest error relative to a
# float64 NumPy reference, and the time per run.
#
# ===---------------------------------------------------------------------=== #
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RLX_RUN = os.environ.get("RLX_RUN", os.path.join(ROOT, "build", "bin", "rlx-run"))
ERF = np.vectorize(math.erf)


def gelu(x):
    return 0.5 * x * (1.0 + ERF(x / math.sqrt(2.0)))


def layer_norm(x, g, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def mlp_ref(x, w1, b1, w2, b2):
    return gelu(x @ w1 + b1) @ w2 + b2


def bert_ref(x, wqkv, bqkv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2):
    batch, seq, hidden = x.shape
    heads, dh = 12, hidden // 12
    qkv = x @ wqkv + bqkv
    q, k, v = (qkv[..., i * hidden:(i + 1) * hidden]
               .reshape(batch, seq, heads, dh).transpose(0, 2, 1, 3)
               for i in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(dh)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    a = (p @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
    h = layer_norm(x + a @ wo + bo, g1, b1, 1e-12)
    f = gelu(h @ w1 + c1) @ w2 + c2
    return layer_norm(h + f, g2, b2, 1e-12)


def args_of(path, entry):
    """The tensor shapes of @entry's arguments, from the source."""
    text = open(path).read()
    head = re.search(r"func\.func @%s\((.*?)\)\s*->" % entry, text, re.S).group(1)
    shapes = []
    for dims in re.findall(r"tensor<([0-9x]+)xf32>", head):
        shapes.append(tuple(int(d) for d in dims.split("x")))
    return shapes


def run(path, entry, reference, bench=10):
    rng = np.random.default_rng(2026)
    shapes = args_of(path, entry)
    inputs = []
    for shape in shapes:
        # Weights scaled like a trained model's so activations stay O(1).
        scale = 1.0 / math.sqrt(shape[0]) if len(shape) == 2 else 1.0
        inputs.append((rng.standard_normal(shape) * scale).astype(np.float32))
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [RLX_RUN, path, "--entry=" + entry, "--bench=%d" % bench]
        for i, a in enumerate(inputs):
            np.save(os.path.join(tmp, "in%d.npy" % i), a)
            cmd.append("--input=" + os.path.join(tmp, "in%d.npy" % i))
        out = os.path.join(tmp, "out.npy")
        cmd.append("--output=" + out)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            sys.exit("demo: rlx-run failed on %s" % path)
        got = np.load(out)
    want = reference(*[a.astype(np.float64) for a in inputs])
    err = np.abs(got - want).max() / np.abs(want).max()
    timing = re.search(r"median ([0-9.]+) ms", proc.stdout).group(1)
    print("%-28s %-12s checksum %14.6f  max rel err vs NumPy f64 %.2e  %s ms/run"
          % (os.path.basename(path), "@" + entry, got.astype(np.float64).sum(),
             err, timing))
    return err < 1e-4


def main():
    ok = run(os.path.join(ROOT, "examples", "mlp.mlir"), "mlp", mlp_ref)
    ok &= run(os.path.join(ROOT, "examples", "bert_encoder_layer.mlir"),
              "bert_layer", bert_ref, bench=3)
    if not ok:
        sys.exit("demo: an example disagrees with its reference")


if __name__ == "__main__":
    main()
