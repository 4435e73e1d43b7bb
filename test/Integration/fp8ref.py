"""fp8 (e4m3fn, e5m2) references written from the formats' definitions,
independent of any library: every code decoded from its sign, exponent
and mantissa bits, and rounding to the nearest e4m3 value (ties to the
even code, saturating at 448). Used by test/Integration/amp_fp8.py and
bench/gpu/low_precision_matmul.py (which copies this file beside itself
for the GPU machine)."""
import numpy as np


def fp8_values(exponent_bits, mantissa_bits, bias, nan_codes):
    """The float64 value of each of the 256 codes (NaN where
    `nan_codes(codes, exponent, mantissa)`)."""
    codes = np.arange(256)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    e = (codes >> mantissa_bits) & ((1 << exponent_bits) - 1)
    m = codes & ((1 << mantissa_bits) - 1)
    frac = m / float(1 << mantissa_bits)
    values = np.where(e == 0, frac * 2.0 ** (1 - bias),
                      (1 + frac) * 2.0 ** (e.astype(float) - bias)) * sign
    values[nan_codes(codes, e, m)] = np.nan
    return values


# e4m3fn: no infinities, S.1111.111 is NaN, 448 the largest value.
E4M3 = fp8_values(4, 3, 7, lambda c, e, m: (e == 15) & (m == 7))
# e5m2: IEEE-like, exponent 31 holds infinities and NaNs.
E5M2 = fp8_values(5, 2, 15, lambda c, e, m: e == 31)


def round_e4m3(v):
    """`v` rounded to the nearest e4m3 value, ties to the even code, beyond
    448 saturating; NaN stays NaN."""
    table = E4M3[:0x7f]  # codes 0..126: 0 .. 448, increasing
    v = np.asarray(v, np.float64)
    a = np.minimum(np.abs(v), 448.0)
    hi = np.clip(np.searchsorted(table, a), 0, len(table) - 1)
    lo = np.maximum(hi - 1, 0)
    dlo, dhi = a - table[lo], table[hi] - a
    pick = np.where(dlo < dhi, lo,
                    np.where(dhi < dlo, hi, np.where(lo % 2 == 0, lo, hi)))
    return np.where(np.isnan(v), np.nan, table[pick] * np.sign(v))
