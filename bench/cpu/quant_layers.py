#!/usr/bin/env python3
# ===- bench/cpu/quant_layers.py - AMP and PTQ error of the example layers -=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# The BERT and Llama layers of examples/ with random weights (their
# weight arguments made rlx.params, so that quantization treats them as
# weights: per channel), run on the CPU with rlx-run as written (f32),
# after --rlx-auto-mixed-precision (bf16 matmuls and attention), and after
# post-training int8 quantization: --rlx-expose-quant-taps on a
# calibration batch gives each tap's values, their min/max make the
# calibration record, then --rlx-quant-insert and --rlx-quant-propagate.
# Prints each variant's relative error max|y - y_f32| / max|y_f32| on a
# fresh batch (not the calibration one), and the time of the f32 and int8
# programs (rlx-run --bench=N: the minimum of N runs after a warm-up, the
# steadier figure on a shared VM) with their weights constants
# (--rlx-specialize-params, then --canonicalize: a deployed model's
# weights are known, and the int8 program's weight quantization and
# column sums fold), for the BERT layer at batch 1 and 8 (x 128 tokens)
# and the Llama layer at its example's shape. Then the matmuls of the
# BERT layer's FFN at batch 8 (1024 x 768 x 3072 and 1024 x 3072 x 768),
# the weight a constant: rlx.int8_matmul (i8 x i8 -> i32, the kernel
# alone) against rlx.matmul in f32. Each pair is timed in the same run.
#
#   /usr/bin/python3 bench/cpu/quant_layers.py
#
# ===---------------------------------------------------------------------=== #
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "build", "bin")
RUNS = int(os.environ.get("RLX_BENCH_RUNS", "5"))

# (name, example file, entry, arguments that stay arguments: the
# activations, batch: the activations' leading 1 becomes it)
LAYERS = [("bert b1", "bert_encoder_layer.mlir", "bert_layer", {"x"}, 1),
          ("bert b8", "bert_encoder_layer.mlir", "bert_layer", {"x"}, 8),
          ("llama", "llama_layer_hir.mlir", "llama_layer_hir",
           {"x", "cos", "sin"}, 1)]
# (M, K, N) of the matmuls timed alone.
MATMULS = [(1024, 768, 3072), (1024, 3072, 768)]


def sh(cmd, text=None):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), p.stderr))
    return p.stdout


def with_params(text, entry, keep):
    """`entry` of `text` with its arguments not in `keep` made rlx.params
    named after them; returns (text, {param: type}, [kept (name, type)])."""
    m = re.search(r"func\.func @%s\((.*?)\)\s*->(.*?)\{" % entry, text, re.S)
    args = re.findall(r"%(\w+): (tensor<[^>]*>)", m.group(1))
    kept = [(n, t) for n, t in args if n in keep]
    params = {n: t for n, t in args if n not in keep}
    head = "func.func @main(%s) ->%s{\n" % (
        ", ".join("%%%s: %s" % a for a in kept), m.group(2))
    body = "".join('  %%%s = rlx.param "%s" : %s\n' % (n, n, t)
                   for n, t in params.items())
    end = text.index("\n}", m.end())
    return head + body + text[m.end():end] + "\n}\n", params, kept


def shape(t):
    return [int(d) for d in t[len("tensor<"):-1].split("x")[:-1]]


def run(text, inputs, params, n_out, d, extra=()):
    path = os.path.join(d, "prog.mlir")
    with open(path, "w") as f:
        f.write(text)
    cmd = [os.path.join(BIN, "rlx-run"), path]
    for i, x in enumerate(inputs):
        np.save("%s/in%d.npy" % (d, i), x)
        cmd.append("--input=%s/in%d.npy" % (d, i))
    for name in params:
        cmd.append("--param=%s=%s/%s.npy" % (name, d, name))
    outs = ["%s/out%d.npy" % (d, i) for i in range(n_out)]
    out = sh(cmd + ["--output=" + o for o in outs] + list(extra))
    return [np.load(o) for o in outs], out


def bench_ms(text, inputs, params, d):
    """The minimum time of `text` with its params specialized to the
    constants in `d` (the folds run with the canonicalizer)."""
    text = sh([os.path.join(BIN, "rlx-opt"), "--rlx-specialize-params=dir=" + d,
               "--canonicalize"], text)
    _, out = run(text, inputs, (), 0, d, ["--bench=%d" % RUNS])
    return float(re.search(r"min ([0-9.]+) ms", out).group(1))


