# RUN: %python %s
# Every rlx and rlx_hir op built from Python (the generated builders) and
# run on the CPU (rlx.compile) against a NumPy float64 reference, on fresh
# random inputs (the seed is printed; RLX_TEST_SEED=N repeats a run). An op
# of the dialects that is neither run here nor listed in ELSEWHERE with
# where it is checked fails the test, so new ops cannot go unnoticed.
import math
import sys

import numpy as np

import rlx
import rlxtest

ctx = rlx.Context()
r = rlxtest.rng()
print("seed", rlxtest.SEED)

CASES = []


def case(op, build, inputs, reference, rtol=1e-5, atol=1e-6):
    """`op` names the op of rlx.ops, or of rlx.hir as "hir.<op>"."""
    CASES.append((op, build, inputs, reference, rtol, atol))


def f32(*shape, lo=-2.0, hi=2.0):
    return r.uniform(lo, hi, shape).astype(np.float32)


erf = np.vectorize(math.erf)
X, Y, B = f32(4, 8), f32(4, 8), f32(8)
P = f32(4, 8, lo=0.5, hi=3.0)  # positive

# Elementwise, unary.
for name, ref, x in [
        ("abs", np.abs, X), ("atan", np.arctan, X), ("cos", np.cos, X),
        ("exp", np.exp, X), ("log", np.log, P), ("neg", np.negative, X),
        ("relu", lambda v: np.maximum(v, 0), X), ("sin", np.sin, X),
        ("sqrt", np.sqrt, P), ("rsqrt", lambda v: 1 / np.sqrt(v), P),
        ("sigmoid", lambda v: 1 / (1 + np.exp(-v)), X),
        ("silu", lambda v: v / (1 + np.exp(-v)), X),
        ("tan", np.tan, f32(4, 8, lo=-1.2, hi=1.2)), ("tanh", np.tanh, X),
        ("round", np.round, X * 3), ("stop_gradient", lambda v: v, X)]:
    case(name, getattr(rlx, name), [x], ref)
case("gelu", rlx.gelu, [X], lambda v: 0.5 * v * (1 + erf(v / math.sqrt(2))))
case("gelu", lambda v: rlx.gelu(v, approximate="tanh"), [X],
     lambda v: 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                      (v + 0.044715 * v ** 3))))

# Elementwise, binary and ternary, with broadcasting.
for name, ref, a, b in [
        ("add", np.add, X, B), ("sub", np.subtract, X, Y),
        ("mul", np.multiply, X, B), ("div", np.divide, X, P),
        ("max", np.maximum, X, Y), ("min", np.minimum, X, B),
        ("pow", np.power, P, X)]:
    case(name, getattr(rlx, name), [a, b], ref)
case("fma", rlx.fma, [X, Y, B], lambda a, b, c: a * b + c)
case("cmp", lambda a, b: rlx.cmp(a, b, predicate="lt"), [X, Y], np.less)
case("where", lambda c, a, b: rlx.where(rlx.cmp(c, a, predicate="gt"), a, b),
     [X, Y, B], lambda c, a, b: np.where(c > a, a, b))
case("cast", lambda v: rlx.cast(v, result_types=[ctx.tensor((4, 8), "f64")]),
     [X], lambda v: v, rtol=0, atol=0)

# Reductions and normalizations along an axis.
for kind, ref in [("sum", np.sum), ("mean", np.mean), ("max", np.max),
                  ("min", np.min), ("prod", np.prod)]:
    case("reduce", lambda v, kind=kind: rlx.reduce(v, kind=kind, axes=[1]),
         [f32(4, 8, lo=0.5, hi=1.5)], lambda v, ref=ref: ref(v, axis=1))
case("reduce", lambda v: rlx.reduce(v, kind="sum", axes=[0, 1], keepdim=True),
     [X], lambda v: v.sum(keepdims=True))
case("argmax", lambda v: rlx.argmax(v, axis=1), [X],
     lambda v: np.argmax(v, axis=1), rtol=0, atol=0)
