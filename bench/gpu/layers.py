"""Whole layers on the GPU: RLX's compiled layer against PyTorch eager and
torch.compile of the same layer, on the same inputs, in one run.

The Llama decoder layer is @llama_layer_hir of examples/llama_layer_hir.mlir
(hidden 512, 8 query heads of 64 sharing 2 key/value heads, SwiGLU FFN
1376, pre-RMSNorm, neox rope, causal mask) at batch 32 and sequence 128,
in f32 (@llama_layer_f32) and bf16 (@llama_layer_bf16). Its peers run
the layer twice, eager and under torch.compile: with
F.scaled_dot_product_attention(is_causal=True, enable_gqa=True), and with
the key/value heads repeated to the query heads and plain causal SDPA
(enable_gqa is a slow path in PyTorch 2.11); each column is the faster.

The BERT-base encoder layer is examples/bert_encoder_layer.mlir at batch 32
and sequence 128 (post-LN, 12 heads of 64, FFN 3072, erf GELU), compiled by
bench/gpu/build.sh in f32 (@bert_layer_f32) and bf16 (@bert_layer_bf16),
and once more with its intermediates in one planned arena (rlx-cuda-pipeline
arena=1: @bert_layer_arena_f32, @bert_layer_arena_bf16). The peers run the same layer with F.scaled_dot_product_attention (flash
attention where PyTorch picks it). Outputs are poisoned with NaN first and
checked against the layer in float64 (relative error: f32 below 1e-4, bf16
below 1e-2); the figure is the latency of one layer.

The embedding stage is BERT's input LayerNorm over the token embeddings
plus a position table that is a constant of the compiled program
(constant_layers.py; @embedding_ln_f32/bf16): the generated kernel reads
the table from the kernels' module on the device. @embedding_proj_f32/bf16
add a projection to 128 with a constant weight, which cuBLASLt reads from
the runtime's device copy of it.
"""
import torch
import torch.nn.functional as F

import attention_check
import gpu_peers
import constant_layers

BATCH, SEQ, HIDDEN, HEADS, FFN = 32, 128, 768, 12, 3072
TOL = {torch.float32: 1e-4, torch.bfloat16: 1e-2}
L_HIDDEN, L_HEADS, L_KV_HEADS, L_FFN = 512, 8, 2, 1376
L_HEAD = L_HIDDEN // L_HEADS


def bert_inputs(dtype, seed):
    """x and the 12 parameters, in the order of the example's arguments."""
    g = torch.Generator(device="cuda").manual_seed(seed)

    def r(*shape, scale=1.0, shift=0.0):
        t = torch.randn(*shape, device="cuda", generator=g) * scale + shift
        return t.to(dtype)

    return [r(BATCH, SEQ, HIDDEN),
            r(HIDDEN, 3 * HIDDEN, scale=0.03), r(3 * HIDDEN, scale=0.1),
            r(HIDDEN, HIDDEN, scale=0.03), r(HIDDEN, scale=0.1),
            r(HIDDEN, scale=0.1, shift=1.0), r(HIDDEN, scale=0.1),
            r(HIDDEN, FFN, scale=0.03), r(FFN, scale=0.1),
            r(FFN, HIDDEN, scale=0.03), r(HIDDEN, scale=0.1),
            r(HIDDEN, scale=0.1, shift=1.0), r(HIDDEN, scale=0.1)]


