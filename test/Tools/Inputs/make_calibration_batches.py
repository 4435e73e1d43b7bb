# Writes the calibration folders of rlx-run-calibrate.mlir under argv[1]:
# good/ (three batches of random x [4, 8] and y [8, 3]) and broken ones, each
# with one thing wrong.

import os
import sys

import numpy as np

root = sys.argv[1]
r = np.random.default_rng()


def batch(path, names=("arg0", "arg1"), x_shape=(4, 8), nan=False):
    os.makedirs(path, exist_ok=True)
    x = r.standard_normal(x_shape).astype(np.float32)
    if nan:
        x[0, 0] = np.nan
    arrays = {"arg0": x,
              "arg1": r.standard_normal((8, 3)).astype(np.float32),
              "arg2": r.standard_normal((2,)).astype(np.float32)}
    for n in names:
        np.save(os.path.join(path, n + ".npy"), arrays[n])


for b in ("b0", "b1", "b2"):
    batch(os.path.join(root, "good", b))
os.makedirs(os.path.join(root, "empty"), exist_ok=True)
batch(os.path.join(root, "missing", "b0"))
batch(os.path.join(root, "missing", "b1"), names=("arg0",))
batch(os.path.join(root, "extra", "b0"), names=("arg0", "arg1", "arg2"))
batch(os.path.join(root, "shape", "b0"), x_shape=(4, 9))
batch(os.path.join(root, "nan", "b0"), nan=True)
batch(os.path.join(root, "no-rows", "b0"), x_shape=(0, 8))
with open(os.path.join(root, "file"), "w") as f:
    f.write("not a folder\n")
