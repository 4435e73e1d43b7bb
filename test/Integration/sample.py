# RUN: %python %s
# rlx.sample against an independent NumPy reimplementation of its
# definition (the same counter-based RNG; the softmax, the filters and the
# running sums in float64), on fresh random logits and seeds:
# - greedy (temperature 0; ties go to the first index), temperature only,
#   top_k only (k = 1, small, >= V), top_p only, all together; B = 1 and 3
#   (and rank-1 logits), V = 7, 1000 and 32000; f32, f16, bf16 and f64;
#   logits with many ties (integers) for the order (logit descending,
#   index ascending); dynamic dims.
# - the distribution: 2000 draws at V = 5 (one row per draw, so 2000
#   counters of the RNG) against the filtered softmax, each token's count
#   within 5 binomial sigmas (+1 for the count's discreteness) and no
#   filtered token drawn.
# The compiler computes the softmax in f32 (f64 for f64 logits), so a
# value that falls within 1e-6 (relative) of a boundary of the reference
# (a top_p cut, or u * total at a running sum) accepts either neighbour.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []
EPS = 1e-6
MASK = (1 << 64) - 1
I64 = "tensor<i64>"
r = rlxtest.rng()


def uniform(seed, row):
    """u in [0, 1) of (seed, row) as rlx.sample defines it."""
    z = (seed + 0x9E3779B97F4A7C15 * (row + 1)) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return (z >> 40) * 2.0 ** -24


def first_above(cum, value):
    """The first index with cum[i] > value (the last one if none)."""
    return min(int(np.searchsorted(cum, value, side="right")), len(cum) - 1)


def row_reference(x, seed, row, temperature, top_k, top_p):
    """The set of tokens that rlx.sample may return for logits row `x`
    (float64 values of the logits; the attributes as f32 values)."""
    V = len(x)
    if temperature == 0:
        return {int(np.argmax(x))}
    order = np.lexsort((np.arange(V), -x))  # logit descending, index asc.
    s = x / temperature
    e = np.exp(s - s.max())
    keep = np.zeros(V, bool)
    keep[order[:min(top_k, V) if top_k else V]] = True
    cuts = [V]  # kept prefix lengths of `order` (top_p's alternatives)
    if top_p < 1:
        ms = np.where(keep, e, 0)[order]
        cum = np.cumsum(ms)
        target = top_p * cum[-1]
        lo = int(np.searchsorted(cum, target * (1 - EPS), side="left"))
        hi = int(np.searchsorted(cum, target * (1 + EPS), side="left"))
        cuts = range(lo + 1, min(hi, V - 1) + 2)
    u = uniform(seed, row)
    accept = set()
    for n in cuts:
        w = np.zeros(V)
        sel = order[:n][keep[order[:n]]]
        w[sel] = e[sel]
        cum = np.cumsum(w)
        total = cum[-1]
        a = first_above(cum, u * total * (1 - EPS) - EPS * total)
        b = first_above(cum, u * total * (1 + EPS) + EPS * total)
        accept |= {i for i in range(a, b + 1) if w[i] > 0}
    return accept


def f32(v):
    return float(np.float32(v))


def attrs(temperature, top_k, top_p):
    out = ["temperature = %s : f32" % repr(f32(temperature))]
    if top_k:
        out.append("top_k = %d : i64" % top_k)
    if top_p < 1:
        out.append("top_p = %s : f32" % repr(f32(top_p)))
    return "{" + ", ".join(out) + "}"


def sample_case(name, shape, temperature=1.0, top_k=0, top_p=1.0,
                elem="f32", logits=None, dynamic=False, seed=None):
    if logits is None:
        logits = rand(r, shape, elem, -4, 4)
    seed = int(r.integers(-2 ** 63, 2 ** 63 - 1)) if seed is None else seed
    x = np.asarray(logits, np.float64).reshape(-1, shape[-1])
    t, p = f32(temperature), f32(top_p)
    expected = [row_reference(x[i], seed & MASK, i, t, top_k, p)
                for i in range(x.shape[0])]
    tl = T([None] * len(shape) if dynamic else shape, elem)
    to = T(([None] if dynamic else list(shape[:-1])), "i64") \
        if len(shape) == 2 else I64
    body = "%y = rlx.sample %l, %s {} : {}, {}".format(
        attrs(temperature, top_k, top_p), tl, I64)
    return Case("sample/%s/%s" % (elem, name),
                [("%l", tl, logits), ("%s", I64, np.array(seed, np.int64))],
                body, [("%y", to)], [expected])


