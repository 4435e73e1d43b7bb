# RUN: %python %s
# bf16 through .npy files: a bf16 argument travels as float32 and the
# runner rounds it to bf16 (nearest even); a bf16 result is widened back.
# An identity function shows what the runner made of each value (rlx-run
# here; rlx-vulkan-run and rlx-metal-cpu-run from Vulkan/ and Metal/, which
# point RLX_RUN at them), checked bit for bit against a reference computed
# here from the values (not from the runtime's bit trick):
#   - finite values round to the nearer bf16, a tie to the even one, and
#     beyond bf16's largest finite value to the infinity of their sign;
#   - an infinity stays one;
#   - a NaN stays a quiet NaN of its sign with the high bits of its payload
#     (never an infinity or a zero; rlx-run made every NaN +0x7FC0, and
#     rlx-metal-cpu-run rounded 0x7F800001 into +inf and 0xFFFFFFFF into +0).

import os
import sys

import numpy as np

import rlxtest

BITS = [
    # zeros, ones, rounding boundaries around 1.0
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000,
    0x3F808000,  # tie, even below: 0x3F80
    0x3F818000,  # tie, odd below: 0x3F82
    0x3F808001, 0x3F807FFF, 0xBF818000, 0xBF80C000,
    # subnormals
    0x00008000, 0x00018000, 0x80008001, 0x007FFFFF,
    # the top of the range: the largest finite bf16, its tie, overflow
    0x7F7F0000, 0x7F7F7FFF, 0x7F7F8000, 0x7F7FFFFF, 0xFF7FFFFF,
    # infinities
    0x7F800000, 0xFF800000,
    # NaNs: quiet, signalling, with low or high payload bits, both signs
    0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF,
    0xFFFFFFFF, 0x7FA00000, 0xFF8FFFFF, 0x7FBF0000,
]

SOURCE = """
func.func @main(%x: tensor<{n}xbf16>) -> tensor<{n}xbf16> {{
  return %x : tensor<{n}xbf16>
}}
""".format(n=len(BITS))


def bf16_value(h):
    """The value of finite bf16 bits `h` as a Python float (exact)."""
    sign = -1.0 if h & 0x8000 else 1.0
    exponent, mantissa = (h >> 7) & 0xFF, h & 0x7F
    if exponent == 0:
        return sign * mantissa * 2.0 ** -133
    return sign * (128 + mantissa) * 2.0 ** (exponent - 134)


def reference(bits):
    """The bf16 bits that float32 bits `bits` round to."""
    sign = bits & 0x80000000
    exponent, mantissa = (bits >> 23) & 0xFF, bits & 0x7FFFFF
    if exponent == 0xFF and mantissa:
        return None  # a NaN: checked by its properties
    x = float(np.array(bits, np.uint32).view(np.float32))
    if exponent == 0xFF:
        return 0xFF80 if sign else 0x7F80
    # The two bf16 neighbours of |x|, by magnitude: the one below (the
    # high half of x's bits) and the next (0x7F80 = inf stands for 2^128,
    # where IEEE rounding puts the bf16 after the largest finite one).
    below = (bits >> 16) & 0x7FFF
    above = below + 1
    lo = bf16_value(below)
    hi = 2.0 ** 128 if above == 0x7F80 else bf16_value(above)
    d_lo, d_hi = abs(x) - lo, hi - abs(x)
    if d_lo < d_hi or (d_lo == d_hi and below % 2 == 0):
        h = below
    else:
        h = above
    return h | (0x8000 if sign else 0)


def check(bits, got):
    """None if `got` (bf16 bits) is right for float32 `bits`, else why."""
    want = reference(bits)
    if want is not None:
        return None if got == want else "expected 0x%04X" % want
    if (got & 0x7F80) != 0x7F80 or not (got & 0x7F):
        return "a NaN became a number"
    if (got & 0x8000) != ((bits >> 16) & 0x8000):
        return "a NaN lost its sign"
    if not (got & 0x40):
        return "not a quiet NaN"
    if (got & 0x3F) != ((bits >> 16) & 0x3F):
        return "a NaN lost the high bits of its payload"
    return None


def main():
    x = np.array(BITS, np.uint32).view(np.float32)
    code, log, outs = rlxtest.run(SOURCE, [x], 1)
    if code != 0:
        print("%s failed (%d):\n%s" % (rlxtest.RLX_RUN, code, log))
        return 1
    y = outs[0]
    if y.dtype != np.float32 or y.shape != x.shape:
        print("result: dtype %s, shape %s" % (y.dtype, y.shape))
        return 1
    out = y.view(np.uint32)
    failures = 0
    for b, o in zip(BITS, out):
        o = int(o)
        why = "the widened result has low bits" if o & 0xFFFF else None
        why = why or check(b, o >> 16)
        if why:
            print("FAIL 0x%08X -> 0x%04X: %s" % (b, o >> 16, why))
            failures += 1
    print("%d of %d values right" % (len(BITS) - failures, len(BITS)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
