# RUN: %python %s
# Elementwise unary ops, cmp, where, fma and elementwise_region on every
# element type they accept, against float64 NumPy references.

import math

import numpy as np

import rlxtest
from rlxtest import FLOATS, SIGNED, INTS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("elementwise", KNOWN_FAILURES)
r = rlxtest.rng()
erf = np.vectorize(math.erf)


def half_even_inputs(x, elem):
    """Puts exact halves (k + 0.5) in a third of x, for round."""
    k = r.integers(-5, 5, x.shape) + 0.5
    return rlxtest.as_elem(np.where(r.random(x.shape) < 0.33, k, x), elem)


# name -> (reference, input range, op text after the operand)
UNARY = {
    "gelu": (lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))), (-4, 4), ""),
    "gelu_tanh": (lambda x: 0.5 * x * (1 + np.tanh(
        math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))), (-4, 4),
        ' {approximate = "tanh"}'),
    "silu": (lambda x: x / (1 + np.exp(-x)), (-6, 6), ""),
    "relu": (lambda x: np.maximum(x, 0), (-3, 3), ""),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-8, 8), ""),
    "tanh": (np.tanh, (-4, 4), ""),
    "exp": (np.exp, (-4, 4), ""),
    "log": (np.log, (0.05, 8), ""),
    "sqrt": (np.sqrt, (0.01, 9), ""),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.05, 9), ""),
    "neg": (np.negative, (-3, 3), ""),
    "abs": (np.abs, (-3, 3), ""),
    "sin": (np.sin, (-6, 6), ""),
    "cos": (np.cos, (-6, 6), ""),
    "tan": (np.tan, (-1.4, 1.4), ""),
    "atan": (np.arctan, (-6, 6), ""),
    "round": (np.round, (-6, 6), ""),  # np.round: halves to even
}


def unary_case(name, elem, shape, dyn=False):
    ref, (lo, hi), attr = UNARY[name]
    if elem in INTS:
        lo, hi = -100, 100
    x = rand(r, shape, elem, lo, hi)
    if name == "round":
        x = half_even_inputs(x, elem)
    ty = T([None] + list(shape[1:]) if dyn else shape, elem)
    op = "gelu" if name.startswith("gelu") else name
    expected = ref(x.astype(np.float64))
    if elem in INTS:
        expected = expected.astype(x.dtype)
    tol = (0, 0) if name == "round" else None
    return Case("%s/%s%s" % (name, elem, "/dyn" if dyn else ""),
                [("%x", ty, x)], "%y = rlx.{} %x{} : {}".format(op, attr, ty),
                [("%y", ty)], [expected], tol)


# Every unary op on every float type; f32 also with a dynamic dim.
for elem in FLOATS:
    suite.run([unary_case(n, elem, (3, 7)) for n in UNARY])
suite.run([unary_case(n, "f32", (5, 8), dyn=True) for n in UNARY])

# Special values: saturation of sigmoid/silu/tanh/gelu far out, exp
# overflow to inf, log(0) = -inf, NaN from log/sqrt of negatives, rsqrt(0)
# = inf, signed zeros, NaN propagation. The reference is rounded to the
# element type (so overflow is inf there too).
SPECIAL = [-100.0, -50.0, -20.0, -0.0, 0.0, 20.0, 50.0, 100.0, np.nan]
cases = []
with np.errstate(all="ignore"):
    for elem in ("f32", "f16"):
        x = rlxtest.as_elem(np.array(SPECIAL), elem)
        pos = rlxtest.as_elem(np.array([0.0, -0.0, -1.0, 1e-30, 1e30, np.inf,
                                        -np.inf, np.nan, 4.0]), elem)
        tx = T(x.shape, elem)
        for name in UNARY:
            ref, _, attr = UNARY[name]
            inp = pos if name in ("log", "sqrt", "rsqrt") else x
            e = rlxtest.as_elem(ref(inp.astype(np.float64)), elem)
            cases.append(Case(
                "%s/%s/special" % (name, elem), [("%x", tx, inp)],
                "%y = rlx.{} %x{} : {}".format(name.split("_")[0], attr, tx),
                [("%y", tx)], [e.astype(np.float64)],
                (0, 0) if name == "round" else None))
suite.run(cases)

# f32 exp over its whole range (rlx-cpu-approximate-math's expansion):
# from where it flushes to 0 to where it overflows to inf, the ends, and an
# odd length for the vector loop's tail; within 2e-7 relative of float64
# where the result is a normal float (the expansion: 1.14e-7 at most over
# 14M points), 0 below, inf above. Most of its error is just below
# overflow, where n stops at 127 and r reaches 0.7: 1024 points there
# (Cephes' polynomial in the expansion's place exceeds 2e-7 on about 50 of
# them).
with np.errstate(over="ignore"):
    x = np.concatenate([r.uniform(-87.3, 88.7, 4093),
                        r.uniform(88.3, 88.72, 1024),
                        [-np.inf, np.inf, -104.0, -88.0, 88.72, 89.0,
                         np.nan]]).astype(np.float32)
    e = np.exp(x.astype(np.float64))
    e = np.where(e < np.finfo(np.float32).tiny, 0,
                 np.where(e > np.finfo(np.float32).max, np.inf, e))
