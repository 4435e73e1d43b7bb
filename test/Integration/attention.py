# RUN: %python %s
# attention: every mask kind (none, causal, sliding_window, custom, bias)
# with grouped-query and multi-query heads, Skv > S and Skv < S (causal
# aligned at the end), fully masked rows (zeros), broadcast masks, an
# explicit scale, every float type and a dynamic sequence length, against an
# explicit float64 softmax(q k^T * scale + mask) v.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("attention", KNOWN_FAILURES)
CHUNK = 8  # compile time grows faster than linearly with attention ops
r = rlxtest.rng()
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "f16": (1e-2, 1e-2),
       "bf16": (2e-2, 2e-2)}


def case(name, kind, B=2, H=4, Hkv=2, S=5, Skv=5, D=8, Dv=None, elem="f32",
         window=None, mshape=None, scale=None, dyn_s=False):
    Dv = Dv or D
    q = rand(r, (B, H, S, D), elem, -1.5, 1.5)
    k = rand(r, (B, Hkv, Skv, D), elem, -1.5, 1.5)
    v = rand(r, (B, Hkv, Skv, Dv), elem, -1, 1)
    dims = lambda s: (s[0], s[1], None, s[3]) if dyn_s else s
    tq, tk, tv = (T(dims(a.shape), elem) for a in (q, k, v))
    args = [("%q", tq, q), ("%k", tk, k), ("%v", tv, v)]
    mask = None
    if kind == "custom":
        mask = r.random(mshape) < 0.6
    elif kind == "bias":
        mask = rand(r, mshape, elem, -2, 2)
    if mask is not None:
        args.append(("%m", T(mshape, "i1" if kind == "custom" else elem), mask))
    attrs = " window = %d" % window if window else ""
    if scale is not None:
        attrs += " {scale = %.6e : f32}" % scale
    body = "%o = rlx.attention %q, %k, %v{} mask = {}{} : {}".format(
        ", %m" if mask is not None else "", kind, attrs,
        ", ".join(t for _, t, _ in args))
    e = rlxtest.attention_reference(q, k, v, kind, window, mask, scale)
    return Case("%s/%s/%s" % (kind, elem, name), args, body,
                [("%o", T(dims(e.shape), elem))], [e], TOL[elem])


suite.run([
    case("mha", "none", Hkv=4),
    case("gqa_skv7_dv6", "none", Hkv=2, Skv=7, Dv=6),
    case("mqa", "none", Hkv=1, S=3, Skv=9),
    case("gqa", "causal", Hkv=2, S=6, Skv=6),
    case("mqa_skv_gt_s", "causal", Hkv=1, S=3, Skv=7),
    case("skv_lt_s", "causal", Hkv=2, S=6, Skv=4),  # rows 0, 1 see nothing
    case("w3_gqa", "sliding_window", Hkv=2, S=8, Skv=8, window=3),
    case("w2_skv_gt_s", "sliding_window", Hkv=4, S=4, Skv=9, window=2),
    case("w1", "sliding_window", Hkv=1, S=5, Skv=5, window=1),
    case("w_wide", "sliding_window", Hkv=2, S=5, Skv=6, window=100),
    case("full_gqa", "custom", Hkv=2, S=5, Skv=7, mshape=(2, 4, 5, 7)),
    case("s_skv", "custom", Hkv=1, S=4, Skv=6, mshape=(4, 6)),
    case("skv", "custom", Hkv=2, S=4, Skv=6, mshape=(6,)),
    case("padding", "custom", Hkv=4, S=3, Skv=5, mshape=(2, 1, 1, 5)),
    case("full_gqa", "bias", Hkv=2, S=5, Skv=7, mshape=(2, 4, 5, 7)),
    case("b1s_skv", "bias", Hkv=1, S=4, Skv=6, mshape=(2, 1, 4, 6)),
    case("scalar", "bias", Hkv=2, S=4, Skv=4, mshape=(1, 1, 1, 1)),
    case("skv", "bias", Hkv=2, S=3, Skv=5, mshape=(5,)),
    case("scale", "none", Hkv=2, scale=0.25),
    case("scale", "causal", Hkv=1, S=4, Skv=6, scale=2.0),
    case("decode", "causal", Hkv=1, S=1, Skv=9),
    case("decode_w4", "sliding_window", Hkv=2, S=1, Skv=9, window=4),
    case("dyn_s", "causal", Hkv=2, S=5, Skv=5, dyn_s=True),
    case("dyn_s", "none", Hkv=1, S=3, Skv=6, dyn_s=True),
], chunk=CHUNK)

# Custom masks with fully masked rows (and a fully masked batch) give zeros.
m = r.random((2, 4, 5, 6)) < 0.6
m[0, 1, 2] = False
m[1, :, 4] = False
q, k, v = (rand(r, s, "f32", -1.5, 1.5) for s in
           ((2, 4, 5, 8), (2, 2, 6, 8), (2, 2, 6, 8)))
tq, tk, tm = T(q.shape, "f32"), T(k.shape, "f32"), T(m.shape, "i1")
suite.run([Case("custom/f32/masked_rows",
                [("%q", tq, q), ("%k", tk, k), ("%v", tk, v), ("%m", tm, m)],
                "%o = rlx.attention %q, %k, %v, %m mask = custom : "
                "{}, {}, {}, {}".format(tq, tk, tk, tm),
                [("%o", tq)],
                [rlxtest.attention_reference(q, k, v, "custom", mask=m)],
                TOL["f32"])])

# Every mask kind on f64, f16 and bf16.
suite.run([c for e in ("f64", "f16", "bf16") for c in (
    case("gqa", "none", Hkv=2, S=4, Skv=6, elem=e),
    case("gqa", "causal", Hkv=2, S=4, Skv=6, elem=e),
    case("gqa", "sliding_window", Hkv=1, S=6, Skv=6, window=2, elem=e),
    case("gqa", "custom", Hkv=2, S=4, Skv=6, mshape=(2, 4, 4, 6), elem=e),
    case("gqa", "bias", Hkv=2, S=4, Skv=6, mshape=(2, 1, 4, 6), elem=e))],
    chunk=CHUNK)

suite.finish()
