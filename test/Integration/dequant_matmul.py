# RUN: %python %s
# rlx.dequant_matmul against float64 NumPy: decode W [N, K], then x @ W^T,
# for 2-D and batched inputs and f32/bf16 activations.
# - int8_block, int8_block_asym, int4_block: w * scale, (w - zp) * scale,
#   (nibble - 8) * scale with the low nibble first; scale per row and block.
# - fp8_e4m3, fp8_e5m2: the fp8 value of each byte times scale[n], from
#   256-entry tables built here from the bit formulas (cross-checked against
#   torch's or ml_dtypes' float8 types where one is installed).
# - gguf_q4_k, _q5_k, _q6_k, _q8_k: random super-blocks (finite, moderate
#   scales) decoded by a transcription of ggml's dequantize_row_q*_K; a
#   case with x = I (y = W^T) compares the decoded weights one by one.
# - gguf_q4_0, _q8_0, _q2_k, _q3_k and nvfp4: random blocks (every byte
#   random, then f16 scales of both signs; nvfp4's e4m3 scale bytes any
#   finite one, and a per-tensor f32 scale of either sign) decoded by
#   NumPy decoders written from the block layouts (llama.cpp's block_q4_0,
#   block_q8_0, block_q2_K, block_q3_K; nvfp4 as #rlx.quant documents it),
#   vectorized over all blocks: q3_K's scales are unpacked through ggml's
#   32-bit words and kmask1/kmask2 rather than per-index formulas. Each
#   decoder is first checked on hand-built blocks and its random inputs
#   are checked to reach every code (nibble, 2/3-bit quant, 4/6-bit scale).

import struct
import sys

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("dequant_matmul", KNOWN_FAILURES)
r = rlxtest.rng()
TOL = {"f32": (1e-5, 1e-5), "bf16": (2e-2, 2e-2)}


def tolerance(elem, x, dec):
    """TOL, with atol at least what the f32 sum of K products of mixed signs
    loses (about eps * sqrt(K) * sum |x w|, on average over the outputs), so
    that outputs which cancel to near 0 compare fairly when the weights are
    large (fp8, GGUF)."""
    rtol, atol = TOL[elem]
    mag = np.abs(x.astype(np.float64)) @ np.abs(
        np.where(np.isfinite(dec), dec, 0)).T
    eps = np.finfo(np.float32).eps
    return rtol, max(atol, eps * np.sqrt(x.shape[-1]) * mag.mean())


def matmul_case(name, scheme, x, w, params, dec, n, elem, dynamic_rows=False):
    """x @ dec^T for `x` of `elem`, the weight `w` packed under `scheme`
    (its attribute text) with scale operands `params`; `dec` is W [N, K].
    dynamic_rows: x's first dim is `?` in the program."""
    rows = (None,) if dynamic_rows else x.shape[:1]
    args = [("%x", T(rows + x.shape[1:], elem), x),
            ("%w", T(w.shape, "i8" if w.dtype == np.int8 else "ui8"), w)]
    args += [("%%p%d" % i, T(p.shape, "f32"), p) for i, p in enumerate(params)]
    if elem == "bf16":
        dec = rlxtest.as_elem(dec, "bf16").astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        ref = x.astype(np.float64) @ dec.T
    out = list(rows + x.shape[1:-1]) + [n]
    body = "%y = rlx.dequant_matmul #rlx.quant<{}> {} : {}".format(
        scheme, ", ".join(a for a, _, _ in args),
        ", ".join(t for _, t, _ in args))
    return Case(name, args, body, [("%y", T(out, elem))], [ref],
                tolerance(elem, x, dec))


def shape_name(shape):
    return "x".join(map(str, shape))


