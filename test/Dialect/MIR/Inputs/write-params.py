"""Writes the .npy files of specialize-params.mlir into directory argv[1]."""

import os
import sys

import numpy as np

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
arrays = {
    "w": np.array([[1.0, 2.0], [3.0, 4.0]], np.float32),
    "layer0.b": np.array([0.5, -0.5], np.float32),
    "d": np.array([0.25, 1e-300, -3.0], np.float64),
    "h": np.array([1.5, -2.0], np.float16),
    # bf16 travels as f32: 1 + 2^-8 is halfway between the bf16 values 1 and
    # 1 + 2^-7 and rounds to the even 1; 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
    "bf": np.array([1.00390625, 1.01171875], np.float32),
    "i32": np.array([1, -2, 3], np.int32),
    "i8": np.array([-128, 127], np.int8),
    "i64": np.array([[1 << 40]], np.int64),
    "u8": np.array([255, 0], np.uint8),
    "mask": np.array([True, False, True]),
    "scalar": np.array(7.0, np.float32),
    "short": np.array([1.0, 2.0, 3.0], np.float32),
}
for name, a in arrays.items():
    np.save(os.path.join(d, name + ".npy"), a)
