"""Data parallelism over 2 or 4 GPUs: the BERT-base encoder layer's SGD
training step (bench/gpu/train_step.py's @step: loss mean(y^2), every
parameter minus 0.01 times its gradient) in f32, 32 sequences of 128 per
GPU, compiled with rlx-data-parallel (the loss and the parameters'
gradients averaged over the GPUs in bucketed NCCL all-reduces, the input's
gradient scaled), against the one-GPU step in the same run.

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/data_parallel.py compile OUT
    # on a machine with N = 2 or 4 GPUs (the driver, PyTorch, the rlx
    # package):
    PYTHONPATH=OUT:build/python NCCL_NVLS_ENABLE=0 python3 -m rlx.distributed \\
        -n N -- python3 OUT/data_parallel.py run OUT

Printed by rank 0: the updated parameters and the loss of the N-GPU step
(each GPU on its 32 sequences) against the one-GPU step on all 32 N
sequences (max relative error over the parameters' change and the loss),
and the training throughput (sequences per second) of 1 and N GPUs, each
step timed with CUDA events around a fixed number of steps made back to
back on every rank.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from artifacts import copy_run_files, main, timed  # noqa: E402

WIDTHS = (2, 4)
PER_GPU = 32
# f32 updates against the one-GPU step: the sums over the batch run in
# another order (per GPU, then across GPUs).
TOL = 1e-4


def compile_programs(out):
    import rlx
    from train_step import programs
    # The N-GPU steps, and the one-GPU steps at 32 and at 32 N sequences
    # (which checks the N-GPU one).
    steps = [("one1", PER_GPU, 1, "")]
    for n in WIDTHS:
        steps += [("dp%d" % n, PER_GPU, n, ""),
                  # Each bucket's all-reduce started as its gradients are
                  # made, beside the rest of the backward.
                  ("dp%d_overlap" % n, PER_GPU, n, "overlap-collectives=true"),
                  ("one%d" % n, PER_GPU * n, 1, "")]
    for name, batch, dp, options in steps:
        text, _ = programs("bert", "f32", batch=batch)
        module = rlx.Module.parse(text)
        if dp > 1:
            # x (argument 0 of the loss) is each GPU's own sequences.
            module.run_pipeline(
                "rlx-data-parallel{grid-size=%d batch-args=0}" % dp)
        where = os.path.join(out, name)
        program = rlx.compile(module, target="cuda", function="step",
                              options=options, out_dir=where)
        print("compiled", program, "into", where)
    copy_run_files(out, ["data_parallel.py", "layers.py", "train_step.py",
                         "attention_check.py", "constant_layers.py"])


def run(out, flags):
    import torch
    import rlx.cuda
    import layers
    rank = int(os.environ["RLX_RANK"])
    world = int(os.environ["RLX_WORLD_SIZE"])
    torch.cuda.set_device(int(os.environ.get("RLX_LOCAL_RANK", rank)))
    params = layers.bert_inputs(torch.float32, seed=0)[1:]
    g = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randn(PER_GPU * world, layers.SEQ, layers.HIDDEN,
                    generator=g, device="cuda")
    mine = x[rank * PER_GPU:(rank + 1) * PER_GPU].contiguous()
    dp = rlx.cuda.load(os.path.join(out, "dp%d" % world, "librlx_step.so"))
    stepped = dp(mine, *params)
    torch.cuda.synchronize()
    t_dp = timed(torch, lambda: dp(mine, *params))
    dp_overlap = rlx.cuda.load(os.path.join(out, "dp%d_overlap" % world,
                                            "librlx_step.so"))
    t_overlap = timed(torch, lambda: dp_overlap(mine, *params))
    failures = 0
    if rank == 0:
        whole = rlx.cuda.load(os.path.join(out, "one%d" % world,
                                           "librlx_step.so"))
        ref = whole(x, *params)
        # The loss, then each parameter's change p - p' (the update is
        # near the parameters' rounding: two updated f32 parameters may
        # differ by an ulp from rounding alone, so the difference is
        # measured beyond that).
        errs = [((stepped[0] - ref[0]).abs() / ref[0].abs()).item()]
        raw = 0.0
        for p, s, r in zip(params, stepped[2:], ref[2:]):
            change = (p.double() - r.double())
            rounding = r.double().abs() * torch.finfo(torch.float32).eps
            beyond = ((s.double() - r.double()).abs() - rounding).clamp(min=0)
            errs.append((beyond.norm() / change.norm()).item())
            raw = max(raw, ((s.double() - r.double()).norm() /
                            change.norm()).item())
        dx = (stepped[1] - ref[1][:PER_GPU]).norm() / ref[1][:PER_GPU].norm()
        err = max(errs)
        print("step on %d GPUs vs 1 GPU on the %d sequences: loss rel err "
              "%.2e, parameter updates max rel err %.2e (beyond f32 "
              "rounding; %.2e with it), x's gradient rel err %.2e" %
              (world, PER_GPU * world, errs[0], err, raw, dx.item()))
        failures += err > TOL or dx.item() > TOL
        one = rlx.cuda.load(os.path.join(out, "one1", "librlx_step.so"))
        t_one = timed(torch, lambda: one(mine, *params))
        print("| program | ms per step | sequences/s | throughput / 1 GPU |")
        print("|---|---|---|---|")
        print("| rlx, 1 GPU, %d sequences | %.2f | %.0f | 1.00 |" %
              (PER_GPU, t_one, PER_GPU / t_one * 1e3))
        for what, t in (("", t_dp), (", overlapped", t_overlap)):
            print("| rlx, %d GPUs, %d each (data parallel%s) | %.2f | %.0f "
                  "| %.2f |" % (world, PER_GPU, what, t,
                               world * PER_GPU / t * 1e3, world * t_one / t))
        print("failures:", failures)
    return failures


if __name__ == "__main__":
    main(__doc__, compile_programs, run)
