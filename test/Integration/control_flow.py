# RUN: %python %s
# rlx.if (both branches, several results of different types, a predicate
# computed in the graph, nesting, values from above, dynamic shapes),
# rlx.while (with max_iterations reached or not, without it, zero trips,
# several carried values) against a Python loop, rlx.scan (carry and
# stacked outputs, reverse with JAX's semantics: step t still writes ys[t],
# several xs, no init, `length` without xs, an rlx.if in the body, a dynamic
# length) against a Python loop in float64, and rlx.custom_fn (its fwd
# region; vjp / jvp regions are ignored when running).

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("control_flow", KNOWN_FAILURES)
r = rlxtest.rng()
TOL = (2e-6, 2e-6)  # f32: a few roundings per step
SCAN_TOL = (1e-5, 1e-5)  # f32 recurrences over several steps


def f64(x):
    return np.asarray(x, np.float64)


# --------------------------------------------------------------------------
# rlx.if
# --------------------------------------------------------------------------

IF_BODY = """
%r:2 = rlx.if %p : tensor<i1> -> tensor<3x4xf32>, tensor<2xi32> {
  %m = rlx.mul %x, %y : tensor<3x4xf32>
  %e = rlx.exp %m : tensor<3x4xf32>
  rlx.yield %e, %i : tensor<3x4xf32>, tensor<2xi32>
} else {
  %d = rlx.sub %x, %y : tensor<3x4xf32>
  %j = rlx.add %i, %i : tensor<2xi32>
  rlx.yield %d, %j : tensor<3x4xf32>, tensor<2xi32>
}
"""


def if_case(pred):
    x, y = rand(r, (3, 4), "f32", -1, 1), rand(r, (3, 4), "f32", -1, 1)
    i = rand(r, (2,), "i32", -1000, 1000, nonzero=True)
    p = np.array(pred)
    if pred:
        e = [np.exp(f64(x) * y), i]
    else:
        e = [f64(x) - y, 2 * i]
    tf = T((3, 4), "f32")
    return Case("if/%s" % ("then" if pred else "else"),
                [("%p", T((), "i1"), p), ("%x", tf, x), ("%y", tf, y),
                 ("%i", T((2,), "i32"), i)], IF_BODY,
                [("%r#0", tf), ("%r#1", T((2,), "i32"))], e, [TOL, None])


# The predicate from the data: sum(x) > 0 picks softplus-like or square.
COMPUTED_IF = """
%s = rlx.reduce sum %x axes = [0] : tensor<5xf32>
%z = rlx.constant dense<0.0> : tensor<f32>
%p = rlx.cmp gt, %s, %z : tensor<f32>
%r = rlx.if %p : tensor<i1> -> tensor<5xf32> {
  %e = rlx.exp %x : tensor<5xf32>
  %t = rlx.tanh %e : tensor<5xf32>
  rlx.yield %t : tensor<5xf32>
} else {
  %q = rlx.mul %x, %x : tensor<5xf32>
  rlx.yield %q : tensor<5xf32>
}
"""


def computed_if_case(positive):
    x = rand(r, (5,), "f32", 0.1, 1.0) * (1 if positive else -1)
    x[r.integers(0, 5)] *= -0.1  # mixed signs, the sum keeps its sign
    e = np.tanh(np.exp(f64(x))) if positive else f64(x) ** 2
    return Case("if/computed_pred/%s" % ("then" if positive else "else"),
                [("%x", T((5,), "f32"), x)], COMPUTED_IF,
                [("%r", T((5,), "f32"))], [e], TOL)


# Nested ifs: four paths by (p, q).
NESTED_IF = """
%r = rlx.if %p : tensor<i1> -> tensor<4xf32> {
  %a = rlx.if %q : tensor<i1> -> tensor<4xf32> {
    %s = rlx.add %x, %y : tensor<4xf32>
    rlx.yield %s : tensor<4xf32>
  } else {
    %s = rlx.sub %x, %y : tensor<4xf32>
    rlx.yield %s : tensor<4xf32>
  }
  rlx.yield %a : tensor<4xf32>
} else {
  %b = rlx.if %q : tensor<i1> -> tensor<4xf32> {
    %s = rlx.mul %x, %y : tensor<4xf32>
    rlx.yield %s : tensor<4xf32>
  } else {
    %s = rlx.max %x, %y : tensor<4xf32>
    rlx.yield %s : tensor<4xf32>
  }
  rlx.yield %b : tensor<4xf32>
}
"""


