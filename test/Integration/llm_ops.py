# RUN: %python %s
# The LLM layer ops against float64 NumPy on fresh random inputs, three
# seeds per run (RLX_TEST_SEED, + 1, + 2):
# - rlx.lora_matmul: x @ W + scale * (x @ A) @ B with odd shapes (K = 37,
#   r = 1 and 3, rows 5 and 2x3, a vector x), scales 0, negative, 2, every
#   float type, dynamic dims; and its gradient (rlx.grad of
#   sum(g * lora_matmul(x, W, A, B)) with respect to all four operands)
#   against the analytic NumPy gradients in float64.
# - rlx.grouped_matmul: x[r] @ W[idx[r]] with R = 5 and 13 rows, K = 37,
#   E = 1, 3 and 8 experts (some unused, rows unsorted), i32 and i64
#   indices, indices out of range (negative, >= E: clamped; also the i64
#   extremes under rlx-run --check-bounds: no read outside the weights),
#   every float type, dynamic dims.
# - rlx.gated_delta_net: Hugging Face's torch_recurrent_gated_delta_rule
#   (no l2norm) transcribed in float64 NumPy, T = 1 (a decode step), 7 and
#   13 steps, Dk != Dv (5 and 3, 8 and 6), B = 2, H = 3, a zero and a random
#   initial state, decays g in [-2, 0) (and 0: no decay), beta in (0, 1),
#   every float type, dynamic dims; and two chained calls (the first's
#   final state fed to the second) equal to one call over both halves.
# Tolerances against the float64 reference: those of a matmul over the
# reduction length (rlxtest.matmul_tolerance, doubled: two products are
# summed); gradients in f64 to 1e-10 relative to the largest entry;
# gated_delta_net f32 1e-5, f64 1e-12, f16 2e-2 and bf16 5e-2 (the
# operands are rounded to their type, the recurrence runs in f32, the
# results are rounded), each relative to the largest entry of the result.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("llm_ops", KNOWN_FAILURES)
SEEDS = [rlxtest.SEED + i for i in range(3)]


def dyn(shape, which):
    """`shape` with the dims in `which` dynamic."""
    return tuple(None if i in which else d for i, d in enumerate(shape))


def f64(x):
    return np.asarray(x, np.float64)


# --------------------------------------------------------------------------
# rlx.lora_matmul
# --------------------------------------------------------------------------

def lora_reference(x, w, a, b, scale):
    x, w, a, b = f64(x), f64(w), f64(a), f64(b)
    return x @ w + scale * ((x @ a) @ b)


def lora_case(r, name, xshape, n, rank, scale, elem="f32", dynamic=()):
    k = xshape[-1]
    x = rand(r, xshape, elem, -1, 1)
    w = rand(r, (k, n), elem, -1, 1)
    a = rand(r, (k, rank), elem, -1, 1)
    b = rand(r, (rank, n), elem, -1, 1)
    e = lora_reference(x, w, a, b, scale)
    tx = T(dyn(x.shape, dynamic), elem)
    tw, ta, tb = T(w.shape, elem), T(a.shape, elem), T(b.shape, elem)
    # The result's last dim is N, static from the weights.
    ty = T(dyn(e.shape, [d for d in dynamic if d < len(xshape) - 1]), elem)
    rtol, atol = rlxtest.matmul_tolerance(elem, k)
    # |scale| > 1 scales the low-rank path's rounding too.
    grow = 2 * max(1.0, abs(scale))
    return Case("lora_matmul/%s/%s" % (elem, name),
                [("%x", tx, x), ("%w", tw, w), ("%a", ta, a), ("%b", tb, b)],
                "%y = rlx.lora_matmul %x, %w, %a, %b {{scale = {:.6e} : f32}}"
                " : {}, {}, {}, {}".format(scale, tx, tw, ta, tb),
                [("%y", ty)], [e], (grow * rtol, grow * atol))


for i, seed in enumerate(SEEDS):
    r = np.random.default_rng(seed)
    cases = []
    for elem in ("f32", "f64", "f16", "bf16"):
        cases += [lora_case(r, "s%d/rows5" % i, (5, 37), 11, 3, 0.5, elem),
                  lora_case(r, "s%d/batch2x3" % i, (2, 3, 37), 9, 3, 2.0,
                            elem)]
    cases += [lora_case(r, "s%d/vector" % i, (37,), 7, 3, 1.5),
              lora_case(r, "s%d/rank1" % i, (5, 37), 11, 1, -1.25),
              lora_case(r, "s%d/scale0" % i, (5, 37), 11, 3, 0.0),
              lora_case(r, "s%d/dyn_rows" % i, (5, 37), 11, 3, 0.75,
                        dynamic=(0,)),
              lora_case(r, "s%d/dyn_all" % i, (2, 5, 37), 6, 2, 0.75,
                        dynamic=(0, 1, 2))]
    suite.run(cases)


