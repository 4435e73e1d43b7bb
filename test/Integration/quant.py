# RUN: %python %s
# quantize / dequantize per tensor and per channel (positive and negative
# axis, zero points across [-128, 127], saturation) against
# torch.quantize_per_tensor / quantize_per_channel (int_repr exactly) and
# the dequantize of torch's quantized tensors; fake_quantize for bits 2..8
# (and 16), per tensor (rank-0 f32 scale, i32 zero point) and per channel
# against torch.fake_quantize_per_tensor_affine / per_channel_affine with
# the range [-2^(b-1), 2^(b-1) - 1]; other float types against the same
# formulas in float64.
#
# PyTorch rounds x * (1 / scale), the op rounds x / scale: the two differ
# only within an ulp of a rounding tie, so random inputs are kept at least
# 1% of a step away from ties; exact ties (power-of-two scales) are tested
# separately and must round half to even.

import numpy as np
import torch

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

# The lowering computes (q - z) * s in f32 and then casts, so an f64 result
# has only f32 precision (relative error up to 6e-8 instead of exact); and
# quantize casts an f64 input to f32 before dividing, so f64 values within
# an f32 ulp of a rounding tie round as if on the tie.
KNOWN_FAILURES = []

suite = Suite("quant", KNOWN_FAILURES)
r = rlxtest.rng()
# dequantized values: (q - z) * s is one rounding in f32 (as PyTorch's);
# f16 / bf16 round that once more; f64 is exact.
DQ_TOL = {"f32": (1.2e-7, 1e-30), "f64": (1e-15, 1e-300),
          "f16": (1e-3, 1e-7), "bf16": (8e-3, 1e-30)}


def per_axis(v, shape, axis):
    """v (one per index of `axis`) shaped to broadcast against `shape`."""
    if axis is None:
        return np.asarray(v).reshape(())
    s = [1] * len(shape)
    s[axis] = len(v)
    return np.asarray(v).reshape(s)


def away_from_ties(x, scale, elem, lo, hi, margin=0.01):
    """Redraws the elements of x (an `elem` array) whose x / scale lies
    within `margin` of a step of a rounding tie."""
    for _ in range(100):
        u = x.astype(np.float64) / scale
        bad = np.abs(u - np.floor(u) - 0.5) < margin
        if not bad.any():
            return x
        x = np.where(bad, rand(r, x.shape, elem, lo, hi), x)
    raise AssertionError("cannot draw inputs away from ties")


def scales_attr(scales, zps, axis):
    a = "scales = array<f32: %s>, zero_points = array<i64: %s>" % (
        ", ".join("%.9e" % s for s in scales),
        ", ".join(str(int(z)) for z in zps))
    if axis is not None:
        a += ", axis = %d : i64" % axis
    return "{%s}" % a


def draw_params(n, lo_s=0.01, hi_s=0.1, zlo=-20, zhi=20):
    s = r.uniform(lo_s, hi_s, n).astype(np.float32)
    z = r.integers(zlo, zhi + 1, n)
    return s, z


# --------------------------------------------------------------------------
# quantize
# --------------------------------------------------------------------------


def quantize_ref(x, s, z, axis):
    """numpy in float64: clamp(round_half_even(x / s) + z, -128, 127)."""
    s64 = per_axis(np.asarray(s, np.float64), x.shape, axis)
    zz = per_axis(np.asarray(z, np.float64), x.shape, axis)
    q = np.clip(np.round(x.astype(np.float64) / s64) + zz, -128, 127)
    return q.astype(np.int8)


def torch_quantize(x, s, z, axis):
    t = torch.from_numpy(x.astype(np.float32))
    if axis is None:
        q = torch.quantize_per_tensor(t, float(s[0]), int(z[0]), torch.qint8)
    else:
        q = torch.quantize_per_channel(
            t, torch.tensor(np.float64(s)), torch.tensor(np.int64(z)),
            axis % x.ndim, torch.qint8)
    return q.int_repr().numpy()


def q_case(name, elem, shape, axis=None, dims=None, spread=150,
           params=None, x=None):
    n = 1 if axis is None else shape[axis]
    s, z = params or draw_params(n)
    sb = per_axis(np.float64(s), shape, axis)
    if x is None:
        # Values up to `spread` steps from zero: some saturate.
        x = rand(r, shape, "f64", -1, 1) * spread * sb
        x = away_from_ties(rlxtest.as_elem(x, elem), sb, elem,
                           -spread * sb.min(), spread * sb.min())
    t = T(dims or shape, elem)
    e = quantize_ref(x, s, z, axis)
    if elem in ("f32", "f16", "bf16"):  # torch takes the f32 values
        tq = torch_quantize(x, s, z, axis)
        assert (tq == e).all(), "reference disagrees with torch: " + name
    return Case("quantize/%s/%s" % (elem, name), [("%x", t, x)],
                "%q = rlx.quantize %x {} : {}".format(
                    scales_attr(s, z, axis), t),
                [("%q", T(dims or shape, "i8"))], [e])