case("argmin", lambda v: rlx.argmin(v, axis=0), [X],
     lambda v: np.argmin(v, axis=0), rtol=0, atol=0)
case("cumsum", lambda v: rlx.cumsum(v, axis=1), [X],
     lambda v: np.cumsum(v, axis=1))


def softmax(v, axis=-1):
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


case("softmax", lambda v: rlx.softmax(v, axis=1), [X], softmax)
case("log_softmax", lambda v: rlx.log_softmax(v, axis=1), [X],
     lambda v: np.log(softmax(v)))
LABELS = r.integers(0, 8, 4).astype(np.int64)
case("softmax_cross_entropy", rlx.softmax_cross_entropy, [X, LABELS],
     lambda v, l: -np.mean(np.log(softmax(v))[np.arange(4), l]))
case("topk", lambda v: rlx.topk(v, k=3, axis=1), [X],
     lambda v: (-np.sort(-v, axis=1)[:, :3],
                np.argsort(-v, axis=1, kind="stable")[:, :3]), atol=0)
G, BETA = f32(8, lo=0.5, hi=1.5), f32(8)
case("layer_norm", lambda v, g, b: rlx.layer_norm(v, g, b, epsilon=1e-5),
     [X, G, BETA], lambda v, g, b: rlxtest.layer_norm_reference(v, g, b, 1e-5),
     rtol=1e-4, atol=1e-5)
case("rms_norm", lambda v, g: rlx.rms_norm(v, g, epsilon=1e-6), [X, G],
     lambda v, g: rlxtest.rms_norm_reference(v, g, 1e-6), rtol=1e-4,
     atol=1e-5)
NCHW = f32(2, 4, 3, 3)
C4a, C4b = f32(4, lo=0.5, hi=1.5), f32(4)


def group_norm(v, g, b, groups=2, eps=1e-5):
    n, c = v.shape[:2]
    w = v.reshape(n, groups, -1)
    w = (w - w.mean(-1, keepdims=True)) / np.sqrt(w.var(-1, keepdims=True) + eps)
    return w.reshape(v.shape) * g.reshape(1, c, 1, 1) + b.reshape(1, c, 1, 1)


case("group_norm", lambda v, g, b: rlx.group_norm(v, g, b, num_groups=2),
     [NCHW, C4a, C4b], group_norm, rtol=1e-4, atol=1e-5)
MEAN, VAR = f32(4), f32(4, lo=0.5, hi=2.0)
case("batch_norm_inference", rlx.batch_norm_inference,
     [NCHW, C4a, C4b, MEAN, VAR],
     lambda v, g, b, m, s: (v - m.reshape(1, 4, 1, 1)) /
     np.sqrt(s.reshape(1, 4, 1, 1) + 1e-5) * g.reshape(1, 4, 1, 1) +
     b.reshape(1, 4, 1, 1), rtol=1e-4, atol=1e-5)
ROPE_X, COS, SIN = f32(2, 3, 4, 8), f32(4, 4), f32(4, 4)
case("rope", lambda v, c, s: rlx.rope(v, c, s, style="neox"), [ROPE_X, COS, SIN],
     lambda v, c, s: rlxtest.rope_reference(v, c, s, "neox"), rtol=1e-5)

# LLM decoding over a KV cache: two new rows written at position 5, and
# two new queries (8 heads over 2 kv heads) over the first 7 positions.
KCACHE, KNEW = f32(1, 12, 2, 8), f32(1, 2, 2, 8)
POS = np.array(5, np.int64)
case("kv_cache_write", rlx.kv_cache_write, [KCACHE, KNEW, POS],
     rlxtest.kv_cache_write_reference, rtol=0, atol=0)
DQ, DK, DV, DLEN = f32(1, 8, 2, 8), f32(1, 12, 2, 8), f32(1, 12, 2, 8), \
    np.array(7, np.int64)
case("decode_attention",
     lambda q, k, v, l: rlx.decode_attention(q, k, v, l, num_kv_heads=2,
                                             window=4),
     [DQ, DK, DV, DLEN],
     lambda q, k, v, l: rlxtest.decode_attention_reference(q, k, v, int(l),
                                                           window=4))