def nested_if_case(p, q):
    x, y = rand(r, (4,), "f32", -2, 2), rand(r, (4,), "f32", -2, 2)
    x64 = f64(x)
    e = {(1, 1): x64 + y, (1, 0): x64 - y, (0, 1): x64 * y,
         (0, 0): np.maximum(x64, y)}[(p, q)]
    t = T((4,), "f32")
    return Case("if/nested/%d%d" % (p, q),
                [("%p", T((), "i1"), np.array(bool(p))),
                 ("%q", T((), "i1"), np.array(bool(q))), ("%x", t, x),
                 ("%y", t, y)], NESTED_IF, [("%r", t)], [e], TOL)


DYN_IF = """
%r = rlx.if %p : tensor<i1> -> tensor<?x3xf32> {
  %n = rlx.neg %x : tensor<?x3xf32>
  rlx.yield %n : tensor<?x3xf32>
} else {
  %a = rlx.abs %x : tensor<?x3xf32>
  %s = rlx.sqrt %a : tensor<?x3xf32>
  rlx.yield %s : tensor<?x3xf32>
}
"""


def dyn_if_case(pred, rows):
    x = rand(r, (rows, 3), "f32", -2, 2, nonzero=True)
    e = -f64(x) if pred else np.sqrt(np.abs(f64(x)))
    t = T((None, 3), "f32")
    return Case("if/dyn/%s" % ("then" if pred else "else"),
                [("%p", T((), "i1"), np.array(pred)), ("%x", t, x)], DYN_IF,
                [("%r", t)], [e], TOL)


suite.run([if_case(True), if_case(False), computed_if_case(True),
           computed_if_case(False)] +
          [nested_if_case(p, q) for p in (0, 1) for q in (0, 1)] +
          [dyn_if_case(True, 4), dyn_if_case(False, 6)])

# --------------------------------------------------------------------------
# rlx.while
# --------------------------------------------------------------------------


def while_loop(cond, body, state, bound=None):
    """Python reference: the loop also stops after `bound` trips."""
    trips = 0
    while cond(*state) and (bound is None or trips < bound):
        state = body(*state)
        trips += 1
    return state


# x <- 2 x + c while x < limit (bounded or not).
DOUBLING = """
%r = rlx.while (%x) : (tensor<f32>){bound} cond {{
^bb0(%a: tensor<f32>):
  %p = rlx.cmp lt, %a, %limit : tensor<f32>
  rlx.yield %p : tensor<i1>
}} do {{
^bb0(%a: tensor<f32>):
  %d = rlx.add %a, %a : tensor<f32>
  %n = rlx.add %d, %c : tensor<f32>
  rlx.yield %n : tensor<f32>
}}
"""


def doubling_case(name, x0, limit, bound=None):
    x = np.array(x0, np.float32)
    lim = np.array(limit, np.float32)
    c = np.array(0.125, np.float32)  # every value stays exact in f32
    (e,) = while_loop(lambda a: a < lim, lambda a: (2 * a + c,), (f64(x),),
                      bound)
    t = T((), "f32")
    return Case("while/doubling/" + name,
                [("%x", t, x), ("%limit", t, lim), ("%c", t, c)],
                DOUBLING.format(bound="" if bound is None else
                                " {max_iterations = %d}" % bound),
                [("%r", t)], [np.asarray(e)], TOL)


# A counter and a vector: v <- tanh(v * w + u) while i < n.
COUNTED = """
%one = rlx.constant dense<1> : tensor<i64>
%r:2 = rlx.while (%i0, %v0) : (tensor<i64>, tensor<4xf32>){bound} cond {{
^bb0(%i: tensor<i64>, %v: tensor<4xf32>):
  %p = rlx.cmp lt, %i, %n : tensor<i64>
  rlx.yield %p : tensor<i1>
}} do {{
^bb0(%i: tensor<i64>, %v: tensor<4xf32>):
  %j = rlx.add %i, %one : tensor<i64>
  %m = rlx.mul %v, %w : tensor<4xf32>
  %s = rlx.add %m, %u : tensor<4xf32>
  %t = rlx.tanh %s : tensor<4xf32>
  rlx.yield %j, %t : tensor<i64>, tensor<4xf32>
}}
"""


