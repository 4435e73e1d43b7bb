#!/usr/bin/env python3
#===- scripts/pipeline-sweep.py - every function through a pipeline -------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Runs every public function of the given .mlir files (split at `// -----`)
# alone through a pass pipeline: the other public functions are made
# private and dropped unless it uses them (symbol-privatize, symbol-dce).
# Each run must compile (exit 0) or end in an error diagnostic located in
# the input that names an operation ('dialect.op'); anything else (a crash,
# an LLVM error, an error without a location) is a failure. Prints a
# summary line per pipeline and each failure; exits non-zero on any.
#
#   scripts/pipeline-sweep.py --rlx-opt=build/bin/rlx-opt \
#       --pipeline='rlx-rocm-pipeline{chip=gfx942}' test/Dialect/MIR/*-ops.mlir
#
#===----------------------------------------------------------------------===#

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

FUNC = re.compile(r"^\s*func\.func\s+(?:public\s+)?@([\w$.]+)\s*\(", re.M)
SPLIT = re.compile(r"^// -----\s*$", re.M)
OP_NAME = re.compile(r"'[a-z_]+\.[a-z_0-9.]+'")


def chunks(path):
    with open(path) as f:
        text = f.read()
    return SPLIT.split(text)


def parses(rlx_opt, path):
    """Whether the module at `path` parses and verifies."""
    return subprocess.run([rlx_opt, path, "-o", os.devnull],
                          capture_output=True).returncode == 0


def written_chunks(rlx_opt, files, tmp):
    """(input path, chunk file, function names) for each split-input-file
    chunk of `files` that has functions and parses (chunks of invalid-IR
    tests are not programs), each written into the folder `tmp`."""
    for path in files:
        for i, chunk in enumerate(chunks(path)):
            names = FUNC.findall(chunk)
            if not names:
                continue
            chunk_path = os.path.join(tmp, f"{os.path.basename(path)}.{i}.mlir")
            with open(chunk_path, "w") as f:
                f.write(chunk)
            if parses(rlx_opt, chunk_path):
                yield path, chunk_path, names


def classify(chunk_path, proc):
    """'compiled', 'diagnosed', or a failure reason."""
    if proc.returncode == 0:
        return "compiled"
    if proc.returncode != 1:
        return f"exit status {proc.returncode}"
    errors = [line for line in proc.stderr.splitlines()
              if re.match(r"^\S+:\d+:\d+: error: ", line)]
    if not errors:
        return "no located error:\n" + proc.stderr[-2000:]
    for line in errors:
        if line.startswith(chunk_path) and OP_NAME.search(line):
            return "diagnosed"
    return "no error naming an op:\n" + "\n".join(errors)[-2000:]


def run(rlx_opt, pipeline, chunk_path, name, timeout):
    pipe = (f"builtin.module(symbol-privatize{{exclude={name}}},symbol-dce,"
            f"{pipeline})")
    try:
        proc = subprocess.run([rlx_opt, chunk_path, "--pass-pipeline=" + pipe,
                               "-o", os.devnull], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out"
    return classify(chunk_path, proc)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rlx-opt", default=os.environ.get("RLX_OPT"),
                        help="the rlx-opt to run (default: $RLX_OPT)")
    parser.add_argument("--pipeline", action="append", required=True,
                        help="a pass pipeline (repeatable)")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("-j", type=int, default=os.cpu_count())
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if not args.rlx_opt:
        parser.error("no rlx-opt: give --rlx-opt or set RLX_OPT")

    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for path, chunk_path, names in written_chunks(args.rlx_opt,
                                                      args.files, tmp):
            for name in names:
                for pipeline in args.pipeline:
                    jobs.append((pipeline, path, chunk_path, name))
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            results = list(pool.map(
                lambda job: run(args.rlx_opt, job[0], job[2], job[3],
                                args.timeout), jobs))

    failed = 0
    for pipeline in args.pipeline:
        counts = {"compiled": 0, "diagnosed": 0, "failed": 0}
        for (p, path, _, name), result in zip(jobs, results):
            if p != pipeline:
                continue
            if result in counts:
                counts[result] += 1
                continue
            counts["failed"] += 1
            print(f"FAILED {pipeline} {path} @{name}: {result}")
        failed += counts["failed"]
        print(f"{pipeline}: {counts['compiled']} compiled, "
              f"{counts['diagnosed']} diagnosed, {counts['failed']} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
