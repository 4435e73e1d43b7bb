# RUN: %python %s
# dense_solve: A X = B for n = 1, 2, 3, 5, 16, k = 1 and 4, unbatched and
# batched [2, 3, n, n], f64, f32, f16 and bf16 (inputs rounded to the type,
# so the reference solves the same system), dynamic dims, against
# numpy.linalg.solve in float64. Two kinds of A, both well conditioned:
# "dominant" (uniform + n I, no pivoting needed) and "pivot" (the rows of a
# dominant matrix shuffled, each batch element its own way, with a zero or
# tiny a[0, 0], so elimination without row swaps divides by zero or loses
# every digit). The tolerance is relative to the largest |x| of each system
# (elements near zero have no relative accuracy). A singular A must run
# (its values are undefined), not crash.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("dense_solve", KNOWN_FAILURES)
r = rlxtest.rng()

TOL = {"f64": 1e-10, "f32": 1e-4, "f16": 2e-2, "bf16": 2e-2}


def dominant(batch, n):
    return r.uniform(-1, 1, batch + (n, n)) + n * np.eye(n)


def needs_pivot(batch, n, lead):
    """A dominant matrix with its rows shuffled so that the big entries are
    off the diagonal, and a[0, 0] (an off-diagonal entry of the dominant
    matrix) set to `lead`."""
    m = dominant(batch, n).reshape((-1, n, n))
    for s in m:
        perm = r.permutation(n)
        if n > 1 and perm[0] == 0:
            perm[[0, 1]] = perm[[1, 0]]
        s[:] = s[perm]
        if n > 1:
            s[0, 0] = lead
    return m.reshape(batch + (n, n))


def case(elem, n, k, kind, batch=(), adims=None, bdims=None, tag=""):
    if kind == "dominant":
        a = dominant(batch, n)
    else:
        a = needs_pivot(batch, n, 0.0 if kind == "pivot0" else 1e-12)
    a = rlxtest.as_elem(a, elem)
    b = rand(r, batch + (n, k), elem, -2, 2)
    x = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
    tol = TOL[elem]
    ta, tb = T(adims or a.shape, elem), T(bdims or b.shape, elem)
    name = "dense_solve/%s/%s/%s_%s%s" % (
        elem, kind, "x".join(map(str, a.shape)), "x".join(map(str, b.shape)),
        tag)
    return Case(name, [("%a", ta, a), ("%b", tb, b)],
                "%x = rlx.dense_solve %a, %b : {}, {}".format(ta, tb),
                [("%x", tb)], [x], (tol, tol * float(np.max(np.abs(x)))))


KINDS = ["dominant", "pivot0", "pivot_tiny"]
for elem in ("f64", "f32", "f16", "bf16"):
    cases = []
    for n in (1, 2, 3, 5, 16):
        for k in (1, 4):
            for kind in KINDS:
                if n == 1 and kind != "dominant":
                    continue  # one entry: nothing to pivot
                cases.append(case(elem, n, k, kind))
                if n in (3, 16):
                    cases.append(case(elem, n, k, kind, batch=(2, 3)))
    suite.run(cases)

# Dynamic dims: batch only, everything in a, a static while b is dynamic
# (the result has b's type).
suite.run([
    case("f32", 5, 2, "pivot0", batch=(2, 3), adims=(None, 3, 5, 5),
         bdims=(None, 3, 5, 2), tag="/dyn_batch"),
    case("f32", 4, 3, "pivot0", batch=(2,), adims=(None, None, None),
         bdims=(2, None, 3), tag="/dyn_a"),
    case("f64", 6, 2, "pivot_tiny", adims=(6, 6), bdims=(None, None),
         tag="/dyn_b"),
    case("bf16", 3, 4, "pivot0", batch=(2, 3), adims=(2, None, 3, 3),
         bdims=(2, 3, None, None), tag="/dyn_mixed"),
])


def singular():
    """Zero and rank-deficient matrices: any values, but a clean run."""
    a = np.zeros((2, 3, 3), np.float32)
    a[1] = np.outer([1, 2, 3], [1, 1, 1])
    b = rand(r, (2, 3, 2), "f32")
    src = ("func.func @main(%a: tensor<2x3x3xf32>, %b: tensor<2x3x2xf32>) "
           "-> tensor<2x3x2xf32> {\n"
           "  %x = rlx.dense_solve %a, %b : tensor<2x3x3xf32>, "
           "tensor<2x3x2xf32>\n  return %x : tensor<2x3x2xf32>\n}\n")
    rc, log, outs = rlxtest.run(src, [a, b], 1)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    assert outs[0].shape == (2, 3, 2), outs[0].shape


suite.check("dense_solve/singular", singular)

suite.finish()
