# RUN: %python %s
# reduce (sum, mean, max, min, prod), argmax/argmin and cumsum: every element
# type, single and several axes, negative and unsorted axes, keepdim, rank-0
# results, dynamic dims, long float sums (accumulation in at least f32).

import warnings

import numpy as np

import rlxtest
from rlxtest import FLOATS, INTS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("reductions", KNOWN_FAILURES)
r = rlxtest.rng()


def reduced(dims, axes, keepdim):
    axes = [a % len(dims) for a in axes]
    return [1 if i in axes else d for i, d in enumerate(dims)
            if keepdim or i not in axes]


def values(kind, elem, shape):
    if elem in INTS:
        if kind == "prod":
            lo, hi = (1, 4) if elem.startswith("ui") else (-3, 4)
        else:
            lo, hi = {"i8": (-128, 128), "ui8": (0, 256),
                      "ui32": (2**31 - 1000, 2**31 + 1000)}.get(
                          elem, (-1000, 1000))
        return rand(r, shape, elem, lo, hi)
    if kind == "prod":
        return rand(r, shape, elem, 0.6, 1.5)
    return rand(r, shape, elem, -2, 2)


def reference(kind, x, axes, keepdim, elem):
    axes = tuple(axes)
    if elem in INTS:  # modular, as the result type wraps
        f = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}
        return np.asarray(f[kind](x.astype(np.int64), axis=axes,
                                  keepdims=keepdim)).astype(x.dtype)
    f = {"sum": np.sum, "mean": np.mean, "prod": np.prod, "max": np.max,
         "min": np.min}
    return np.asarray(f[kind](x.astype(np.float64), axis=axes,
                              keepdims=keepdim))


def tolerance(kind, elem, n):
    if elem in INTS or kind in ("max", "min"):
        return (0, 0)
    if elem == "f32":
        return (1e-5 * max(1, n ** 0.5), 1e-5 * max(1, n ** 0.5))
    if elem == "f64":
        return (1e-12, 1e-12)
    return (1e-2, 2e-2) if elem == "f16" else (1.5e-2, 4e-2)


def reduce_case(kind, elem, shape, axes, keepdim=False, dims=None, x=None,
                tag=""):
    dims = dims or shape
    x = values(kind, elem, shape) if x is None else x
    tx = T(dims, elem)
    kd = " keepdim true" if keepdim else ""
    n = int(np.prod([shape[a] for a in axes]))
    return Case("%s/%s/%s%s%s" % (kind, elem, ",".join(map(str, axes)),
                                  "/keepdim" if keepdim else "", tag),
                [("%x", tx, x)],
                "%y = rlx.reduce {} %x axes = {}{} : {}".format(
                    kind, list(axes), kd, tx),
                [("%y", T(reduced(dims, axes, keepdim), elem))],
                [reference(kind, x, axes, keepdim, elem)],
                tolerance(kind, elem, n))


KINDS = ["sum", "mean", "max", "min", "prod"]

# Every kind on every type over one middle axis.
suite.run([reduce_case(k, e, (3, 4, 5), [1]) for e in FLOATS + INTS
           for k in KINDS if k != "mean" or e in FLOATS])

# Axis variants: negative, unsorted, several, all (rank-0 result), keepdim;
# every kind on f32, sum and max on i64.
AXES = [([-1], False), ([-1], True), ([0], True), ([-3, -1], False),
        ([2, 0], False), ([0, 1, 2], False), ([0, 1, 2], True),
        ([1, -1], True)]
suite.run([reduce_case(k, "f32", (3, 4, 5), a, kd)
           for k in KINDS for a, kd in AXES] +
          [reduce_case(k, "i64", (3, 4, 5), a, kd)
           for k in ("sum", "max") for a, kd in AXES[1::2]])

# Dynamic dims, reducing the dynamic axis and the static one.
suite.run([reduce_case(k, "f32", (6, 8), a, kd, dims=(None, 8), tag="/dyn")
           for k in KINDS for a, kd in (([0], False), ([1], True))] +
          [reduce_case("sum", "i32", (5, 7), [0, 1], False,
                       dims=(None, None), tag="/dyn")])

