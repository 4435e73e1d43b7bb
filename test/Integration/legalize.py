# REQUIRES: target-metal
# RUN: %python %s
# rlx-legalize's rewrites against float64 NumPy: each program (dot_general
# with batch, several contracting and free dims; rlx.if on both predicate
# values; rlx.while unrolled to max_iterations; broadcasts that metal's
# kernels cannot index, expanded) runs once as written and once as
# `rlx-opt --rlx-legalize="target=metal"` rewrites it (RLX_OPT names that
# rlx-opt); both must match the reference, and the rewritten text must no
# longer hold the op that metal lacks (or must hold the expand it needs).

import os
import subprocess

import numpy as np

import rlxtest
from rlxtest import rand
from rlxtest import tensor_type as T

RLX_OPT = os.environ.get("RLX_OPT", "rlx-opt")
TARGET = "metal"
suite = rlxtest.Suite("legalize")
r = rlxtest.rng()
TOL = (1e-5, 1e-5)


def legalize(text):
    """`text` after rlx-opt --rlx-legalize; raises AssertionError on
    failure."""
    p = subprocess.run([RLX_OPT, "--rlx-legalize=target=" + TARGET],
                       input=text, capture_output=True, text=True,
                       timeout=300)
    if p.returncode != 0:
        raise AssertionError("rlx-opt --rlx-legalize exited with %d:\n%s" %
                             (p.returncode, p.stderr))
    return p.stdout


def program(args, body, results):
    """A @main of `args` [(name, type)] returning `results` [(name, type)]."""
    return ("func.func @main(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" %
            (", ".join("%%%s: %s" % a for a in args),
             ", ".join(t for _, t in results), body,
             ", ".join("%" + n for n, _ in results),
             ", ".join(t for _, t in results)))


def case(name, src, inputs, expected, gone, needed=None):
    """Checks `src` as written and legalized against `expected`; the
    legalized text must not hold `gone` and must hold `needed` (if given)."""
    def check(text):
        rc, log, outs = rlxtest.run(text, inputs, len(expected))
        if rc != 0:
            raise AssertionError("rlx-run exited with %d:\n%s" % (rc, log))
        for i, (out, exp) in enumerate(zip(outs, expected)):
            rlxtest.assert_close(out, exp.astype(out.dtype)
                                 if out.dtype == np.bool_ else exp, *TOL,
                                 "%s result %d" % (name, i), dtype=out.dtype)

    def legalized():
        text = legalize(src)
        if gone and gone in text:
            raise AssertionError("%s still holds %s:\n%s" % (name, gone, text))
        if needed and needed not in text:
            raise AssertionError("%s lacks %s:\n%s" % (name, needed, text))
        check(text)

    suite.check(name + "/as-written", lambda: check(src))
    suite.check(name + "/legalized", legalized)


def f64(x):
    return np.asarray(x, np.float64)


# dot_general: (lhs shape, rhs shape, batch, contracting), as jax.lax.
DOTS = [
    ("batch", (4, 16, 8), (4, 16, 32), ([0], [0]), ([1], [1])),
    ("two_contracting", (2, 3, 5), (3, 2, 7), ([], []), ([0, 1], [1, 0])),
    ("free_dims", (2, 4, 3), (5, 4, 2), ([], []), ([1], [1])),
    ("batch_last", (3, 6, 2), (6, 5, 2), ([2], [2]), ([1], [0])),
    # Dims counted from the end, as the op allows.
    ("negative_dims", (3, 6, 2), (6, 5, 2), ([-1], [-1]), ([-2], [0])),
]
for name, ls, rs, dims, cdims in DOTS:
    a, b = rand(r, ls, "f32"), rand(r, rs, "f32")
    # The op's text keeps the dims as written; the reference counts from 0.
    text = (dims, cdims)
    (lb, rb), (lc, rc) = [[[d % len(shape) for d in ds]
                           for ds, shape in zip(pair, (ls, rs))]
                          for pair in (dims, cdims)]
    # The reference: batch dims, lhs free dims, rhs free dims.
    lf = [d for d in range(len(ls)) if d not in lb + lc]
    rf = [d for d in range(len(rs)) if d not in rb + rc]
    letters = iter("abcdefghijklmnop")
    ln, rn = [None] * len(ls), [None] * len(rs)
    for x, y in zip(lb, rb):
        ln[x] = rn[y] = next(letters)
    for x, y in zip(lc, rc):
        ln[x] = rn[y] = next(letters)
    for x in lf:
        ln[x] = next(letters)
    for y in rf:
        rn[y] = next(letters)
    out = "".join(ln[x] for x in lb) + "".join(ln[x] for x in lf) + \
        "".join(rn[y] for y in rf)
    ref = np.einsum("%s,%s->%s" % ("".join(ln), "".join(rn), out),
                    f64(a), f64(b))
    rt = T(list(ref.shape), "f32")
    body = ("  %%y = rlx.dot_general %%a, %%b batch %s x %s contracting %s "
            "x %s : %s, %s" % (text[0][0], text[0][1], text[1][0],
                               text[1][1], T(list(ls), "f32"),
                               T(list(rs), "f32")))
    case("dot_general_" + name,
         program([("a", T(list(ls), "f32")), ("b", T(list(rs), "f32"))],
                 body, [("y", rt)]), [a, b], [ref], "rlx.dot_general")

