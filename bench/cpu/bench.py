#!/usr/bin/env python3
# ===- bench/cpu/bench.py - RLX vs PyTorch on the CPU ---------------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# For each workload: writes the RLX program, runs it with `rlx-run --bench`
# on random inputs (median and min of N runs after a warm-up) and times
# PyTorch on the same shapes in the same process run (median and min of N).
# `--threads=N` (default 1) runs both with N threads. Further arguments
# pick workloads by name. Prints both times and the ratios torch_ms / rlx_ms
# of the medians and of
# the minima (above 1: RLX is faster; on a shared VM whose timings jump
# from run to run the minima are the steadier figure); workloads with
# matmuls are timed a second time with `rlx-run --blas` (matmuls through
# the BLAS library, the seeds' kernel-dispatch policy). "bert-base step b2"
# is one SGD step of bench/gpu/train_step.py's @step (forward, backward
# through rlx.grad, update) against the same step with torch.autograd.
# `--plot FILE` (.svg or .png) draws the medians of rlx, rlx --blas and
# torch against the fastest of each workload (bench/plot.py).
#
# ===---------------------------------------------------------------------=== #
import os
import re
import subprocess
import sys
import tempfile
import time


def take_option(argv, name):
    """The value of `name=VALUE` or `name VALUE` in argv, taken out of it
    (the arguments left pick workloads), or None."""
    for k, arg in enumerate(argv):
        if arg.startswith(name + "="):
            del argv[k]
            return arg.split("=", 1)[1]
        if arg == name and k + 1 < len(argv):
            value = argv[k + 1]
            del argv[k:k + 2]
            return value
    return None


