# RUN: %python %s
# cast between every pair of element types (float rounding to nearest even
# including exact ties, float -> int truncation toward zero, int -> int
# wrapping, i1 as 0/1, anything -> i1 as != 0, real -> complex), constants of
# every type, stop_gradient. Results must match exactly.

import numpy as np

import rlxtest
from rlxtest import FLOATS, INTS, Case, Suite
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("casts", KNOWN_FAILURES)
r = rlxtest.rng()
CPLX = "complex<f32>"
N = 48  # values per case
RANGE = {"i8": (-128, 127), "i16": (-2**15, 2**15 - 1),
         "i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1),
         "ui8": (0, 255), "ui32": (0, 2**32 - 1), "i1": (0, 1)}
BITS = {"f64": 53, "f32": 24, "f16": 11, "bf16": 8}  # significand bits
FMAX = {"f64": 1e300, "f32": 3e38, "f16": 65504.0, "bf16": 3e38}


def round_bits(x, bits):
    """float64 x rounded to `bits` significand bits, ties to even (normal
    numbers)."""
    m, e = np.frexp(x)
    return np.ldexp(np.round(np.ldexp(m, bits)), e - bits)


def to_float(x, elem):
    """Exact float64 values x rounded as an `elem` tensor holds them."""
    return round_bits(np.asarray(x, np.float64), BITS[elem])


def float_values(src, dst):
    """Values of float type src suited to a cast to dst."""
    if dst in RANGE:  # integers: stay in range after truncation
        if dst == "i1":
            x = r.choice([0.0, -0.0, 0.3, -0.3, 1e-3, 2.5, -7.0, 1.0], N)
        else:
            lo, hi = RANGE[dst]
            lo, hi = max(lo, -FMAX[src], -1e9), min(hi, FMAX[src], 1e9)
            x = r.uniform(lo, hi, N) * r.choice([1, 1e-3, 1e-6], N)
            x[:8] = [0.5, 0.99, 1.5, 2.5, -0.5, -0.99, -1.5, -2.5]
            x = to_float(x, src)
            if lo >= 0:
                x = np.abs(x)
            t = np.trunc(x)
            x = np.where((t >= lo) & (t <= hi), x, 0.75)
        return rlxtest.as_elem(x, src)
    # floats: normal numbers of both types; ties between neighbours of dst
    # where src has the bits for them
    x = np.ldexp(r.uniform(1, 2, N), r.integers(-10, 11, N)) * \
        r.choice([-1, 1], N)
    if dst != CPLX and BITS[src] > BITS[dst]:
        a = to_float(x[:16], dst)
        ulp = np.ldexp(1.0, np.frexp(a)[1] - BITS[dst])
        x[:16] = a + ulp / 2  # exactly halfway
    return rlxtest.as_elem(to_float(x, src), src)


def int_values(src, dst):
    lo, hi = RANGE[src]
    if dst in BITS:  # stay exact in float64, inside f16's range
        lo, hi = max(lo, -2**53), min(hi, 2**53)
        if dst == "f16":
            lo, hi = max(lo, -65504), min(hi, 65504)
    x = np.concatenate([[lo, hi, 0, 1, min(hi, 2**24 + 1), max(lo, -129)],
                        r.integers(lo, hi, N - 6, endpoint=True)])
    return np.asarray(x, np.int64).astype(rlxtest.NPY[src])


def expected(x, src, dst):
    v = x.astype(np.float64) if src in BITS else x.astype(np.int64)
    if dst == "i1":
        return v != 0
    if dst == CPLX:
        return (v.astype(np.float64).astype(np.float32) + 0j).astype(
            np.complex64)
    if dst in BITS:
        return to_float(v.astype(np.float64), dst)
    if src in BITS:
        v = np.trunc(v).astype(np.int64)
    return v.astype(rlxtest.NPY[dst])  # int -> int wraps


SRC = FLOATS + INTS + ["i1"]
for src in SRC:
    cases = []
    for dst in SRC + [CPLX]:
        if dst == src:
            continue
        if src == "i1":
            x = r.random(N) < 0.5
        elif src in BITS:
            x = float_values(src, dst)
        else:
            x = int_values(src, dst)
        ts, td = T((N,), src), T((N,), dst)
        cases.append(Case("cast/%s->%s" % (src, dst), [("%x", ts, x)],
                          "%y = rlx.cast %x : {} -> {}".format(ts, td),
                          [("%y", td)], [expected(x, src, dst)], (0, 0)))
    suite.run(cases)

# Same-width sign changes of a computed value (x + x wraps).
cases = []
for src, dst in (("i8", "ui8"), ("i32", "ui32"), ("ui8", "i8"),
                 ("ui32", "i32")):
    x = int_values(src, dst)
    ts, td = T((N,), src), T((N,), dst)
    cases.append(Case("cast/%s->%s/chained" % (src, dst), [("%x", ts, x)], """
        %a = rlx.add %x, %x : {0}
        %y = rlx.cast %a : {0} -> {1}""".format(ts, td), [("%y", td)],
        [(x.astype(np.int64) * 2).astype(x.dtype).astype(rlxtest.NPY[dst])],
        (0, 0)))
suite.run(cases)