class SampleSuite(Suite):
    """Checks that each row's token is one of the reference's."""

    def _check(self, c, outs):
        (got,), (accept,) = outs, c.expected
        got = np.asarray(got).reshape(-1)
        if got.dtype != np.int64 or len(got) != len(accept):
            return "%s: got %r" % (c.name, got)
        for row, (g, a) in enumerate(zip(got, accept)):
            if int(g) not in a:
                return "%s: row %d drew %d, expected one of %s" % (
                    c.name, row, g, sorted(a)[:8])
        return None


suite = SampleSuite("sample", KNOWN_FAILURES)

cases = []
FILTERS = [("greedy", dict(temperature=0)),
           ("temperature", dict(temperature=0.7)),
           ("hot", dict(temperature=1.6)),
           ("top_k1", dict(top_k=1)),
           ("top_k", dict(top_k=5)),
           ("top_k_all", dict(top_k=100000)),
           ("top_p", dict(top_p=0.9)),
           ("top_p_small", dict(top_p=0.05)),
           ("all", dict(temperature=0.8, top_k=40, top_p=0.92))]
for V in (7, 1000, 32000):
    for B in (1, 3):
        for fname, kw in FILTERS:
            cases.append(sample_case("%s/B%d_V%d" % (fname, B, V), (B, V),
                                     **kw))
for fname, kw in FILTERS:
    cases.append(sample_case("%s/vector" % fname, (1000,), **kw))
for elem in ("f16", "bf16", "f64"):
    for fname, kw in FILTERS:
        cases.append(sample_case("%s/B3_V1000" % fname, (3, 1000), elem=elem,
                                 **kw))
# Many ties: integer logits (the order breaks them by index).
for fname, kw in FILTERS:
    ties = r.integers(-3, 4, (3, 50)).astype(np.float32)
    cases.append(sample_case("%s/ties" % fname, (3, 50), logits=ties, **kw))
for fname, kw in (("greedy", dict(temperature=0)),
                  ("all", dict(temperature=0.8, top_k=40, top_p=0.92))):
    cases.append(sample_case("%s/dynamic" % fname, (3, 1000), dynamic=True,
                             **kw))
cases.append(sample_case("seed0", (3, 1000), seed=0))
cases.append(sample_case("seed_min", (3, 1000), seed=-2 ** 63))
suite.run(cases, chunk=12)


# The distribution over 2000 rows (counters) of the same logits at V = 5.
N, V = 2000, 5


def distribution_check(name, temperature=1.0, top_k=0, top_p=1.0):
    row = rand(r, (V,), "f32", -1.5, 1.5)
    logits = np.tile(row, (N, 1))
    seed = int(r.integers(0, 2 ** 62))
    t, p = f32(temperature), f32(top_p)
    x = row.astype(np.float64)
    order = np.lexsort((np.arange(V), -x))
    e = np.exp(x / t - (x / t).max())
    keep = np.zeros(V, bool)
    keep[order[:top_k or V]] = True
    e = np.where(keep, e, 0)
    if p < 1:
        cum = np.cumsum(e[order])
        n = int(np.searchsorted(cum, p * cum[-1], side="left")) + 1
        keep[order[n:]] = False
        e = np.where(keep, e, 0)
    prob = e / e.sum()
    tl, to = T((N, V), "f32"), T((N,), "i64")
    src = rlxtest.function_text([Case(
        "dist", [("%l", tl, logits), ("%s", I64, np.array(seed, np.int64))],
        "%y = rlx.sample %l, %s {} : {}, {}".format(
            attrs(temperature, top_k, top_p), tl, I64),
        [("%y", to)], [None])])

    def check():
        rc, log, outs = rlxtest.run(src, [logits, np.array(seed, np.int64)],
                                    1)
        assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-2000:])
        counts = np.bincount(outs[0], minlength=V)
        assert len(counts) == V, "token out of range: %r" % counts
        for j in range(V):
            sigma = np.sqrt(N * prob[j] * (1 - prob[j]))
            assert abs(counts[j] - N * prob[j]) <= 5 * sigma + 1, (
                "token %d drawn %d times of %d, expected %.1f +- 5 * %.2f "
                "(probabilities %s)" % (j, counts[j], N, N * prob[j], sigma,
                                        np.round(prob, 4)))
    suite.check("sample/distribution/" + name, check)


distribution_check("temperature", temperature=0.9)
distribution_check("top_k", top_k=3)
distribution_check("top_p", top_p=0.7)
distribution_check("all", temperature=1.3, top_k=4, top_p=0.8)
suite.finish()
