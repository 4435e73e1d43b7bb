# RUN: %python %s
# layer_norm and rms_norm over the last axis: every float type (f16/bf16
# statistics accumulate in f32), default and explicit epsilon, dynamic dims,
# long rows, a large mean (a one-pass E[x^2] - E[x]^2 variance loses it).

import numpy as np

import rlxtest
from rlxtest import FLOATS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("norms", KNOWN_FAILURES)
r = rlxtest.rng()
TOL = {"f32": (2e-5, 2e-5), "f64": (1e-11, 1e-11), "f16": (1e-2, 1e-2),
       "bf16": (2e-2, 2e-2)}


def attr(eps):
    return "" if eps is None else " {epsilon = %.6e : f32}" % eps


def ln_case(name, elem, shape, eps=None, dims=None, offset=0.0, tol=None,
            scale=1.0):
    d = shape[-1]
    x = rlxtest.as_elem(rand(r, shape, "f64", -2, 2) * scale + offset, elem)
    g, b = rand(r, (d,), elem, 0.5, 1.5), rand(r, (d,), elem, -1, 1)
    tx, tg = T(dims or shape, elem), T((d,), elem)
    e = rlxtest.layer_norm_reference(x, g, b,
                                     1e-5 if eps is None else np.float32(eps))
    return Case("layer_norm/" + name, [("%x", tx, x), ("%g", tg, g),
                                       ("%b", tg, b)],
                "%y = rlx.layer_norm %x, %g, %b{} : {}, {}".format(
                    attr(eps), tx, tg), [("%y", tx)], [e], tol or TOL[elem])


def rms_case(name, elem, shape, eps=None, dims=None, tol=None, scale=1.0):
    d = shape[-1]
    x = rlxtest.as_elem(rand(r, shape, "f64", -2, 2) * scale, elem)
    g = rand(r, (d,), elem, 0.5, 1.5)
    tx, tg = T(dims or shape, elem), T((d,), elem)
    e = rlxtest.rms_norm_reference(x, g,
                                   1e-6 if eps is None else np.float32(eps))
    return Case("rms_norm/" + name, [("%x", tx, x), ("%g", tg, g)],
                "%y = rlx.rms_norm %x, %g{} : {}, {}".format(attr(eps), tx, tg),
                [("%y", tx)], [e], tol or TOL[elem])


cases = []
for e in FLOATS:
    cases += [ln_case(e, e, (3, 4, 32)),
              ln_case(e + "/eps", e, (5, 16), eps=0.5),
              ln_case(e + "/long", e, (2, 1024)),
              rms_case(e, e, (3, 4, 32)),
              rms_case(e + "/eps", e, (5, 16), eps=0.25),
              rms_case(e + "/long", e, (2, 1024))]
suite.run(cases)

suite.run([
    ln_case("f32/dyn", "f32", (6, 24), dims=(None, 24)),
    ln_case("f32/dyn2", "f32", (2, 3, 8), dims=(None, None, 8)),
    ln_case("f32/eps1e-12", "f32", (4, 768), eps=1e-12, tol=(5e-5, 5e-5)),
    ln_case("f32/d1", "f32", (3, 1)),  # every x is its mean: gives beta
    # Mean 1000 (f32) / 1e6 (f64) over a spread of ~1: the tolerance allows
    # the rounding of x - mean but not a one-pass variance (its error is
    # ~10% in f32, ~1e-4 in f64).
    ln_case("f32/large_mean", "f32", (4, 256), offset=1000.0,
            tol=(3e-3, 3e-3)),
    ln_case("f64/large_mean", "f64", (4, 256), offset=1e6, tol=(1e-7, 1e-7)),
    ln_case("f32/rank1", "f32", (40,)),
    # A variance (mean square) near epsilon checks the default epsilon.
    ln_case("f32/default_eps", "f32", (3, 16), scale=3e-3),
    rms_case("f32/default_eps", "f32", (3, 16), scale=1e-3),
    rms_case("f32/dyn", "f32", (6, 24), dims=(None, 24)),
    rms_case("f32/rank1", "f32", (40,)),
    rms_case("bf16/dyn", "bf16", (7, 64), dims=(None, 64)),
])

suite.finish()
