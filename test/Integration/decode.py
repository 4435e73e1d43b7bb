# RUN: %python %s
# The LLM decoding ops against NumPy in float64, on fresh random caches
# (the positions no op may touch hold random values too, so a read or a
# write out of place shows):
# - rlx.kv_cache_write: `cache[..., pos:pos + n, :, :] = new` at position 0,
#   in the middle and at the end (pos = max_seq - n), n = 1 and n > 1
#   (n = max_seq too), ranks 3 to 5, every float type and i8 (exact:
#   data movement only), dynamic dims;
# - rlx.decode_attention: GQA ratios 1, 2 and 4, q_len 1 and > 1 (causal
#   among the new queries), lengths 1, in between and max_seq (and shorter
#   than q_len: rows that see nothing give zeros), window off, 1, smaller
#   and larger than the length, an explicit scale, every float type,
#   dynamic dims;
# - a decode step (both caches written, then attention over them) and a
#   decode loop (rlx.while carrying the cache, one row per step).
# Tolerances against the float64 reference: f32 1e-5, f64 1e-12 (rtol and
# atol), f16 1e-2 and bf16 2e-2 (the result is rounded to its type; scores
# accumulate in f32).

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("decode", KNOWN_FAILURES)
CHUNK = 8  # compile time grows faster than linearly with attention ops
r = rlxtest.rng()
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "f16": (1e-2, 1e-2),
       "bf16": (2e-2, 2e-2)}
I64 = "tensor<i64>"


def scalar(value):
    return np.array(value, np.int64)


def dyn(shape, which):
    """`shape` with the dims in `which` dynamic."""
    return tuple(None if i in which else d for i, d in enumerate(shape))


# --------------------------------------------------------------------------
# rlx.kv_cache_write
# --------------------------------------------------------------------------

def write_case(name, cache_shape, n, pos, elem="f32", dynamic=()):
    update_shape = list(cache_shape)
    update_shape[-3] = n
    lo, hi = (-100, 100) if elem == "i8" else (-2, 2)
    cache = rand(r, cache_shape, elem, lo, hi, nonzero=True)
    update = rand(r, update_shape, elem, lo, hi, nonzero=True)
    tc = T(dyn(cache_shape, dynamic), elem)
    tu = T(dyn(update_shape, dynamic), elem)
    return Case("kv_cache_write/%s/%s" % (elem, name),
                [("%c", tc, cache), ("%u", tu, update),
                 ("%p", I64, scalar(pos))],
                "%y = rlx.kv_cache_write %c, %u, %p : {}, {}, {}".format(
                    tc, tu, I64),
                [("%y", tc)],
                [rlxtest.kv_cache_write_reference(cache, update, pos)],
                (0, 0))


cases = []
for elem in ("f32", "f64", "f16", "bf16", "i8"):
    cases += [write_case("pos0", (2, 16, 2, 8), 1, 0, elem),
              write_case("middle", (2, 16, 2, 8), 1, 9, elem),
              write_case("end", (2, 16, 2, 8), 1, 15, elem),
              write_case("prompt", (1, 16, 4, 8), 5, 3, elem)]
cases += [write_case("prompt_pos0", (1, 12, 2, 4), 7, 0),
          write_case("prompt_end", (2, 12, 2, 4), 4, 8),
          write_case("whole_cache", (1, 6, 2, 4), 6, 0),
          write_case("rank3", (10, 3, 4), 2, 5),
          write_case("rank5", (2, 3, 8, 2, 4), 3, 4),
          write_case("dyn_seq", (2, 16, 2, 8), 3, 6, dynamic=(1,)),
          write_case("dyn_all", (2, 10, 2, 6), 2, 7, dynamic=(0, 1, 2, 3))]
suite.run(cases)

# --------------------------------------------------------------------------
# rlx.decode_attention
# --------------------------------------------------------------------------


