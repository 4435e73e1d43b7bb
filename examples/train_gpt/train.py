# ===- train.py - train the character-level GPT on the CPU -------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Trains the GPT of gpt.py on the characters of the GPL-3 text with rlx
on the CPU, and the same model in PyTorch from the same weights on the
same batches, and compares their loss curves:

    PYTHONPATH=build/python python3 examples/train_gpt/train.py [--steps 200]

The curves agree when every step's loss is within `--rtol` (relative,
default 1e-4) of PyTorch's; a float32 run of 200 steps measured 5e-6. For
scale, the script also trains PyTorch in float64 from the same weights:
PyTorch's own float32 curve is 9e-6 away from it, rlx's 4e-6. Exits 1
when the curves do not agree or the last loss is not below 0.8 of the
first. tokens/s are batch * context per step over the steps after the
first (which runs compiled code for the first time); rlx's generated code
runs on RLX_NUM_THREADS threads (default: every CPU of the process),
PyTorch on torch.get_num_threads().
"""

import argparse
import dataclasses
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt  # noqa: E402


def train_rlx(cfg, steps, seed=0, options=""):
    """Trains with the compiled step; returns (losses, seconds per step
    after the first, compile seconds, first-step seconds)."""
    import rlx
    t0 = time.perf_counter()
    program = rlx.compile(gpt.build_step(cfg), options=options)
    compile_s = time.perf_counter() - t0
    data, _ = gpt.load_text()
    n = len(gpt.param_specs(cfg))
    params = gpt.init_params(cfg, seed)
    state = params + [np.zeros_like(p) for p in params] * 2
    t = np.array(0, cfg.dtype)
    losses, times = [], []
    for x, y in gpt.batches(data, cfg, steps):
        t0 = time.perf_counter()
        out = program(x, y, t, *state)
        times.append(time.perf_counter() - t0)
        losses.append(float(out[0]))
        t, state = out[1], list(out[2:])
    assert len(state) == 3 * n
    return losses, np.mean(times[1:]), compile_s, times[0]


def train_torch(cfg, steps, seed=0):
    """The same training in PyTorch eager; (losses, seconds per step after
    the first)."""
    import torch
    data, _ = gpt.load_text()
    _, step = gpt.torch_trainer(cfg, gpt.init_params(cfg, seed))
    losses, times = [], []
    for x, y in gpt.batches(data, cfg, steps):
        t0 = time.perf_counter()
        losses.append(step(torch.from_numpy(x), torch.from_numpy(y)).item())
        times.append(time.perf_counter() - t0)
    return losses, np.mean(times[1:])


def max_rel(ours, theirs):
    return max(abs(a - b) / abs(b) for a, b in zip(ours, theirs))


def compare(ours, theirs, rtol):
    """The failures (strings) of the tolerance stated in the docstring."""
    failures = []
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if not abs(a - b) <= rtol * abs(b):
            failures.append("step %d: loss %.6f, torch %.6f (rel %.1e > %.0e)"
                            % (i, a, b, abs(a - b) / abs(b), rtol))
    if not ours[-1] < 0.8 * ours[0]:
        failures.append("the loss did not go down: %.4f -> %.4f" %
                        (ours[0], ours[-1]))
    return failures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--context", type=int, default=64)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=gpt.Config.lr)
    ap.add_argument("--dtype", default="float32",
                    choices=["float32", "float64"])
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--options", default="",
                    help="--rlx-cpu-pipeline options, e.g. blas=true")
    ap.add_argument("--every", type=int, default=20,
                    help="print the losses every N steps")
    args = ap.parse_args(argv)
    import torch
    data, chars = gpt.load_text()
    cfg = gpt.Config(vocab=len(chars), layers=args.layers,
                     d_model=args.d_model, heads=args.heads,
                     context=args.context, batch=args.batch, lr=args.lr,
                     dtype=args.dtype)
    print("text: %s, %d characters, %d distinct" % (gpt.TEXT, len(data),
                                                    len(chars)))
    print("model:", cfg)
    print("parameters: %d" % sum(p.size for p in gpt.init_params(cfg)))
    ours, rlx_s, compile_s, first_s = train_rlx(cfg, args.steps,
                                                options=args.options)
    theirs, torch_s = train_torch(cfg, args.steps)
    for i in range(args.steps):
        if i % args.every == 0 or i == args.steps - 1:
            print("step %4d: loss rlx %.6f, torch %.6f (rel %.1e)" % (
                i, ours[i], theirs[i], abs(ours[i] - theirs[i]) / theirs[i]))
    print("max rel difference of the losses, rlx - torch: %.1e over %d "
          "steps" % (max_rel(ours, theirs), args.steps))
    if cfg.dtype == "float32":
        exact, _ = train_torch(dataclasses.replace(cfg, dtype="float64"),
                               args.steps)
        print("  against torch in float64: rlx %.1e, torch float32 %.1e" % (
            max_rel(ours, exact), max_rel(theirs, exact)))
    tokens = cfg.batch * cfg.context
    print("compile: %.1f s, first step %.2f s" % (compile_s, first_s))
    setting = os.environ.get("RLX_NUM_THREADS", "")
    rlx_threads = (int(setting) if setting.isdigit() and int(setting) > 0
                   else len(os.sched_getaffinity(0)))
    print("tokens/s: rlx %.0f (%.2f ms/step, %d threads), torch eager %.0f "
          "(%.2f ms/step, %d threads)" % (
              tokens / rlx_s, rlx_s * 1e3, rlx_threads, tokens / torch_s,
              torch_s * 1e3, torch.get_num_threads()))
    failures = compare(ours, theirs, args.rtol)
    for f in failures:
        print("FAIL", f)
    print("loss curves agree" if not failures else "%d failures" %
          len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