# Sampling the next token: greedy, and top_k = 1 (a draw from one token);
# test/Integration/sample.py checks the random draws.
LOGITS, SEED = f32(3, 50), np.array(12345, np.int64)
case("sample", lambda l, s: rlx.sample(l, s, temperature=0.0),
     [LOGITS, SEED], lambda l, s: np.argmax(l, axis=1), rtol=0, atol=0)
case("sample", lambda l, s: rlx.sample(l, s, temperature=0.8, top_k=1),
     [LOGITS, SEED], lambda l, s: np.argmax(l, axis=1), rtol=0, atol=0)

# A LoRA product (x W + scale (x A) B) with an odd K and a rank-3 adapter.
LX, LW, LA, LB = f32(5, 37), f32(37, 6), f32(37, 3), f32(3, 6)
case("lora_matmul",
     lambda x, w, a, b: rlx.lora_matmul(x, w, a, b, scale=0.5),
     [LX, LW, LA, LB],
     lambda x, w, a, b: x @ w + 0.5 * (x @ a) @ b, rtol=1e-4, atol=1e-4)

# A MoE expert product: each of 5 rows through its expert's [K, N] weight
# (an index out of range is clamped).
GX, GW = f32(5, 37), f32(3, 37, 6)
GI = np.array([2, 0, 7, 1, -1], np.int64)
case("grouped_matmul", rlx.grouped_matmul, [GX, GW, GI],
     lambda x, w, i: np.einsum("rk,rkn->rn", x, w[np.clip(i, 0, 2)]),
     rtol=1e-4, atol=1e-4)

# The gated delta rule over 4 steps (B 1, H 2, Dk 5, Dv 3) from a random
# state; test/Integration/llm_ops.py checks it in depth.
def gated_delta_net_reference(q, k, v, g, beta, state):
    s = state.astype(np.float64)
    out = np.zeros(v.shape)
    for t in range(q.shape[1]):
        s = s * np.exp(g[:, t])[..., None, None]
        delta = (v[:, t] - np.einsum("bhij,bhi->bhj", s, k[:, t])) \
            * beta[:, t, :, None]
        s = s + k[:, t, :, :, None] * delta[:, :, None, :]
        out[:, t] = np.einsum("bhij,bhi->bhj", s, q[:, t] / np.sqrt(5))
    return out, s


case("gated_delta_net", rlx.gated_delta_net,
     [f32(1, 4, 2, 5, lo=-1, hi=1), f32(1, 4, 2, 5, lo=-1, hi=1),
      f32(1, 4, 2, 3, lo=-1, hi=1), f32(1, 4, 2, lo=-1, hi=0),
      f32(1, 4, 2, lo=0.1, hi=0.9), f32(1, 2, 5, 3, lo=-1, hi=1)],
     gated_delta_net_reference)

# Linear algebra and transforms.
W = f32(8, 6)
case("matmul", rlx.matmul, [X, W], np.matmul)
case("matmul", lambda a, b: rlx.matmul(a, b, transpose_b=True), [X, f32(6, 8)],
     lambda a, b: a @ b.T)
case("dot_general", lambda a, b: rlx.dot_general(
    a, b, lhs_contracting_dims=[1], rhs_contracting_dims=[0]), [X, W],
    np.matmul)
SPD = f32(4, 4)
SPD = (SPD @ SPD.T + 4 * np.eye(4)).astype(np.float32)
case("dense_solve", rlx.dense_solve, [SPD, f32(4, 2)], np.linalg.solve,
     rtol=1e-4, atol=1e-4)
Z = (f32(3, 8) + 1j * f32(3, 8)).astype(np.complex64)
case("fft", rlx.fft, [Z], lambda v: np.fft.fft(v, axis=-1), rtol=1e-4,
     atol=1e-4)
case("rfft", rlx.rfft, [X], lambda v: np.fft.rfft(v, axis=-1), rtol=1e-4,
     atol=1e-4)