def counted_case(name, i0, n, bound=None):
    v0, w, u = (rand(r, (4,), "f32", -1, 1) for _ in range(3))
    ti, tv = T((), "i64"), T((4,), "f32")
    i0, n = np.array(i0, np.int64), np.array(n, np.int64)
    ei, ev = while_loop(lambda i, v: i < n,
                        lambda i, v: (i + 1, np.tanh(v * w + u)),
                        (i0, f64(v0)), bound)
    return Case("while/counted/" + name,
                [("%i0", ti, i0), ("%v0", tv, v0), ("%n", ti, n),
                 ("%w", tv, w), ("%u", tv, u)],
                COUNTED.format(bound="" if bound is None else
                               " {max_iterations = %d}" % bound),
                [("%r#0", ti), ("%r#1", tv)],
                [np.asarray(ei, np.int64), ev], [None, SCAN_TOL])


# A dynamic-shape carried value halved while its largest |element| > tol.
HALVING = """
%r = rlx.while (%x) : (tensor<?x3xf32>) cond {
^bb0(%a: tensor<?x3xf32>):
  %b = rlx.abs %a : tensor<?x3xf32>
  %m = rlx.reduce max %b axes = [0, 1] : tensor<?x3xf32>
  %p = rlx.cmp gt, %m, %tol : tensor<f32>
  rlx.yield %p : tensor<i1>
} do {
^bb0(%a: tensor<?x3xf32>):
  %h = rlx.mul %a, %half : tensor<?x3xf32>, tensor<f32>
  rlx.yield %h : tensor<?x3xf32>
}
"""


def halving_case(rows):
    x = rand(r, (rows, 3), "f32", -8, 8, nonzero=True)
    tol, half = np.array(0.3, np.float32), np.array(0.5, np.float32)
    (e,) = while_loop(lambda a: np.abs(a).max() > tol, lambda a: (a * 0.5,),
                      (f64(x),))
    t, ts = T((None, 3), "f32"), T((), "f32")
    return Case("while/halving_dyn/%d" % rows,
                [("%x", t, x), ("%tol", ts, tol), ("%half", ts, half)],
                HALVING, [("%r", t)], [e], TOL)


suite.run([
    doubling_case("unbounded", 0.375, 1000.0),
    doubling_case("bound_not_reached", 1.5, 300.0, bound=100),
    doubling_case("bound_reached", 0.25, 1e6, bound=3),
    doubling_case("zero_trips", 5.0, 2.0),
    doubling_case("zero_trips_bounded", 5.0, 2.0, bound=10),
    doubling_case("max_iterations_0", 0.5, 100.0, bound=0),
    counted_case("n7", 0, 7),
    counted_case("from3_to9", 3, 9),
    counted_case("n7_bound4", 0, 7, bound=4),
    counted_case("n5_bound50", 0, 5, bound=50),
    counted_case("zero_trips", 6, 2),
    halving_case(3),
    halving_case(7),
])

# --------------------------------------------------------------------------
# rlx.scan
# --------------------------------------------------------------------------


def scan(f, init, xs, length=None, reverse=False):
    """jax.lax.scan: ys[t] is the output of the step reading xs[t]."""
    L = len(xs[0]) if xs else length
    carry, ys = list(init), None
    for t in (reversed(range(L)) if reverse else range(L)):
        out = f(carry, [x[t] for x in xs])
        carry, y = out[:len(carry)], out[len(carry):]
        if ys is None:
            ys = [[None] * L for _ in y]
        for k, v in enumerate(y):
            ys[k][t] = v
    return carry + [np.stack(s) for s in (ys or [])]


# h <- tanh(h * a + x_t), stacking every h.
RNN = """
%h, %hs = rlx.scan init(%h0 : tensor<4xf32>) xs(%x : tensor<{L}x4xf32>){attr} -> (tensor<4xf32>, tensor<{L}x4xf32>) {{
^bb0(%c: tensor<4xf32>, %xt: tensor<4xf32>):
  %m = rlx.mul %c, %a : tensor<4xf32>
  %s = rlx.add %m, %xt : tensor<4xf32>
  %n = rlx.tanh %s : tensor<4xf32>
  rlx.yield %n, %n : tensor<4xf32>, tensor<4xf32>
}}
"""


