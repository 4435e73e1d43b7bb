# RUN: %python %s
# rlx.llm.gguf: GGUF's quantized blocks dequantize bit for bit as ggml's C
# does (checked against scalar transcriptions of ggml-quants.c written
# here); GGUF and safetensors files round-trip their metadata and tensors
# (quantized ones within bounds derived from each format); bad files raise
# GGUFError naming the file and the tensor or key. Random data from a fresh
# seed each run, printed; `python3 gguf.py SEED` repeats a run.
import json
import os
import shutil
import struct
import sys
import tempfile

import numpy as np

from rlx.llm import gguf

seed = int(sys.argv[1]) if len(sys.argv) > 1 else int(
    np.random.SeedSequence().entropy % (1 << 63))
print("seed", seed, flush=True)
rng = np.random.default_rng(seed)
tmp = tempfile.mkdtemp(prefix="rlx-gguf-")

# ===--- scalar references, from ggml-common.h and ggml-quants.c ---=== #
# Python floats are doubles: a float32 operation is done in double and then
# rounded to float32 by f32(), which gives IEEE float32's result for +, -, *
# (a double holds more than twice float32's precision).


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def half(b, off):  # GGML_FP16_TO_FP32
    return struct.unpack_from("<e", b, off)[0]


def int8(v):
    return v - 256 if v > 127 else v


def get_scale_min_k4(j, q):
    if j < 4:
        d = q[j] & 63
        m = q[j + 4] & 63
    else:
        d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4)
        m = (q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4)
    return d, m


def ref_q4_0(x):  # block_q4_0 {ggml_half d; uint8_t qs[16];}
    d = half(x, 0)
    qs = x[2:18]
    y = [0.0] * 32
    for j in range(16):
        x0 = (qs[j] & 0x0F) - 8
        x1 = (qs[j] >> 4) - 8
        y[j + 0] = f32(x0 * d)
        y[j + 16] = f32(x1 * d)
    return y


def ref_q8_0(x):  # block_q8_0 {ggml_half d; int8_t qs[32];}
    d = half(x, 0)
    return [f32(int8(x[2 + j]) * d) for j in range(32)]


def ref_q4_k(x):
    # block_q4_K {ggml_half d, dmin; uint8_t scales[12]; uint8_t qs[128];}
    d, mn = half(x, 0), half(x, 2)
    scales, q = x[4:16], x[16:144]
    y = []
    qi, is_ = 0, 0
    for j in range(0, 256, 64):
        sc, m = get_scale_min_k4(is_ + 0, scales)
        d1, m1 = f32(d * sc), f32(mn * m)
        sc, m = get_scale_min_k4(is_ + 1, scales)
        d2, m2 = f32(d * sc), f32(mn * m)
        for l in range(32):
            y.append(f32(f32(d1 * (q[qi + l] & 0xF)) - m1))
        for l in range(32):
            y.append(f32(f32(d2 * (q[qi + l] >> 4)) - m2))
        qi += 32
        is_ += 2
    return y


def ref_q5_k(x):
    # block_q5_K {ggml_half d, dmin; uint8_t scales[12]; uint8_t qh[32];
    #             uint8_t qs[128];}
    d, mn = half(x, 0), half(x, 2)
    scales, qh, ql = x[4:16], x[16:48], x[48:176]
    y = []
    qi, is_, u1, u2 = 0, 0, 1, 2
    for j in range(0, 256, 64):
        sc, m = get_scale_min_k4(is_ + 0, scales)
        d1, m1 = f32(d * sc), f32(mn * m)
        sc, m = get_scale_min_k4(is_ + 1, scales)
        d2, m2 = f32(d * sc), f32(mn * m)
        for l in range(32):
            v = (ql[qi + l] & 0xF) + (16 if qh[l] & u1 else 0)
            y.append(f32(f32(d1 * v) - m1))
        for l in range(32):
            v = (ql[qi + l] >> 4) + (16 if qh[l] & u2 else 0)
            y.append(f32(f32(d2 * v) - m2))
        qi += 32
        is_ += 2
        u1 <<= 2
        u2 <<= 2
    return y


