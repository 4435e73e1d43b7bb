#!/usr/bin/env python3
#===- bench/compile/bench.py - compile time and memory per target --------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
"""Times `rlx-compile` on BERT-base encoders of N layers written as one
function (bert_program.py), forward and rlx.grad of every weight, for each
target, and reports wall time and the compiler's peak memory (its maximum
resident set). A compiler linear in the program's size takes about 2x as
long for 24 layers as for 12.

  bench.py [--targets cpu,cuda,rocm,vulkan,metal] [--layers 1,2,4,12,24]
           [--modes forward,grad] [--timeout 600] [--rlx-compile PATH]
           [--plot FILE.svg|FILE.png]

Each compile runs once (compile times of seconds do not need repeats);
a compile that fails or runs past --timeout is reported as such. --plot
draws the seconds of the compiles that succeeded, each against the
fastest target's of the same program (bench/plot.py).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import plot  # noqa: E402


def compile_once(rlx_compile, target, source, out, timeout):
    """(seconds, peak MiB, status) of one rlx-compile run."""
    args = [rlx_compile, "--target=" + target, source, "-o", out]
    # Diagnostics go to a file: a pipe read after the exit would fill and
    # block a compiler that reports much.
    log = open(out + ".log", "w+")
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            log.close()
            return time.perf_counter() - start, usage.ru_maxrss / 1024, \
                "timeout"
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    peak = usage.ru_maxrss / 1024  # KiB -> MiB
    code = os.waitstatus_to_exitcode(status)
    log.seek(0)
    error = log.read().strip()
    log.close()
    if code != 0:
        first = error.splitlines()[0] if error else "exit %d" % code
        return seconds, peak, "failed: " + first[:120]
    return seconds, peak, "ok"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--targets", default="cpu,cuda,rocm,vulkan,metal")
    p.add_argument("--layers", default="1,2,4,12,24")
    p.add_argument("--modes", default="forward,grad")
    p.add_argument("--seq", type=int, default=128)
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--rlx-compile",
                   default=os.path.join(ROOT, "build", "bin", "rlx-compile"))
    p.add_argument("--plot", type=plot.plot_file, metavar="FILE",
                   help="also draw the table (.svg or .png)")
    a = p.parse_args()
    layers = [int(n) for n in a.layers.split(",")]
    print("rlx-compile of BERT-base (hidden 768, 12 heads, FFN 3072, "
          "batch 1, sequence %d), N layers in one function" % a.seq)
    print("%-7s %-8s %6s %10s %10s %12s  %s" %
          ("target", "mode", "layers", "seconds", "peak MiB",
           "s / layer", "status"))
    rows = []  # (program, target, seconds) of the compiles that succeeded
    with tempfile.TemporaryDirectory() as tmp:
        for mode in a.modes.split(","):
            for n in layers:
                source = os.path.join(tmp, "bert_%s_%d.mlir" % (mode, n))
                gen = [sys.executable, os.path.join(HERE, "bert_program.py"),
                       "--layers", str(n), "--seq", str(a.seq)]
                if mode == "grad":
                    gen.append("--grad")
                with open(source, "w") as f:
                    subprocess.run(gen, stdout=f, check=True)
                for target in a.targets.split(","):
                    out = os.path.join(tmp, "out_%s" % target)
                    seconds, peak, status = compile_once(
                        a.rlx_compile, target, source, out, a.timeout)
                    print("%-7s %-8s %6d %10.2f %10.0f %12.3f  %s" %
                          (target, mode, n, seconds, peak, seconds / n,
                           status), flush=True)
                    if status == "ok":
                        rows.append(("%s, %d layers" % (mode, n), target,
                                     seconds))
    if a.plot:
        plot.write_ratio_plot(
            a.plot, "rlx-compile of BERT-base (sequence %d): seconds per "
            "target" % a.seq, rows, unit="s")


if __name__ == "__main__":
    main()