def rnn_case(L, reverse):
    h0, a = rand(r, (4,), "f32", -1, 1), rand(r, (4,), "f32", -1.5, 1.5)
    x = rand(r, (L, 4), "f32", -1, 1)
    e = scan(lambda c, xt: [np.tanh(c[0] * a + xt[0])] * 2, [f64(h0)],
             [f64(x)], reverse=reverse)
    return Case("scan/rnn/L%d%s" % (L, "/reverse" if reverse else ""),
                [("%h0", T((4,), "f32"), h0), ("%x", T((L, 4), "f32"), x),
                 ("%a", T((4,), "f32"), a)],
                RNN.format(L=L, attr=" {reverse = true}" if reverse else ""),
                [("%h", T((4,), "f32")), ("%hs", T((L, 4), "f32"))], e,
                SCAN_TOL)


# Two carries (a running sum and an i32 count of positive ys) over two xs;
# two stacked outputs of other shapes and types.
MULTI = """
%r:4 = rlx.scan init(%s0, %k0 : tensor<3xf32>, tensor<i32>) xs(%x, %y : tensor<{L}x3xf32>, tensor<{L}xi32>){attr} -> (tensor<3xf32>, tensor<i32>, tensor<{L}xf32>, tensor<{L}x3xf32>) {{
^bb0(%s: tensor<3xf32>, %k: tensor<i32>, %xt: tensor<3xf32>, %yt: tensor<i32>):
  %yf = rlx.cast %yt : tensor<i32> -> tensor<f32>
  %sc = rlx.mul %xt, %yf : tensor<3xf32>, tensor<f32>
  %ns = rlx.add %s, %sc : tensor<3xf32>
  %k1 = rlx.add %k, %yt : tensor<i32>
  %tot = rlx.reduce sum %ns axes = [0] : tensor<3xf32>
  rlx.yield %ns, %k1, %tot, %sc : tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<3xf32>
}}
"""


def multi_case(L, reverse):
    s0, x = rand(r, (3,), "f32", -1, 1), rand(r, (L, 3), "f32", -1, 1)
    k0 = np.array(r.integers(-5, 5), np.int32)
    y = rand(r, (L,), "i32", -4, 5, nonzero=True)

    def step(c, xt):
        sc = xt[0] * float(xt[1])
        ns = c[0] + sc
        return [ns, c[1] + xt[1], ns.sum(), sc]
    e = scan(step, [f64(s0), np.int64(k0)], [f64(x), y], reverse=reverse)
    e[1] = np.asarray(e[1], np.int32)
    return Case("scan/multi/L%d%s" % (L, "/reverse" if reverse else ""),
                [("%s0", T((3,), "f32"), s0), ("%k0", T((), "i32"), k0),
                 ("%x", T((L, 3), "f32"), x), ("%y", T((L,), "i32"), y)],
                MULTI.format(L=L, attr=" {reverse = true}" if reverse else ""),
                [("%r#0", T((3,), "f32")), ("%r#1", T((), "i32")),
                 ("%r#2", T((L,), "f32")), ("%r#3", T((L, 3), "f32"))], e,
                [SCAN_TOL, None, SCAN_TOL, SCAN_TOL])


# No init: a map over two xs.
NO_INIT = """
%r:2 = rlx.scan xs(%x, %y : tensor<6x4xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6x4xf32>) {
^bb0(%xt: tensor<4xf32>, %yt: tensor<f32>):
  %m = rlx.mul %xt, %yt : tensor<4xf32>, tensor<f32>
  %s = rlx.reduce sum %m axes = [0] : tensor<4xf32>
  rlx.yield %s, %m : tensor<f32>, tensor<4xf32>
}
"""

# `length` and no xs: powers of a matrix applied to a vector.
LENGTH = """
%h, %hs = rlx.scan init(%v0 : tensor<3xf32>) {length = 5} -> (tensor<3xf32>, tensor<5x3xf32>) {
^bb0(%c: tensor<3xf32>):
  %m = rlx.mul %c, %w : tensor<3xf32>, tensor<3x3xf32>
  %n = rlx.reduce sum %m axes = [1] : tensor<3x3xf32>
  rlx.yield %n, %c : tensor<3xf32>, tensor<3xf32>
}
"""