case("irfft", lambda v: rlx.irfft(v, n=8),
     [np.fft.rfft(X, axis=-1).astype(np.complex64)],
     lambda v: np.fft.irfft(v, n=8, axis=-1), rtol=1e-4, atol=1e-4)

# Shapes.
case("concat", lambda a, b: rlx.concat([a, b], axis=0), [X, Y],
     lambda a, b: np.concatenate([a, b], 0), rtol=0, atol=0)
case("narrow", lambda v: rlx.narrow(v, axis=1, start=2, length=3), [X],
     lambda v: v[:, 2:5], rtol=0, atol=0)
case("reshape", lambda v: rlx.reshape(v, result_types=[ctx.tensor((2, 16))]),
     [X], lambda v: v.reshape(2, 16), rtol=0, atol=0)
case("expand", lambda v: rlx.expand(v, result_types=[ctx.tensor((3, 8))]),
     [B], lambda v: np.broadcast_to(v, (3, 8)), rtol=0, atol=0)
case("reverse", lambda v: rlx.reverse(v, axes=[1]), [X],
     lambda v: v[:, ::-1], rtol=0, atol=0)
case("transpose", lambda v: rlx.transpose(v, permutation=[1, 0]), [X],
     lambda v: v.T, rtol=0, atol=0)
IDX = r.integers(0, 4, 5).astype(np.int64)
case("gather", lambda t, i: rlx.gather(t, i, axis=0), [X, IDX],
     lambda t, i: t[i], rtol=0, atol=0)
case("scatter_add", lambda b, i, u: rlx.scatter_add(b, i, u, axis=0),
     [X, IDX, f32(5, 8)],
     lambda b, i, u: b + np.array([u[i == k].sum(0) for k in range(4)]))

# Convolution and pooling (NCHW).
IMG, KER, BIAS = f32(2, 3, 6, 6), f32(4, 3, 3, 3), f32(4)


def conv2d(x, w, b, stride=1, pad=0):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return y + b.reshape(1, -1, 1, 1)


case("conv", lambda x, w, b: rlx.conv(x, w, b, strides=[1, 1],
                                      padding=[1, 1, 1, 1]),
     [IMG, KER, BIAS], lambda x, w, b: conv2d(x, w, b, pad=1), rtol=1e-4,
     atol=1e-4)
case("pool", lambda x: rlx.pool(x, kind="max", kernel=[2, 2], strides=[2, 2]),
     [IMG], lambda x: x.reshape(2, 3, 3, 2, 3, 2).max(axis=(3, 5)),
     rtol=0, atol=0)

# Fused ops.
case("fused_matmul_bias_act", lambda a, w, b: rlx.fused_matmul_bias_act(
    a, w, b, activation="relu"), [X, W, f32(6)],
    lambda a, w, b: np.maximum(a @ w + b, 0), rtol=1e-5, atol=1e-5)
case("fused_swiglu", rlx.fused_swiglu, [X, W, f32(8, 6)],
     lambda x, g, u: (x @ g) / (1 + np.exp(-(x @ g))) * (x @ u), rtol=1e-4,
     atol=1e-5)
case("fused_residual_rms_norm", lambda x, res, g: rlx.fused_residual_rms_norm(
    x, res, g, epsilon=1e-6, result_types=[x.type, x.type]), [X, Y, G],
    lambda x, res, g: (rlxtest.rms_norm_reference(x + res, g, 1e-6), x + res),
    rtol=1e-4, atol=1e-5)
case("fused_residual_layer_norm",
     lambda x, res, g, b: rlx.fused_residual_layer_norm(
         x, res, g, b, epsilon=1e-5, result_types=[x.type, x.type]),
     [X, Y, G, BETA],
     lambda x, res, g, b: (rlxtest.layer_norm_reference(x + res, g, b, 1e-5),
                           x + res), rtol=1e-4, atol=1e-5)

# Quantization.
case("quantize", lambda v: rlx.quantize(v, scales=[0.05], zero_points=[3]),
     [X], lambda v: np.clip(np.round(v / np.float32(0.05)) + 3, -128, 127),
     rtol=0, atol=1)