def case(scheme, block, xshape, n, elem="f32"):
    k = xshape[-1]
    x = rand(r, xshape, elem)
    s = rand(r, (n, k // block), "f32", 0.002, 0.02)
    if scheme == "int4_block":
        w = r.integers(0, 256, (n, k // 2)).astype(np.uint8)
        q = np.empty((n, k))
        q[:, 0::2], q[:, 1::2] = w & 15, w >> 4
        dec = q - 8
    else:
        w = r.integers(-128, 128, (n, k)).astype(np.int8)
        dec = w.astype(np.float64)
    params = [s]
    if scheme == "int8_block_asym":
        z = rlxtest.as_elem(r.integers(-8, 8, s.shape), "f32")
        dec = dec - np.repeat(z, block, 1)
        params.append(z)
    dec = dec * np.repeat(s, block, 1)
    return matmul_case("%s/%d/%s/%s" % (scheme, block, elem,
                                        shape_name(xshape)),
                       "%s, %d" % (scheme, block), x, w, params, dec, n, elem)


# --- fp8 ---------------------------------------------------------------------

def fp8_value(bits, e_bits, m_bits, bias, ieee):
    """The value of an fp8 byte: sign, e_bits of exponent, m_bits of
    mantissa. `ieee` (e5m2): the top exponent is inf/NaN; else (e4m3fn)
    only all-ones exponent and mantissa is NaN."""
    sign = -1.0 if bits & 0x80 else 1.0
    e = (bits >> m_bits) & ((1 << e_bits) - 1)
    m = bits & ((1 << m_bits) - 1)
    top = (1 << e_bits) - 1
    if ieee and e == top:
        return sign * np.inf if m == 0 else np.nan
    if not ieee and e == top and m == (1 << m_bits) - 1:
        return np.nan
    if e == 0:
        return sign * m / (1 << m_bits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)


FP8 = {"fp8_e4m3": np.array([fp8_value(b, 4, 3, 7, False)
                             for b in range(256)]),
       "fp8_e5m2": np.array([fp8_value(b, 5, 2, 15, True)
                             for b in range(256)])}


def fp8_library_tables():
    """The same tables from torch or ml_dtypes, if either has float8."""
    bits = np.arange(256, dtype=np.uint8)
    try:
        import torch
        if hasattr(torch, "float8_e4m3fn"):
            t = torch.from_numpy(bits)
            return {"fp8_e4m3": t.view(torch.float8_e4m3fn).double().numpy(),
                    "fp8_e5m2": t.view(torch.float8_e5m2).double().numpy()}
    except ImportError:
        pass
    try:
        import ml_dtypes
        return {"fp8_e4m3": bits.view(ml_dtypes.float8_e4m3fn).astype(
                    np.float64),
                "fp8_e5m2": bits.view(ml_dtypes.float8_e5m2).astype(
                    np.float64)}
    except ImportError:
        return None


def check_fp8_tables():
    e4, e5 = FP8["fp8_e4m3"], FP8["fp8_e5m2"]
    # Spot values of the formats' definitions.
    assert e4[0x38] == 1.0 and e4[0x7E] == 448.0 and e4[0xFE] == -448.0
    assert e4[0x01] == 2.0 ** -9 and e4[0x08] == 2.0 ** -6
    assert np.isnan(e4[[0x7F, 0xFF]]).all() and np.isnan(e4).sum() == 2
    assert e5[0x3C] == 1.0 and e5[0x7B] == 57344.0 and e5[0x01] == 2.0 ** -16
    assert e5[0x7C] == np.inf and e5[0xFC] == -np.inf
    assert np.isnan(e5).sum() == 6
    # e5m2 is the high byte of an IEEE half.
    half = (np.arange(256, dtype=np.uint16) << 8).view(np.float16)
    np.testing.assert_array_equal(e5, half.astype(np.float64))
    lib = fp8_library_tables()
    if lib is None:
        print("note: neither torch nor ml_dtypes has float8; fp8 tables "
              "checked against their definitions only")
        return
    for name, table in lib.items():
        np.testing.assert_array_equal(FP8[name], table, err_msg=name)


def fp8_case(scheme, xshape, n, elem="f32", w=None, tag="random"):
    """Random bytes but the NaN (and e5m2 inf) encodings, unless `w`."""
    k = xshape[-1]
    table = FP8[scheme]
    if w is None:
        finite = np.flatnonzero(np.isfinite(table)).astype(np.uint8)
        w = r.choice(finite, (n, k))
    x = rand(r, xshape, elem)
    s = rand(r, (n,), "f32", 0.002, 0.02)
    dec = table[w] * s[:, None]
    return matmul_case("%s/%s/%s/%s" % (scheme, tag, elem, shape_name(xshape)),
                       scheme, x, w, [s], dec, n, elem)


def fp8_edge_weights(scheme, n, k):
    """Rows of zeros, subnormals and the largest finite values of both
    signs, shuffled among random finite bytes."""
    if scheme == "fp8_e4m3":
        edge = [0x00, 0x80, 0x7E, 0xFE, 0x08, 0x88] + list(range(1, 8)) + \
            list(range(0x81, 0x88))
    else:
        edge = [0x00, 0x80, 0x7B, 0xFB, 0x04, 0x84, 0x01, 0x02, 0x03, 0x81,
                0x82, 0x83]
    w = r.choice(np.array(edge, np.uint8), (n, k))
    keep = r.random((n, k)) < 0.25
    finite = np.flatnonzero(np.isfinite(FP8[scheme])).astype(np.uint8)
    return np.where(keep, r.choice(finite, (n, k)), w).astype(np.uint8)


def fp8_special_weights(scheme, k):
    """One row per special encoding (x is positive, so an inf row gives an
    inf output column and a NaN row a NaN column), plus a finite row."""
    finite = np.flatnonzero(np.isfinite(FP8[scheme])).astype(np.uint8)
    specials = [0x7F, 0xFF] if scheme == "fp8_e4m3" else \
        [0x7C, 0xFC, 0x7D, 0xFE, 0x7F]
    w = r.choice(finite, (len(specials) + 1, k))
    for i, b in enumerate(specials):
        w[i, r.integers(0, k)] = b
    return w


def fp8_special_case(scheme):
    w = fp8_special_weights(scheme, 32)
    n = w.shape[0]
    x = rand(r, (3, 32), "f32", 0.5, 2.0)
    s = rand(r, (n,), "f32", 0.002, 0.02)
    dec = FP8[scheme][w] * s[:, None]
    return matmul_case("%s/special/f32/3x32" % scheme, scheme, x, w, [s], dec,
                       n, "f32")


# --- GGUF K-quants -------------------------------------------------------------
# Transcribed from ggml-quants.c (dequantize_row_q4_K, _q5_K, _q6_K, _q8_K,
# get_scale_min_k4) one block at a time, on Python ints, in float64.

GGUF_BYTES = {"gguf_q4_k": 144, "gguf_q5_k": 176, "gguf_q6_k": 210,
              "gguf_q8_k": 292}


def f16_at(blk, off):
    return float(struct.unpack_from("<e", bytes(blk), off)[0])


def get_scale_min_k4(j, q):
    if j < 4:
        return q[j] & 63, q[j + 4] & 63
    return ((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4),
            (q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4))


def dequant_q4_k(blk):
    # block_q4_K: ggml_half d, dmin; uint8 scales[12]; uint8 qs[128]
    d, dmin = f16_at(blk, 0), f16_at(blk, 2)
    scales, q = blk[4:16], blk[16:144]
    y = []
    is_ = 0
    for j in range(0, 256, 64):
        sc, m = get_scale_min_k4(is_ + 0, scales)
        d1, m1 = d * sc, dmin * m
        sc, m = get_scale_min_k4(is_ + 1, scales)
        d2, m2 = d * sc, dmin * m
        y += [d1 * (q[l] & 0xF) - m1 for l in range(32)]
        y += [d2 * (q[l] >> 4) - m2 for l in range(32)]
        q = q[32:]
        is_ += 2
    return y


def dequant_q5_k(blk):
    # block_q5_K: ggml_half d, dmin; uint8 scales[12], qh[32], qs[128]
    d, dmin = f16_at(blk, 0), f16_at(blk, 2)
    scales, qh, ql = blk[4:16], blk[16:48], blk[48:176]
    y = []
    is_ = 0
    u1, u2 = 1, 2
    for j in range(0, 256, 64):
        sc, m = get_scale_min_k4(is_ + 0, scales)
        d1, m1 = d * sc, dmin * m
        sc, m = get_scale_min_k4(is_ + 1, scales)
        d2, m2 = d * sc, dmin * m
        y += [d1 * ((ql[l] & 0xF) + (16 if qh[l] & u1 else 0)) - m1
              for l in range(32)]
        y += [d2 * ((ql[l] >> 4) + (16 if qh[l] & u2 else 0)) - m2
              for l in range(32)]
        ql = ql[32:]
        is_ += 2
        u1 <<= 2
        u2 <<= 2
    return y


def dequant_q6_k(blk):
    # block_q6_K: uint8 ql[128], qh[64]; int8 scales[16]; ggml_half d
    d = f16_at(blk, 208)
    ql, qh = blk[0:128], blk[128:192]
    sc = [v - 256 if v > 127 else v for v in blk[192:208]]
    y = [0.0] * 256
    for n in range(0, 256, 128):
        for l in range(32):
            is_ = l // 16
            q1 = ((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32
            q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32
            q3 = ((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32
            q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32
            y[n + l + 0] = d * sc[is_ + 0] * q1
            y[n + l + 32] = d * sc[is_ + 2] * q2
            y[n + l + 64] = d * sc[is_ + 4] * q3
            y[n + l + 96] = d * sc[is_ + 6] * q4
        ql, qh, sc = ql[64:], qh[32:], sc[8:]
    return y


def dequant_q8_k(blk):
    # block_q8_K: float d; int8 qs[256]; int16 bsums[16]
    d = struct.unpack_from("<f", bytes(blk), 0)[0]
    return [d * (v - 256 if v > 127 else v) for v in blk[4:260]]


GGUF_DEQUANT = {"gguf_q4_k": dequant_q4_k, "gguf_q5_k": dequant_q5_k,
                "gguf_q6_k": dequant_q6_k, "gguf_q8_k": dequant_q8_k}


def gguf_decode(scheme, w):
    """W [N, K] from packed rows of super-blocks."""
    size = GGUF_BYTES[scheme]
    return np.array([sum((GGUF_DEQUANT[scheme](list(map(int, row[i:i + size])))
                          for i in range(0, len(row), size)), [])
                     for row in w], np.float64)


def gguf_weights(scheme, n, k):
    """Random bytes, with the super-block scales (f16 d and dmin, q8_K's f32
    d) finite and moderate."""
    size = GGUF_BYTES[scheme]
    w = r.integers(0, 256, (n, k // 256, size)).astype(np.uint8)
    d = r.uniform(0.001, 0.05, (n, k // 256))
    if scheme == "gguf_q8_k":
        w[..., 0:4] = d.astype("<f4")[..., None].view(np.uint8)
    else:
        at = 208 if scheme == "gguf_q6_k" else 0
        w[..., at:at + 2] = d.astype("<f2")[..., None].view(np.uint8)
        if scheme != "gguf_q6_k":
            dmin = r.uniform(0.001, 0.05, (n, k // 256))
            w[..., 2:4] = dmin.astype("<f2")[..., None].view(np.uint8)
    return w.reshape(n, k // 256 * size)


def gguf_case(scheme, xshape, n, elem="f32", eye=False, dynamic_rows=False):
    k = xshape[-1]
    w = gguf_weights(scheme, n, k)
    x = np.eye(k, dtype=np.float32) if eye else rand(r, xshape, elem)
    return matmul_case("%s/%s/%s/n%d%s" % (scheme, elem, "eye%d" % k if eye
                                           else shape_name(xshape), n,
                                           "/dyn" if dynamic_rows else ""),
                       scheme, x, w, [], gguf_decode(scheme, w), n, elem,
                       dynamic_rows)


def check_gguf_reference():
    """The reference decoders on hand-built blocks."""
    def half(v):
        return list(np.float16(v).tobytes())
    # q8_K: d * qs, bsums ignored.
    blk = list(struct.pack("<f", 0.5)) + [3, 0xFF, 0x80] + [1] * 253 + \
        [7] * 32
    y = dequant_q8_k(blk)
    assert y[:4] == [1.5, -0.5, -64.0, 0.5] and len(y) == 256, y[:4]
    # q4_K: d = 1, dmin = 0.5; sub-block j has scale j + 1 and min 2j (6-bit
    # packed: j >= 4 splits into nibbles of byte j + 4 and the top bits of
    # bytes j - 4 and j); qs[i] = (i % 16) | (15 - i % 16) << 4.
    scales = [0] * 12
    for j in range(8):
        sc, m = j + 1 + (40 if j >= 4 else 0), 2 * j + (32 if j >= 4 else 0)
        if j < 4:
            scales[j], scales[j + 4] = sc, m
        else:
            scales[j + 4] = (sc & 0xF) | ((m & 0xF) << 4)
            scales[j - 4] |= (sc >> 4) << 6
            scales[j] |= (m >> 4) << 6
    qs = [(i % 16) | ((15 - i % 16) << 4) for i in range(128)]
    y = dequant_q4_k(half(1.0) + half(0.5) + scales + qs)
    for i in range(256):
        j, l = i // 32, i % 32
        sc, m = j + 1 + (40 if j >= 4 else 0), 2 * j + (32 if j >= 4 else 0)
        q = l % 16 if j % 2 == 0 else 15 - l % 16
        assert y[i] == sc * q - 0.5 * m, (i, y[i], sc, q, m)
    # q5_K: the same plus qh with bit j of byte l set for l == j.
    qh = [1 << (l % 8) for l in range(32)]
    y5 = dequant_q5_k(half(1.0) + half(0.5) + scales + qh + qs)
    for i in range(256):
        j, l = i // 32, i % 32
        sc = j + 1 + (40 if j >= 4 else 0)
        assert y5[i] == y[i] + (16 * sc if l % 8 == j else 0), i
    # q6_K: weight i is scales[i // 16] * (q - 32) with q = i % 64 spread
    # over ql's nibbles and qh's bit pairs.
    ql, qhb = [0] * 128, [0] * 64
    for i in range(256):
        h, t, l = i // 128, i % 128 // 32, i % 32
        q = i % 64
        ql[64 * h + 32 * (t % 2) + l] |= (q & 0xF) << (4 * (t // 2))
        qhb[32 * h + l] |= (q >> 4) << (2 * t)
    sc = [(i - 8) & 0xFF for i in range(16)]
    y = dequant_q6_k(ql + qhb + sc + half(0.25))
    for i in range(256):
        assert y[i] == 0.25 * (i // 16 - 8) * (i % 64 - 32), (i, y[i])


# --- GGUF Q4_0, Q8_0, Q2_K, Q3_K and NVFP4 -----------------------------------
# Decoders written from the block layouts, vectorized over blocks [B, bytes]
# (uint8) to weights [B, block] in float64. Multi-byte fields are
# little-endian.

def f16_field(blk, off):
    return blk[:, off:off + 2].copy().view("<f2")[:, 0].astype(np.float64)


def decode_q4_0(blk):
    """block_q4_0 {half d; u8 qs[16]}: the 16 low nibbles are weights 0-15,
    the 16 high nibbles weights 16-31; w = (q - 8) * d."""
    qs = blk[:, 2:18].astype(np.int64)
    q = np.concatenate([qs & 15, qs >> 4], axis=1) - 8
    return q * f16_field(blk, 0)[:, None]


def decode_q8_0(blk):
    """block_q8_0 {half d; i8 qs[32]}: w = qs * d."""
    q = blk[:, 2:34].copy().view(np.int8).astype(np.float64)
    return q * f16_field(blk, 0)[:, None]


def two_bit_quants(qs):
    """The 256 2-bit quants of qs [B, 64] (q2_K, q3_K): each half of 128
    weights has 32 bytes, whose bit pairs 0-1, 2-3, 4-5, 6-7 hold its four
    runs of 32 weights."""
    qs = qs.astype(np.int64).reshape(-1, 2, 1, 32)
    return ((qs >> (2 * np.arange(4)[None, None, :, None])) & 3).reshape(
        -1, 256)


def decode_q2_k(blk):
    """block_q2_K {u8 scales[16]; u8 qs[64]; half d; half dmin}: weights
    16 s .. 16 s + 15 take scale (scales[s] & 15) * d and min
    (scales[s] >> 4) * dmin; w = scale * q - min."""
    sc = np.repeat(blk[:, 0:16].astype(np.int64), 16, axis=1)
    q = two_bit_quants(blk[:, 16:80])
    d, dmin = f16_field(blk, 80)[:, None], f16_field(blk, 82)[:, None]
    return d * (sc & 15) * q - dmin * (sc >> 4)


KMASK1, KMASK2 = 0x03030303, 0x0F0F0F0F


def q3_k_scales(raw):
    """The 16 6-bit scales of q3_K's 12 bytes [B, 12], unpacked as ggml does:
    three little-endian u32 words; words 0 and 1 give the low nibbles (low
    nibbles then high nibbles), word 2 the top 2 bits, and a byte sums them
    per lane with kmask2 (0x0f0f0f0f) and kmask1 (0x03030303)."""
    aux = raw.copy().view("<u4").astype(np.uint64)
    a0, a1, tmp = aux[:, 0], aux[:, 1], aux[:, 2]
    words = [(a0 & KMASK2) | (((tmp >> 0) & KMASK1) << 4),
             (a1 & KMASK2) | (((tmp >> 2) & KMASK1) << 4),
             ((a0 >> 4) & KMASK2) | (((tmp >> 4) & KMASK1) << 4),
             ((a1 >> 4) & KMASK2) | (((tmp >> 6) & KMASK1) << 4)]
    return np.stack(words, 1).astype("<u4").view(np.uint8).astype(np.int64)


def decode_q3_k(blk):
    """block_q3_K {u8 hmask[32]; u8 qs[64]; u8 scales[12]; half d}: weight
    j has the 2-bit quant of two_bit_quants and its high bit in bit j / 32
    of hmask[j % 32]; q = low - 4 when that bit is clear. w = d * (scale -
    32) * q with scale the 6-bit scale of weights 16 s .. 16 s + 15."""
    hm = blk[:, 0:32].astype(np.int64)
    high = (hm[:, None, :] >> np.arange(8)[None, :, None]) & 1  # [B, 8, 32]
    q = two_bit_quants(blk[:, 32:96]) - 4 * (1 - high.reshape(-1, 256))
    sc = np.repeat(q3_k_scales(blk[:, 96:108]) - 32, 16, axis=1)
    return f16_field(blk, 108)[:, None] * sc * q


def e2m1_value(c):
    """FP4 E2M1: sign, 2 exponent bits (bias 1), 1 mantissa bit; exponent 0
    is subnormal (m * 0.5)."""
    sign = -1.0 if c & 8 else 1.0
    e, m = (c >> 1) & 3, c & 1
    return sign * (m * 0.5 if e == 0 else (1 + m / 2) * 2.0 ** (e - 1))


E2M1 = np.array([e2m1_value(c) for c in range(16)])


def decode_nvfp4(blk, tensor_scale):
    """nvfp4 {u8 e4m3 scale; u8 qs[8]}: weight 2i is the low nibble of qs[i],
    2i + 1 the high one; w = e2m1(q) * e4m3(scale) * tensor_scale."""
    qs = blk[:, 1:9].astype(np.int64)
    q = np.stack([qs & 15, qs >> 4], axis=2).reshape(-1, 16)
    return E2M1[q] * FP8["fp8_e4m3"][blk[:, 0]][:, None] * tensor_scale


BLOCKS = {"gguf_q4_0": (32, 18, decode_q4_0), "gguf_q8_0": (32, 34, decode_q8_0),
          "gguf_q2_k": (256, 84, decode_q2_k), "gguf_q3_k": (256, 110, decode_q3_k),
          "nvfp4": (16, 9, decode_nvfp4)}


def blocks_decode(scheme, w, *extra):
    """W [N, K] from packed rows [N, K / block * bytes]."""
    weights, size, dec = BLOCKS[scheme]
    n = w.shape[0]
    return dec(w.reshape(-1, size), *extra).reshape(n, -1)


def pack_q3_k(levels, scales6, d):
    """A block_q3_K as ggml's quantize_row_q3_K_ref lays it out, from 256
    levels L in 0..7 (q = L - 4) and 16 6-bit scales."""
    blk = [0] * 96 + list(pack_q3_k_scales(np.array([scales6]))[0]) + [0, 0]
    for j in range(256):
        if levels[j] > 3:
            blk[j % 32] |= 1 << (j // 32)
    for j in range(0, 256, 128):
        for l in range(32):
            blk[32 + j // 4 + l] = sum((levels[j + l + 32 * t] & 3) << (2 * t)
                                       for t in range(4))
    blk[108:110] = list(np.float16(d).tobytes())
    return np.array([blk], np.uint8)


def check_block_references():
    """The decoders on hand-built blocks."""
    half = lambda v: list(np.float16(v).tobytes())
    y = decode_q4_0(np.array([half(0.5) + [i | (15 - i) << 4
                                          for i in range(16)]], np.uint8))[0]
    assert list(y) == [(i - 8) * 0.5 for i in range(16)] + \
        [(15 - i - 8) * 0.5 for i in range(16)], y
    y = decode_q8_0(np.array([half(-2.0) + [v & 0xFF for v in range(-16, 16)]],
                             np.uint8))[0]
    assert list(y) == [-2.0 * v for v in range(-16, 16)], y
    # q2_K as ggml's quantize_row_q2_K_ref packs it: scale s + 1 and min
    # 15 - s for sub-block s, level j % 4 for weight j.
    levels = [(j * 7 + j // 64) % 4 for j in range(256)]
    blk = [(s % 15 + 1) | ((15 - s) << 4) for s in range(16)]
    for j in range(0, 256, 128):
        for l in range(32):
            blk.append(sum(levels[j + l + 32 * t] << (2 * t) for t in range(4)))
    y = decode_q2_k(np.array([blk + half(0.5) + half(-0.25)], np.uint8))[0]
    for j in range(256):
        s = j // 16
        assert y[j] == 0.5 * (s % 15 + 1) * levels[j] + 0.25 * (15 - s), j
    # q3_K: all 8 levels and 6-bit scales spanning 0..63 (top bits set).
    levels = [(j * 5 + j // 32) % 8 for j in range(256)]
    scales6 = [(s * 17 + 5) % 64 for s in range(16)]
    y = decode_q3_k(pack_q3_k(levels, scales6, -0.125))[0]
    for j in range(256):
        assert y[j] == -0.125 * (scales6[j // 16] - 32) * (levels[j] - 4), j
    # nvfp4: the 16 codes in order, scale byte 0x38 (1.0), tensor scale 2.
    assert list(E2M1[:8]) == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert list(E2M1[8:]) == [-v for v in E2M1[:8]]
    blk = np.array([[0x38] + [2 * i | (2 * i + 1) << 4 for i in range(8)]],
                   np.uint8)
    assert list(decode_nvfp4(blk, 2.0)[0]) == list(2 * E2M1)


def signed_halves(count):
    """`count` f16 scales of both signs, moderate magnitude, as bytes
    [count, 2]."""
    v = r.uniform(0.001, 0.05, count) * r.choice([-1.0, 1.0], count)
    return v.astype("<f2")[:, None].view(np.uint8)


def pack_q3_k_scales(scales6):
    """q3_K's 12 scale bytes [B, 12] for 6-bit scales [B, 16], laid out as
    ggml's quantize_row_q3_K_ref does: low nibbles of 0-7 in bytes 0-7, of
    8-15 in the high nibbles of bytes 0-7, top 2 bits of scale s in bits
    2 (s / 4), +1 of byte 8 + s % 4."""
    out = np.zeros((scales6.shape[0], 12), np.int64)
    for s in range(16):
        out[:, s % 8] |= (scales6[:, s] & 15) << (4 * (s // 8))
        out[:, 8 + s % 4] |= (scales6[:, s] >> 4) << (2 * (s // 4))
    return out.astype(np.uint8)


def block_weights(scheme, n, k, cover=False):
    """Random blocks: every byte random, then the f16 scales (both signs);
    nvfp4's scale byte is any finite e4m3 (both signs). With `cover`, a few
    bytes are set so that every code the scheme has occurs (every nibble,
    2-bit quant, q2_K scale/min byte and q3_K 6-bit scale), which is then
    asserted."""
    weights, size, _ = BLOCKS[scheme]
    w = r.integers(0, 256, (n, k // weights, size)).astype(np.uint8)
    blk = w.reshape(-1, size)
    nibbles = None
    if scheme in ("gguf_q4_0", "gguf_q8_0"):
        blk[:, 0:2] = signed_halves(len(blk))
        nibbles = blk[:, 2:18]
        if cover:
            nibbles[0] = [i | (15 - i) << 4 for i in range(16)]
    elif scheme in ("gguf_q2_k", "gguf_q3_k"):
        at = 16 if scheme == "gguf_q2_k" else 32
        if scheme == "gguf_q2_k":
            blk[:, 80:82] = signed_halves(len(blk))
            blk[:, 82:84] = signed_halves(len(blk))
        else:
            blk[:, 108:110] = signed_halves(len(blk))
        if cover:
            blk[0, at] = 0b11100100  # the 2-bit quants 0, 1, 2, 3
            assert len(blk) * 16 >= 256
            if scheme == "gguf_q2_k":
                blk[:, 0:16] = r.permutation(
                    np.resize(np.arange(256), len(blk) * 16)).reshape(-1, 16)
            else:
                blk[:, 96:108] = pack_q3_k_scales(r.permutation(
                    np.resize(np.arange(64), len(blk) * 16)).reshape(-1, 16))
        quants = two_bit_quants(blk[:, at:at + 64])
    else:
        finite = np.flatnonzero(np.isfinite(FP8["fp8_e4m3"])).astype(np.uint8)
        blk[:, 0] = r.choice(finite, len(blk))
        nibbles = blk[:, 1:9]
        if cover:
            nibbles[0] = [2 * i | (2 * i + 1) << 4 for i in range(8)]
    if cover and nibbles is not None and scheme != "gguf_q8_0":
        assert len(np.unique(np.concatenate([nibbles & 15, nibbles >> 4]))) \
            == 16
    if cover and scheme in ("gguf_q2_k", "gguf_q3_k"):
        assert len(np.unique(quants)) == 4
        scales = blk[:, 0:16] if scheme == "gguf_q2_k" else \
            q3_k_scales(blk[:, 96:108])
        assert len(np.unique(scales)) == (256 if scheme == "gguf_q2_k" else 64)
    return w.reshape(n, k // weights * size)


def block_case(scheme, xshape, n, elem="f32", eye=False, cover=False,
               dynamic_rows=False):
    k = xshape[-1]
    w = block_weights(scheme, n, k, cover)
    x = np.eye(k, dtype=np.float32) if eye else rand(r, xshape, elem)
    params, extra = [], ()
    if scheme == "nvfp4":
        s = np.float32(r.uniform(0.5, 2.0) * r.choice([-1.0, 1.0]))
        params, extra = [np.array(s, np.float32)], (np.float64(s),)
    return matmul_case("%s/%s/%s/n%d%s" % (scheme, elem, "eye%d" % k if eye
                                           else shape_name(xshape), n,
                                           "/dyn" if dynamic_rows else ""),
                       scheme, x, w, params, blocks_decode(scheme, w, *extra),
                       n, elem, dynamic_rows)


suite.check("fp8/reference_tables", check_fp8_tables)
suite.check("gguf/reference_decoders", check_gguf_reference)
suite.check("blocks/reference_decoders", check_block_references)

cases, runtime_cases = [], []
for scheme in ("int8_block", "int8_block_asym", "int4_block"):
    cases += [case(scheme, 32, (4, 64), 16), case(scheme, 16, (2, 3, 64), 8),
              case(scheme, 64, (5, 128), 12, "bf16")]
for scheme in ("fp8_e4m3", "fp8_e5m2"):
    cases += [fp8_case(scheme, (4, 64), 16), fp8_case(scheme, (2, 3, 48), 5),
              fp8_case(scheme, (5, 128), 12, "bf16"),
              fp8_case(scheme, (3, 96), 8, w=fp8_edge_weights(scheme, 8, 96),
                       tag="edge"),
              fp8_special_case(scheme)]
# On the CPU the f32 GGUF products run on the runtime's kernel
# (rlx-cpu-outline-dequant-matmul; bf16 and q2_K/q3_K/nvfp4 on generated
# code): one row as a decoder's step, row counts the tiles of 8 weight rows
# do not divide, a dynamic row count.
for scheme in GGUF_BYTES:
    runtime_cases += [gguf_case(scheme, (4, 256), 3),
                      gguf_case(scheme, (3, 512), 8),
                      gguf_case(scheme, (2, 3, 256), 5),
                      gguf_case(scheme, (1, 768), 13),
                      gguf_case(scheme, (7, 256), 9, dynamic_rows=True),
                      gguf_case(scheme, (256, 256), 6, eye=True)]
    cases.append(gguf_case(scheme, (5, 512), 4, "bf16"))
for scheme, (block, _, _) in BLOCKS.items():
    k = max(block, 64)
    runtime_cases += [block_case(scheme, (4, 2 * k), 16, cover=True),
                      block_case(scheme, (2, 3, k), 5),
                      block_case(scheme, (1, 4 * k), 11),
                      block_case(scheme, (6, k), 17, dynamic_rows=True),
                      block_case(scheme, (k, k), 6, eye=True)]
    cases.append(block_case(scheme, (5, 2 * k), 12, "bf16"))
suite.run(cases + runtime_cases)
suites = [suite]
if rlxtest.TARGET == "cpu":
    # The same f32 products on the generated lowering (decode, then matmul).
    generated = Suite("dequant_matmul dequant-kernels=0", KNOWN_FAILURES,
                      flags=["--cpu-options=dequant-kernels=0"])
    generated.run(runtime_cases)
    suites.append(generated)
sys.exit(1 if [s.finish(exit=False) for s in suites].count(True) else 0)