tx = T(x.shape, "f32")
suite.run([Case("exp/f32/range", [("%x", tx, x)], "%y = rlx.exp %x : " + tx,
                [("%y", tx)], [e], (2e-7, 0))])

# f32 erf over its range (rlx-cpu-approximate-math's rational expansion,
# GELU's erf), through an elementwise region: uniform points, 1024 more
# where erf nears +-1 (the expansion's largest errors, 3.2e-7 relative at
# most over 550K points), and the special values; within 4e-7 relative of
# float64 (about 6.7 ulp near 1), exact at +-0, +-1 beyond the clamp, NaN
# kept.
x = np.concatenate([r.uniform(-6, 6, 4093), r.uniform(2, 4, 512),
                    r.uniform(-4, -2, 512),
                    [-np.inf, np.inf, -0.0, 0.0, 4.0, -10.0, np.nan]]
                   ).astype(np.float32)
e = np.array([math.erf(v) if not np.isnan(v) else np.nan
              for v in x.astype(np.float64)])
tx = T(x.shape, "f32")
suite.run([Case("erf/f32/range", [("%x", tx, x)], """
        %y = rlx.elementwise_region ins(%x : {t}) -> {t} {{
        ^bb0(%a: f32):
          %e = math.erf %a : f32
          rlx.yield %e : f32
        }}""".format(t=tx), [("%y", tx)], [e], (4e-7, 0))])

# relu, abs, neg on signed integers.
suite.run([unary_case(n, e, (3, 7)) for e in SIGNED
           for n in ("relu", "abs", "neg")])

# exp, log, neg on complex<f32>.
cases = []
for name, ref in (("exp", np.exp), ("log", np.log), ("neg", np.negative)):
    z = rand(r, (3, 5), "complex<f32>", -2, 2)
    ty = T((3, 5), "complex<f32>")
    cases.append(Case(name + "/complex", [("%x", ty, z)],
                      "%y = rlx.{} %x : {}".format(name, ty), [("%y", ty)],
                      [ref(z.astype(np.complex128))]))
suite.run(cases)

# cmp: broadcasting [4,6] against [6], many ties; every predicate on the
# types with a distinct ordering (float, bf16, signed, unsigned, i1), eq and
# lt on the others, eq and ne on complex.
PREDS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
         "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def cmp_inputs(elem, shape):
    if elem == "i1":
        return rand(r, shape, "i1")
    if elem == "ui8":  # across the sign bit
        return r.integers(125, 131, shape).astype(np.uint8)
    if elem == "ui32":
        return r.integers(2**31 - 3, 2**31 + 3, shape).astype(np.uint32)
    if elem == "complex<f32>":
        return (r.integers(0, 2, shape) + 1j * r.integers(0, 2, shape)
                ).astype(np.complex64)
    return rlxtest.as_elem(r.integers(-2, 2, shape), elem)


for elem in FLOATS + INTS + ["i1", "complex<f32>"]:
    x, y = cmp_inputs(elem, (4, 6)), cmp_inputs(elem, (6,))
    tx, ty = T((4, 6), elem), T((6,), elem)
    preds = {"complex<f32>": ("eq", "ne"), "f64": ("eq", "lt"),
             "f16": ("eq", "lt"), "i16": ("eq", "lt"), "i32": ("eq", "lt"),
             "i64": ("eq", "lt")}.get(elem, PREDS)
    suite.run([Case("cmp_%s/%s" % (p, elem),
                    [("%x", tx, x), ("%y", ty, y)],
                    "%m = rlx.cmp {}, %x, %y : {}, {}".format(p, tx, ty),
                    [("%m", T((4, 6), "i1"))], [PREDS[p](x, y)])
               for p in preds])

# cmp with NaN: ordered, so only ne holds.
x = rand(r, (2, 8), "f32", -2, 2)
x[:, ::3] = np.nan
y = x.copy()
y[0] = np.nan
tx = T((2, 8), "f32")
with np.errstate(invalid="ignore"):
    suite.run([Case("cmp_%s/nan" % p, [("%x", tx, x), ("%y", tx, y)],
                    "%m = rlx.cmp {}, %x, %y : {}".format(p, tx),
                    [("%m", T((2, 8), "i1"))], [PREDS[p](x, y)])
               for p in PREDS])