Q8 = r.integers(-128, 128, (4, 8)).astype(np.int8)
case("dequantize", lambda q: rlx.dequantize(
    q, scales=[0.05], zero_points=[3], result_types=[ctx.tensor((4, 8))]),
    [Q8], lambda q: (q.astype(np.float64) - 3) * 0.05)
WQ = r.integers(-128, 128, (6, 8)).astype(np.int8)
SCALE = f32(6, 2, lo=0.01, hi=0.05)
case("dequant_matmul", lambda x, w, s: rlx.dequant_matmul(
    x, w, [s], scheme=("int8_block", 4)), [X, WQ, SCALE],
    lambda x, w, s: x @ (w * np.repeat(s, 4, axis=1)).T, rtol=1e-4, atol=1e-4)

# Attention.
Q, K, V = f32(2, 2, 5, 4), f32(2, 2, 5, 4), f32(2, 2, 5, 4)
case("attention", lambda q, k, v: rlx.attention(q, k, v, mask="causal"),
     [Q, K, V], lambda q, k, v: rlxtest.attention_reference(q, k, v, "causal"),
     rtol=1e-4, atol=1e-5)

# The rlx_hir blocks (rlx.hir.<op>; they take their result types, as the
# dialect has no type inference for them).
HX, HW, HB = f32(2, 3, 8), f32(8, 6, lo=-0.5, hi=0.5), f32(6)
T236 = ctx.tensor((2, 3, 6))
gelu = lambda v: 0.5 * v * (1 + erf(v / math.sqrt(2)))  # noqa: E731
case("hir.linear", lambda x, w, b: rlx.hir.linear(
    x, w, b, activation="gelu", result_types=[T236]), [HX, HW, HB],
    lambda x, w, b: gelu(x @ w + b), rtol=1e-5, atol=1e-5)
HW2, HB2 = f32(6, 4, lo=-0.5, hi=0.5), f32(4)
case("hir.mlp", lambda x, w1, b1, w2, b2: rlx.hir.mlp(
    x, w1, b1, w2, b2, activation="relu",
    result_types=[ctx.tensor((2, 3, 4))]), [HX, HW, HB, HW2, HB2],
    lambda x, w1, b1, w2, b2: np.maximum(x @ w1 + b1, 0) @ w2 + b2,
    rtol=1e-5, atol=1e-5)
case("hir.swiglu", lambda x, g, u, d: rlx.hir.swiglu(
    x, g, u, d, result_types=[ctx.tensor((2, 3, 4))]),
    [HX, HW, f32(8, 6, lo=-0.5, hi=0.5), HW2],
    lambda x, g, u, d: ((x @ g) / (1 + np.exp(-(x @ g))) * (x @ u)) @ d,
    rtol=1e-5, atol=1e-5)
TABLE, IDS = f32(10, 4), r.integers(0, 10, (2, 3)).astype(np.int64)
case("hir.embedding", lambda t, i: rlx.hir.embedding(
    t, i, result_types=[ctx.tensor((2, 3, 4))]), [TABLE, IDS],
    lambda t, i: t[i], rtol=0, atol=0)
case("hir.layer_norm", lambda x, g, b: rlx.hir.layer_norm(
    x, g, b, epsilon=1e-5, result_types=[x.type]), [X, G, BETA],
    lambda x, g, b: rlxtest.layer_norm_reference(x, g, b, 1e-5), rtol=1e-4,
    atol=1e-5)
case("hir.rms_norm", lambda x, g: rlx.hir.rms_norm(
    x, g, epsilon=1e-6, result_types=[x.type]), [X, G],
    lambda x, g: rlxtest.rms_norm_reference(x, g, 1e-6), rtol=1e-4,
    atol=1e-5)
# Two heads of 4 over 5 tokens, no mask: qkv projection, attention, out.
AX, AQKV, AOUT = f32(2, 5, 8), f32(8, 24, lo=-0.5, hi=0.5), \
    f32(8, 8, lo=-0.5, hi=0.5)