def bert_layer(x, w_qkv, b_qkv, w_o, b_o, g1, be1, w_1, b_1, w_2, b_2, g2, be2):
    b, s, _ = x.shape
    q, k, v = (t.reshape(b, s, HEADS, HIDDEN // HEADS).transpose(1, 2)
               for t in (x @ w_qkv + b_qkv).split(HIDDEN, -1))
    a = F.scaled_dot_product_attention(q, k, v)
    a = a.transpose(1, 2).reshape(b, s, HIDDEN) @ w_o + b_o
    h = F.layer_norm(x + a, (HIDDEN,), g1, be1, 1e-12)
    f = F.gelu(h @ w_1 + b_1) @ w_2 + b_2
    return F.layer_norm(h + f, (HIDDEN,), g2, be2, 1e-12)


def llama_inputs(dtype, seed):
    """x and the 9 parameters, in the order of the example's arguments."""
    g = torch.Generator(device="cuda").manual_seed(seed)

    def r(*shape, scale=1.0, shift=0.0):
        t = torch.randn(*shape, device="cuda", generator=g) * scale + shift
        return t.to(dtype)

    theta = (torch.rand(SEQ, L_HEAD // 2, device="cuda", generator=g) * 2 - 1) * 3.14159
    qkv = (L_HEADS + 2 * L_KV_HEADS) * L_HEAD
    return [r(BATCH, SEQ, L_HIDDEN), r(L_HIDDEN, scale=0.1, shift=1.0),
            r(L_HIDDEN, qkv, scale=0.04), r(L_HIDDEN, L_HIDDEN, scale=0.04),
            theta.cos().to(dtype), theta.sin().to(dtype),
            r(L_HIDDEN, scale=0.1, shift=1.0), r(L_HIDDEN, L_FFN, scale=0.04),
            r(L_HIDDEN, L_FFN, scale=0.04), r(L_FFN, L_HIDDEN, scale=0.03)]


def rms_norm(x, w, eps=1e-6):
    """The mean of squares in f32 at least (float64 in the reference)."""
    xf = x if x.dtype == torch.float64 else x.float()
    return x * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps).to(x.dtype) * w


def rope(x, cos, sin):  # neox: pairs (x[i], x[i + D/2])
    a, b = x[..., :L_HEAD // 2], x[..., L_HEAD // 2:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], -1)


def llama_layer(x, an, w_qkv, w_o, cos, sin, fn, w_gate, w_up, w_down,
                attention=None):
    b, s, _ = x.shape
    qkv = rms_norm(x, an) @ w_qkv

    def heads(start, n):
        return qkv[..., start:start + n * L_HEAD].reshape(b, s, n, L_HEAD).transpose(1, 2)
    q = rope(heads(0, L_HEADS), cos, sin)
    k = rope(heads(L_HEADS * L_HEAD, L_KV_HEADS), cos, sin)
    v = heads((L_HEADS + L_KV_HEADS) * L_HEAD, L_KV_HEADS)
    a = (attention or sdpa_gqa)(q, k, v)
    h = x + a.transpose(1, 2).reshape(b, s, L_HIDDEN) @ w_o
    n = rms_norm(h, fn)
    return h + (F.silu(n @ w_gate) * (n @ w_up)) @ w_down


def sdpa_gqa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def sdpa_repeated_kv(q, k, v):
    repeat = L_HEADS // L_KV_HEADS
    return F.scaled_dot_product_attention(
        q, k.repeat_interleave(repeat, dim=1),
        v.repeat_interleave(repeat, dim=1), is_causal=True)


def llama_layer_repeated_kv(*args):
    return llama_layer(*args, attention=sdpa_repeated_kv)


def causal_gqa_f64(q, k, v):
    """The reference's attention, written out (float64): rlx.attention's
    definition, as attention_check.py checks the kernel against."""
    return attention_check.reference(q, k, v, "causal", 0, L_HEAD ** -0.5)


def embedding_inputs(dtype, seed):
    """The token embeddings and the LayerNorm's scale and shift."""
    g = torch.Generator(device="cuda").manual_seed(seed)

    def r(*shape, scale=1.0, shift=0.0):
        t = torch.randn(*shape, device="cuda", generator=g) * scale + shift
        return t.to(dtype)
    return [r(BATCH, SEQ, HIDDEN), r(HIDDEN, scale=0.1, shift=1.0),
            r(HIDDEN, scale=0.1)]


PROJ = 128
CONSTANTS = {}


def constant(name, dtype):
    """A table of constant_layers.py on the GPU (made once per dtype;
    exact in each)."""
    if (name, dtype) not in CONSTANTS:
        rows = (constant_layers.positions(SEQ, HIDDEN) if name == "positions"
                else constant_layers.weight(HIDDEN, PROJ))
        CONSTANTS[name, dtype] = torch.tensor(rows, dtype=dtype, device="cuda")
    return CONSTANTS[name, dtype]


def embedding_ln(x, g, b):
    return F.layer_norm(x + constant("positions", x.dtype), (HIDDEN,), g, b,
                        1e-12)


def embedding_proj(x, g, b):
    return embedding_ln(x, g, b) @ constant("weight", x.dtype)


LAYERS = {
    "embedding_ln": (embedding_inputs, embedding_ln, {}, "embedding_ln_"),
    "embedding_proj": (embedding_inputs, embedding_proj, {},
                       "embedding_proj_"),
    "bert_layer": (bert_inputs, bert_layer, {}, "bert_layer_"),
    # The same layer from one planned arena (--cuda-options=arena=1).
    "bert_layer_arena": (bert_inputs, bert_layer, {}, "bert_layer_arena_"),
    "llama_layer": (llama_inputs, llama_layer, {"attention": causal_gqa_f64},
                    "llama_layer_"),
}
# Peers beside a layer's own function, each timed; a row reports the
# fastest.
PEER_VARIANTS = {"llama_layer": {"enable_gqa": llama_layer,
                                 "repeated k/v": llama_layer_repeated_kv}}


def run(ours, seed, wanted, dtypes, check_and_time):
    """Checks and times the layers `wanted(name)` selects with bench.py's
    `check_and_time`; returns (rows, failures)."""
    rows, failures = [], 0
    for name, (inputs, layer, ref_kw, entry) in LAYERS.items():
        if not wanted(name):
            continue
        for dtype in (torch.float32, torch.bfloat16):
            if dtype not in dtypes:
                continue
            fn_name = entry + {torch.float32: "f32", torch.bfloat16: "bf16"}[dtype]
            args = inputs(dtype, seed)
            with torch.no_grad():
                ref = layer(*[a.double() for a in args], **ref_kw)
            row = check_and_time(ours, "%s_b%d_s%d" % (name, BATCH, SEQ),
                                 fn_name, dtype, args, ref, TOL[dtype],
                                 PEER_VARIANTS.get(name, layer))
            failures += not row["ok"]
            rows.append(row)
            del args, ref
            torch.cuda.empty_cache()
    return rows, failures


def print_rows(rows, dev, seed):
    print(f"\n{dev}, layers (latency of one layer), seed {seed}")
    print("| layer | dtype | rel err | ours ms | eager ms | compile ms"
          " | compile/ours | fastest peers |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['workload']} | {r['dtype']} | {r['rel_err']:.1e}"
              f"{'' if r['ok'] else ' FAIL'} | {r['ours_ms']:.3f} "
              f"| {r['eager_ms']:.3f} | {r['compile_ms']:.3f} "
              f"| {r['compile/ours']:.2f} | {r.get('peers', '')} |")