def attention_case(name, length, B=2, H=4, Hkv=2, S=1, M=16, D=8, Dv=None,
                   window=0, scale=None, elem="f32", dynamic=()):
    Dv = Dv or D
    q = rand(r, (B, H, S, D), elem, -1.5, 1.5, nonzero=True)
    k = rand(r, (B, M, Hkv, D), elem, -1.5, 1.5, nonzero=True)
    v = rand(r, (B, M, Hkv, Dv), elem, -1, 1, nonzero=True)
    # dynamic: q's batch and length, the caches' batch, max_seq (if
    # "max_seq" is in `dynamic`) and head dims (the query heads stay static:
    # the kv head of a query head is an affine map of it).
    qdims = (0, 2) if dynamic else ()
    cdims = ((0, 3) + ((1,) if "max_seq" in dynamic else ())) if dynamic \
        else ()
    tq = T(dyn(q.shape, qdims), elem)
    tk, tv = (T(dyn(a.shape, cdims), elem) for a in (k, v))
    attrs = ["num_kv_heads = %d : i64" % Hkv]
    if window:
        attrs.append("window = %d : i64" % window)
    if scale is not None:
        attrs.append("scale = %.6e : f32" % scale)
    body = ("%o = rlx.decode_attention %q, %k, %v, %l {{{}}} : {}, {}, {}, {}"
            .format(", ".join(attrs), tq, tk, tv, I64))
    e = rlxtest.decode_attention_reference(q, k, v, length, window, scale)
    to = T(dyn(e.shape, qdims + ((3,) if dynamic else ())), elem)
    return Case("decode_attention/%s/%s" % (elem, name),
                [("%q", tq, q), ("%k", tk, k), ("%v", tv, v),
                 ("%l", I64, scalar(length))],
                body, [("%o", to)], [e], TOL[elem])


cases = []
for ratio, Hkv in ((1, 4), (2, 2), (4, 1)):
    H = ratio * Hkv
    g = "gqa%d" % ratio
    cases += [
        attention_case(g + "/len1", 1, H=H, Hkv=Hkv),
        attention_case(g + "/len9", 9, H=H, Hkv=Hkv),
        attention_case(g + "/len_max", 16, H=H, Hkv=Hkv),
        attention_case(g + "/q3_len7", 7, H=H, Hkv=Hkv, S=3),
        attention_case(g + "/q4_len_max", 16, H=H, Hkv=Hkv, S=4),
        attention_case(g + "/w4_len11", 11, H=H, Hkv=Hkv, window=4),
        attention_case(g + "/w3_q3_len_max", 16, H=H, Hkv=Hkv, S=3,
                       window=3),
    ]
cases += [
    # The first prompt chunk: length = q_len, positions 0..S-1.
    attention_case("prefill_len5", 5, S=5),
    # Fewer valid positions than queries: the first rows see nothing.
    attention_case("q4_len2", 2, S=4),
    attention_case("len0", 0, S=2),
    attention_case("w1", 10, window=1),
    attention_case("w1_q3", 10, S=3, window=1),
    attention_case("w_wider_than_len", 6, S=2, window=12),
    attention_case("w_max_seq", 16, window=16),
    attention_case("dv6", 8, D=8, Dv=6),
    attention_case("scale", 12, scale=0.25),
    attention_case("scale_w5_q2", 14, S=2, window=5, scale=2.0),
    attention_case("b1_h8_m32_d16", 23, B=1, H=8, Hkv=2, M=32, D=16),
    attention_case("dyn", 11, S=3, window=6, dynamic=("dims",)),
    attention_case("dyn_len_max", 16, S=2, dynamic=("dims",)),
]
for elem in ("f64", "f16", "bf16"):
    cases += [attention_case("gqa2/len9", 9, elem=elem),
              attention_case("gqa4/q3_len_max", 16, H=4, Hkv=1, S=3,
                             elem=elem),
              attention_case("gqa2/w4_q2_len12", 12, S=2, window=4,
                             elem=elem)]
suite.run(cases, chunk=CHUNK)

# A dynamic max_seq gives the score rows a dynamic length: each thread of a
# chunked kernel needs its own row temporary (rlx-cpu-outline-kernels moves
# a dynamically sized one into the kernel).
suite.run([
    attention_case("dyn_max_seq", 9, S=2, dynamic=("dims", "max_seq")),
    attention_case("dyn_max_seq_w3", 14, S=1, window=3,
                   dynamic=("dims", "max_seq"))], chunk=CHUNK)

# --------------------------------------------------------------------------
# A decode step and a decode loop
# --------------------------------------------------------------------------


