# RUN: %python %s "%rlx_targets"
# --rlx-optimize on the two example layers, for every target the build has
# (the argument): the optimized program (fused and legalized for the
# target) gives the outputs of the program as written through rlx-run
# (f32, relative 1e-5 of the output's scale, on fresh random inputs), and
# the BERT-base layer optimized for cuda is at most 8 ops.

import os
import re
import subprocess
import sys

import numpy as np

import rlxtest

RLX_OPT = os.environ.get("RLX_OPT", "rlx-opt")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TARGETS = (sys.argv[1].split(", ") if len(sys.argv) > 1 else
           ["cpu", "cuda", "rocm", "vulkan", "metal"])
suite = rlxtest.Suite("optimize")
r = rlxtest.rng()


def optimize(text, target):
    p = subprocess.run([RLX_OPT, "--rlx-optimize=target=" + target],
                       input=text, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, "rlx-optimize=target=%s exited with %d:\n%s" % (
        target, p.returncode, p.stderr)
    return p.stdout


def arguments(text, entry):
    """The tensor types of `entry`'s arguments, as (shape, dtype) pairs."""
    sig = re.search(r"func\.func @%s\((.*?)\)\s*->" % entry, text, re.S)
    types = re.findall(r"tensor<([0-9x]+)x(f32|i64)>", sig.group(1))
    return [(tuple(int(d) for d in dims.split("x")), elem)
            for dims, elem in types]


def inputs_for(text, entry):
    """Random inputs scaled like trained weights: a weight [K, N] has
    variance 1 / K, vectors are near 1 (norm gains) or small (biases)."""
    out = []
    for shape, elem in arguments(text, entry):
        if len(shape) == 2 and shape[0] > 64:  # a weight [K, N]
            a = r.standard_normal(shape) / np.sqrt(shape[0])
        elif len(shape) == 2:  # rope tables [S, D/2]: cos/sin-like values
            a = np.cos(r.uniform(0, 3, shape))
        elif len(shape) == 1:
            a = 1 + 0.1 * r.standard_normal(shape)
        else:
            a = r.standard_normal(shape)
        out.append(a.astype(np.float32))
    return out


def run(text, entry, inputs):
    rc, log, outs = rlxtest.run(text, inputs, 1, entry=entry)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    return outs[0]


def check_example(path, entry):
    text = open(os.path.join(ROOT, "examples", path)).read()
    inputs = inputs_for(text, entry)
    reference = run(text, entry, inputs)
    scale = float(np.abs(reference).max())
    for target in TARGETS:
        def check(target=target):
            got = run(optimize(text, target), entry, inputs)
            rlxtest.assert_close(got, reference, 1e-5, 1e-5 * scale,
                                 "%s optimized for %s" % (entry, target))
        suite.check("%s/%s" % (entry, target), check)


def count_ops(text, entry):
    body = re.search(r"func\.func @%s\(.*?\n  }\n" % entry, text, re.S)
    return len(re.findall(r"= (?:rlx|rlx_hir)\.\w+", body.group(0)))


def bert_cuda_op_count():
    text = open(os.path.join(ROOT, "examples",
                             "bert_encoder_layer.mlir")).read()
    n = count_ops(optimize(text, "cuda"), "bert_layer")
    assert n <= 8, "BERT layer optimized for cuda has %d ops (> 8)" % n


check_example("bert_encoder_layer.mlir", "bert_layer")
check_example("llama_layer_hir.mlir", "llama_layer_hir")
if "cuda" in TARGETS:
    suite.check("bert_layer/cuda_op_count", bert_cuda_op_count)
suite.finish()