cases = []
for elem in ("f32", "f64", "f16", "bf16"):
    cases += [q_case("per_tensor", elem, (4, 16)),
              q_case("axis0", elem, (3, 10), axis=0),
              q_case("axis-1", elem, (2, 3, 5), axis=-1)]
cases += [
    q_case("per_tensor_rank3", "f32", (2, 3, 7)),
    q_case("rank0", "f32", ()),
    q_case("axis1", "f32", (2, 4, 6), axis=1),
    q_case("axis-2", "f32", (3, 5, 4), axis=-2),
    q_case("dyn", "f32", (5, 6), dims=(None, None)),
    q_case("dyn_axis1", "f32", (5, 6), axis=1, dims=(None, 6)),
    # Zero points at both ends of the int8 range.
    q_case("zp_ends", "f32", (2, 12), axis=0,
           params=(np.float32([0.05, 0.02]), np.array([-128, 127]))),
    q_case("zp_ends_tensor", "f32", (6, 8),
           params=(np.float32([0.03]), np.array([127]))),
    q_case("zp_ends_tensor", "bf16", (6, 8),
           params=(np.float32([0.03]), np.array([-128]))),
    # Large scales: everything rounds to a few steps.
    q_case("coarse", "f32", (4, 9), axis=1, spread=3),
]
# Exact ties: power-of-two scales and x = (k + 1/2) s round half to even.
for elem in ("f32", "f64", "bf16"):
    s = np.float32([0.25, 0.5, 0.125])
    z = np.array([0, 3, -2])
    k = r.integers(-60, 60, (3, 8))
    x = rlxtest.as_elem((k + 0.5) * per_axis(np.float64(s), (3, 8), 0), elem)
    cases.append(q_case("ties", elem, (3, 8), axis=0, params=(s, z), x=x))
    x = rlxtest.as_elem((r.integers(-60, 60, (16,)) + 0.5) * 0.5, elem)
    cases.append(q_case("ties_tensor", elem, (16,),
                        params=(np.float32([0.5]), np.array([1])), x=x))
# f64 values a hair (1e-9 of a step) off exact ties: f64 division rounds
# them away from the tie, as the formula says.
s = np.float32([0.5, 0.25])
k = r.integers(-60, 60, (2, 8))
off = np.where(r.random((2, 8)) < 0.5, -1e-9, 1e-9)
x = (k + 0.5 + off) * per_axis(np.float64(s), (2, 8), 0)
cases.append(q_case("near_ties", "f64", (2, 8), axis=0,
                    params=(s, np.array([0, 0])), x=x))
suite.run(cases)

# --------------------------------------------------------------------------
# dequantize
# --------------------------------------------------------------------------


def torch_dequantize(q, s, z, axis):
    t = torch.from_numpy(q)
    if axis is None:
        qt = torch._make_per_tensor_quantized_tensor(t, float(s[0]), int(z[0]))
    else:
        qt = torch._make_per_channel_quantized_tensor(
            t, torch.tensor(np.float64(s)), torch.tensor(np.int64(z)),
            axis % q.ndim)
    return qt.dequantize().numpy()


def dq_case(name, elem, shape, axis=None, dims=None, params=None):
    n = 1 if axis is None else shape[axis]
    s, z = params or draw_params(n)
    q = r.integers(-128, 128, shape).astype(np.int8)
    # (q - z) * s exactly, in float64.
    e = (q.astype(np.float64) - per_axis(np.float64(z), shape, axis)) * \
        per_axis(np.float64(s), shape, axis)
    if elem == "f32":
        te = torch_dequantize(q, s, z, axis)
        assert np.array_equal(te, e.astype(np.float32)), \
            "reference disagrees with torch: " + name
    tq, tx = T(dims or shape, "i8"), T(dims or shape, elem)
    return Case("dequantize/%s/%s" % (elem, name), [("%q", tq, q)],
                "%x = rlx.dequantize %q {} : {} -> {}".format(
                    scales_attr(s, z, axis), tq, tx),
                [("%x", tx)], [e], DQ_TOL[elem])


cases = []
for elem in ("f32", "f64", "f16", "bf16"):
    cases += [dq_case("per_tensor", elem, (4, 16)),
              dq_case("axis0", elem, (3, 10), axis=0),
              dq_case("axis-1", elem, (2, 3, 5), axis=-1)]
cases += [dq_case("axis1", "f32", (2, 4, 6), axis=1),
          dq_case("rank0", "f32", ()),
          dq_case("dyn", "f32", (5, 6), dims=(None, None)),
          dq_case("dyn_axis1", "f32", (5, 6), axis=1, dims=(None, 6)),
          dq_case("zp_ends", "f32", (2, 12), axis=0,
                  params=(np.float32([0.05, 0.02]), np.array([-128, 127])))]
suite.run(cases)

# quantize then dequantize in one function (per channel).
x = rand(r, (3, 8), "f32", -3, 3)
s, z = np.float32([0.02, 0.03, 0.05]), np.array([-5, 0, 7])
x = away_from_ties(x, per_axis(np.float64(s), x.shape, 0), "f32", -3, 3)
q = quantize_ref(x, s, z, 0)
e = (q.astype(np.float64) - per_axis(np.float64(z), x.shape, 0)) * \
    per_axis(np.float64(s), x.shape, 0)
