"""Writes the damaged .npy files of rlx-run-bad-npy.mlir into the folder
given as argv[1]: good.npy (float32 [2, 3], 1..6) and copies of it with
one field changed."""

import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
good = os.path.join(out, "good.npy")
np.save(good, np.arange(1, 7, dtype=np.float32).reshape(2, 3))
with open(good, "rb") as f:
    data = f.read()


def variant(name, old, new, body=None):
    changed = (body if body is not None else data).replace(old, new, 1)
    assert changed != data, name
    with open(os.path.join(out, name), "wb") as f:
        f.write(changed)


# Same header length: pad or trim the spaces before the newline.
def same_length(old, new):
    header_end = data.index(b"\n")
    header = data[10:header_end + 1]
    changed = header.replace(old, new, 1)
    pad = len(header) - len(changed)
    changed = changed[:-1] + b" " * pad + b"\n" if pad >= 0 else \
        changed[:-1 + pad] + b"\n"
    return data[:10] + changed + data[header_end + 1:]


variant("negative.npy", data, same_length(b"(2, 3)", b"(-2, 3)"), data)
variant("huge.npy", data, same_length(b"(2, 3)", b"(2000000000, 3)"), data)
variant("overflow.npy", data,
        same_length(b"(2, 3)", b"(4294967296, 4294967296, 8)"), data)
# Version 2 with a header length field of 4 GiB - 1.
with open(os.path.join(out, "header.npy"), "wb") as f:
    f.write(data[:6] + b"\x02\x00" + b"\xff\xff\xff\xff" + data[10:])
variant("dtype.npy", data, same_length(b"<f4", b"<f3"), data)
variant("version.npy", data[:8], b"\x93NUMPY\x09\x00", data)