# --threads=N (default 1): RLX's threads (RLX_NUM_THREADS) and PyTorch's,
# its BLAS included; set before torch loads OpenBLAS, which reads
# OPENBLAS_NUM_THREADS once.
THREADS = int(take_option(sys.argv, "--threads") or 1)
PLOT = take_option(sys.argv, "--plot")
os.environ["RLX_NUM_THREADS"] = str(THREADS)
os.environ["OPENBLAS_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(THREADS)

from bert_reference import bert_arguments, bert_layer, bert_program  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RLX_RUN = os.environ.get("RLX_RUN", os.path.join(ROOT, "build", "bin", "rlx-run"))
RUNS = int(os.environ.get("RLX_BENCH_RUNS", "20"))
F = torch.nn.functional
sys.path.insert(0, os.path.join(ROOT, "bench"))
import plot  # noqa: E402


def unary(name, body, n=4096):
    t = "tensor<%dx%dxf32>" % (n, n)
    return name, "func.func @main(%%x: %s, %%g: tensor<%dxf32>, %%b: tensor<%dxf32>) -> %s {\n  %%y = %s\n  return %%y : %s\n}\n" % (
        t, n, n, t, body.replace("T", t).replace("G", "tensor<%dxf32>" % n), t)


def mlp():
    return open(os.path.join(ROOT, "examples", "mlp.mlir")).read().replace(
        "@mlp(", "@main(", 1).replace("call @mlp(", "call @main(")


def time_torch(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    return times[len(times) // 2], times[0]


def time_rlx(source, runs, flags=()):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(source)
    try:
        out = subprocess.run([RLX_RUN, f.name, "--bench=%d" % runs] +
                             list(flags),
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    m = re.search(r"median ([0-9.]+) ms, min ([0-9.]+) ms", out)
    return float(m.group(1)), float(m.group(2))


def bert_torch(batch):
    x, w = bert_arguments(batch)

    def layer():
        with torch.no_grad():
            return bert_layer(x, w)
    return layer


def bert_step_torch(batch, lr):
    """One SGD step of mean(y^2) through the layer, as bench/gpu's
    train_step.py @step: the loss, x's gradient and the updated
    parameters (out of place)."""
    x, w = bert_arguments(batch)
    x.requires_grad_()
    for p in w:
        p.requires_grad_()

    def step():
        y = bert_layer(x, w)
        loss = (y * y).mean()
        grads = torch.autograd.grad(loss, [x] + w)
        with torch.no_grad():
            return [loss, grads[0]] + [p - lr * g for p, g in zip(w, grads[1:])]
    return step


def bert_step(batch):
    """bench/gpu/train_step.py's @step of the BERT layer at `batch`, as the
    program's @main."""
    sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
    import train_step
    text, _ = train_step.programs("bert", "f32", batch)
    return text.replace("func.func @step(", "func.func @main("), train_step.LR


def main():
    n = 4096
    x = torch.randn(n, n)
    g = torch.randn(n)
    b = torch.randn(n)
    a = torch.randn(1024, 1024)
    c = torch.randn(1024, 1024)
    mx = torch.randn(32, 784)
    mw = [torch.randn(784, 256), torch.randn(256), torch.randn(256, 10),
          torch.randn(10)]
    workloads = [
        (unary("softmax", "rlx.softmax %x axis = -1 : T"),
         lambda: torch.softmax(x, -1)),
        (unary("layer_norm", "rlx.layer_norm %x, %g, %b : T, G"),
         lambda: F.layer_norm(x, (n,), g, b)),
        (unary("rms_norm", "rlx.rms_norm %x, %g : T, G"),
         lambda: x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * g),
        (unary("gelu", "rlx.gelu %x : T"), lambda: F.gelu(x)),
        (("matmul 1024^3",
          "func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {\n"
          "  %y = rlx.matmul %a, %b : tensor<1024x1024xf32>\n"
          "  return %y : tensor<1024x1024xf32>\n}\n"), lambda: a @ c),
        (("mlp 32x784x256x10", mlp()),
         lambda: F.gelu(mx @ mw[0] + mw[1]) @ mw[2] + mw[3]),
        (("bert-base layer b1", bert_program(1)), bert_torch(1)),
        (("bert-base layer b8", bert_program(8)), bert_torch(8)),
        (("bert-base step b2", bert_step(2)[0]),
         bert_step_torch(2, bert_step(2)[1])),
    ]
    only = sys.argv[1:]
    if PLOT:
        plot.plot_file(PLOT)  # before the runs rather than after them
    rows = []  # (workload, peer, median ms) for the plot
    print("CPU: %s, torch %s with %d threads, rlx-run with %s threads, "
          "median / min of %d runs" % (os.uname().machine, torch.__version__,
                                       torch.get_num_threads(),
                                       os.environ["RLX_NUM_THREADS"], RUNS))
    print("GLIBC_TUNABLES=%s" % os.environ.get("GLIBC_TUNABLES", "(unset)"))
    print("OPENBLAS_CORETYPE=%s OPENBLAS_NUM_THREADS=%s" % (
        os.environ.get("OPENBLAS_CORETYPE", "(unset)"),
        os.environ.get("OPENBLAS_NUM_THREADS", "(unset)")))
    print("%-20s %16s %16s %16s %11s %11s" % (
        "workload", "rlx ms med/min", "blas ms med/min", "torch ms med/min",
        "torch/rlx", "torch/blas"))
    pair = lambda t: "%.3f/%.3f" % t if t else "-"
    ratio = lambda a, b: "%.2f/%.2f" % (a[0] / b[0], a[1] / b[1]) if b \
        else "-"
    for (name, source), torch_fn in workloads:
        if only and not any(o in name for o in only):
            continue
        runs = RUNS if "bert" not in name else max(3, RUNS // 3)
        rlx_ms = time_rlx(source, runs)
        # --blas changes only matmuls: the row is timed where there is one.
        has_matmul = "matmul" in source
        blas_ms = time_rlx(source, runs, ["--blas"]) if has_matmul else None
        torch_ms = time_torch(torch_fn, runs)
        print("%-20s %16s %16s %16s %11s %11s" % (
            name, pair(rlx_ms), pair(blas_ms), pair(torch_ms),
            ratio(torch_ms, rlx_ms), ratio(torch_ms, blas_ms)))
        rows += [(name, peer, ms[0]) for peer, ms in (
            ("rlx", rlx_ms), ("rlx --blas", blas_ms), ("torch", torch_ms))
            if ms]
    if PLOT:
        plot.write_ratio_plot(
            PLOT, "RLX vs PyTorch on the CPU (%s), threads: %d; median ms" %
            (os.uname().machine, THREADS), rows, unit="ms")

if __name__ == "__main__":
    main()
