# RUN: %python %s
# Binary ops (add, sub, mul, div, max, min, pow) on every element type they
# accept, with NumPy broadcasting: size-1 dims, rank differences, rank-0
# operands and dynamic dims.

import numpy as np

import rlxtest
from rlxtest import FLOATS, INTS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("broadcast", KNOWN_FAILURES)
r = rlxtest.rng()
CPLX = "complex<f32>"


def int_div(a, b):
    """Integer division truncating toward zero."""
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def ref(op, a, b, elem):
    if elem in INTS:
        a, b = a.astype(np.int64), b.astype(np.int64)
        out = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
               "div": int_div, "max": np.maximum, "min": np.minimum}[op](a, b)
        return out.astype(rlxtest.NPY[elem])  # wraps
    wide = np.complex128 if elem == CPLX else np.float64
    a, b = a.astype(wide), b.astype(wide)
    return {"add": np.add, "sub": np.subtract, "mul": np.multiply,
            "div": np.divide, "max": np.maximum, "min": np.minimum,
            "pow": np.power}[op](a, b)


def operands(op, elem, sa, sb):
    if elem in INTS:
        # Wide enough to wrap i8/ui8 add/mul; ui8/ui32 above the sign bit.
        lo, hi = {"i8": (-128, 128), "ui8": (0, 256),
                  "ui32": (0, 2**32)}.get(elem, (-1000, 1000))
        if elem == "ui32" and op == "mul":
            hi = 2**20
        a = rand(r, sa, elem, lo, hi)
        b = rand(r, sb, elem, lo, hi, nonzero=(op == "div"))
        if op == "div" and elem in ("i8", "i16", "i32", "i64"):
            b = rand(r, sb, elem, -12, 12, nonzero=True)
            a = np.where(a == np.iinfo(a.dtype).min, a + 1, a).astype(a.dtype)
        return a, b
    if op == "pow":  # positive base, any exponent
        return rand(r, sa, elem, 0.2, 3), rand(r, sb, elem, -2, 2)
    return (rand(r, sa, elem, -3, 3),
            rand(r, sb, elem, -3, 3, nonzero=(op == "div")))


def case(op, elem, sa, sb, da=None, db=None, tag=""):
    """op on operands of shapes sa, sb (types da, db: dims with None)."""
    a, b = operands(op, elem, sa, sb)
    ta, tb = T(da or sa, elem), T(db or sb, elem)
    tr = T(rlxtest.broadcast_dims(da or sa, db or sb), elem)
    types = ta if ta == tb else "%s, %s" % (ta, tb)
    name = "%s/%s/%s" % (op, elem, tag or "x".join(map(str, sa)) + "_" +
                         "x".join(map(str, sb)))
    tol = None
    if op == "pow" and elem in ("f16", "bf16"):
        tol = (2e-2, 1e-2)
    return Case(name, [("%a", ta, a), ("%b", tb, b)],
                "%c = rlx.{} %a, %b : {}".format(op, types), [("%c", tr)],
                [ref(op, a, b, elem)], tol)


OPS = {"add": FLOATS + INTS + [CPLX], "sub": FLOATS + INTS + [CPLX],
       "mul": FLOATS + INTS + [CPLX], "div": FLOATS + INTS + [CPLX],
       "max": FLOATS + INTS, "min": FLOATS + INTS, "pow": FLOATS}

# Every op and type with equal shapes and with [4,1] against [1,6].
for op, elems in OPS.items():
    suite.run([case(op, e, (3, 5), (3, 5)) for e in elems] +
              [case(op, e, (4, 1), (1, 6)) for e in elems])

# More broadcasting patterns, f32 and i32.
SHAPES = [((2, 3, 4), (4,)), ((4,), (2, 3, 4)), ((2, 1, 4), (3, 1)),
          ((), (3, 4)), ((3, 4), ()), ((1,), (2, 3)), ((2, 3, 1, 5), (4, 1)),
          ((1, 1), (1, 1)), ((5, 1, 1), (1, 1, 7))]
for elem in ("f32", "i32"):
    suite.run([case(op, elem, sa, sb) for op in ("add", "sub", "div", "max")
               for sa, sb in SHAPES])

# Dynamic dims: [?,8] + [8], [?,8] - [?,8], [?,1] * [1,6], [2,?] / [2,1].
suite.run([
    case("add", "f32", (5, 8), (8,), da=(None, 8), tag="dyn_5x8_8"),
    case("sub", "f32", (5, 8), (5, 8), da=(None, 8), db=(None, 8),
         tag="dyn_both"),
    case("mul", "f32", (5, 1), (1, 6), da=(None, 1), tag="dyn_5x1_1x6"),
    case("div", "f32", (2, 7), (2, 1), da=(2, None), tag="dyn_2x7_2x1"),
    case("max", "i64", (3, 9), (9,), da=(None, None), tag="dyn_all"),
])