def lora_grad_check(seed, xshape, n, rank, scale):
    """rlx.grad of L = sum(g * lora_matmul(x, W, A, B)) against
    dL/dx = g W^T + s (g B^T) A^T, dL/dW = x^T g, dL/dA = s x^T (g B^T),
    dL/dB = s (x A)^T g (rows of x flattened), in f64."""
    r = np.random.default_rng(seed)
    k = xshape[-1]
    x = rand(r, xshape, "f64", -1, 1)
    w = rand(r, (k, n), "f64", -1, 1)
    a = rand(r, (k, rank), "f64", -1, 1)
    b = rand(r, (rank, n), "f64", -1, 1)
    g = rand(r, xshape[:-1] + (n,), "f64", -1, 1)
    tx, tw, ta, tb, tg = (T(v.shape, "f64") for v in (x, w, a, b, g))
    axes = ", ".join(str(d) for d in range(len(xshape)))
    src = """
func.func @loss(%x: {tx}, %w: {tw}, %a: {ta}, %b: {tb}, %g: {tg}) -> tensor<f64> {{
  %y = rlx.lora_matmul %x, %w, %a, %b {{scale = {s:.6e} : f32}} : {tx}, {tw}, {ta}, {tb}
  %p = rlx.mul %y, %g : {tg}
  %l = rlx.reduce sum %p axes = [{axes}] : {tg}
  return %l : tensor<f64>
}}
func.func @main(%x: {tx}, %w: {tw}, %a: {ta}, %b: {tb}, %g: {tg})
    -> (tensor<f64>, {tx}, {tw}, {ta}, {tb}) {{
  %r:5 = rlx.grad @loss(%x, %w, %a, %b, %g) wrt [0, 1, 2, 3]
      : ({tx}, {tw}, {ta}, {tb}, {tg}) -> (tensor<f64>, {tx}, {tw}, {ta}, {tb})
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<f64>, {tx}, {tw}, {ta}, {tb}
}}
""".format(tx=tx, tw=tw, ta=ta, tb=tb, tg=tg, s=scale, axes=axes)
    rc, log, outs = rlxtest.run(src, [x, w, a, b, g], 5)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    # The scale is an f32 attribute: the reference uses its f32 value.
    s = float(np.float32(scale))
    x2 = x.reshape(-1, k)
    g2 = g.reshape(-1, n)
    expected = [
        np.sum(lora_reference(x, w, a, b, s) * g),
        (g2 @ w.T + s * (g2 @ b.T) @ a.T).reshape(x.shape),
        x2.T @ g2,
        s * x2.T @ (g2 @ b.T),
        s * (x2 @ a).T @ g2,
    ]
    for name, got, want in zip(("loss", "dx", "dW", "dA", "dB"), outs,
                               expected):
        atol = 1e-10 * max(1.0, float(np.max(np.abs(want))))
        rlxtest.assert_close(got, want, 1e-10, atol,
                             "lora_matmul grad %s (seed %d)" % (name, seed))


for i, seed in enumerate(SEEDS):
    suite.check("lora_matmul/grad/s%d/rows5" % i,
                lambda: lora_grad_check(seed, (5, 37), 11, 3, 0.5))
    suite.check("lora_matmul/grad/s%d/batch2x3" % i,
                lambda: lora_grad_check(seed, (2, 3, 37), 9, 2, -1.75))


# --------------------------------------------------------------------------
# rlx.grouped_matmul
# --------------------------------------------------------------------------

def grouped_reference(x, w, idx):
    e = np.clip(np.asarray(idx, np.int64), 0, w.shape[0] - 1)
    return np.einsum("rk,rkn->rn", f64(x), f64(w)[e])


def grouped_case(r, name, rows, k, n, experts, elem="f32", ielem="i64",
                 out_of_range=False, dynamic=()):
    x = rand(r, (rows, k), elem, -1, 1)
    w = rand(r, (experts, k, n), elem, -1, 1)
    lo, hi = (-3, experts + 3) if out_of_range else (0, experts)
    idx = r.integers(lo, hi, rows).astype(rlxtest.NPY[ielem])
    if out_of_range:  # at least one below and one above
        idx[0], idx[-1] = -2, experts + 1
    e = grouped_reference(x, w, idx)
    # dynamic: 0 = R, 1 = K, 2 = E, 3 = N
    tx = T(dyn(x.shape, [d for d in dynamic if d < 2]), elem)
    tw = T(dyn(w.shape, [{1: 1, 2: 0, 3: 2}[d] for d in dynamic if d]), elem)
    ti = T(dyn(idx.shape, [0] if 0 in dynamic else []), ielem)
    ty = T(dyn(e.shape, [{0: 0, 3: 1}[d] for d in dynamic if d in (0, 3)]),
           elem)
    return Case("grouped_matmul/%s/%s" % (elem, name),
                [("%x", tx, x), ("%w", tw, w), ("%i", ti, idx)],
                "%y = rlx.grouped_matmul %x, %w, %i : {}, {}, {}".format(
                    tx, tw, ti),
                [("%y", ty)], [e], rlxtest.matmul_tolerance(elem, k))


