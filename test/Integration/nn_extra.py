# RUN: %python %s
# rope (neox: pairs (i, i + D/2); gptj: pairs (2i, 2i + 1); each pair (a, b)
# becomes (a cos - b sin, a sin + b cos)) against an explicit float64
# rotation, group_norm against F.group_norm (one group, one channel per
# group and in between, ranks 2 to 5, explicit epsilon, a large mean) and
# batch_norm_inference against F.batch_norm(training=False) (ranks 2 to 5,
# dynamic dims), on every float type; the references run in float64 on the
# inputs as the element type holds them.

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from rlxtest import FLOATS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("nn_extra", KNOWN_FAILURES)
r = rlxtest.rng()
TOL = {"f32": (2e-5, 2e-5), "f64": (1e-11, 1e-11), "f16": (1e-2, 1e-2),
       "bf16": (2e-2, 2e-2)}


def f64(x):
    return torch.from_numpy(np.asarray(x, np.float64))


def eps_value(eps, default=1e-5):
    """The epsilon the op uses: an f32 attribute (default 1e-5 as f32)."""
    return float(np.float32(default if eps is None else eps))


def eps_attr(attrs, eps):
    if eps is not None:
        attrs.append("epsilon = %.6e : f32" % eps)
    return " {%s}" % ", ".join(attrs) if attrs else ""


# --------------------------------------------------------------------------
# rope
# --------------------------------------------------------------------------