# An rlx.if in the body: add or subtract x_t by the sign of its sum.
IF_IN_SCAN = """
%h, %hs = rlx.scan init(%h0 : tensor<4xf32>) xs(%x : tensor<7x4xf32>) -> (tensor<4xf32>, tensor<7xi1>) {
^bb0(%c: tensor<4xf32>, %xt: tensor<4xf32>):
  %s = rlx.reduce sum %xt axes = [0] : tensor<4xf32>
  %z = rlx.constant dense<0.0> : tensor<f32>
  %p = rlx.cmp gt, %s, %z : tensor<f32>
  %n = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    %a = rlx.add %c, %xt : tensor<4xf32>
    rlx.yield %a : tensor<4xf32>
  } else {
    %b = rlx.sub %c, %xt : tensor<4xf32>
    rlx.yield %b : tensor<4xf32>
  }
  rlx.yield %n, %p : tensor<4xf32>, tensor<i1>
}
"""

# A dynamic number of steps: a cumulative sum along the leading axis.
DYN_SCAN = """
%h, %hs = rlx.scan init(%h0 : tensor<5xf32>) xs(%x : tensor<?x5xf32>){attr} -> (tensor<5xf32>, tensor<?x5xf32>) {{
^bb0(%c: tensor<5xf32>, %xt: tensor<5xf32>):
  %n = rlx.add %c, %xt : tensor<5xf32>
  rlx.yield %n, %n : tensor<5xf32>, tensor<5xf32>
}}
"""


def other_scan_cases():
    cases = []
    x, y = rand(r, (6, 4), "f32", -1, 1), rand(r, (6,), "f32", -2, 2)
    m = f64(x) * f64(y)[:, None]
    cases.append(Case("scan/no_init", [("%x", T((6, 4), "f32"), x),
                                       ("%y", T((6,), "f32"), y)], NO_INIT,
                      [("%r#0", T((6,), "f32")), ("%r#1", T((6, 4), "f32"))],
                      [m.sum(1), m], TOL))
    v0, w = rand(r, (3,), "f32", -1, 1), rand(r, (3, 3), "f32", -0.8, 0.8)
    e = scan(lambda c, _: [f64(w) @ c[0], c[0]], [f64(v0)], [], length=5)
    cases.append(Case("scan/length_no_xs", [("%v0", T((3,), "f32"), v0),
                                            ("%w", T((3, 3), "f32"), w)],
                      LENGTH, [("%h", T((3,), "f32")),
                               ("%hs", T((5, 3), "f32"))], e, SCAN_TOL))
    h0, x = rand(r, (4,), "f32", -1, 1), rand(r, (7, 4), "f32", -1, 1)
    e = scan(lambda c, xt: [c[0] + xt[0], True] if xt[0].sum() > 0
             else [c[0] - xt[0], False], [f64(h0)], [f64(x)])
    cases.append(Case("scan/if_in_body", [("%h0", T((4,), "f32"), h0),
                                          ("%x", T((7, 4), "f32"), x)],
                      IF_IN_SCAN, [("%h", T((4,), "f32")),
                                   ("%hs", T((7,), "i1"))], e,
                      [SCAN_TOL, None]))
    for L, reverse in ((9, False), (4, True)):
        h0, x = rand(r, (5,), "f32", -1, 1), rand(r, (L, 5), "f32", -1, 1)
        xs = f64(x)[::-1] if reverse else f64(x)
        cs = h0 + np.cumsum(xs, axis=0)
        hs = cs[::-1] if reverse else cs
        cases.append(Case("scan/dyn_cumsum/L%d%s" % (
            L, "/reverse" if reverse else ""),
            [("%h0", T((5,), "f32"), h0), ("%x", T((None, 5), "f32"), x)],
            DYN_SCAN.format(attr=" {reverse = true}" if reverse else ""),
            [("%h", T((5,), "f32")), ("%hs", T((None, 5), "f32"))],
            [cs[-1], hs], SCAN_TOL))
    return cases