# Long sums and means: f16/bf16 must accumulate in at least f32 (an f16
# accumulator stalls near 2048); f32 over 65536 elements.
cases = []
for elem in ("f16", "bf16", "f32"):
    for kind in ("sum", "mean"):
        x = rand(r, (2, 4096) if elem != "f32" else (65536,), elem, 0, 1)
        axes = [-1]
        c = reduce_case(kind, elem, x.shape, axes, x=x, tag="/long")
        if elem == "f32":
            c.tols = [(1e-5, 1e-5)]
        cases.append(c)
suite.run(cases)

# Column reductions: few outputs, each reducing many values over the
# leading axes (bias and norm-parameter gradients). The GPU targets split
# them over blocks and chunks; the shapes leave ragged blocks (outputs not
# a multiple of 32) and ragged chunks, and one case spans a single chunk.
cases = []
for kind in KINDS:
    # A product of 4773 factors stays finite for factors near 1.
    x = (rand(r, (37, 129, 50), "f32", 0.98, 1.02) if kind == "prod"
         else None)
    cases.append(reduce_case(kind, "f32", (37, 129, 50), [0, 1], x=x,
                             tag="/columns"))
cases += [reduce_case("sum", "f32", (4096, 3), [0], True, tag="/columns"),
          reduce_case("mean", "f32", (2, 2048, 33), [0, 1], tag="/columns-2"),
          reduce_case("sum", "f32", (300, 70), [0], tag="/columns"),
          reduce_case("max", "i32", (1000, 40), [0], tag="/columns"),
          reduce_case("sum", "bf16", (1024, 96), [0], tag="/columns")]
x = rand(r, (600, 40), "f32")
x[517, 3] = np.nan
cases += [reduce_case(k, "f32", (600, 40), [0], x=x, tag="/columns-nan")
          for k in ("max", "min")]
suite.run(cases)

# Few rows of many values (a loss over a whole batch): the GPU targets split
# the outer reduction axes off as rows of a first reduction, whose partial
# values a second one reduces.
x = rand(r, (64, 40, 30), "f32")
x[17, 3, 29] = np.nan
suite.run([reduce_case(k, "f32", (64, 40, 30), [0, 1, 2], tag="/split")
           for k in ("sum", "mean", "max", "min")] +
          [reduce_case("mean", "f32", (64, 40, 30), [0, 1, 2], True,
                       tag="/split"),
           reduce_case("sum", "f32", (3, 300, 250), [1, 2], tag="/split"),
           reduce_case("sum", "bf16", (128, 64, 16), [0, 1, 2],
                       tag="/split"),
           reduce_case("max", "f32", (64, 40, 30), [0, 1, 2], x=x,
                       tag="/split-nan")])

# max/min propagate NaN (torch.amax / torch.amin).
x = rand(r, (3, 6), "f32")
x[1, 2] = np.nan
suite.run([reduce_case(k, "f32", (3, 6), [1], x=x, tag="/nan")
           for k in ("max", "min")])

# argmax / argmin: many ties (the first index wins), every real type,
# several axes and keepdim.
def arg_values(elem, shape):
    if elem == "ui8":
        return r.choice(np.array([1, 127, 128, 255], np.uint8), shape)
    if elem == "ui32":
        return r.choice(np.array([1, 2**31 - 1, 2**31, 2**32 - 1],
                                 np.uint32), shape)
    return rlxtest.as_elem(r.integers(-2, 2, shape), elem)


def arg_case(op, elem, axis, kd):
    x = arg_values(elem, (3, 4, 6))
    tx = T((3, 4, 6), elem)
    e = (np.argmax if op == "argmax" else np.argmin)(x, axis=axis)
    if kd:
        e = np.expand_dims(e, axis)
    return Case("%s/%s/%d%s" % (op, elem, axis, "/keepdim" if kd else ""),
                [("%x", tx, x)],
                "%i = rlx.{} %x axis = {}{} : {}".format(
                    op, axis, " keepdim true" if kd else "", tx),
                [("%i", T(reduced((3, 4, 6), [axis], kd), "i64"))], [e])


