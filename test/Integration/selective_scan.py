# RUN: %python %s
# rlx.selective_scan (Mamba S6) against the reference recurrence in float64:
# h[t] = exp(dt A) h[t-1] + dt B[t] u[t], y[t] = C[t] . h[t] + D u[t], with
# and without softplus on delta, in f32 and f64.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("selective_scan", KNOWN_FAILURES)
r = rlxtest.rng()
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12)}


def reference(u, dt, a, b, c, d, softplus):
    return rlxtest.selective_scan_reference(
        *(x.astype(np.float64) for x in (u, dt, a, b, c, d)), softplus)


def case(elem, batch, channels, length, state, softplus):
    u = rand(r, (batch, channels, length), elem)
    dt = rand(r, (batch, channels, length), elem, 0.05, 0.5)
    a = rand(r, (channels, state), elem, -1.5, -0.1)
    b = rand(r, (batch, state, length), elem)
    c = rand(r, (batch, state, length), elem)
    d = rand(r, (channels,), elem)
    tu, ta = T((batch, channels, length), elem), T((channels, state), elem)
    tb, td = T((batch, state, length), elem), T((channels,), elem)
    attr = " {delta_softplus = true}" if softplus else ""
    return Case(
        "selective_scan/%s/%dx%dx%dx%d%s" % (elem, batch, channels, length,
                                             state, "/softplus" * softplus),
        [("%u", tu, u), ("%dt", tu, dt), ("%a", ta, a), ("%b", tb, b),
         ("%c", tb, c), ("%d", td, d)],
        "%y = rlx.selective_scan %u, %dt, %a, %b, %c, %d{} : {}, {}, {}, {}, "
        "{}, {}".format(attr, tu, tu, ta, tb, tb, td),
        [("%y", tu)], [reference(u, dt, a, b, c, d, softplus)], TOL[elem])


cases = [case(e, *shape, sp) for e in ("f32", "f64")
         for shape in ((2, 3, 5, 4), (1, 8, 16, 2)) for sp in (False, True)]
suite.run(cases)
suite.finish()
