# RUN: %python %s
# rlx.topk: the k largest along an axis in descending order with their
# indices, as torch.topk(largest=True, sorted=True); ties keep the lower
# index first and NaN counts as the largest value. Float, integer and
# unsigned element types, first/last/middle axes, k = 1 and k = n, dynamic
# dims, and a vocabulary-sized axis.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("topk", KNOWN_FAILURES)
r = rlxtest.rng()


def reference(x, k, axis):
    """Stable descending order, NaN first (largest)."""
    x = np.moveaxis(x, axis, -1)
    key = np.where(np.isnan(x), np.inf, x) if x.dtype.kind == "f" else x
    nan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
    # lexsort: last key is primary; sort by (not NaN, -value, index).
    idx = np.empty(x.shape, np.int64)
    for pos in np.ndindex(x.shape[:-1]):
        order = sorted(range(x.shape[-1]),
                       key=lambda i: (not nan[pos + (i,)],
                                      -float(key[pos + (i,)]), i))
        idx[pos] = order
    idx = idx[..., :k]
    vals = np.take_along_axis(x, idx, -1)
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


def case(name, elem, shape, k, axis, x=None, dynamic=()):
    """`dynamic`: the dims written as ? in the program's types."""
    if x is None:
        x = rand(r, shape, elem, -50, 50)
    v, i = reference(x, k, axis)
    t = T([None if d in dynamic else n for d, n in enumerate(shape)], elem)
    out = [None if d in dynamic else n for d, n in enumerate(shape)]
    out[axis] = k
    return Case("topk/%s/%s" % (elem, name), [("%x", t, x)],
                "%v, %i = rlx.topk %x k = {} axis = {} : {}".format(k, axis, t),
                [("%v", T(out, elem)), ("%i", T(out, "i64"))], [v, i],
                [(0, 0), (0, 0)])


ties = rlxtest.as_elem(r.integers(-2, 3, (3, 9)), "f32")
nans = rand(r, (2, 6), "f32")
nans[0, 4] = np.nan
nans[1, 1] = nans[1, 3] = np.nan
cases = [case("last", e, (4, 10), 3, -1) for e in ("f32", "f64", "f16")]
cases += [case("last", e, (5, 7), 2, 1) for e in ("i32", "i64", "ui8", "i8")]
cases += [
    case("first", "f32", (8, 3), 4, 0),
    case("middle", "f32", (2, 9, 3), 5, 1),
    case("k1", "f32", (6, 11), 1, -1),
    case("kn", "f32", (3, 6), 6, -1),
    case("ties", "f32", (3, 9), 5, -1, x=ties),
    case("nan", "f32", (2, 6), 3, -1, x=nans),
    case("dynamic", "f32", (5, 12), 4, -1, dynamic=(0, 1)),
    case("vocab", "f32", (3, 32000), 8, -1),
]
suite.run(cases)
suite.finish()