def layer(r, fname, entry, keep, batch):
    with open(os.path.join(ROOT, "examples", fname)) as f:
        src = f.read()
    if batch != 1:
        src = src.replace("tensor<1x", "tensor<%dx" % batch)
    text, params, kept = with_params(src, entry, keep)
    text = sh([os.path.join(BIN, "rlx-opt"), "--rlx-lower-hir"], text)
    with tempfile.TemporaryDirectory(prefix="quant-layers-") as d:
        for name, t in params.items():
            s = shape(t)
            fan_in = s[0] if len(s) == 2 else 1
            v = (r.standard_normal(s) / np.sqrt(fan_in) if len(s) == 2
                 else 1 + 0.1 * r.standard_normal(s))
            np.save(os.path.join(d, name + ".npy"), v.astype(np.float32))

        def batch_of_inputs():
            return [r.standard_normal(shape(t)).astype(np.float32)
                    for _, t in kept]

        calib, test = batch_of_inputs(), batch_of_inputs()
        (y32,), _ = run(text, test, params, 1, d)
        scale = np.abs(y32).max()
        amp = sh([os.path.join(BIN, "rlx-opt"),
                  "--rlx-auto-mixed-precision"], text)
        (yamp,), _ = run(amp, test, params, 1, d)

        # Calibration: the taps' values on the calibration batch.
        exposed = sh([os.path.join(BIN, "rlx-opt"),
                      "--rlx-expose-quant-taps"], text)
        names = json.loads(re.search(
            r"rlx.quant_taps = (\[[^\]]*\])", exposed).group(1))
        axes = [int(a) for a in re.search(
            r"rlx.quant_tap_axes = array<i64: ([^>]*)>",
            exposed).group(1).split(",")]
        outs, _ = run(exposed, calib, params, 1 + len(names), d)
        taps = {}
        for name, axis, v in zip(names, axes, outs[1:]):
            v = v.astype(np.float64)
            if axis < 0:
                taps[name] = {"axis": None, "min": [v.min()],
                              "max": [v.max()]}
            else:
                other = tuple(i for i in range(v.ndim) if i != axis)
                taps[name] = {"axis": axis, "min": list(v.min(other)),
                              "max": list(v.max(other))}
        record = os.path.join(d, "record.json")
        with open(record, "w") as f:
            json.dump({"format": "rlx-calibration", "version": 1,
                       "batches": 1, "taps": taps}, f)
        int8 = sh([os.path.join(BIN, "rlx-opt"),
                   "--rlx-quant-insert=record=" + record,
                   "--rlx-quant-propagate"], text)
        (yq,), _ = run(int8, test, params, 1, d)
        t32 = bench_ms(text, test, params, d)
        t8 = bench_ms(int8, test, params, d)
    err = lambda y: np.abs(y.astype(np.float64) - y32).max() / scale
    return err(yamp), err(yq), t32, t8


def matmul(r, m, k, n):
    """Times rlx.matmul (f32) and rlx.int8_matmul (i8 x i8 -> i32) of an
    activation [m, k] by a constant weight [k, n]."""
    times = []
    with tempfile.TemporaryDirectory(prefix="quant-matmul-") as d:
        for elem, op, acc in (("f32", "rlx.matmul", "f32"),
                              ("i8", "rlx.int8_matmul", "i32")):
            ta = "tensor<%dx%dx%s>" % (m, k, elem)
            tw = "tensor<%dx%dx%s>" % (k, n, elem)
            ty = "tensor<%dx%dx%s>" % (m, n, acc)
            text = ("func.func @main(%%x: %s) -> %s {\n"
                    '  %%w = rlx.param "w" : %s\n'
                    "  %%y = %s %%x, %%w : %s, %s\n"
                    "  return %%y : %s\n}\n" % (ta, ty, tw, op, ta, tw, ty))
            if elem == "f32":
                x = r.standard_normal((m, k)).astype(np.float32)
                w = r.standard_normal((k, n)).astype(np.float32)
            else:
                x = r.integers(-128, 128, (m, k), dtype=np.int8)
                w = r.integers(-128, 128, (k, n), dtype=np.int8)
            np.save(os.path.join(d, "w.npy"), w)
            times.append(bench_ms(text, [x], (), d))
    return times


def main():
    r = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    print("%-8s %12s %12s %10s %10s %8s" %
          ("layer", "AMP bf16 err", "PTQ int8 err", "f32 ms", "int8 ms",
           "speedup"))
    for name, fname, entry, keep, batch in LAYERS:
        eamp, eq, t32, t8 = layer(r, fname, entry, keep, batch)
        print("%-8s %12.4f %12.4f %10.2f %10.2f %8.2f" %
              (name, eamp, eq, t32, t8, t32 / t8))
    print("\n%-16s %10s %10s %8s" % ("matmul M K N", "f32 ms", "int8 ms",
                                     "speedup"))
    for m, k, n in MATMULS:
        t32, t8 = matmul(r, m, k, n)
        print("%-16s %10.2f %10.2f %8.2f" % ("%dx%dx%d" % (m, k, n), t32, t8,
                                            t32 / t8))


if __name__ == "__main__":
    main()