tx = T((3, 8), "f32")
suite.run([Case("quantize_dequantize/f32/axis0", [("%x", tx, x)], """
%q = rlx.quantize %x {a} : {t}
%y = rlx.dequantize %q {a} : {tq} -> {t}
""".format(a=scales_attr(s, z, 0), t=tx, tq=T((3, 8), "i8")),
    [("%q", T((3, 8), "i8")), ("%y", tx)], [q, e], [None, DQ_TOL["f32"]])])

# --------------------------------------------------------------------------
# fake_quantize
# --------------------------------------------------------------------------


def fq_ref(x, s, z, axis, bits):
    qmin, qmax = -2 ** (bits - 1), 2 ** (bits - 1) - 1
    s64 = per_axis(np.asarray(s, np.float64), x.shape, axis)
    zz = per_axis(np.asarray(z, np.float64), x.shape, axis)
    q = np.clip(np.round(x.astype(np.float64) / s64) + zz, qmin, qmax)
    return (q - zz) * s64


def fq_case(name, elem, shape, bits=None, axis=None, dims=None, ste=None):
    b = 8 if bits is None else bits
    qmin, qmax = -2 ** (b - 1), 2 ** (b - 1) - 1
    n = 1 if axis is None else shape[axis]
    s = rlxtest.as_elem(r.uniform(0.02, 0.2, n), elem)
    z = r.integers(qmin, qmax + 1, n).astype(np.int32)
    sb = per_axis(np.float64(s), shape, axis)
    # Values spanning the range, with some beyond it (clamped).
    span = (qmax - qmin + 1) * 0.75
    x = rlxtest.as_elem(rand(r, shape, "f64", -1, 1) * span * sb, elem)
    x = away_from_ties(x, sb, elem, -span * sb.min(), span * sb.min())
    e = fq_ref(x, s, z, axis, b)
    if elem == "f32":
        tx = torch.from_numpy(x)
        if axis is None:
            te = torch.fake_quantize_per_tensor_affine(
                tx, float(s[0]), int(z[0]), qmin, qmax)
        else:
            te = torch.fake_quantize_per_channel_affine(
                tx, torch.from_numpy(s), torch.from_numpy(z), axis % x.ndim,
                qmin, qmax)
        # torch computes (q - z) * s in f32: one rounding of the exact value.
        assert np.array_equal(te.numpy(), e.astype(np.float32)), \
            "reference disagrees with torch: " + name
    if axis is None:
        s, z = s.reshape(()), z.reshape(())
    t, ts, tz = T(dims or shape, elem), T(s.shape, elem), T(z.shape, "i32")
    attrs = []
    if bits is not None:
        attrs.append("bits = %d : i64" % bits)
    if axis is not None:
        attrs.append("axis = %d : i64" % axis)
    if ste is not None:
        attrs.append('ste = "%s"' % ste)
    body = "%y = rlx.fake_quantize %x, %s, %z{} : {}, {}, {}".format(
        " {%s}" % ", ".join(attrs) if attrs else "", t, ts, tz)
    return Case("fake_quantize/%s/%s" % (elem, name),
                [("%x", t, x), ("%s", ts, s), ("%z", tz, z)], body,
                [("%y", t)], [e], DQ_TOL[elem])


cases = []
for bits in range(2, 9):
    cases += [fq_case("tensor/b%d" % bits, "f32", (4, 12), bits),
              fq_case("axis0/b%d" % bits, "f32", (3, 10), bits, axis=0),
              fq_case("axis-1/b%d" % bits, "f32", (2, 3, 5), bits, axis=-1)]
cases += [fq_case("tensor/default_bits", "f32", (5, 7)),
          fq_case("axis1/default_bits", "f32", (2, 4, 6), axis=1),
          fq_case("tensor/b16", "f32", (4, 8), 16),
          fq_case("axis0/b16", "f32", (3, 8), 16, axis=0),
          fq_case("tensor/rank0", "f32", (), 4),
          fq_case("tensor/dyn", "f32", (5, 6), 6, dims=(None, None)),
          fq_case("axis1/dyn", "f32", (5, 6), 3, axis=1, dims=(None, 6)),
          # ste only changes gradients.
          fq_case("tensor/ste_tanh", "f32", (4, 8), 4, ste="tanh"),
          fq_case("axis0/ste_clipped", "f32", (4, 8), 5, axis=0,
                  ste="clipped_identity")]
for elem in ("f64", "f16", "bf16"):
    cases += [fq_case("tensor/b8", elem, (4, 12), 8),
              fq_case("tensor/b3", elem, (4, 12), 3),
              fq_case("axis0/b4", elem, (3, 10), 4, axis=0),
              fq_case("axis-1/b8", elem, (2, 3, 5), axis=-1)]
suite.run(cases)

suite.finish()
