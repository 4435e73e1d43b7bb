"""What the GPU benchmarks share: what they copy beside their compiled
programs, so that the GPU machine (the driver, PyTorch and the rlx package
alone) runs them from the artifact folder (their Python modules, this one
and the shared peers, ../shared/bench/gpu_peers.py or $RLX_GPU_PEERS), and
their command line (`compile OUT` here, `run OUT` there)."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# layers.py (inputs and references) and what it imports.
LAYER_MODULES = ("layers.py", "attention_check.py", "constant_layers.py")


def copy_run_files(out, paths=()):
    """Copies `paths` (files; a bare name is one of bench/gpu), this module
    and gpu_peers.py into `out`."""
    for path in list(paths) + [os.path.abspath(__file__)]:
        shutil.copy(path if os.path.isabs(path) else os.path.join(HERE, path),
                    out)
    shutil.copy(os.environ.get("RLX_GPU_PEERS", os.path.join(
        ROOT, "..", "shared", "bench", "gpu_peers.py")), out)


def main(doc, compile_fn, run_fn):
    """A benchmark's command line: `compile OUT` calls compile_fn(OUT);
    `run OUT [FLAG...]` calls run_fn(OUT, FLAGS) and exits 1 where it
    returns a failure (anything true), else 0; anything else prints `doc`
    and exits 1."""
    if len(sys.argv) < 3 or sys.argv[1] not in ("compile", "run"):
        sys.exit(doc)
    if sys.argv[1] == "compile":
        compile_fn(sys.argv[2])
    else:
        sys.exit(1 if run_fn(sys.argv[2], sys.argv[3:]) else 0)


def timed(torch, fn, calls=20, warmup=3):
    """Milliseconds per call of fn() over `calls` calls made back to back
    (CUDA events around them all, as a model runs layer after layer: the
    host enqueues the next call while the GPU runs this one); a fixed
    count, so that processes calling collectives stay in step. (Timing
    each call alone, the GPU idled while the host enqueued it: 1.5 to 3.8
    ms of host time per call of a Llama layer, the most with NCCL's
    threads running, made the figures host-bound.)"""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls
