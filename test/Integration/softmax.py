# RUN: %python %s
# softmax, log_softmax and softmax_cross_entropy: every float type, every
# axis (negative too), dynamic dims, large inputs (numerical stability),
# -inf entries, NaN entries (a row with one is NaN throughout), against
# float64 formulas.

import numpy as np

import rlxtest
from rlxtest import FLOATS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("softmax", KNOWN_FAILURES)
r = rlxtest.rng()


def log_softmax(x, axis):
    x = x.astype(np.float64)
    m = np.max(x, axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis, keepdims=True))


def softmax(x, axis):
    return np.exp(log_softmax(x, axis))


TOL = {"f32": (1e-5, 1e-6), "f64": (1e-12, 1e-14), "f16": (1e-2, 1e-3),
       "bf16": (1.5e-2, 2e-3)}
LOG_TOL = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "f16": (1e-2, 1e-2),
           "bf16": (1.5e-2, 3e-2)}


def case(op, elem, x, axis, dims=None, tag=""):
    tx = T(dims or x.shape, elem)
    f, tol = (softmax, TOL) if op == "softmax" else (log_softmax, LOG_TOL)
    return Case("%s/%s/%d%s" % (op, elem, axis, tag), [("%x", tx, x)],
                "%y = rlx.{} %x axis = {} : {}".format(op, axis, tx),
                [("%y", tx)], [f(x, axis)], tol[elem])


# Every float type, every axis of a rank-3 tensor.
suite.run([case(op, e, rand(r, (3, 4, 5), e, -4, 4), a)
           for op in ("softmax", "log_softmax") for e in FLOATS
           for a in (0, 1, 2, -1)])

# Large inputs: exp would overflow without subtracting the max (also f16,
# whose exp overflows above 11); a dynamic dim; -inf entries get
# probability 0.
big = {e: rand(r, (4, 9), e, -6, 6) + rlxtest.as_elem(
    r.choice([-1000, 1000, 80], (4, 1)), e).astype(rlxtest.NPY[e])
    for e in ("f32", "f64")}
big["f16"] = rand(r, (4, 9), "f16", 20, 40)
big["bf16"] = rand(r, (4, 9), "bf16", 500, 600)
masked = rand(r, (3, 8), "f32", -3, 3)
masked[:, ::3] = -np.inf
# A fully masked row (all -inf, as NumPy: 0 / 0) beside ordinary rows.
all_masked = rand(r, (3, 40), "f32", -3, 3)
all_masked[1, :] = -np.inf
dyn = rand(r, (6, 10), "f32", -3, 3)
with np.errstate(invalid="ignore"):
    suite.run([case(op, e, x, -1, tag="/large")
               for op in ("softmax", "log_softmax") for e, x in big.items()] +
              [case(op, "f32", all_masked, -1, tag="/all_neg_inf")
               for op in ("softmax", "log_softmax")] +
              [case("softmax", "f32", masked, 1, tag="/neg_inf"),
               case("softmax", "f32", dyn, -1, dims=(None, 10), tag="/dyn"),
               case("log_softmax", "f32", dyn, 0, dims=(None, 10),
                    tag="/dyn"),
              case("softmax", "f32", rand(r, (3, 1, 4), "f32"), 1,
                   tag="/size1"),
              case("log_softmax", "f64", rand(r, (3, 1), "f64"), -1,
                   tag="/size1")])

# NaN entries: a row with a NaN is NaN throughout, also beside -inf or +inf
# entries and when the whole row is NaN (the row max skips NaN; exp of the
# NaN entry makes the sum NaN); the other rows are untouched.
nans = {e: rand(r, (5, 9), e, -3, 3) for e in ("f32", "f64", "f16")}
for x in nans.values():
    x[1, 4] = np.nan
    x[2, :] = -np.inf
    x[2, 7] = np.nan
    x[3, 0], x[3, 5] = np.inf, np.nan
    x[4, :] = np.nan
# Rows long enough for the vector loops, a NaN in the middle of one.
nans["f32/wide"] = rand(r, (3, 4100), "f32", -3, 3)
nans["f32/wide"][1, 2051] = np.nan
with np.errstate(invalid="ignore"):
    suite.run([case(op, e.split("/")[0], x, -1, tag="/nan" + e[3:])
               for op in ("softmax", "log_softmax") for e, x in nans.items()])

# softmax_cross_entropy: mean over rows of logsumexp(row) - row[label].
def cross_entropy(logits, labels):
    lsm = log_softmax(logits, -1)
    return -np.mean(lsm[np.arange(len(labels)), labels])


cases = []
for elem in FLOATS:
    for n, c, scale, tag in ((8, 10, 3, ""), (5, 33, 3, "/5x33"),
                             (4, 6, 300, "/large")):
        x = rand(r, (n, c), elem, -scale, scale)
        labels = r.integers(0, c, n).astype(np.int64)
        tol = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12),
               "f16": (1e-2, 1e-2), "bf16": (2e-2, 2e-2)}[elem]
        if tag == "/large" and elem in ("f32", "bf16", "f16"):
            tol = (tol[0], tol[1] * scale)
        cases.append(Case(
            "cross_entropy/%s%s" % (elem, tag),
            [("%x", T((n, c), elem), x), ("%l", T((n,), "i64"), labels)],
            "%y = rlx.softmax_cross_entropy %x, %l : {}, {}".format(
                T((n, c), elem), T((n,), "i64")),
            [("%y", T((), elem))], [cross_entropy(x, labels)], tol))
x = rand(r, (7, 12), "f32", -3, 3)
labels = r.integers(0, 12, 7).astype(np.int64)
cases.append(Case("cross_entropy/f32/dyn",
                  [("%x", "tensor<?x12xf32>", x), ("%l", "tensor<?xi64>",
                                                   labels)],
                  "%y = rlx.softmax_cross_entropy %x, %l : tensor<?x12xf32>, "
                  "tensor<?xi64>", [("%y", "tensor<f32>")],
                  [cross_entropy(x, labels)], (1e-5, 1e-5)))
suite.run(cases)

suite.finish()
