#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from the repository's own inputs.

    make_corpus.py ROOT OUT

OUT/mlir: every lit test and example under ROOT (test/**/*.mlir,
examples/*.mlir, bench/gpu/*.mlir) split at `// -----` into one file per
split, with comment lines dropped (RUN and CHECK lines are not input).
OUT/npy: .npy files of every dtype RLX reads, in several shapes, written by
NumPy, plus a few damaged copies (truncated data, truncated header, a
shape larger than the data).
OUT/weights: the safetensors and GGUF files of the tests and examples."""

import glob
import hashlib
import os
import sys

import numpy as np


def write(out_dir, data):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(data)


def mlir_corpus(root, out_dir):
    files = sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"),
                             recursive=True))
    files += sorted(glob.glob(os.path.join(root, "examples", "*.mlir")))
    files += sorted(glob.glob(os.path.join(root, "bench", "gpu", "*.mlir")))
    count = 0
    for path in files:
        with open(path) as f:
            text = f.read()
        for split in text.split("// -----"):
            lines = [l for l in split.splitlines()
                     if not l.lstrip().startswith("//")]
            body = "\n".join(lines).strip()
            if body:
                write(out_dir, (body + "\n").encode())
                count += 1
    return count


def npy_corpus(out_dir):
    rng = np.random.default_rng(0)
    dtypes = ["float32", "float64", "float16", "int8", "int16", "int32",
              "int64", "uint8", "uint16", "uint32", "uint64", "bool",
              "complex64", "complex128"]
    shapes = [(), (0,), (3,), (2, 3), (1, 2, 2)]
    count = 0
    path = os.path.join(out_dir, "tmp.npy")
    for dtype in dtypes:
        for shape in shapes:
            a = (rng.standard_normal(shape) * 10).astype(dtype)
            np.save(path, a)
            with open(path, "rb") as f:
                data = f.read()
            write(out_dir, data)
            count += 1
            if shape == (2, 3):
                write(out_dir, data[:-3])          # truncated data
                write(out_dir, data[:20])          # truncated header
                write(out_dir, data.replace(b"(2, 3)", b"(9, 3)"))
                count += 3
    os.remove(path)
    return count


def weights_corpus(root, out_dir):
    """The safetensors and GGUF files of the tests and examples (written by
    test/Tools/Inputs/weight_files.py, whole, truncated and damaged)."""
    sys.path.insert(0, os.path.join(root, "test", "Tools", "Inputs"))
    import weight_files
    tmp = os.path.join(out_dir, "tmp")
    weight_files.error_files(tmp)
    paths = [os.path.join(tmp, f) for f in sorted(os.listdir(tmp))]
    paths += [os.path.join(root, "docs", "examples", f)
              for f in ("params.safetensors", "dequant.gguf")]
    for path in paths:
        with open(path, "rb") as f:
            write(out_dir, f.read())
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)
    return len(paths)


def main():
    root, out = sys.argv[1], sys.argv[2]
    for sub in ("mlir", "npy", "weights"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    n = mlir_corpus(root, os.path.join(out, "mlir"))
    m = npy_corpus(os.path.join(out, "npy"))
    w = weights_corpus(root, os.path.join(out, "weights"))
    print("fuzz corpora: %d MLIR inputs, %d .npy inputs, %d weight files in "
          "%s" % (n, m, w, out))


if __name__ == "__main__":
    main()
