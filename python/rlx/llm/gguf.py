# ===- gguf.py - GGUF and safetensors model files ----------------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Reading and writing the weight files of LLMs: GGUF (llama.cpp's format,
with its quantized block types) and safetensors (Hugging Face's).

    from rlx.llm import gguf
    f = gguf.GGUFFile("model.gguf")
    f.metadata["llama.context_length"]        # -> 4096
    f.tensors["blk.0.attn_q.weight"].shape    # NumPy order: (n_out, n_in)
    w = f.tensor("blk.0.attn_q.weight")       # float32, dequantized

NumPy only, and no import of the rest of `rlx`, so that model files can be
inspected and converted on machines without RLX's C API.

GGUF layout (version 2 and 3, little-endian): the magic "GGUF", the version
(u32), the tensor and metadata counts (u64), the metadata key/value pairs,
the tensor infos (name, dims, ggml type, offset into the data section),
padding to `general.alignment` (default 32), then the data section. GGUF
lists a tensor's dims fastest first (ggml's `ne`); here shapes are in NumPy
order, `ne` reversed, so a quantized tensor's blocks run along its last
axis.

Dequantization follows ggml-quants.c (dequantize_row_q4_0, _q8_0, _q4_K,
_q5_K, _q6_K) operation by operation in float32, with the unfused
expressions of the C source (a compiler that contracts `d1*q - m1` into an
FMA can differ in the last bit). The quantizers here are simple ones of our
own (not ggml's search for the best scales): their blocks follow ggml's
layouts, so llama.cpp reads what they write, and each one bounds its error
(see `quantize`).
"""

import collections
import json
import os
import struct

import numpy as np

__all__ = [
    "GGUFError", "SafetensorsError", "GGUFFile", "TensorInfo", "read_gguf",
    "write_gguf", "dequantize", "quantize", "read_safetensors",
    "write_safetensors", "GGML_TYPES", "SUPPORTED_TYPES",
]


class GGUFError(ValueError):
    """A GGUF file (or a request on one) that cannot be served: the message
    names the file and the tensor or metadata key concerned."""


class SafetensorsError(GGUFError):
    """A bad safetensors file; a GGUFError so one `except` catches both."""


# ===------------------------------------------------------------------=== #
# ggml types
# ===------------------------------------------------------------------=== #

QK_K = 256

# ggml type id -> (name, elements per block, bytes per block). All the types
# ggml had when this was written, so that a file holding any of them can be
# opened (sizes checked, `raw` served) even where `tensor` cannot
# dequantize them.
GGML_TYPES = {
    0: ("F32", 1, 4),
    1: ("F16", 1, 2),
    2: ("Q4_0", 32, 18),
    3: ("Q4_1", 32, 20),
    6: ("Q5_0", 32, 22),
    7: ("Q5_1", 32, 24),
    8: ("Q8_0", 32, 34),
    9: ("Q8_1", 32, 36),
    10: ("Q2_K", QK_K, 84),
    11: ("Q3_K", QK_K, 110),
    12: ("Q4_K", QK_K, 144),
    13: ("Q5_K", QK_K, 176),
    14: ("Q6_K", QK_K, 210),
    15: ("Q8_K", QK_K, 292),
    16: ("IQ2_XXS", QK_K, 66),
    17: ("IQ2_XS", QK_K, 74),
    18: ("IQ3_XXS", QK_K, 98),
    19: ("IQ1_S", QK_K, 50),
    20: ("IQ4_NL", 32, 18),
    21: ("IQ3_S", QK_K, 110),
    22: ("IQ2_S", QK_K, 82),
    23: ("IQ4_XS", QK_K, 136),
    24: ("I8", 1, 1),
    25: ("I16", 1, 2),
    26: ("I32", 1, 4),
    27: ("I64", 1, 8),
    28: ("F64", 1, 8),
    29: ("IQ1_M", QK_K, 56),
    30: ("BF16", 1, 2),
    34: ("TQ1_0", QK_K, 54),
    35: ("TQ2_0", QK_K, 66),
    39: ("MXFP4", 32, 17),
}
_TYPE_IDS = {name: tid for tid, (name, _, _) in GGML_TYPES.items()}

# The types this module reads to float32 and writes from it.
SUPPORTED_TYPES = ("F32", "F16", "BF16", "Q4_0", "Q8_0", "Q4_K", "Q5_K",
                   "Q6_K")
_SUPPORTED_TEXT = ", ".join(SUPPORTED_TYPES)


def _type_id(name_or_id, what):
    """The ggml type id of a type name ("Q4_K") or id, or GGUFError."""
    if isinstance(name_or_id, (int, np.integer)):
        tid = int(name_or_id)
    else:
        tid = _TYPE_IDS.get(str(name_or_id).upper(), -1)
    if tid not in GGML_TYPES or GGML_TYPES[tid][0] not in SUPPORTED_TYPES:
        raise GGUFError("%s: ggml type %r not supported (supported: %s)"
                        % (what, name_or_id, _SUPPORTED_TEXT))
    return tid


# ===------------------------------------------------------------------=== #
# Dequantization (ggml-quants.c's dequantize_row_*, vectorised)
# ===------------------------------------------------------------------=== #

def _f16(blocks, start):
    """The float16 at byte `start` of every block, widened to float32."""
    return (blocks[:, start:start + 2].copy().view(np.float16)
            .astype(np.float32))


def _scale_min_k4(scales):
    """The eight 6-bit (scale, min) pairs of each Q4_K/Q5_K super-block from
    its 12 `scales` bytes, as ggml's get_scale_min_k4(j) for j = 0..7:
    pairs 0-3 are the low 6 bits of bytes 0-3 (scales) and 4-7 (mins);
    pairs 4-7 take their low 4 bits from the nibbles of bytes 8-11 and
    their top 2 bits from the top bits of bytes 0-3 (scales) and 4-7
    (mins). Returns two (n, 8) float32 arrays."""
    q = scales.astype(np.uint8)
    sc = np.empty((q.shape[0], 8), np.uint8)
    mn = np.empty((q.shape[0], 8), np.uint8)
    sc[:, :4] = q[:, 0:4] & 63
    mn[:, :4] = q[:, 4:8] & 63
    sc[:, 4:] = (q[:, 8:12] & 0xF) | ((q[:, 0:4] >> 6) << 4)
    mn[:, 4:] = (q[:, 8:12] >> 4) | ((q[:, 4:8] >> 6) << 4)
    return sc.astype(np.float32), mn.astype(np.float32)


def _deq_q4_0(b):
    # block_q4_0: f16 d; u8 qs[16]. Element j is the low nibble of qs[j],
    # element j+16 the high nibble; value (nibble - 8) * d.
    d = _f16(b, 0)
    qs = b[:, 2:18]
    q = np.concatenate([qs & 0xF, qs >> 4], axis=1).astype(np.int8) - 8
    return q.astype(np.float32) * d


def _deq_q8_0(b):
    # block_q8_0: f16 d; i8 qs[32]; value qs[j] * d.
    d = _f16(b, 0)
    return b[:, 2:34].view(np.int8).astype(np.float32) * d


def _deq_q4_k(b):
    # block_q4_K: f16 d, f16 dmin; u8 scales[12]; u8 qs[128]. Eight
    # sub-blocks of 32; the 64 values j*64..j*64+63 come from qs[32j..32j+31],
    # low nibbles (sub-block 2j) then high nibbles (2j+1); value
    # (d*sc)*q - (dmin*m).
    n = b.shape[0]
    d, dmin = _f16(b, 0), _f16(b, 2)
    sc, mn = _scale_min_k4(b[:, 4:16])
    qs = b[:, 16:144].reshape(n, 4, 32)
    q = np.stack([qs & 0xF, qs >> 4], axis=2).reshape(n, 8, 32)
    d1 = d * sc                                     # (n, 8)
    m1 = dmin * mn
    y = d1[:, :, None] * q.astype(np.float32) - m1[:, :, None]
    return y.reshape(n, QK_K)


def _deq_q5_k(b):
    # block_q5_K: f16 d, f16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128].
    # As Q4_K, plus a fifth bit: value l of sub-block s has bit s of qh[l].
    n = b.shape[0]
    d, dmin = _f16(b, 0), _f16(b, 2)
    sc, mn = _scale_min_k4(b[:, 4:16])
    qh = b[:, 16:48]
    qs = b[:, 48:176].reshape(n, 4, 32)
    lo = np.stack([qs & 0xF, qs >> 4], axis=2).reshape(n, 8, 32)
    bits = np.arange(8, dtype=np.uint8)[None, :, None]
    hi = ((qh[:, None, :] >> bits) & 1) << 4
    q = (lo | hi).astype(np.float32)
    d1 = d * sc
    m1 = dmin * mn
    y = d1[:, :, None] * q - m1[:, :, None]
    return y.reshape(n, QK_K)


def _deq_q6_k(b):
    # block_q6_K: u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d. Two halves of
    # 128 values; in half h, for l in 0..31, the four values l, l+32, l+64,
    # l+96 take their low 4 bits from ql[64h+l] (low, high nibble) and
    # ql[64h+32+l], their top 2 bits from qh[32h+l] bits 0-1, 2-3, 4-5, 6-7
    # (order l, l+32, l+64, l+96); value (d*scales[16 values' group])*(q-32).
    n = b.shape[0]
    ql = b[:, 0:128].reshape(n, 2, 2, 32)   # half, which 32 of ql, l
    qh = b[:, 128:192].reshape(n, 2, 1, 32)
    sc = b[:, 192:208].view(np.int8).astype(np.float32)
    d = _f16(b, 208)
    lo = np.stack([ql[:, :, 0] & 0xF, ql[:, :, 1] & 0xF,
                   ql[:, :, 0] >> 4, ql[:, :, 1] >> 4], axis=2)
    shifts = np.array([0, 2, 4, 6], np.uint8)[None, None, :, None]
    hi = (qh >> shifts) & 3                  # (n, 2, 4, 32)
    q = ((lo | (hi << 4)).astype(np.int8) - 32).astype(np.float32)
    q = q.reshape(n, 16, 16)                 # groups of 16 in memory order
    ds = d * sc                              # (n, 16)
    return (ds[:, :, None] * q).reshape(n, QK_K)


_DEQUANT = {"Q4_0": _deq_q4_0, "Q8_0": _deq_q8_0, "Q4_K": _deq_q4_k,
            "Q5_K": _deq_q5_k, "Q6_K": _deq_q6_k}


def _bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def dequantize(data, ggml_type, shape):
    """Float32 values of `shape` (NumPy order) from the raw bytes `data`
    (bytes, or a uint8 array such as `GGUFFile.raw`) of a tensor of
    `ggml_type` (name or id). Works through large tensors in chunks of
    blocks so the temporaries stay small."""
    tid = _type_id(ggml_type, "dequantize")
    name, blck, size = GGML_TYPES[tid]
    shape = tuple(int(s) for s in shape)
    count = int(np.prod(shape, dtype=np.int64))
    raw = np.frombuffer(data, np.uint8) if not isinstance(
        data, np.ndarray) else data.reshape(-1).view(np.uint8)
    if count % blck or raw.size != count // blck * size:
        raise GGUFError("dequantize: %d bytes of %s do not hold shape %s"
                        % (raw.size, name, shape))
    if name == "F32":
        return raw.view(np.float32).reshape(shape).copy()
    if name == "F16":
        return raw.view(np.float16).astype(np.float32).reshape(shape)
    if name == "BF16":
        return _bf16_to_f32(raw.view(np.uint16)).reshape(shape)
    blocks = raw.reshape(-1, size)
    out = np.empty((blocks.shape[0], blck), np.float32)
    step = 1 << 15
    for i in range(0, blocks.shape[0], step):
        out[i:i + step] = _DEQUANT[name](np.asarray(blocks[i:i + step]))
    return out.reshape(shape)


# ===------------------------------------------------------------------=== #
# Quantization (our own simple quantizers, ggml's block layouts)
# ===------------------------------------------------------------------=== #

def _to_f16_up(x):
    """float16 of each (non-negative) x, rounded up rather than to nearest,
    so a scale derived from it still covers the values it was made for."""
    h = x.astype(np.float16)
    low = h.astype(np.float32) < x
    h[low] = np.nextafter(h[low], np.float16(np.inf))
    if not np.all(np.isfinite(h)):
        raise GGUFError("values too large for a float16 block scale "
                        "(max %g)" % float(np.max(x)))
    return h


def _pack_f16(h):
    return h.astype(np.float16).reshape(-1, 1).view(np.uint8)


def _quant_q8_0(x):
    # d = amax/127 (rounded up to f16); q = round(x/d) in [-127, 127].
    # Error <= d/2 = amax/254 per value (plus float32 rounding).
    x = x.reshape(-1, 32)
    d = _to_f16_up(np.abs(x).max(axis=1) / 127)
    df = d.astype(np.float32)[:, None]
    inv = np.divide(1, df, out=np.zeros_like(df), where=df != 0)
    q = np.clip(np.rint(x * inv), -127, 127).astype(np.int8)
    return np.concatenate([_pack_f16(d), q.view(np.uint8)], axis=1)


def _quant_q4_0(x):
    # As ggml: the value of largest magnitude, `max`, maps to level -8:
    # d = max/-8, level = round(x/d) + 8 clipped to [0, 15]. Error <= |d|/2,
    # except values near -max, clipped to level 15 (7*d): error <=
    # amax - 7|d| <= amax/8.
    x = x.reshape(-1, 32)
    idx = np.abs(x).argmax(axis=1)
    mx = x[np.arange(x.shape[0]), idx]
    # |d| rounded up, so the level -8 still reaches the extreme value.
    d = (_to_f16_up(np.abs(mx) / 8) * np.where(mx > 0, -1, 1)).astype(
        np.float16)
    df = d.astype(np.float32)[:, None]
    inv = np.divide(1, df, out=np.zeros_like(df), where=df != 0)
    lv = np.clip(np.rint(x * inv) + 8, 0, 15).astype(np.uint8)
    qs = lv[:, :16] | (lv[:, 16:] << 4)
    return np.concatenate([_pack_f16(d), qs], axis=1)


def _quant_k_scales(x, nmax):
    """Scales of a Q4_K (nmax 15) or Q5_K (nmax 31) super-block, chosen so
    that each sub-block's whole range is covered (no value clipped):
    offset_s = dmin*m_s with m_s = ceil(-min_s/dmin) (min_s = min(0, lowest
    value)), step_s = d*sc_s with sc_s = ceil((max_s + offset_s)/(nmax*d)).
    Then every value is within step_s/2 of a level, and step_s <=
    (range_s + dmin)/nmax + d with dmin <= amax/63, d <= (2*amax +
    dmin)/(63*nmax), amax the super-block's largest magnitude.
    Returns d, dmin (float16, (n,)), sc, m (uint8, (n, 8)), and the
    float32 step and offset (n, 8) as ggml will compute them."""
    lo = np.minimum(x.min(axis=2), 0).astype(np.float64)      # (n, 8)
    hi = x.max(axis=2).astype(np.float64)
    dmin = _to_f16_up((-lo).max(axis=1) / 63)
    dminf = dmin.astype(np.float64)[:, None]
    m = np.where(dminf > 0, np.ceil(-lo / np.where(dminf > 0, dminf, 1)), 0)
    m = np.clip(m, 0, 63)
    offset = (dmin.astype(np.float32)[:, None] * m.astype(np.float32))
    need = np.maximum(hi + offset.astype(np.float64), 0) / nmax  # step
    d = _to_f16_up(need.max(axis=1) / 63)
    df = d.astype(np.float64)[:, None]
    sc = np.where(df > 0, np.ceil(need / np.where(df > 0, df, 1)), 0)
    sc = np.clip(sc, 0, 63)
    step = d.astype(np.float32)[:, None] * sc.astype(np.float32)
    return d, dmin, sc.astype(np.uint8), m.astype(np.uint8), step, offset


def _pack_k_scales(sc, m):
    """The 12 scales bytes of a Q4_K/Q5_K block from 6-bit scales and mins
    (the inverse of get_scale_min_k4)."""
    out = np.zeros((sc.shape[0], 12), np.uint8)
    out[:, 0:4] = sc[:, :4] | ((sc[:, 4:] >> 4) << 6)
    out[:, 4:8] = m[:, :4] | ((m[:, 4:] >> 4) << 6)
    out[:, 8:12] = (sc[:, 4:] & 0xF) | ((m[:, 4:] & 0xF) << 4)
    return out


def _k_levels(x, step, offset, nmax):
    inv = np.divide(1, step, out=np.zeros_like(step), where=step != 0)
    lv = np.rint((x + offset[:, :, None]) * inv[:, :, None])
    return np.clip(lv, 0, nmax).astype(np.uint8)


def _quant_q4_k(x):
    x = x.reshape(-1, 8, 32)
    n = x.shape[0]
    d, dmin, sc, m, step, offset = _quant_k_scales(x, 15)
    lv = _k_levels(x, step, offset, 15).reshape(n, 4, 2, 32)
    qs = (lv[:, :, 0] | (lv[:, :, 1] << 4)).reshape(n, 128)
    return np.concatenate([_pack_f16(d), _pack_f16(dmin),
                           _pack_k_scales(sc, m), qs], axis=1)


def _quant_q5_k(x):
    x = x.reshape(-1, 8, 32)
    n = x.shape[0]
    d, dmin, sc, m, step, offset = _quant_k_scales(x, 31)
    lv = _k_levels(x, step, offset, 31)                        # (n, 8, 32)
    low = (lv & 0xF).reshape(n, 4, 2, 32)
    qs = (low[:, :, 0] | (low[:, :, 1] << 4)).reshape(n, 128)
    bits = np.arange(8, dtype=np.uint8)[None, :, None]
    qh = np.bitwise_or.reduce(((lv >> 4) & 1) << bits, axis=1)  # (n, 32)
    return np.concatenate([_pack_f16(d), _pack_f16(dmin),
                           _pack_k_scales(sc, m), qh.astype(np.uint8), qs],
                          axis=1)


def _quant_q6_k(x):
    # Sixteen groups of 16: step_g = d*sc_g with sc_g = ceil(amax_g/31/d)
    # in [0, 127] and d = max_g(amax_g)/31/127 rounded up to f16, so every
    # value's level round(x/step_g) lies in [-31, 31]: error <= step_g/2 <=
    # (amax/31 + d)/2.
    x = x.reshape(-1, 16, 16)
    n = x.shape[0]
    need = np.abs(x).max(axis=2).astype(np.float64) / 31        # (n, 16)
    d = _to_f16_up(need.max(axis=1) / 127)
    df = d.astype(np.float64)[:, None]
    sc = np.clip(np.where(df > 0, np.ceil(need / np.where(df > 0, df, 1)),
                          0), 0, 127)
    step = d.astype(np.float32)[:, None] * sc.astype(np.float32)
    inv = np.divide(1, step, out=np.zeros_like(step), where=step != 0)
    lv = (np.clip(np.rint(x * inv[:, :, None]), -32, 31) + 32).astype(
        np.uint8).reshape(n, 2, 4, 32)   # half, which quarter, l
    ql = np.stack([lv[:, :, 0] & 0xF | ((lv[:, :, 2] & 0xF) << 4),
                   lv[:, :, 1] & 0xF | ((lv[:, :, 3] & 0xF) << 4)],
                  axis=2).reshape(n, 128)
    qh = ((lv[:, :, 0] >> 4) | ((lv[:, :, 1] >> 4) << 2)
          | ((lv[:, :, 2] >> 4) << 4) | ((lv[:, :, 3] >> 4) << 6))
    return np.concatenate([ql, qh.reshape(n, 64),
                           sc.astype(np.int8).view(np.uint8),
                           _pack_f16(d)], axis=1)


_QUANT = {"Q4_0": _quant_q4_0, "Q8_0": _quant_q8_0, "Q4_K": _quant_q4_k,
          "Q5_K": _quant_q5_k, "Q6_K": _quant_q6_k}


def _f32_to_bf16(x):
    """bfloat16 bits of float32 x, rounded to nearest even (NaN stays a
    quiet NaN rather than rounding into infinity)."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32)
    r = ((u + np.uint32(0x7FFF) + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(x)
    r[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return r


def quantize(array, ggml_type):
    """The raw bytes (a uint8 array) of float32 `array` stored as
    `ggml_type`. Blocks run along the last axis, which must be a multiple
    of the block size (32 for Q4_0/Q8_0, 256 for the K quants). Bounds on
    the error per value, amax the block's (super-block's) largest
    magnitude: Q8_0 amax/254, Q4_0 amax/8, Q4_K (1 + 1/63)^2*amax/15,
    Q5_K (1 + 1/63)^2*amax/31, Q6_K (1 + 1/127)*amax/62, each up to
    float16 rounding of the scales (2^-10 relative; where a scale falls
    among float16's subnormals, amax below about 1e-2, an absolute 2^-21
    instead)."""
    tid = _type_id(ggml_type, "quantize")
    name, blck, _ = GGML_TYPES[tid]
    x = np.ascontiguousarray(array, np.float32)
    if name == "F32":
        return x.reshape(-1).view(np.uint8)
    if name == "F16":
        return x.astype(np.float16).reshape(-1).view(np.uint8)
    if name == "BF16":
        return _f32_to_bf16(x).reshape(-1).view(np.uint8)
    if x.ndim == 0 or x.shape[-1] % blck:
        raise GGUFError("quantize: %s needs the last dim a multiple of %d, "
                        "got shape %s" % (name, blck, x.shape))
    if not np.all(np.isfinite(x)):
        raise GGUFError("quantize: %s of non-finite values" % name)
    return _QUANT[name](x.reshape(-1, blck)).reshape(-1)


# ===------------------------------------------------------------------=== #
# GGUF metadata values
# ===------------------------------------------------------------------=== #

# GGUF value type id -> (name, struct format or None).
_VT = {0: ("u8", "B"), 1: ("i8", "b"), 2: ("u16", "H"), 3: ("i16", "h"),
       4: ("u32", "I"), 5: ("i32", "i"), 6: ("f32", "f"), 7: ("bool", "?"),
       8: ("str", None), 9: ("array", None), 10: ("u64", "Q"),
       11: ("i64", "q"), 12: ("f64", "d")}
_VT_IDS = {name: tid for tid, (name, _) in _VT.items()}
_VT_ALIASES = {"uint8": "u8", "int8": "i8", "uint16": "u16", "int16": "i16",
               "uint32": "u32", "int32": "i32", "float32": "f32",
               "uint64": "u64", "int64": "i64", "float64": "f64",
               "string": "str"}


class _Reader:
    """Little-endian scalars and strings from a buffer (a memoryview of the
    mapped file: slicing one is cheap, which matters for vocabularies of
    100k strings), with a GGUFError naming the file where it ends too
    soon."""

    def __init__(self, buf, path):
        self.buf, self.path, self.pos = memoryview(buf).cast("B"), path, 0

    def take(self, n, what):
        if self.pos + n > len(self.buf):
            raise GGUFError("%s: truncated file: %s needs bytes %d..%d, the "
                            "file has %d" % (self.path, what, self.pos,
                                             self.pos + n, len(self.buf)))
        self.pos += n
        return self.buf[self.pos - n:self.pos]

    def scalar(self, fmt, what):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(
            "<" + fmt), what))[0]

    def string(self, what):
        raw = bytes(self.take(self.scalar("Q", what), what))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise GGUFError("%s: %s is not UTF-8: %s" % (self.path, what, e))

    def value(self, vtype, what):
        if vtype not in _VT:
            raise GGUFError("%s: %s has unknown GGUF value type %d"
                            % (self.path, what, vtype))
        name, fmt = _VT[vtype]
        if name == "str":
            return self.string(what)
        if name == "array":
            etype = self.scalar("I", what)
            count = self.scalar("Q", what)
            if etype in _VT and _VT[etype][1] is not None:
                # Numeric arrays in one read (vocabularies' scores, ...).
                fmt = _VT[etype][1]
                b = self.take(count * struct.calcsize(fmt), what)
                a = np.frombuffer(b, np.dtype("<" + fmt.replace("?", "B")))
                return (a != 0).tolist() if fmt == "?" else a.tolist()
            return [self.value(etype, what) for _ in range(count)]
        v = self.scalar(fmt.replace("?", "B"), what)
        return v != 0 if fmt == "?" else v


def _value_type(value, key):
    """The GGUF value type name of a Python value: str, bool, int (u32 if
    it fits, else i32, u64, i64), float (f32), list (array)."""
    if isinstance(value, str):
        return "str"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        v = int(value)
        for t, lo, hi in (("u32", 0, 1 << 32), ("i32", -(1 << 31), 1 << 31),
                          ("u64", 0, 1 << 64), ("i64", -(1 << 63), 1 << 63)):
            if lo <= v < hi:
                return t
        raise GGUFError("metadata key '%s': int %d does not fit 64 bits"
                        % (key, v))
    if isinstance(value, (float, np.floating)):
        return "f32"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "array"
    raise GGUFError("metadata key '%s': cannot store %s in GGUF"
                    % (key, type(value).__name__))


def _array_elem_type(values, key):
    """One element type for a list: str, bool, f32 if any float, else the
    smallest of u32/i32/u64/i64 that holds all ints; arrays of arrays."""
    types = {_value_type(v, key) for v in values}
    if not types:
        return "u32"
    if len(types) == 1:
        return types.pop()
    if types <= {"u32", "i32", "u64", "i64"}:
        lo, hi = min(int(v) for v in values), max(int(v) for v in values)
        if lo >= 0:
            return "u32" if hi < (1 << 32) else "u64"
        return "i32" if lo >= -(1 << 31) and hi < (1 << 31) else "i64"
    if types <= {"u32", "i32", "u64", "i64", "f32"}:
        return "f32"
    raise GGUFError("metadata key '%s': list mixes %s" % (key,
                                                          sorted(types)))


def _pack_value(vtype, value, key):
    """Bytes of one metadata value of GGUF type `vtype` (a name)."""
    name = _VT_ALIASES.get(vtype, vtype)
    if name not in _VT_IDS:
        raise GGUFError("metadata key '%s': unknown GGUF type '%s'"
                        % (key, vtype))
    if name == "str":
        b = str(value).encode("utf-8")
        return struct.pack("<Q", len(b)) + b
    if name == "array":
        raise GGUFError("metadata key '%s': give an array's element type, "
                        "e.g. ('i32', [...])" % key)
    fmt = _VT[_VT_IDS[name]][1]
    try:
        return struct.pack("<" + fmt, bool(value) if name == "bool"
                           else value)
    except struct.error as e:
        raise GGUFError("metadata key '%s': %r is not a %s: %s"
                        % (key, value, name, e))


def _pack_kv_value(value, key):
    """(GGUF type id, bytes) of a metadata value. `value` may be a
    (type name, value) pair to choose the type: ("i32", 5), ("u64", 7),
    ("f64", 0.1), ("i32", [1, 2, 3]) for an array of i32."""
    if (isinstance(value, tuple) and len(value) == 2
            and isinstance(value[0], str)
            and _VT_ALIASES.get(value[0], value[0]) in _VT_IDS):
        vtype, value = _VT_ALIASES.get(value[0], value[0]), value[1]
        if isinstance(value, (list, tuple, np.ndarray)):
            return _VT_IDS["array"], _pack_array(list(value), vtype, key)
        return _VT_IDS[vtype], _pack_value(vtype, value, key)
    vtype = _value_type(value, key)
    if vtype == "array":
        values = list(value)
        return _VT_IDS["array"], _pack_array(
            values, _array_elem_type(values, key), key)
    return _VT_IDS[vtype], _pack_value(vtype, value, key)


def _pack_array(values, etype, key):
    if etype == "array":
        parts = [struct.pack("<IQ", _VT_IDS["array"], len(values))]
        for v in values:
            v = list(v)
            parts.append(_pack_array(v, _array_elem_type(v, key), key))
        return b"".join(parts)
    etype = _VT_ALIASES.get(etype, etype)
    head = struct.pack("<IQ", _VT_IDS[etype], len(values))
    fmt = _VT[_VT_IDS[etype]][1]
    if fmt is not None and etype != "bool":
        try:
            arr = np.array(values, dtype=np.dtype("<" + fmt))
        except (OverflowError, ValueError) as e:
            raise GGUFError("metadata key '%s': values do not fit %s: %s"
                            % (key, etype, e))
        if fmt not in "fd" and len(values) and not np.array_equal(
                arr.astype(object), np.array(values, dtype=object)):
            raise GGUFError("metadata key '%s': values do not fit %s"
                            % (key, etype))
        return head + arr.tobytes()
    return head + b"".join(_pack_value(etype, v, key) for v in values)


# ===------------------------------------------------------------------=== #
# GGUF files
# ===------------------------------------------------------------------=== #

TensorInfo = collections.namedtuple(
    "TensorInfo", "name shape ggml_type type_id offset nbytes")
TensorInfo.__doc__ = """One tensor of a GGUF file: `shape` in NumPy order
(GGUF's ne reversed), `ggml_type` its type's name ("Q4_K"), `type_id` the
ggml id, `offset` the absolute byte offset of its data in the file,
`nbytes` the size of its data."""


class GGUFFile:
    """A GGUF file (versions 2 and 3, little-endian), memory-mapped: the
    header is parsed on opening, a tensor's bytes are read only when it is
    asked for.

    metadata:       key -> value (arrays as lists)
    metadata_types: key -> GGUF type name ("u32", "str", "array[f32]", ...)
    tensors:        OrderedDict name -> TensorInfo
    alignment:      the data alignment (general.alignment, default 32)
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            size = os.path.getsize(self.path)
        except OSError as e:
            raise GGUFError("%s: cannot open: %s" % (self.path, e))
        if size < 24:
            raise GGUFError("%s: not a GGUF file (%d bytes, shorter than "
                            "the header)" % (self.path, size))
        self._map = np.memmap(self.path, np.uint8, "r")
        r = _Reader(self._map, self.path)
        magic = r.take(4, "magic").tobytes()
        if magic != b"GGUF":
            raise GGUFError("%s: not a GGUF file (magic %r, expected "
                            "b'GGUF')" % (self.path, magic))
        self.version = r.scalar("I", "version")
        if self.version not in (2, 3):
            raise GGUFError("%s: GGUF version %d not supported (2 and 3 are; "
                            "big-endian files are not)"
                            % (self.path, self.version))
        n_tensors = r.scalar("Q", "tensor count")
        n_kv = r.scalar("Q", "metadata count")
        self.metadata, self.metadata_types = {}, {}
        for _ in range(n_kv):
            key = r.string("a metadata key")
            vtype = r.scalar("I", "metadata key '%s'" % key)
            what = "metadata key '%s'" % key
            if vtype == _VT_IDS["array"]:
                save = r.pos
                etype = r.scalar("I", what)
                r.pos = save
                tname = "array[%s]" % _VT.get(etype, (str(etype),))[0]
            else:
                tname = _VT.get(vtype, (str(vtype),))[0]
            self.metadata[key] = r.value(vtype, what)
            self.metadata_types[key] = tname
        self.alignment = self.metadata.get("general.alignment", 32)
        if (not isinstance(self.alignment, int) or self.alignment <= 0
                or self.alignment & (self.alignment - 1)):
            raise GGUFError("%s: metadata key 'general.alignment' is %r, not "
                            "a power of two" % (self.path, self.alignment))
        infos = []
        for _ in range(n_tensors):
            name = r.string("a tensor name")
            what = "tensor '%s'" % name
            n_dims = r.scalar("I", what)
            ne = [r.scalar("Q", what) for _ in range(n_dims)]
            tid = r.scalar("I", what)
            offset = r.scalar("Q", what)
            infos.append((name, ne, tid, offset))
        data_start = -(-r.pos // self.alignment) * self.alignment
        self.data_offset = data_start
        self.tensors = collections.OrderedDict()
        for name, ne, tid, offset in infos:
            if tid not in GGML_TYPES:
                raise GGUFError(
                    "%s: tensor '%s' has ggml type %d, not supported "
                    "(supported: %s)" % (self.path, name, tid,
                                         _SUPPORTED_TEXT))
            tname, blck, bsize = GGML_TYPES[tid]
            count = int(np.prod(ne, dtype=np.int64)) if ne else 1
            if ne and ne[0] % blck:
                raise GGUFError("%s: tensor '%s' of type %s has a row of %d "
                                "values, not a multiple of its block (%d)"
                                % (self.path, name, tname, ne[0], blck))
            nbytes = count // blck * bsize
            start = data_start + offset
            if start + nbytes > size:
                raise GGUFError("%s: truncated file: tensor '%s' needs bytes "
                                "%d..%d, the file has %d" % (
                                    self.path, name, start, start + nbytes,
                                    size))
            if name in self.tensors:
                raise GGUFError("%s: tensor '%s' appears twice"
                                % (self.path, name))
            self.tensors[name] = TensorInfo(name, tuple(reversed(ne)), tname,
                                            tid, start, nbytes)

    def _info(self, name):
        try:
            return self.tensors[name]
        except KeyError:
            raise GGUFError("%s: no tensor '%s' (the file has %d tensors)"
                            % (self.path, name, len(self.tensors))) from None

    def raw(self, name):
        """The bytes of tensor `name` as stored (its blocks), a read-only
        uint8 view of the mapped file."""
        info = self._info(name)
        return self._map[info.offset:info.offset + info.nbytes]

    def tensor(self, name):
        """Tensor `name` as a float32 array of its NumPy shape, dequantized
        if stored quantized."""
        info = self._info(name)
        if info.ggml_type not in SUPPORTED_TYPES:
            raise GGUFError("%s: tensor '%s' has ggml type %s (%d), not "
                            "supported (supported: %s)" % (
                                self.path, name, info.ggml_type,
                                info.type_id, _SUPPORTED_TEXT))
        return dequantize(self.raw(name), info.type_id, info.shape)

    def __contains__(self, name):
        return name in self.tensors

    def __repr__(self):
        return "GGUFFile(%r: %d metadata keys, %d tensors)" % (
            self.path, len(self.metadata), len(self.tensors))


def read_gguf(path):
    """`GGUFFile(path)`."""
    return GGUFFile(path)


def write_gguf(path, metadata, tensors, types=None, alignment=None):
    """Write a GGUF version 3 file.

    metadata: key -> value; str, bool, int (u32 if it fits, else i32, u64,
      i64), float (f32), lists of those (arrays), or a (type, value) pair
      to choose the type: ("i32", 7), ("f64", 0.5), ("i32", [1, 2]).
    tensors: name -> array (NumPy order; written as float32 values).
    types: name -> ggml type name (default "F32"); see `quantize` for the
      quantized types' constraints and error bounds.
    alignment: of the data, default general.alignment or 32.
    """
    path = os.fspath(path)
    types = dict(types or {})
    unknown = set(types) - set(tensors)
    if unknown:
        raise GGUFError("%s: types given for tensors not written: %s"
                        % (path, sorted(unknown)))
    metadata = dict(metadata or {})
    if alignment is None:
        a = metadata.get("general.alignment", 32)
        alignment = int(a[1] if isinstance(a, tuple) else a)
    if "general.alignment" in metadata or alignment != 32:
        metadata["general.alignment"] = ("u32", alignment)
    if alignment <= 0 or alignment & (alignment - 1):
        raise GGUFError("%s: metadata key 'general.alignment' is %r, not a "
                        "power of two" % (path, alignment))

    def key_bytes(s):
        b = s.encode("utf-8")
        return struct.pack("<Q", len(b)) + b

    head = [b"GGUF", struct.pack("<IQQ", 3, len(tensors), len(metadata))]
    for key, value in metadata.items():
        vtype, payload = _pack_kv_value(value, key)
        head += [key_bytes(key), struct.pack("<I", vtype), payload]
    blobs, offset = [], 0
    for name, array in tensors.items():
        tname = types.get(name, "F32")
        tid = _type_id(tname, "%s: tensor '%s'" % (path, name))
        array = np.asarray(array)
        try:
            data = quantize(array, tid)
        except GGUFError as e:
            raise GGUFError("%s: tensor '%s': %s" % (path, name, e)) from None
        ne = list(reversed(array.shape)) or [1]
        if len(name.encode("utf-8")) >= 64 or len(ne) > 4:
            # ggml's GGML_MAX_NAME (64, with the NUL) and GGML_MAX_DIMS.
            raise GGUFError("%s: tensor '%s': ggml takes names of at most 63 "
                            "bytes and at most 4 dims, got shape %s"
                            % (path, name, array.shape))
        head += [key_bytes(name), struct.pack("<I", len(ne)),
                 struct.pack("<%dQ" % len(ne), *ne),
                 struct.pack("<IQ", tid, offset)]
        blobs.append(data)
        offset += -(-data.size // alignment) * alignment
    header = b"".join(head)
    with open(path, "wb") as f:
        f.write(header)
        f.write(b"\0" * (-len(header) % alignment))
        for data in blobs:
            f.write(data.tobytes())
            f.write(b"\0" * (-data.size % alignment))


# ===------------------------------------------------------------------=== #
# safetensors
# ===------------------------------------------------------------------=== #

_ST_DTYPES = {"F64": np.float64, "F32": np.float32, "F16": np.float16,
              "BF16": np.uint16, "I64": np.int64, "I32": np.int32,
              "I16": np.int16, "I8": np.int8, "U8": np.uint8,
              "BOOL": np.bool_}


def read_safetensors(path, float32=True, metadata=False):
    """Tensors of a safetensors file: name -> array (a copy, not tied to
    the file). Float types become float32 when `float32` (BF16 via its bit
    pattern: the bits widened into a float32's top half); otherwise F16
    stays float16 and BF16 comes back as its uint16 bits (NumPy has no
    bfloat16). With `metadata`, returns (tensors, the __metadata__ dict)."""
    path = os.fspath(path)
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise SafetensorsError("%s: cannot open: %s" % (path, e))
    if size < 8:
        raise SafetensorsError("%s: not a safetensors file (%d bytes)"
                               % (path, size))
    mm = np.memmap(path, np.uint8, "r")
    n = int(mm[:8].view("<u8")[0])
    if 8 + n > size:
        raise SafetensorsError("%s: truncated file: the header is %d bytes, "
                               "the file %d" % (path, n, size))
    try:
        header = json.loads(mm[8:8 + n].tobytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise SafetensorsError("%s: not a safetensors file: bad header: %s"
                               % (path, e))
    if not isinstance(header, dict):
        raise SafetensorsError("%s: not a safetensors file: the header is "
                               "not a JSON object" % path)
    meta = header.pop("__metadata__", {}) or {}
    out = collections.OrderedDict()
    base = 8 + n
    for name, info in header.items():
        try:
            dtype, shape = info["dtype"], tuple(info["shape"])
            begin, end = info["data_offsets"]
        except (KeyError, TypeError, ValueError):
            raise SafetensorsError("%s: tensor '%s' has a bad header entry "
                                   "%r" % (path, name, info)) from None
        if dtype not in _ST_DTYPES:
            raise SafetensorsError(
                "%s: tensor '%s' has dtype %s, not supported (supported: %s)"
                % (path, name, dtype, ", ".join(_ST_DTYPES)))
        npt = np.dtype(_ST_DTYPES[dtype]).newbyteorder("<")
        count = int(np.prod(shape, dtype=np.int64))
        if end - begin != count * npt.itemsize or begin < 0:
            raise SafetensorsError("%s: tensor '%s': data_offsets %d..%d do "
                                   "not hold %s %s" % (path, name, begin,
                                                       end, dtype, shape))
        if base + end > size:
            raise SafetensorsError("%s: truncated file: tensor '%s' needs "
                                   "bytes %d..%d, the file has %d" % (
                                       path, name, base + begin, base + end,
                                       size))
        a = mm[base + begin:base + end].view(npt).reshape(shape)
        if float32 and dtype == "BF16":
            a = _bf16_to_f32(a).reshape(shape)
        elif float32 and dtype in ("F16", "F64"):
            a = a.astype(np.float32)
        else:
            a = np.array(a)
        out[name] = a
    return (out, meta) if metadata else out


def write_safetensors(path, tensors, metadata=None, dtypes=None):
    """Write name -> array as safetensors. The dtype of each array is
    kept (float32 -> F32, float16 -> F16, ...), or converted per `dtypes`
    (name -> "F32"/"F16"/"BF16"; BF16 rounds float32 to nearest even).
    `metadata` (str -> str) goes in __metadata__."""
    path = os.fspath(path)
    dtypes = dict(dtypes or {})
    names = {np.dtype(v).newbyteorder("<"): k for k, v in _ST_DTYPES.items()
             if k != "BF16"}
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in
                                  metadata.items()}
    for name, array in tensors.items():
        a = np.asarray(array)
        dt = dtypes.get(name)
        if dt == "BF16":
            data = _f32_to_bf16(a.astype(np.float32))
        elif dt is not None:
            if dt not in _ST_DTYPES:
                raise SafetensorsError("%s: tensor '%s': dtype %s not "
                                       "supported" % (path, name, dt))
            data = a.astype(_ST_DTYPES[dt])
        else:
            data = a
            dt = names.get(a.dtype.newbyteorder("<"))
            if dt is None:
                raise SafetensorsError("%s: tensor '%s' has dtype %s, not "
                                       "supported" % (path, name, a.dtype))
        raw = np.ascontiguousarray(data).astype(
            data.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": dt, "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)   # keeps the data 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in blobs:
            f.write(raw)
