"""What the GPU benchmarks copy beside their compiled programs, so that the
GPU machine (the driver, PyTorch and the rlx package alone) runs them from
the artifact folder: their Python modules and the shared peers
(../shared/bench/gpu_peers.py, or $RLX_GPU_PEERS)."""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# layers.py (inputs and references) and what it imports.
LAYER_MODULES = ("layers.py", "attention_check.py", "constant_layers.py")


def copy_run_files(out, paths=()):
    """Copies `paths` (files; a bare name is one of bench/gpu) and
    gpu_peers.py into `out`."""
    for path in paths:
        shutil.copy(path if os.path.isabs(path) else os.path.join(HERE, path),
                    out)
    shutil.copy(os.environ.get("RLX_GPU_PEERS", os.path.join(
        ROOT, "..", "shared", "bench", "gpu_peers.py")), out)