# where: condition [4,1], on_true [4,6], on_false scalar; and a rank-3
# condition against rank-1 / rank-2 values.
cases = []
for elem in FLOATS + INTS + ["i1", "complex<f32>"]:
    c, a, b = rand(r, (4, 1), "i1"), rand(r, (4, 6), elem, 1, 9), \
        rand(r, (), elem, -9, -1)
    tc, ta, tb = T((4, 1), "i1"), T((4, 6), elem), T((), elem)
    cases.append(Case("where/" + elem, [("%c", tc, c), ("%a", ta, a),
                                        ("%b", tb, b)],
                      "%y = rlx.where %c, %a, %b : {}, {}, {}".format(
                          tc, ta, tb),
                      [("%y", ta)], [np.where(c, a, b)]))
c, a, b = rand(r, (2, 4, 6), "i1"), rand(r, (6,), "f32"), rand(r, (4, 1), "f32")
tc, ta, tb = T((2, 4, 6), "i1"), T((6,), "f32"), T((4, 1), "f32")
cases.append(Case("where/rank3_cond", [("%c", tc, c), ("%a", ta, a),
                                       ("%b", tb, b)],
                  "%y = rlx.where %c, %a, %b : {}, {}, {}".format(tc, ta, tb),
                  [("%y", T((2, 4, 6), "f32"))], [np.where(c, a, b)]))
suite.run(cases)

# fma: a [4,6] * b [6] + c [4,1] on every numeric type (integers wrap).
cases = []
for elem in FLOATS + INTS + ["complex<f32>"]:
    lo, hi = (0, 60) if elem in ("ui8", "ui32") else (-30, 30)
    if elem in FLOATS or elem.startswith("complex"):
        lo, hi = -2, 2
    a, b, c = (rand(r, s, elem, lo, hi) for s in ((4, 6), (6,), (4, 1)))
    ta, tb, tc = T((4, 6), elem), T((6,), elem), T((4, 1), elem)
    if elem in INTS:
        ref = (a.astype(np.int64) * b + c).astype(a.dtype)
    elif elem.startswith("complex"):
        ref = a.astype(np.complex128) * b + c
    else:
        ref = a.astype(np.float64) * b + c
    # f16/bf16: allow a rounded product before the add (cancellation).
    tol = {"f16": (1e-2, 5e-3), "bf16": (1e-2, 4e-2)}.get(elem)
    cases.append(Case("fma/" + elem, [("%a", ta, a), ("%b", tb, b),
                                      ("%c", tc, c)],
                      "%y = rlx.fma %a, %b, %c : {}, {}, {}".format(
                          ta, tb, tc),
                      [("%y", ta)], [ref], tol))
suite.run(cases)

# elementwise_region: one input; broadcasting inputs with two results of
# different types; a dynamic integer input with a scalar f16.
x, b, m = rand(r, (4, 8), "f32"), rand(r, (8,), "f32"), rand(r, (4, 1), "i1")
xi, s = rand(r, (5, 8), "i32", -50, 50), rand(r, (), "f16", 0.5, 2)
sel = np.where(m, x.astype(np.float64) + b, x)
suite.run([
    Case("region/exp", [("%x", "tensor<4x8xf32>", x)], """
        %r = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
        ^bb0(%a: f32):
          %e = math.exp %a : f32
          rlx.yield %e : f32
        }""", [("%r", "tensor<4x8xf32>")], [np.exp(x.astype(np.float64))]),
    Case("region/multi", [("%x", "tensor<4x8xf32>", x),
                          ("%b", "tensor<8xf32>", b),
                          ("%m", "tensor<4x1xi1>", m)], """
        %r:2 = rlx.elementwise_region ins(%x, %b, %m : tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xi1>)
            -> tensor<4x8xf32>, tensor<4x8xi1> {
        ^bb0(%a: f32, %c: f32, %p: i1):
          %s = arith.addf %a, %c : f32
          %sel = arith.select %p, %s, %a : f32
          %gt = arith.cmpf ogt, %sel, %c : f32
          rlx.yield %sel, %gt : f32, i1
        }""", [("%r#0", "tensor<4x8xf32>"), ("%r#1", "tensor<4x8xi1>")],
         [sel, sel.astype(np.float32) > b]),
    Case("region/dyn_int_f16", [("%x", "tensor<?x8xi32>", xi),
                                ("%s", "tensor<f16>", s)], """
        %r = rlx.elementwise_region ins(%x, %s : tensor<?x8xi32>, tensor<f16>) -> tensor<?x8xf16> {
        ^bb0(%a: i32, %b: f16):
          %f = arith.sitofp %a : i32 to f16
          %m = arith.mulf %f, %b : f16
          rlx.yield %m : f16
        }""", [("%r", "tensor<?x8xf16>")],
         [xi.astype(np.float64) * s.astype(np.float64)]),
])

suite.finish()