def rope_case(name, elem, shape, style=None, dims=None, angles=True):
    B, H, S, D = shape
    x = rand(r, shape, elem, -2, 2)
    if angles:  # the cosines and sines of random angles
        theta = r.uniform(-np.pi, np.pi, (S, D // 2))
        cos, sin = rlxtest.as_elem(np.cos(theta), elem), \
            rlxtest.as_elem(np.sin(theta), elem)
    else:  # any values: the op is linear in them
        cos, sin = rand(r, (S, D // 2), elem), rand(r, (S, D // 2), elem)
    tx = T(dims or shape, elem)
    tc = T((None, None) if dims and None in dims[2:] else (S, D // 2), elem)
    attr = "" if style is None else ' {style = "%s"}' % style
    e = rlxtest.rope_reference(x, cos, sin, style or "neox")
    return Case("rope/%s/%s/%s" % (style or "default", elem, name),
                [("%x", tx, x), ("%c", tc, cos), ("%s", tc, sin)],
                "%y = rlx.rope %x, %c, %s{} : {}, {}".format(attr, tx, tc),
                [("%y", tx)], [e], rlxtest.TOL[elem])


cases = []
for elem in FLOATS:
    for style in ("neox", "gptj"):
        cases += [rope_case("b2h3s5d8", elem, (2, 3, 5, 8), style),
                  rope_case("d2", elem, (1, 2, 3, 2), style),
                  rope_case("values", elem, (1, 2, 4, 6), style,
                            angles=False)]
cases += [rope_case("default", "f32", (2, 2, 4, 16)),
          rope_case("d64", "f32", (1, 2, 7, 64), "neox"),
          rope_case("d64", "f32", (1, 2, 7, 64), "gptj"),
          rope_case("dyn_s", "f32", (2, 4, 6, 8), "gptj",
                    dims=(2, 4, None, 8)),
          rope_case("dyn_all", "f32", (1, 3, 5, 12), "neox",
                    dims=(None, None, None, None)),
          rope_case("dyn_all", "f32", (2, 1, 3, 10), "gptj",
                    dims=(None, None, None, None))]
suite.run(cases)

# --------------------------------------------------------------------------
# group_norm
# --------------------------------------------------------------------------


def gn_case(name, elem, shape, groups, eps=None, offset=0.0, tol=None,
            dims=None):
    C = shape[1]
    x = rlxtest.as_elem(rand(r, shape, "f64", -2, 2) + offset, elem)
    g, b = rand(r, (C,), elem, 0.5, 1.5), rand(r, (C,), elem, -1, 1)
    tx, tg = T(dims or shape, elem), T((C,), elem)
    e = F.group_norm(f64(x), groups, f64(g), f64(b),
                     eps_value(eps)).numpy()
    body = "%y = rlx.group_norm %x, %g, %b{} : {}, {}".format(
        eps_attr(["num_groups = %d : i64" % groups], eps), tx, tg)
    return Case("group_norm/%s/%s" % (elem, name),
                [("%x", tx, x), ("%g", tg, g), ("%b", tg, b)], body,
                [("%y", tx)], [e], tol or TOL[elem])


cases = []
for elem in FLOATS:
    cases += [gn_case("g4", elem, (2, 8, 5, 5), 4),
              gn_case("g1", elem, (2, 6, 4, 3), 1),
              gn_case("g_eq_c", elem, (3, 6, 7), 6),
              gn_case("rank2", elem, (4, 6), 3)]
cases += [gn_case("eps", "f32", (2, 4, 3, 3), 2, eps=0.5),
          gn_case("eps1e-6", "f32", (2, 32, 4, 4), 8, eps=1e-6),
          gn_case("rank5", "f32", (2, 6, 3, 2, 4), 3),
          gn_case("n1", "f32", (1, 12, 16, 16), 4),
          gn_case("odd", "f32", (3, 15, 7), 5),
          # A dynamic batch and spatial dims (the channels stay static).
          gn_case("dyn", "f32", (3, 8, 5, 5), 4, dims=(None, 8, 5, 5)),
          gn_case("dyn2", "f32", (2, 6, 7, 3), 3, dims=(None, 6, None, None)),
          gn_case("dyn_n1", "bf16", (1, 4, 9), 2, dims=(None, 4, None)),
          # A mean of 100 over a spread of ~1: a one-pass E[x^2] - E[x]^2
          # variance would lose the variance in f32.
          gn_case("large_mean", "f32", (2, 4, 8, 8), 2, offset=100.0,
                  tol=(5e-4, 5e-4)),
          gn_case("large_mean", "f64", (2, 4, 8, 8), 2, offset=1e6,
                  tol=(1e-7, 1e-7))]
suite.run(cases)

# --------------------------------------------------------------------------
# batch_norm_inference
# --------------------------------------------------------------------------


def bn_case(name, elem, shape, eps=None, dims=None, tol=None,
            vrange=(0.1, 2.0)):
    C = shape[1]
    x = rand(r, shape, elem, -3, 3)
    g, b = rand(r, (C,), elem, 0.5, 1.5), rand(r, (C,), elem, -1, 1)
    m, v = rand(r, (C,), elem, -1, 1), rand(r, (C,), elem, *vrange)
    tx, tp = T(dims or shape, elem), T((C,), elem)
    e = F.batch_norm(f64(x), f64(m), f64(v), f64(g), f64(b), training=False,
                     eps=eps_value(eps))
    body = ("%y = rlx.batch_norm_inference %x, %g, %b, %m, %v{} : {}, {}"
            .format(eps_attr([], eps), tx, tp))
    return Case("batch_norm_inference/%s/%s" % (elem, name),
                [("%x", tx, x), ("%g", tp, g), ("%b", tp, b), ("%m", tp, m),
                 ("%v", tp, v)], body, [("%y", tx)], [e.numpy()],
                tol or TOL[elem])


cases = []
for elem in FLOATS:
    cases += [bn_case("nchw", elem, (2, 5, 4, 3)),
              bn_case("rank2", elem, (6, 7)),
              bn_case("eps", elem, (2, 3, 8), eps=0.25)]
cases += [bn_case("rank5", "f32", (2, 3, 2, 3, 4)),
          bn_case("dyn", "f32", (3, 4, 5, 6), dims=(None, 4, None, None)),
          bn_case("dyn_c", "f32", (2, 5, 3), dims=(None, None, None)),
          bn_case("dyn", "bf16", (2, 6, 9), dims=(None, 6, None)),
          # A variance much smaller than epsilon: epsilon dominates.
          bn_case("eps1e-2_small_var", "f32", (2, 4, 3, 3), eps=1e-2,
                  vrange=(1e-4, 1e-3))]
suite.run(cases)

suite.finish()