for i, seed in enumerate(SEEDS):
    r = np.random.default_rng(seed)
    cases = []
    for elem in ("f32", "f64", "f16", "bf16"):
        cases += [grouped_case(r, "s%d/r5_e3" % i, 5, 37, 11, 3, elem)]
    cases += [
        grouped_case(r, "s%d/r13_e8_i32" % i, 13, 37, 6, 8, ielem="i32"),
        grouped_case(r, "s%d/one_expert" % i, 5, 37, 11, 1),
        grouped_case(r, "s%d/out_of_range" % i, 7, 37, 5, 3,
                     out_of_range=True),
        grouped_case(r, "s%d/out_of_range_i32" % i, 7, 37, 5, 4, ielem="i32",
                     out_of_range=True),
        grouped_case(r, "s%d/dyn_rows" % i, 5, 37, 11, 3, dynamic=(0,)),
        grouped_case(r, "s%d/dyn_all" % i, 9, 37, 7, 4, out_of_range=True,
                     dynamic=(0, 1, 2, 3)),
    ]
    suite.run(cases)



def grouped_bounds_check(seed):
    """Indices far out of range (and the extremes of i64) under rlx-run
    --check-bounds: the clamp keeps every read inside the weights."""
    r = np.random.default_rng(seed)
    x = rand(r, (6, 37), "f32", -1, 1)
    w = rand(r, (3, 37, 5), "f32", -1, 1)
    idx = np.array([-2 ** 63, -1, 0, 2, 3, 2 ** 63 - 1], np.int64)
    src = """
func.func @main(%x: tensor<6x37xf32>, %w: tensor<3x37x5xf32>, %i: tensor<6xi64>)
    -> tensor<6x5xf32> {
  %y = rlx.grouped_matmul %x, %w, %i : tensor<6x37xf32>, tensor<3x37x5xf32>, tensor<6xi64>
  return %y : tensor<6x5xf32>
}
"""
    rc, log, outs = rlxtest.run(src, [x, w, idx], 1, extra=["--check-bounds"])
    assert rc == 0, "rlx-run --check-bounds exited with %d:\n%s" % (rc, log)
    rtol, atol = rlxtest.matmul_tolerance("f32", 37)
    rlxtest.assert_close(outs[0], grouped_reference(x, w, idx), rtol, atol,
                         "grouped_matmul bounds (seed %d)" % seed,
                         dtype=np.float32)


for i, seed in enumerate(SEEDS):
    suite.check("grouped_matmul/check_bounds/s%d" % i,
                lambda: grouped_bounds_check(seed))

# --------------------------------------------------------------------------
# rlx.gated_delta_net
# --------------------------------------------------------------------------

def gated_delta_reference(q, k, v, g, beta, state):
    """torch_recurrent_gated_delta_rule without l2norm, in float64:
    q, k [B, T, H, Dk], v [B, T, H, Dv], g, beta [B, T, H], state
    [B, H, Dk, Dv] -> (out [B, T, H, Dv], final state)."""
    q, k, v, g, beta = (f64(a).swapaxes(1, 2) for a in (q, k, v, g, beta))
    s = f64(state).copy()
    b, h, t, dk = k.shape
    q = q * (1 / dk ** 0.5)
    out = np.zeros((b, h, t, v.shape[-1]))
    for i in range(t):
        s = s * np.exp(g[:, :, i])[..., None, None]
        kv_mem = (s * k[:, :, i, :, None]).sum(axis=-2)
        delta = (v[:, :, i] - kv_mem) * beta[:, :, i, None]
        s = s + k[:, :, i, :, None] * delta[..., None, :]
        out[:, :, i] = (s * q[:, :, i, :, None]).sum(axis=-2)
    return out.swapaxes(1, 2), s


GDN_TOL = {"f32": 1e-5, "f64": 1e-12, "f16": 2e-2, "bf16": 5e-2}


def gdn_operands(r, B, S, H, Dk, Dv, elem, zero_state=False, no_decay=False):
    """q, k, v, g, beta and state of S steps."""
    q = rand(r, (B, S, H, Dk), elem, -1, 1)
    k = rand(r, (B, S, H, Dk), elem, -1, 1)
    v = rand(r, (B, S, H, Dv), elem, -1, 1)
    g = rand(r, (B, S, H), elem, -2, 0)
    if no_decay:
        g = np.zeros_like(g)
    beta = rand(r, (B, S, H), elem, 0.05, 0.95)
    state = rand(r, (B, H, Dk, Dv), elem, -1, 1)
    if zero_state:
        state = np.zeros_like(state)
    return q, k, v, g, beta, state


