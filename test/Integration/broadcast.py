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

suite.finish()