# rlx.if on both predicate values, two results.
IF_BODY = """  %r:2 = rlx.if %p : tensor<i1> -> tensor<3x4xf32>, tensor<3x4xf32> {
    %e = rlx.exp %x : tensor<3x4xf32>
    %m = rlx.mul %x, %x : tensor<3x4xf32>
    rlx.yield %e, %m : tensor<3x4xf32>, tensor<3x4xf32>
  } else {
    %n = rlx.neg %x : tensor<3x4xf32>
    rlx.yield %n, %x : tensor<3x4xf32>, tensor<3x4xf32>
  }"""
for p in (True, False):
    x = rand(r, (3, 4), "f32")
    ref = [np.exp(f64(x)), f64(x) ** 2] if p else [-f64(x), f64(x)]
    case("if_%s" % str(p).lower(),
         program([("p", "tensor<i1>"), ("x", "tensor<3x4xf32>")], IF_BODY,
                 [("r#0", "tensor<3x4xf32>"), ("r#1", "tensor<3x4xf32>")]),
         [np.array(p), x], ref, "rlx.if")

# rlx.while doubling x while it is below the limit, bounded by 4 steps
# (every trip count here ends within the bound).
WHILE_BODY = """  %r = rlx.while (%x) : (tensor<f32>) {max_iterations = 4} cond {
  ^bb0(%a: tensor<f32>):
    %c = rlx.cmp lt, %a, %limit : tensor<f32>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    %n = rlx.add %a, %a : tensor<f32>
    rlx.yield %n : tensor<f32>
  }"""
for x0, limit in ((1.5, 10.0), (3.0, 2.0), (0.5, 4.0)):
    v = x0
    while v < limit:
        v += v
    case("while_%g_%g" % (x0, limit),
         program([("x", "tensor<f32>"), ("limit", "tensor<f32>")],
                 WHILE_BODY, [("r", "tensor<f32>")]),
         [np.array(x0, np.float32), np.array(limit, np.float32)],
         [np.array(v)], "rlx.while")

# Non-trailing broadcasts (a column, a middle unit dim, a predicate column)
# next to trailing ones (a bias row); metal gets them expanded.
BCAST_BODY = """  %s = rlx.sub %x, %c : tensor<6x5xf32>, tensor<6x1xf32>
  %a = rlx.add %s, %b : tensor<6x5xf32>, tensor<5xf32>
  %d = rlx.mul %m, %a : tensor<2x1x5xf32>, tensor<6x5xf32>
  %w = rlx.where %p, %x, %a : tensor<6x1xi1>, tensor<6x5xf32>, tensor<6x5xf32>"""
x, c, b = rand(r, (6, 5), "f32"), rand(r, (6, 1), "f32"), rand(r, (5,), "f32")
m, pm = rand(r, (2, 1, 5), "f32"), r.random((6, 1)) < 0.5
a = f64(x) - f64(c) + f64(b)
case("broadcasts",
     program([("x", "tensor<6x5xf32>"), ("c", "tensor<6x1xf32>"),
              ("b", "tensor<5xf32>"), ("m", "tensor<2x1x5xf32>"),
              ("p", "tensor<6x1xi1>")], BCAST_BODY,
             [("d", "tensor<2x6x5xf32>"), ("w", "tensor<6x5xf32>")]),
     [x, c, b, m, pm], [f64(m) * a, np.where(pm, f64(x), a)], None,
     needed="rlx.expand")

suite.finish()
