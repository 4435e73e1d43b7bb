#!/usr/bin/env python3
# ===- bench/cpu/aot_threads.py - threads of an AOT program vs PyTorch ----=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
"""The BERT-base layer at b8, compiled ahead of time, at several thread
counts against PyTorch at the same counts: for a machine without LLVM/MLIR
(the GPU machine's 16-core Xeon).

  python3 bench/cpu/aot_threads.py compile OUT [--cpu=NAME]   # here
  python3 OUT/aot_threads.py run OUT [--threads=1,2,16]       # there

`compile` writes OUT/libbert.so (rlx-compile's object, for the CPU NAME,
default x86-64-v4, linked with librlx_cpu_runtime) and copies what `run`
needs. `run` times each count in its own process (RLX_NUM_THREADS is read
once per process): the program through ctypes and PyTorch's layer with
torch.set_num_threads, on the same random inputs, after checking the
program's output against PyTorch in float64: max abs error / max abs value
below 1e-3 (the inputs are unscaled normal values, so the activations are
large; PyTorch's float32 error is printed beside ours). Prints ms (median
of the runs) and the ratios."""
import ctypes
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BATCH = 8
RUNS = int(os.environ.get("RLX_BENCH_RUNS", "10"))


def compile_program(out, flags=()):
    from bert_reference import bert_program
    os.makedirs(out, exist_ok=True)
    cpu = next((f.split("=", 1)[1] for f in flags if f.startswith("--cpu=")),
               "x86-64-v4")
    source = os.path.join(out, "bert.mlir")
    with open(source, "w") as f:
        f.write(bert_program(BATCH))
    build = os.path.join(ROOT, "build")
    subprocess.run([os.path.join(build, "bin", "rlx-compile"), source, "-o",
                    os.path.join(out, "bert.o"), "--cpu=" + cpu], check=True)
    runtime = os.path.join(build, "lib", "librlx_cpu_runtime.so")
    shutil.copy(runtime, out)
    subprocess.run(["cc", "-shared", "-o", os.path.join(out, "libbert.so"),
                    os.path.join(out, "bert.o"), "-L" + out,
                    "-lrlx_cpu_runtime", "-Wl,-rpath,$ORIGIN", "-lm"],
                   check=True)
    for name in ("aot_threads.py", "bert_reference.py"):
        shutil.copy(os.path.join(HERE, name), out)


def descriptor(rank):
    """MLIR's memref descriptor of `rank` as a ctypes structure."""
    class Descriptor(ctypes.Structure):
        _fields_ = [("allocated", ctypes.c_void_p),
                    ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64),
                    ("sizes", ctypes.c_int64 * rank),
                    ("strides", ctypes.c_int64 * rank)]
    return Descriptor


def describe(array):
    d = descriptor(array.ndim)()
    d.allocated = d.aligned = array.ctypes.data
    d.offset = 0
    d.sizes[:] = array.shape
    d.strides[:] = [s // array.itemsize for s in array.strides]
    return d


def time_one_count(out, threads):
    """Runs in a process whose RLX_NUM_THREADS is `threads`."""
    import numpy as np
    import torch
    from bert_reference import bert_arguments, bert_layer
    torch.set_num_threads(threads)
    lib = ctypes.CDLL(os.path.join(out, "libbert.so"))
    libc = ctypes.CDLL(None)
    x, w = bert_arguments(BATCH, seed=threads)
    inputs = [np.ascontiguousarray(t.numpy()) for t in [x] + w]
    descriptors = [describe(a) for a in inputs]
    result = descriptor(3)()

    def call():
        lib._mlir_ciface_main(ctypes.byref(result),
                              *[ctypes.byref(d) for d in descriptors])
        values = np.ctypeslib.as_array(
            ctypes.cast(result.aligned, ctypes.POINTER(ctypes.c_float)),
            shape=(BATCH, 128, 768)).copy()
        libc.free(ctypes.c_void_p(result.allocated))
        return values

    y = call()
    with torch.no_grad():
        ref = bert_layer(x.double(), [p.double() for p in w]).numpy()
        peer = bert_layer(x, w).numpy()
    scale = np.abs(ref).max()
    error = float(np.abs(y - ref).max() / scale)
    torch_error = float(np.abs(peer - ref).max() / scale)

    def median(fn):
        fn()
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return sorted(times)[len(times) // 2]

    with torch.no_grad():
        torch_ms = median(lambda: bert_layer(x, w))
    return {"threads": threads, "rlx_ms": median(call), "torch_ms": torch_ms,
            "error": error, "torch_error": torch_error}


def run(out, flags):
    counts = next((f.split("=", 1)[1] for f in flags
                   if f.startswith("--threads=")), "1,2,%d" % os.cpu_count())
    rows = []
    for threads in [int(c) for c in counts.split(",")]:
        env = dict(os.environ, RLX_NUM_THREADS=str(threads),
                   OPENBLAS_NUM_THREADS=str(threads),
                   OMP_NUM_THREADS=str(threads))
        text = subprocess.run([sys.executable, os.path.abspath(__file__),
                               "time", out, str(threads)], env=env,
                              capture_output=True, text=True, check=True)
        rows.append(json.loads(text.stdout.splitlines()[-1]))
    import torch
    print("BERT-base layer b%d s128 f32, %s, torch %s, median of %d runs" % (
        BATCH, os.uname().machine, torch.__version__, RUNS))
    print("%8s %10s %10s %10s %12s %10s %12s" % (
        "threads", "rlx ms", "torch ms", "torch/rlx", "rlx speedup",
        "rlx error", "torch error"))
    failed = False
    for row in rows:
        failed |= not row["error"] < 1e-3
        print("%8d %10.2f %10.2f %10.2f %12.2f %10.1e %12.1e" % (
            row["threads"], row["rlx_ms"], row["torch_ms"],
            row["torch_ms"] / row["rlx_ms"], rows[0]["rlx_ms"] / row["rlx_ms"],
            row["error"], row["torch_error"]))
    return failed


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    if len(sys.argv) == 4 and sys.argv[1] == "time":
        print(json.dumps(time_one_count(sys.argv[2], int(sys.argv[3]))))
    elif len(sys.argv) >= 3 and sys.argv[1] == "compile":
        compile_program(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "run":
        sys.exit(1 if run(sys.argv[2], sys.argv[3:]) else 0)
    else:
        sys.exit(__doc__)