def step_case(name, pos, n=1, B=1, H=8, Hkv=2, M=16, D=8, window=0):
    """Both caches written with n new rows at `pos`, then attention of the
    n new queries over the first pos + n positions."""
    q = rand(r, (B, H, n, D), "f32", -1.5, 1.5, nonzero=True)
    kc, vc = (rand(r, (B, M, Hkv, D), "f32", -1, 1, nonzero=True)
              for _ in range(2))
    kn, vn = (rand(r, (B, n, Hkv, D), "f32", -1, 1, nonzero=True)
              for _ in range(2))
    tq, tc, tn = T(q.shape, "f32"), T(kc.shape, "f32"), T(kn.shape, "f32")
    k2 = rlxtest.kv_cache_write_reference(kc, kn, pos)
    v2 = rlxtest.kv_cache_write_reference(vc, vn, pos)
    o = rlxtest.decode_attention_reference(q, k2, v2, pos + n, window)
    attrs = "num_kv_heads = %d : i64, window = %d : i64" % (Hkv, window)
    body = """
      %k2 = rlx.kv_cache_write %kc, %kn, %p : {c}, {n}, {i}
      %v2 = rlx.kv_cache_write %vc, %vn, %p : {c}, {n}, {i}
      %len = rlx.add %p, %n_new : {i}
      %o = rlx.decode_attention %q, %k2, %v2, %len {{{a}}} : {q}, {c}, {c}, {i}
    """.format(c=tc, n=tn, i=I64, q=tq, a=attrs)
    return Case("step/%s" % name,
                [("%q", tq, q), ("%kc", tc, kc), ("%vc", tc, vc),
                 ("%kn", tn, kn), ("%vn", tn, vn), ("%p", I64, scalar(pos)),
                 ("%n_new", I64, scalar(n))],
                body, [("%o", tq), ("%k2", tc), ("%v2", tc)],
                [o, k2, v2], [TOL["f32"], (0, 0), (0, 0)])


def loop_case(name, start, stop, B=1, H=4, Hkv=2, M=12, D=8, window=0):
    """rlx.while from position `start` to `stop`: each step writes the row
    `kn` at the position into the carried cache (as keys and values) and
    attends over it with `q`; returns the cache and the last output."""
    q = rand(r, (B, H, 1, D), "f32", -1.5, 1.5, nonzero=True)
    kc = rand(r, (B, M, Hkv, D), "f32", -1, 1, nonzero=True)
    kn = rand(r, (B, 1, Hkv, D), "f32", -1, 1, nonzero=True)
    tq, tc, tn = T(q.shape, "f32"), T(kc.shape, "f32"), T(kn.shape, "f32")
    cache, out = kc, q.astype(np.float64)
    for p in range(start, stop):
        cache = rlxtest.kv_cache_write_reference(cache, kn, p)
        out = rlxtest.decode_attention_reference(q, cache, cache, p + 1,
                                                 window)
    attrs = "num_kv_heads = %d : i64, window = %d : i64" % (Hkv, window)
    body = """
      %one = rlx.constant dense<1> : {i}
      %r:3 = rlx.while (%kc, %start, %q) : ({c}, {i}, {q}) cond {{
      ^bb0(%c: {c}, %p: {i}, %o: {q}):
        %b = rlx.cmp lt, %p, %stop : {i}
        rlx.yield %b : tensor<i1>
      }} do {{
      ^bb0(%c: {c}, %p: {i}, %o: {q}):
        %c2 = rlx.kv_cache_write %c, %kn, %p : {c}, {n}, {i}
        %p2 = rlx.add %p, %one : {i}
        %a = rlx.decode_attention %q, %c2, %c2, %p2 {{{a}}} : {q}, {c}, {c}, {i}
        rlx.yield %c2, %p2, %a : {c}, {i}, {q}
      }}
    """.format(c=tc, n=tn, i=I64, q=tq, a=attrs)
    return Case("loop/%s" % name,
                [("%q", tq, q), ("%kc", tc, kc), ("%kn", tn, kn),
                 ("%start", I64, scalar(start)), ("%stop", I64, scalar(stop))],
                body, [("%r#0", tc), ("%r#2", tq)],
                [cache, out], [(0, 0), TOL["f32"]])


suite.run([step_case("pos0", 0), step_case("pos7", 7),
           step_case("last", 15), step_case("prompt_pos0", 0, n=4),
           step_case("chunk_pos5", 5, n=3), step_case("w4_pos10", 10,
                                                      window=4),
           step_case("mha", 6, H=2, Hkv=2), step_case("mqa", 6, H=4, Hkv=1)],
          chunk=4)
suite.run([loop_case("pos0_to_5", 0, 5), loop_case("pos3_to_max", 3, 12),
           loop_case("w3_pos2_to_9", 2, 9, window=3)], chunk=1)

suite.finish()
