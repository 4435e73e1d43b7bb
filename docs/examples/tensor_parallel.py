"""docs/Distributed.md's example: docs/examples/sharded_mlp.mlir on 2 CPU
processes (one per device of its grid), each with its shard of the
weights, against NumPy on the whole MLP.

    PYTHONPATH=build/python python3 -m rlx.distributed -n 2 -- \\
        python3 docs/examples/tensor_parallel.py
"""
import os

import numpy as np

import rlx
from rlx.megatron import shard_of

here = os.path.dirname(os.path.abspath(__file__))
rank = int(os.environ.get("RLX_RANK", 0))
world = int(os.environ.get("RLX_WORLD_SIZE", 1))
if world != 2:
    raise SystemExit("run me with: python3 -m rlx.distributed -n 2 -- "
                     "python3 docs/examples/tensor_parallel.py")

# The same inputs in every process (one seed), the program compiled in each.
rng = np.random.default_rng(0)
x = rng.standard_normal((8, 64)).astype(np.float32)
w1 = (rng.standard_normal((64, 256)) / 8).astype(np.float32)
w2 = (rng.standard_normal((256, 64)) / 16).astype(np.float32)
text = open(os.path.join(here, "sharded_mlp.mlir")).read()
mlp = rlx.compile(rlx.Module.parse(text))
print("rank %d takes %s" % (rank, [str(t) for t in mlp.argument_types]),
      flush=True)

# Rank r passes its block of w1's columns and of w2's rows; the program
# all-reduces the two halves of the second product.
y = mlp(x, shard_of(w1, 1, rank, 2), shard_of(w2, 0, rank, 2))
h = x.astype(np.float64) @ w1
gelu = 0.5 * h * (1 + np.vectorize(__import__("math").erf)(h / np.sqrt(2)))
ref = gelu @ w2
print("rank %d: max |y - NumPy| / max |NumPy| = %.1e" %
      (rank, np.abs(y - ref).max() / np.abs(ref).max()), flush=True)