def ref_q6_k(x):
    # block_q6_K {uint8_t ql[128]; uint8_t qh[64]; int8_t scales[16];
    #             ggml_half d;}
    d = half(x, 208)
    y = [0.0] * 256
    for n in range(2):
        ql, qh = x[64 * n:64 * n + 64], x[128 + 32 * n:128 + 32 * n + 32]
        sc = [int8(v) for v in x[192 + 8 * n:192 + 8 * n + 8]]
        for l in range(32):
            is_ = l // 16
            q1 = ((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32
            q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32
            q3 = ((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32
            q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32
            y[128 * n + l + 0] = f32(f32(d * sc[is_ + 0]) * q1)
            y[128 * n + l + 32] = f32(f32(d * sc[is_ + 2]) * q2)
            y[128 * n + l + 64] = f32(f32(d * sc[is_ + 4]) * q3)
            y[128 * n + l + 96] = f32(f32(d * sc[is_ + 6]) * q4)
    return y


# name: (reference, values per block, bytes per block, byte offsets of the
# block's float16 scales), from ggml-common.h.
REF = {
    "Q4_0": (ref_q4_0, 32, 18, [0]),
    "Q8_0": (ref_q8_0, 32, 34, [0]),
    "Q4_K": (ref_q4_k, 256, 144, [0, 2]),
    "Q5_K": (ref_q5_k, 256, 176, [0, 2]),
    "Q6_K": (ref_q6_k, 256, 210, [208]),
}


def ref_dequantize(raw, name):
    fn, n, size, _ = REF[name]
    raw = bytes(raw)
    out = []
    for i in range(0, len(raw), size):
        out += fn(raw[i:i + size])
    return np.array(out, np.float32)


def same_bits(a, b):
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return (a.shape == b.shape and np.array_equal(a, b)
            and np.array_equal(a.view(np.uint32), b.view(np.uint32)))


# ===--- random blocks: gguf.dequantize == the scalar reference ---=== #
def random_f16_bits(n):
    bits = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    bad = (bits & 0x7C00) == 0x7C00  # inf or NaN
    while bad.any():
        bits[bad] = rng.integers(0, 1 << 16, bad.sum(), dtype=np.uint16)
        bad = (bits & 0x7C00) == 0x7C00
    return bits


for name, (fn, n, size, scale_at) in REF.items():
    nblocks = 48
    blocks = rng.integers(0, 256, (nblocks, size), dtype=np.uint8)
    for off in scale_at:
        bits = random_f16_bits(nblocks)
        # Edge scales: +0, -0, the smallest subnormal, the largest finite.
        bits[:4] = [0x0000, 0x8000, 0x0001, 0x7BFF]
        blocks[:, off:off + 2] = bits.view(np.uint8).reshape(nblocks, 2)
    ours = gguf.dequantize(blocks.tobytes(), name, (nblocks // 4, 4 * n))
    ref = ref_dequantize(blocks.tobytes(), name).reshape(nblocks // 4, 4 * n)
    assert ours.dtype == np.float32, ours.dtype
    assert same_bits(ours, ref), (name, np.argwhere(ours != ref)[:5])
    print("dequantize %s: %d random blocks bit-equal to ggml's" % (name,
                                                                   nblocks))

# ===--- a GGUF file of every type, written and read back ---=== #


def bf16_ref(x):
    """bfloat16 of float32 x rounded to nearest, ties to even, found by
    comparing x with the two bfloat16s around it."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    lo = (u & 0xFFFF0000).astype(np.uint32)
    hi = (lo.astype(np.uint64) + 0x10000).astype(np.uint32)
    xl = lo.view(np.float32).astype(np.float64)
    xh = hi.view(np.float32).astype(np.float64)
    xd = x.astype(np.float64)
    dl, dh = np.abs(xd - xl), np.abs(xh - xd)
    pick_hi = (dh < dl) | ((dh == dl) & ((lo >> 16) & 1 == 1))
    return np.where(pick_hi, hi, lo).astype(np.uint32)


def randn(shape, block):
    """Blocks of random scale, some shifted (all one sign), some zero."""
    x = rng.standard_normal(shape).astype(np.float64)
    b = x.reshape(-1, block)
    b *= np.exp(rng.uniform(-4, 4, (b.shape[0], 1)))
    shift = rng.random(b.shape[0]) < 0.25
    b[shift] += 3 * np.abs(b[shift]).max(axis=1, keepdims=True) * \
        rng.choice([-1, 1], (shift.sum(), 1))
    b[0] = 0
    b[1] *= 1e-7  # float16 scales among the subnormals
    m = np.abs(b[2]).max()  # (every tensor here has 3 blocks or more)
    b[2, :2] = [m, -m]  # Q4_0's worst case: -max is clipped to 7*d
    return x.astype(np.float32)


# Error bounds per value, amax the block's (K quants: super-block's)
# largest magnitude, derived from gguf.quantize's schemes; the factor
# (1 + 2**-9) covers float16 rounding of the scales (2**-11 relative, up
# to 2**-10 rounding up) and float32 arithmetic; the 2**-21 the absolute
# rounding of scales among float16's subnormals (spaced 2**-24).
#   Q8_0: d >= amax/127 so no level is clipped; error <= d/2 = amax/254.
#   Q4_0: d = max/-8 (ggml's choice, |d| rounded up); error <= |d|/2
#         except values near -max, clipped to level 7: error <= amax - 7|d|
#         <= amax/8.
#   Q4_K, Q5_K (nmax 15, 31 levels above the min): the sub-block's range
#         [min(0, lo), hi] is covered, with offset dmin*m <= -lo + dmin and
#         dmin <= amax/63; step <= (hi - lo + dmin)/nmax + d, d <=
#         (2 amax + dmin)/(63 nmax); error <= step/2 <=
#         amax/nmax (1 + 1/126)(1 + 1/63) <= amax/nmax (1 + 1/63)^2.
#   Q6_K: groups of 16, levels -31..31: step <= amax_g/31 + d, d <=
#         amax/(31*127); error <= step/2 <= amax/62 (1 + 1/127).
BOUND = {
    "Q8_0": (32, 1 / 254),
    "Q4_0": (32, 1 / 8),
    "Q4_K": (256, (1 + 1 / 63) ** 2 / 15),
    "Q5_K": (256, (1 + 1 / 63) ** 2 / 31),
    "Q6_K": (256, (1 + 1 / 127) / 62),
}
shapes = {
    "F32": ("t.f32", (3, 5, 7)),
    "F16": ("t.f16", (6, 10)),
    "BF16": ("t.bf16", (4, 33)),
    "Q4_0": ("blk.0.attn_q.weight", (8, 64)),
    "Q8_0": ("t.q8_0", (5, 96)),
    "Q4_K": ("t.q4_k", (3, 512)),
    "Q5_K": ("t.q5_k", (4, 256)),
    "Q6_K": ("t.q6_k", (2, 2, 256)),
}
tensors, types = {}, {}
for t, (name, shape) in shapes.items():
    tensors[name] = randn(shape, BOUND[t][0] if t in BOUND else shape[-1])
    types[name] = t
# An F16 value exactly halfway between two bfloat16s (ties to even), and
# float16's largest and smallest.
tensors["t.bf16"][0, :3] = np.array([0x3F808000, 0x3F818000, 0x80018000],
                                    np.uint32).view(np.float32)
tensors["t.f16"][0, :2] = [65504.0, 2.0 ** -24]

metadata = {
    "general.architecture": "llama",
    "general.name": "t\u00e9st model \u2603",
    "llama.context_length": 4096,
    "llama.rope.freq_base": 10000.0,
    "llama.attention.layer_norm_rms_epsilon": 1e-5,
    "t.negative": -7,
    "t.big": 1 << 40,
    "t.flag": True,
    "t.off": False,
    "t.empty": "",
    "tokenizer.ggml.tokens": ["<s>", "</s>", "\u2581the", ""],
    "tokenizer.ggml.scores": [0.0, -1.5, -2.25, 0.1],
    "tokenizer.ggml.token_type": ("i32", [3, 3, 1, 1]),
    "t.u8": ("u8", 200),
    "t.i64": ("i64", -5),
    "t.f64": ("f64", 0.1),
    "t.ints": [1, 2, 3],
    "t.mixed_ints": [-1, 2, 1 << 20],
    "t.nested": [[1, 2], [3]],
}
expected = {
    k: (v[1] if isinstance(v, tuple) else v) for k, v in metadata.items()}
for k in ("llama.rope.freq_base", "llama.attention.layer_norm_rms_epsilon"):
    expected[k] = float(np.float32(metadata[k]))  # stored as f32
expected["tokenizer.ggml.scores"] = [float(np.float32(v)) for v in
                                     metadata["tokenizer.ggml.scores"]]
path = os.path.join(tmp, "all.gguf")
gguf.write_gguf(path, metadata, tensors, types)
f = gguf.GGUFFile(path)
assert f.metadata == expected, (f.metadata, expected)
assert f.metadata_types["tokenizer.ggml.token_type"] == "array[i32]"
assert f.metadata_types["t.u8"] == "u8"
assert f.metadata_types["t.f64"] == "f64"
assert f.metadata_types["llama.context_length"] == "u32"
assert f.metadata_types["t.negative"] == "i32"
assert f.metadata_types["t.big"] == "u64"
assert list(f.tensors) == list(tensors)
print("metadata: %d keys equal" % len(f.metadata))

# The layout ggml's gguf reader insists on: version 3, the data section
# and each tensor 32-aligned, the tensors back to back (padded) in info
# order, sizes as ggml-common.h's blocks.
with open(path, "rb") as fh:
    magic, version, nt, nkv = struct.unpack("<4sIQQ", fh.read(24))
assert (magic, version, nt, nkv) == (b"GGUF", 3, len(tensors), len(metadata))
TYPE_SIZE = {"F32": (1, 4), "F16": (1, 2), "BF16": (1, 2)}
TYPE_SIZE.update({k: (v[1], v[2]) for k, v in REF.items()})
assert f.data_offset % 32 == 0
expect_off = f.data_offset
for name, info in f.tensors.items():
    blck, size = TYPE_SIZE[types[name]]
    assert info.shape == tensors[name].shape, (name, info.shape)
    assert info.ggml_type == types[name]
    assert info.offset == expect_off, (name, info.offset, expect_off)
    assert info.nbytes == tensors[name].size // blck * size
    expect_off += -(-info.nbytes // 32) * 32

for name, x in tensors.items():
    t = types[name]
    y = f.tensor(name)
    assert y.dtype == np.float32 and y.shape == x.shape, (name, y.shape)
    if t == "F32":
        assert same_bits(y, x), name
    elif t == "F16":
        assert same_bits(y, x.astype(np.float16).astype(np.float32)), name
        assert np.array_equal(f.raw(name).view(np.uint16),
                              x.astype(np.float16).view(np.uint16).ravel())
    elif t == "BF16":
        bits = bf16_ref(x)
        assert np.array_equal(f.raw(name).view(np.uint16).reshape(x.shape),
                              (bits >> 16).astype(np.uint16)), name
        assert same_bits(y, bits.view(np.float32)), name
    else:
        # ggml's own dequantization of the blocks written gives the same.
        assert same_bits(y.ravel(), ref_dequantize(f.raw(name), t)), name
        block, k = BOUND[t]
        xb, yb = x.reshape(-1, block), y.reshape(-1, block)
        amax = np.abs(xb).max(axis=1, keepdims=True).astype(np.float64)
        err = np.abs(xb.astype(np.float64) - yb)
        tol = amax * k * (1 + 2.0 ** -9) + 2.0 ** -21
        assert np.all(err <= tol), (name, t, (err / np.maximum(amax, 1e-30)
                                              ).max(), k)
        assert np.all(yb[0] == 0)  # an all-zero block stays zero
    print("tensor %s %s %s: ok" % (name, t, x.shape))

# ===--- safetensors ---=== #
st = {"a.f32": rng.standard_normal((3, 4)).astype(np.float32),
      "b.f16": rng.standard_normal((5,)).astype(np.float16),
      "c.bf16": rng.standard_normal((2, 3, 4)).astype(np.float32)}
st_path = os.path.join(tmp, "t.safetensors")
gguf.write_safetensors(st_path, st, metadata={"format": "pt"},
                       dtypes={"c.bf16": "BF16"})
with open(st_path, "rb") as fh:
    n = struct.unpack("<Q", fh.read(8))[0]
    header = json.loads(fh.read(n))
assert header["__metadata__"] == {"format": "pt"}
assert {k: header[k]["dtype"] for k in st} == {
    "a.f32": "F32", "b.f16": "F16", "c.bf16": "BF16"}, header
assert header["c.bf16"]["shape"] == [2, 3, 4]
back, meta = gguf.read_safetensors(st_path, metadata=True)
assert meta == {"format": "pt"}
assert same_bits(back["a.f32"], st["a.f32"])
assert same_bits(back["b.f16"], st["b.f16"].astype(np.float32))
assert same_bits(back["c.bf16"], bf16_ref(st["c.bf16"]).view(np.float32))
kept = gguf.read_safetensors(st_path, float32=False)
assert kept["b.f16"].dtype == np.float16
assert np.array_equal(kept["b.f16"], st["b.f16"])
assert kept["c.bf16"].dtype == np.uint16
assert np.array_equal(kept["c.bf16"], bf16_ref(st["c.bf16"]) >> 16)
print("safetensors: F32, F16, BF16 round trip")

# ===--- bad files ---=== #
good = open(path, "rb").read()


def bad(data, fn, *needles, error=gguf.GGUFError):
    p = os.path.join(tmp, "bad.gguf")
    with open(p, "wb") as fh:
        fh.write(data)
    try:
        fn(p)
    except error as e:
        msg = str(e)
        assert isinstance(e, ValueError)
        for s in (p,) + needles:
            assert s in msg, (s, msg)
        print("%s: %s" % (type(e).__name__, msg.replace(p, "FILE")))
        return
    raise AssertionError("no %s for %s" % (error.__name__, needles))


bad(b"GGUX" + good[4:], gguf.GGUFFile, "magic")
bad(good[:4] + struct.pack("<I", 4) + good[8:], gguf.GGUFFile, "version 4")
# Cut inside the first key's value.
bad(good[:60], gguf.GGUFFile, "truncated", "'general.architecture'")
last = list(f.tensors.values())[-1]
bad(good[:last.offset + last.nbytes - 1], gguf.GGUFFile, "truncated",
    "'%s'" % last.name)


def with_type(name, tid):
    """The good file with tensor `name`'s ggml type id set to tid."""
    key = struct.pack("<Q", len(name)) + name.encode()
    at = good.index(key) + len(key)
    n_dims = struct.unpack_from("<I", good, at)[0]
    at += 4 + 8 * n_dims
    return good[:at] + struct.pack("<I", tid) + good[at + 4:]


bad(with_type("blk.0.attn_q.weight", 99), gguf.GGUFFile,
    "tensor 'blk.0.attn_q.weight' has ggml type 99, not supported "
    "(supported: F32, F16, BF16, Q4_0, Q8_0, Q4_K, Q5_K, Q6_K)")
# A ggml type the file may hold but this module cannot dequantize (Q3_K,
# whose 4x256 values fit in the Q5_K tensor's bytes): open, raw, no tensor.
bad(with_type("t.q5_k", 11), lambda p: gguf.GGUFFile(p).tensor("t.q5_k"),
    "'t.q5_k'", "Q3_K")
assert gguf.GGUFFile(os.path.join(tmp, "bad.gguf")).raw("t.q5_k").size == \
    4 * 110
bad(good, lambda p: gguf.GGUFFile(p).tensor("output.weight"),
    "'output.weight'")
bad(good, lambda p: gguf.GGUFFile(p).raw("output.weight"), "'output.weight'")
bad(good, lambda p: gguf.write_gguf(p, {}, {"w": np.ones((2, 100))},
                                    {"w": "Q4_K"}), "'w'", "256")
bad(good, lambda p: gguf.write_gguf(p, {}, {"w": np.ones((2, 32))},
                                    {"w": "Q2_K"}), "'w'", "Q2_K")

sgood = open(st_path, "rb").read()
bad(sgood[:-3], gguf.read_safetensors, "truncated", "'c.bf16'",
    error=gguf.SafetensorsError)
bad(sgood[:20], gguf.read_safetensors, "truncated",
    error=gguf.SafetensorsError)
bad(sgood.replace(b'"BF16"', b'"F8X4"'), gguf.read_safetensors, "'c.bf16'",
    "F8X4", error=gguf.SafetensorsError)
print("bad files: all raise")
shutil.rmtree(tmp)