# max/min propagate NaN (torch.maximum / torch.minimum).
a = rand(r, (2, 6), "f32")
b = rand(r, (2, 6), "f32")
a[0, ::2] = np.nan
b[1, 1::2] = np.nan
t = T((2, 6), "f32")
suite.run([Case(op + "/nan", [("%a", t, a), ("%b", t, b)],
                "%c = rlx.{} %a, %b : {}".format(op, t), [("%c", t)],
                [f(a, b)])
           for op, f in (("max", np.maximum), ("min", np.minimum))])

# Chains that elementwise fusion and loop ordering rewrite: a broadcast
# intermediate used several times and by a reduction, a hand-written softmax,
# an elementwise op on a transposed operand, a reduction feeding a broadcast.
x, b = rand(r, (4, 6), "f32"), rand(r, (6,), "f32")
xt = rand(r, (6, 4), "f32")
x3 = rand(r, (2, 3, 5), "f32")
xd, bd = x.astype(np.float64), b.astype(np.float64)
h = xd + bd
sg = 1 / (1 + np.exp(-h))
y = h * sg
# The divisor is a sum of sigmoids (in (0, 6)): a sum of y could be near 0
# and make y / s too ill-conditioned for a float32 tolerance.
s = sg.sum(1, keepdims=True)
ex = np.exp(xd - xd.max(1, keepdims=True))
m3 = x3.astype(np.float64).mean((0, 2), keepdims=True)
suite.run([Case("chain/f32", [("%x", "tensor<4x6xf32>", x),
                              ("%b", "tensor<6xf32>", b),
                              ("%xt", "tensor<6x4xf32>", xt),
                              ("%x3", "tensor<2x3x5xf32>", x3)], """
    %h = rlx.add %x, %b : tensor<4x6xf32>, tensor<6xf32>
    %sg = rlx.sigmoid %h : tensor<4x6xf32>
    %y = rlx.mul %h, %sg : tensor<4x6xf32>
    %s = rlx.reduce sum %sg axes = [1] keepdim true : tensor<4x6xf32>
    %w = rlx.div %y, %s : tensor<4x6xf32>, tensor<4x1xf32>
    %mx = rlx.reduce max %x axes = [1] keepdim true : tensor<4x6xf32>
    %d = rlx.sub %x, %mx : tensor<4x6xf32>, tensor<4x1xf32>
    %e = rlx.exp %d : tensor<4x6xf32>
    %se = rlx.reduce sum %e axes = [-1] keepdim true : tensor<4x6xf32>
    %p = rlx.div %e, %se : tensor<4x6xf32>, tensor<4x1xf32>
    %t = rlx.transpose %xt [1, 0] : tensor<6x4xf32>
    %u = rlx.mul %t, %x : tensor<4x6xf32>
    %v = rlx.add %u, %y : tensor<4x6xf32>
    %m = rlx.reduce mean %x3 axes = [0, 2] keepdim true : tensor<2x3x5xf32>
    %c = rlx.sub %x3, %m : tensor<2x3x5xf32>, tensor<1x3x1xf32>
    %q = rlx.mul %c, %c : tensor<2x3x5xf32>""",
                [("%w", "tensor<4x6xf32>"), ("%p", "tensor<4x6xf32>"),
                 ("%v", "tensor<4x6xf32>"), ("%s", "tensor<4x1xf32>"),
                 ("%q", "tensor<2x3x5xf32>")],
                [y / s, ex / ex.sum(1, keepdims=True),
                 xt.T.astype(np.float64) * xd + y, s,
                 (x3 - m3) ** 2], (2e-5, 2e-5))])

# pow: negative bases with integer exponents (torch.pow(-2., 3.) = -8),
# 0^0 = 1, 0^-1 = inf, 1^nan = 1, nan^0 = 1, negative base ^ fraction = nan.
a = np.array([-2.0, -2.0, -3.0, -0.5, 0.0, 0.0, 0.0, 1.0, np.nan, -2.0, 4.0],
             np.float32)
b = np.array([3.0, 2.0, -1.0, -2.0, 0.0, -1.0, 2.5, np.nan, 0.0, 0.5, 0.5],
             np.float32)
t = T(a.shape, "f32")
with np.errstate(all="ignore"):
    e = np.power(a.astype(np.float64), b.astype(np.float64))
suite.run([Case("pow/f32/special", [("%a", t, a), ("%b", t, b)],
                "%c = rlx.pow %a, %b : " + t, [("%c", t)], [e])])

suite.finish()