def attention_block(x, wqkv, wout):
    qkv = x @ wqkv
    q, k, v = (qkv[..., i * 8:(i + 1) * 8].reshape(2, 5, 2, 4)
               .transpose(0, 2, 1, 3) for i in range(3))
    a = rlxtest.attention_reference(q, k, v, "none")
    return a.transpose(0, 2, 1, 3).reshape(2, 5, 8) @ wout


case("hir.attention_block", lambda x, wqkv, wout: rlx.hir.attention_block(
    x, wqkv, wout, num_heads=2, result_types=[x.type]), [AX, AQKV, AOUT],
    attention_block, rtol=1e-4, atol=1e-5)

# Where the remaining ops are checked.
ELSEWHERE = {
    "attention_backward": "built by rlx-expand-autodiff; test/Integration/attention.py",
    "conv2d_backward_input": "built by rlx-expand-autodiff; test/Integration/conv_pool.py",
    "conv2d_backward_weight": "built by rlx-expand-autodiff; test/Integration/conv_pool.py",
    "layer_norm_backward": "built by rlx-expand-autodiff; test/Integration/backward.py",
    "rms_norm_backward": "built by rlx-expand-autodiff; test/Integration/backward.py",
    "softmax_cross_entropy_backward": "built by rlx-expand-autodiff; train_mlp.py here",
    "grad": "rlx.grad, train_mlp.py and transforms.py here",
    "jvp": "rlx.jvp, transforms.py here", "vmap": "rlx.vmap, transforms.py here",
    "if_": "regions.py here", "while_": "regions.py here",
    "scan": "regions.py here", "yield_": "regions.py here (region ends)",
    "custom_fn": "regions.py here", "param": "regions.py here",
    "elementwise_region": "formed by rlx-fuse; test/Integration/fusion.py",
    "constant": "regions.py here",
    "conv_transpose2d": "test/Integration/conv_transpose.py",
    "fake_quantize": "test/Integration/quant.py",
    "int8_matmul": "made by rlx-quant-propagate; test/Integration/int8_matmul.py",
    "selective_scan": "test/Integration/selective_scan.py",
    "fused_attention_block": "test/Integration/fused.py",
    "fused_transformer_layer": "test/Integration/fused.py",
    "hir.transformer_layer": "test/Integration/hir.py (bert and llama)",
    "hir.conv_block": "test/Integration/hir.py",
}

failures = []
for op, build, inputs, reference, rtol, atol in CASES:
    types = [ctx.tensor(a.shape, rlx.numpy_to_mlir(a.dtype))
             for a in inputs]
    try:
        with rlx.Function("case", types, context=ctx) as f:
            out = build(*f.args)
            f.returns(*(out if isinstance(out, tuple) else (out,)))
        got = rlx.compile(f)(*inputs)
    except Exception as e:  # a failure of one op must not hide the others
        failures.append("%s: %s: %s" % (op, type(e).__name__, e))
        continue
    want = reference(*[a.astype(np.complex128 if np.iscomplexobj(a) else
                                np.float64) if a.dtype.kind in "fc" else a
                       for a in inputs])
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        if g.shape != w.shape or not np.allclose(g, w, rtol=rtol, atol=atol,
                                                equal_nan=False):
            err = np.max(np.abs(g - w)) if g.shape == w.shape else "shape"
            failures.append("%s: result %d differs from NumPy (max error %s, "
                            "rtol %g, atol %g)" % (op, i, err, rtol, atol))
    print("ok %s" % op)

run = {c[0] for c in CASES}
every_op = set(rlx.ops.__all__) | {"hir." + n for n in rlx.hir.__all__}
unchecked = sorted(every_op - run - set(ELSEWHERE))
if unchecked:
    failures.append("ops neither run here nor listed in ELSEWHERE: %s" %
                    ", ".join(unchecked))
stale = sorted(set(ELSEWHERE) & run)
if stale:
    failures.append("ops both run here and listed in ELSEWHERE: %s" %
                    ", ".join(stale))
print("%d cases over %d ops; %d ops checked elsewhere" %
      (len(CASES), len(run), len(ELSEWHERE)))
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