def gdn_case(r, name, B, S, H, Dk, Dv, elem="f32", zero_state=False,
             no_decay=False, dynamic=False):
    ops = gdn_operands(r, B, S, H, Dk, Dv, elem, zero_state, no_decay)
    out, final = gated_delta_reference(*ops)
    names = ("%q", "%k", "%v", "%g", "%b", "%s")
    types = [T(dyn(a.shape, range(a.ndim) if dynamic else ()), elem)
             for a in ops]
    to = T(dyn(out.shape, range(4) if dynamic else ()), elem)
    ts = T(dyn(final.shape, range(4) if dynamic else ()), elem)
    tol = GDN_TOL[elem]
    tols = [(tol, tol * max(1.0, np.abs(e).max())) for e in (out, final)]
    return Case("gated_delta_net/%s/%s" % (elem, name),
                list(zip(names, types, ops)),
                "%o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : "
                + ", ".join(types),
                [("%o", to), ("%f", ts)], [out, final], tols)


for i, seed in enumerate(SEEDS):
    r = np.random.default_rng(seed)
    cases = []
    for elem in ("f32", "f64", "f16", "bf16"):
        cases += [gdn_case(r, "s%d/t7" % i, 2, 7, 3, 5, 3, elem)]
    cases += [
        gdn_case(r, "s%d/decode_step" % i, 2, 1, 3, 8, 6),
        gdn_case(r, "s%d/t13_zero_state" % i, 1, 13, 2, 8, 6,
                 zero_state=True),
        gdn_case(r, "s%d/no_decay" % i, 2, 7, 3, 5, 3, no_decay=True),
        gdn_case(r, "s%d/dk_eq_dv" % i, 1, 7, 4, 6, 6),
        gdn_case(r, "s%d/dynamic" % i, 2, 7, 3, 5, 3, dynamic=True),
    ]
    suite.run(cases)


def gdn_chain_check(seed):
    """Two calls over the halves of a sequence, the first's final state
    passed to the second, give the outputs and final state of one call over
    the whole sequence (and of the reference)."""
    r = np.random.default_rng(seed)
    B, T1, T2, H, Dk, Dv = 2, 3, 4, 3, 5, 4
    q, k, v, g, beta, s0 = gdn_operands(r, B, T1 + T2, H, Dk, Dv, "f32")
    halves = [[a[:, :T1] for a in (q, k, v, g, beta)],
              [a[:, T1:] for a in (q, k, v, g, beta)]]
    ty = lambda a: T(a.shape, "f32")
    a1, a2 = halves
    sig = ", ".join("%%%s1: %s" % (n, ty(a)) for n, a in zip("qkvgb", a1))
    sig += ", %%s0: %s, " % ty(s0)
    sig += ", ".join("%%%s2: %s" % (n, ty(a)) for n, a in zip("qkvgb", a2))
    t1 = ", ".join(ty(a) for a in a1)
    t2 = ", ".join(ty(a) for a in a2)
    to1 = T((B, T1, H, Dv), "f32")
    to2 = T((B, T2, H, Dv), "f32")
    ts = ty(s0)
    src = """
func.func @main({sig}) -> ({to1}, {to2}, {ts}) {{
  %o1, %s1 = rlx.gated_delta_net %q1, %k1, %v1, %g1, %b1, %s0 : {t1}, {ts}
  %o2, %s2 = rlx.gated_delta_net %q2, %k2, %v2, %g2, %b2, %s1 : {t2}, {ts}
  return %o1, %o2, %s2 : {to1}, {to2}, {ts}
}}
""".format(sig=sig, to1=to1, to2=to2, ts=ts, t1=t1, t2=t2)
    rc, log, outs = rlxtest.run(src, a1 + [s0] + a2, 3)
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log)
    out, final = gated_delta_reference(q, k, v, g, beta, s0)
    for what, got, want in (("out[:T1]", outs[0], out[:, :T1]),
                            ("out[T1:]", outs[1], out[:, T1:]),
                            ("final state", outs[2], final)):
        rlxtest.assert_close(got, want.astype(np.float32), 1e-5,
                             1e-5 * max(1.0, np.abs(want).max()),
                             "gated_delta_net chain %s (seed %d)" %
                             (what, seed))


for i, seed in enumerate(SEEDS):
    suite.check("gated_delta_net/chain/s%d" % i,
                lambda: gdn_chain_check(seed))

suite.finish()