# Every type along a middle axis and the last kept; f32 along every axis.
suite.run([arg_case(op, e, a, kd) for e in FLOATS + INTS
           for op, a, kd in (("argmax", 1, False), ("argmin", -1, True))] +
          [arg_case(op, "f32", a, kd) for op in ("argmax", "argmin")
           for a, kd in ((0, False), (2, False), (-3, True), (-2, True))])

# argmax / argmin treat NaN as the extreme (torch): the first NaN's index.
x = arg_values("f32", (3, 6))
x[0, 4] = x[2, 1] = x[2, 3] = np.nan
suite.run([Case("%s/f32/nan" % op, [("%x", "tensor<3x6xf32>", x)],
                "%i = rlx.{} %x axis = 1 : tensor<3x6xf32>".format(op),
                [("%i", "tensor<3xi64>")],
                [np.array([4, np.argmax(x[1]) if op == "argmax" else
                           np.argmin(x[1]), 1])])
           for op in ("argmax", "argmin")])

# Reductions over an empty (dynamic, size 0) axis: sum 0, prod 1, mean NaN.
x = np.zeros((0, 4), np.float32)
xi = np.zeros((0, 4), np.int32)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # NumPy: "Mean of empty slice"
    empty = [reduce_case(k, "f32", (0, 4), [0], dims=(None, 4), x=x,
                         tag="/empty") for k in ("sum", "prod", "mean")]
    empty += [reduce_case(k, "i32", (0, 4), [0], dims=(None, 4), x=xi,
                          tag="/empty") for k in ("sum", "prod")]
suite.run(empty)

# argmax on a dynamic dim.
x = arg_values("f32", (5, 7))
suite.run([Case("argmax/f32/dyn", [("%x", "tensor<?x7xf32>", x)],
                "%i = rlx.argmax %x axis = 0 : tensor<?x7xf32>",
                [("%i", "tensor<7xi64>")], [np.argmax(x, 0)]),
           Case("argmin/f32/dyn", [("%x", "tensor<?x7xf32>", x)],
                "%i = rlx.argmin %x axis = 1 : tensor<?x7xf32>",
                [("%i", "tensor<?xi64>")], [np.argmin(x, 1)])])

# cumsum: every real type, axes 0, 1, -1 (one case, three results), of the
# argument itself and of a computed x + x; a dynamic dim.
cases = []
for elem in FLOATS + INTS:
    for tag, src in (("", "%x"), ("/chained", "%xx")):
        x = values("sum", elem, (3, 5, 6))
        tx = T((3, 5, 6), elem)
        if elem in INTS:
            w = x.astype(np.int64) * (2 if tag else 1)
            e = [np.cumsum(w, a).astype(x.dtype) for a in (0, 1, -1)]
        else:
            w = x.astype(np.float64) * (2 if tag else 1)
            e = [np.cumsum(w, a) for a in (0, 1, -1)]
        cases.append(Case("cumsum/" + elem + tag, [("%x", tx, x)], """
            %xx = rlx.add %x, %x : {0}
            %c0 = rlx.cumsum {1} axis = 0 : {0}
            %c1 = rlx.cumsum {1} axis = 1 : {0}
            %c2 = rlx.cumsum {1} axis = -1 : {0}""".format(tx, src),
            [("%c0", tx), ("%c1", tx), ("%c2", tx)], e,
            tolerance("sum", elem, 12)))
suite.run(cases)
x = values("sum", "f32", (9, 4))
suite.run([Case("cumsum/f32/dyn", [("%x", "tensor<?x4xf32>", x)],
                "%c = rlx.cumsum %x axis = 0 : tensor<?x4xf32>",
                [("%c", "tensor<?x4xf32>")],
                [np.cumsum(x.astype(np.float64), 0)], (1e-5, 1e-5))])

suite.finish()
