"""safetensors and GGUF writers for the tests, written from the formats'
descriptions (huggingface/safetensors README; llama.cpp's docs/gguf.md)
with struct and NumPy only. Run as a script, writes the files of
rlx-run-params.mlir and specialize-params-files.mlir into argv[1]."""

import json
import os
import struct
import sys

import numpy as np

# safetensors dtype names of NumPy dtypes (BF16 is passed as raw uint16).
ST_DTYPES = {"float64": "F64", "float32": "F32", "float16": "F16",
             "int64": "I64", "int32": "I32", "int16": "I16", "int8": "I8",
             "uint8": "U8", "bool": "BOOL"}


def write_safetensors(path, tensors, metadata=None):
    """tensors: {name: array} or {name: (dtype name, shape, raw bytes)}.
    Layout: u64 LE header size N, N bytes of JSON (padded with spaces to a
    multiple of 8), then the tensors' bytes at their data_offsets."""
    header, blobs, at = {}, [], 0
    for name, t in tensors.items():
        if isinstance(t, tuple):
            dtype, shape, raw = t
        else:
            dtype, shape, raw = ST_DTYPES[t.dtype.name], list(t.shape), \
                np.ascontiguousarray(t).astype(t.dtype.newbyteorder("<")
                                                ).tobytes()
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


# GGUF metadata value types.
GGUF_U8, GGUF_I8, GGUF_U16, GGUF_I16, GGUF_U32, GGUF_I32, GGUF_F32, \
    GGUF_BOOL, GGUF_STRING, GGUF_ARRAY, GGUF_U64, GGUF_I64, GGUF_F64 = \
    range(13)
SCALAR_FORMATS = {GGUF_U8: "<B", GGUF_I8: "<b", GGUF_U16: "<H",
                  GGUF_I16: "<h", GGUF_U32: "<I", GGUF_I32: "<i",
                  GGUF_F32: "<f", GGUF_BOOL: "<?", GGUF_U64: "<Q",
                  GGUF_I64: "<q", GGUF_F64: "<d"}

# ggml type ids and (weights, bytes) per block.
GGML = {"F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_0": (2, 32, 18),
        "Q8_0": (8, 32, 34), "Q2_K": (10, 256, 84), "Q3_K": (11, 256, 110),
        "Q4_K": (12, 256, 144), "Q5_K": (13, 256, 176),
        "Q6_K": (14, 256, 210), "Q8_K": (15, 256, 292), "I8": (24, 1, 1),
        "I16": (25, 1, 2), "I32": (26, 1, 4), "I64": (27, 1, 8),
        "F64": (28, 1, 8), "BF16": (30, 1, 2)}


def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf_value(vtype, value):
    if vtype == GGUF_STRING:
        return gguf_string(value)
    if vtype == GGUF_ARRAY:
        etype, items = value
        return struct.pack("<IQ", etype, len(items)) + b"".join(
            gguf_value(etype, v) for v in items)
    return struct.pack(SCALAR_FORMATS[vtype], value)


def write_gguf(path, tensors, metadata=(), alignment=None, version=3):
    """tensors: [(name, ggml type name, shape outermost first, raw bytes)];
    metadata: [(key, value type, value)]. ne is the shape reversed (ne[0]
    innermost); each tensor's data starts at a multiple of the alignment
    (general.alignment when given, else 32) from the data section, which
    itself starts at the next multiple after the tensor infos."""
    kvs = list(metadata)
    if alignment is not None:
        kvs.append(("general.alignment", GGUF_U32, alignment))
    align = alignment or 32
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs))
    for key, vtype, value in kvs:
        out += gguf_string(key) + struct.pack("<I", vtype) + \
            gguf_value(vtype, value)
    data, offsets = b"", []
    for name, tname, shape, raw in tensors:
        data += b"\0" * (-len(data) % align)
        offsets.append(len(data))
        data += raw
    for (name, tname, shape, raw), off in zip(tensors, offsets):
        ne = list(reversed(shape))
        out += gguf_string(name) + struct.pack("<I", len(ne)) + \
            struct.pack("<%dQ" % len(ne), *ne) + \
            struct.pack("<IQ", GGML[tname][0], off)
    out += b"\0" * (-len(out) % align)
    with open(path, "wb") as f:
        f.write(out + data)


ALL_METADATA = [
    ("general.architecture", GGUF_STRING, "test"),
    ("t.u8", GGUF_U8, 200), ("t.i8", GGUF_I8, -5), ("t.u16", GGUF_U16, 60000),
    ("t.i16", GGUF_I16, -300), ("t.u32", GGUF_U32, 1 << 31),
    ("t.i32", GGUF_I32, -(1 << 30)), ("t.f32", GGUF_F32, 0.5),
    ("t.bool", GGUF_BOOL, True), ("t.u64", GGUF_U64, 1 << 40),
    ("t.i64", GGUF_I64, -(1 << 40)), ("t.f64", GGUF_F64, 0.25),
    ("t.ints", GGUF_ARRAY, (GGUF_I32, [1, -2, 3])),
    ("t.strings", GGUF_ARRAY, (GGUF_STRING, ["a", "bc", ""])),
    ("t.empty", GGUF_ARRAY, (GGUF_F64, [])),
]


def error_files(d):
    """The files of the error tests (small, fixed contents)."""
    os.makedirs(d, exist_ok=True)
    w = np.arange(8, dtype=np.float32).reshape(2, 4)
    write_safetensors(os.path.join(d, "w.safetensors"),
                      {"w": w, "h": w.astype(np.float16)})
    raw = open(os.path.join(d, "w.safetensors"), "rb").read()
    with open(os.path.join(d, "truncated.safetensors"), "wb") as f:
        f.write(raw[:-4])
    q = bytes(range(18)) * 16
    write_gguf(os.path.join(d, "w.gguf"),
               [("w", "F32", [2, 4], w.tobytes()),
                ("q", "Q4_0", [2, 256], q)], ALL_METADATA)
    raw = open(os.path.join(d, "w.gguf"), "rb").read()
    with open(os.path.join(d, "truncated.gguf"), "wb") as f:
        f.write(raw[:-10])
    with open(os.path.join(d, "header-cut.gguf"), "wb") as f:
        f.write(raw[:40])
    with open(os.path.join(d, "magic.gguf"), "wb") as f:
        f.write(b"GGUG" + raw[4:])


if __name__ == "__main__":
    error_files(sys.argv[1])