# A dynamic shape, a rank-0 tensor, a chain f32 -> bf16 -> f32.
x = rlxtest.as_elem(r.uniform(-100, 100, (3, 5)), "f32")
suite.run([
    Case("cast/dyn", [("%x", "tensor<?x5xf32>", x)],
         "%y = rlx.cast %x : tensor<?x5xf32> -> tensor<?x5xi32>",
         [("%y", "tensor<?x5xi32>")], [np.trunc(x).astype(np.int32)], (0, 0)),
    Case("cast/rank0", [("%x", "tensor<f64>", x[0, :1].reshape(()).astype(
        np.float64))], "%y = rlx.cast %x : tensor<f64> -> tensor<f16>",
        [("%y", "tensor<f16>")], [to_float(x[0, 0], "f16")], (0, 0)),
    Case("cast/f32_bf16_f32", [("%x", "tensor<3x5xf32>", x)], """
        %h = rlx.cast %x : tensor<3x5xf32> -> tensor<3x5xbf16>
        %y = rlx.cast %h : tensor<3x5xbf16> -> tensor<3x5xf32>""",
         [("%y", "tensor<3x5xf32>")], [to_float(x, "bf16")], (0, 0)),
])

# Constants of every type, dense and splat, added to an argument; and
# returned as they are (constant/direct).
LIT = {"i1": ("[true, false, true]", "true", np.array([1, 0, 1], bool)),
       CPLX: ("[(1.5, -2.0), (0.0, 3.25), (-1.0, 0.5)]", "(0.5, 1.0)",
              np.array([1.5 - 2j, 3.25j, -1 + 0.5j]))}
cases = []
for e in FLOATS + INTS + ["i1", CPLX]:
    if e in LIT:
        dense, splat, vals = LIT[e]
        svals = {"i1": True, CPLX: 0.5 + 1j}[e]
    else:
        vals = np.array([-3, 100, 7] if e not in ("ui8", "ui32") else
                        [200, 3, 255], np.float64)
        if e in BITS:
            vals = np.array([1.5, -2.25, 1024.0])
        dense = "[%s]" % ", ".join(("%.2f" if e in BITS else "%d") % v
                                   for v in vals)
        splat, svals = ("2.5", 2.5) if e in BITS else ("5", 5)
    t = T((3,), e)
    x = rlxtest.rand(r, (3,), e, 0, 2) if e != "i1" else np.array(
        [True, False, False])
    if e in INTS or e == "i1":
        vals = vals.astype(rlxtest.NPY[e])
    op = "rlx.cmp ne," if e == "i1" else "rlx.add"
    comb = (lambda a, b: a != b) if e == "i1" else (
        lambda a, b: a.astype(rlxtest.NPY[e]) + b)
    ref = lambda c: comb(np.asarray(c), x)
    cases.append(Case("constant/" + e, [("%x", t, x)], """
        %c = rlx.constant dense<{d}> : {t}
        %s = rlx.constant dense<{s}> : {t}
        %y = {op} %c, %x : {t}
        %z = {op} %s, %x : {t}""".format(d=dense, s=splat, t=t, op=op),
        [("%y", T((3,), "i1" if e == "i1" else e)),
         ("%z", T((3,), "i1" if e == "i1" else e))],
        [ref(vals), ref(np.full(3, svals))]))
cases.append(Case("constant/direct", [], """
    %c = rlx.constant dense<[1.5, 2.0]> : tensor<2xf32>
    %d = rlx.constant dense<-3> : tensor<3xi8>""",
    [("%c", "tensor<2xf32>"), ("%d", "tensor<3xi8>")],
    [np.array([1.5, 2.0]), np.full(3, -3, np.int8)], (0, 0)))
suite.run(cases)

# Four values, each returned twice (results 4..7 repeat 0..3).
x = rlxtest.rand(r, (256,), "f32")
t = "tensor<256xf32>"
xd = x.astype(np.float64)
twice = Case("return_twice", [("%x", t, x)], """
    %a = rlx.exp %x : {0}
    %b = rlx.neg %x : {0}
    %c = rlx.sin %x : {0}
    %d = rlx.cos %x : {0}""".format(t),
    [(n, t) for n in ("%a", "%b", "%c", "%d")] * 2,
    [np.exp(xd), -xd, np.sin(xd), np.cos(xd)] * 2)

# stop_gradient is the identity: consumed by another op, and returned as it
# is (then the result is the argument itself).
cases = []
for e in FLOATS + INTS + ["i1", CPLX]:
    t = T((2, 3), e)
    x = rlxtest.rand(r, (2, 3), e, -50, 50)
    cases.append(Case("stop_gradient/" + e, [("%x", t, x)], """
        %s = rlx.stop_gradient %x : {t}
        %y = rlx.cmp eq, %s, %x : {t}""".format(t=t),
        [("%y", T((2, 3), "i1"))], [np.ones((2, 3), bool)]))
x = rlxtest.rand(r, (4,), "f32")
cases += [Case("stop_gradient/direct", [("%x", "tensor<4xf32>", x)],
               "%s = rlx.stop_gradient %x : tensor<4xf32>",
               [("%s", "tensor<4xf32>")], [x], (0, 0)),
          Case("return_argument", [("%x", "tensor<4xf32>", x)], "",
               [("%x", "tensor<4xf32>")], [x], (0, 0)),
          twice]
suite.run(cases)

suite.finish()