suite.run([rnn_case(6, False), rnn_case(6, True), rnn_case(1, False),
           rnn_case(1, True), multi_case(5, False), multi_case(5, True)] +
          other_scan_cases())

# --------------------------------------------------------------------------
# rlx.custom_fn
# --------------------------------------------------------------------------

CUSTOM_FWD = """
%y = rlx.custom_fn (%x) : (tensor<2x4xf32>) -> tensor<2x4xf32> fwd {
^bb0(%a: tensor<2x4xf32>):
  %e = rlx.exp %a : tensor<2x4xf32>
  %m = rlx.mul %e, %a : tensor<2x4xf32>
  rlx.yield %m : tensor<2x4xf32>
}
"""

# Two inputs, two results of different types; a vjp and a jvp region that
# must not change the forward value.
CUSTOM_ALL = """
%r:2 = rlx.custom_fn (%x, %s) : (tensor<5xf32>, tensor<f32>) -> (tensor<5xf32>, tensor<f32>) fwd {
^bb0(%a: tensor<5xf32>, %b: tensor<f32>):
  %m = rlx.mul %a, %b : tensor<5xf32>, tensor<f32>
  %t = rlx.tanh %m : tensor<5xf32>
  %u = rlx.reduce sum %t axes = [0] : tensor<5xf32>
  rlx.yield %t, %u : tensor<5xf32>, tensor<f32>
} vjp {
^bb0(%a: tensor<5xf32>, %b: tensor<f32>, %ya: tensor<5xf32>, %yb: tensor<f32>, %ga: tensor<5xf32>, %gb: tensor<f32>):
  %n = rlx.neg %ga : tensor<5xf32>
  rlx.yield %n, %gb : tensor<5xf32>, tensor<f32>
} jvp {
^bb0(%a: tensor<5xf32>, %b: tensor<f32>, %da: tensor<5xf32>, %db: tensor<f32>):
  %n = rlx.neg %a : tensor<5xf32>
  rlx.yield %n, %b, %da, %db : tensor<5xf32>, tensor<f32>, tensor<5xf32>, tensor<f32>
}
"""

# Broadcasting inside fwd (custom_fn is isolated from above: everything
# comes in as an input), and the result feeds other ops.
CUSTOM_CHAIN = """
%y = rlx.custom_fn (%x, %c) : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32> fwd {
^bb0(%a: tensor<3x3xf32>, %b: tensor<3xf32>):
  %s = rlx.sub %a, %b : tensor<3x3xf32>, tensor<3xf32>
  %q = rlx.mul %s, %s : tensor<3x3xf32>
  rlx.yield %q : tensor<3x3xf32>
} vjp {
^bb0(%a: tensor<3x3xf32>, %b: tensor<3xf32>, %yv: tensor<3x3xf32>, %g: tensor<3x3xf32>):
  rlx.yield %g, %b : tensor<3x3xf32>, tensor<3xf32>
}
%z = rlx.sqrt %y : tensor<3x3xf32>
"""

x = rand(r, (2, 4), "f32", -2, 2)
xs, s = rand(r, (5,), "f32", -2, 2), rand(r, (), "f32", 0.5, 1.5)
xo, c = rand(r, (3, 3), "f32", -2, 2), rand(r, (3,), "f32", -1, 1)
t = np.tanh(f64(xs) * f64(s))
suite.run([
    Case("custom_fn/fwd_only", [("%x", T((2, 4), "f32"), x)], CUSTOM_FWD,
         [("%y", T((2, 4), "f32"))], [np.exp(f64(x)) * x], TOL),
    Case("custom_fn/fwd_vjp_jvp", [("%x", T((5,), "f32"), xs),
                                   ("%s", T((), "f32"), s)], CUSTOM_ALL,
         [("%r#0", T((5,), "f32")), ("%r#1", T((), "f32"))],
         [t, np.asarray(t.sum())], TOL),
    Case("custom_fn/broadcast_chain", [("%x", T((3, 3), "f32"), xo),
                                       ("%c", T((3,), "f32"), c)],
         CUSTOM_CHAIN, [("%y", T((3, 3), "f32")), ("%z", T((3, 3), "f32"))],
         [(f64(xo) - c) ** 2, np.abs(f64(xo) - c)], TOL),
])

suite.finish()
