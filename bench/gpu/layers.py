"""Whole layers on the GPU: RLX's compiled layer against PyTorch eager and
torch.compile of the same layer, on the same inputs, in one run.

The BERT-base encoder layer is examples/bert_encoder_layer.mlir at batch 32
and sequence 128 (post-LN, 12 heads of 64, FFN 3072, erf GELU), compiled by
bench/gpu/build.sh in f32 (@bert_layer_f32) and bf16 (@bert_layer_bf16).
The peers run the same layer with F.scaled_dot_product_attention (flash
attention where PyTorch picks it). Outputs are poisoned with NaN first and
checked against the layer in float64 (relative error: f32 below 1e-4, bf16
below 1e-2); the figure is the latency of one layer.
"""
import torch
import torch.nn.functional as F

import gpu_peers

BATCH, SEQ, HIDDEN, HEADS, FFN = 32, 128, 768, 12, 3072
TOL = {torch.float32: 1e-4, torch.bfloat16: 1e-2}
ENTRY = {torch.float32: "bert_layer_f32", torch.bfloat16: "bert_layer_bf16"}


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


def run(ours, seed, only, dtypes, rel_err):
    """Checks and times the layers; returns (rows, failures)."""
    rows, failures = [], 0
    if only not in "bert_layer":
        return rows, failures
    for dtype in (torch.float32, torch.bfloat16):
        if dtype not in dtypes:
            continue
        args = bert_inputs(dtype, seed)
        with torch.no_grad():
            ref = bert_layer(*[a.double() for a in args])
        out = torch.full(ref.shape, float("nan"), dtype=dtype, device="cuda")
        call = ours.call(ENTRY[dtype], args, out)
        call()
        torch.cuda.synchronize()
        ours.check(ENTRY[dtype])
        err = rel_err(out, ref)
        ok = err < TOL[dtype]  # NaN compares false
        failures += not ok
        del ref
        row = {"workload": "bert_layer_b%d_s%d" % (BATCH, SEQ),
               "dtype": str(dtype).replace("torch.", ""), "rel_err": err,
               "ok": ok}
        row["ours_ms"] = gpu_peers.bench(call)
        ours.check(ENTRY[dtype] + " (timed)")
        with torch.no_grad():
            row["eager_ms"] = gpu_peers.bench(lambda: bert_layer(*args))
            compiled = torch.compile(bert_layer)
            compiled(*args)
            torch.cuda.synchronize()
            row["compile_ms"] = gpu_peers.bench(lambda: compiled(*args))
        row["compile/ours"] = row["compile_ms"] / row["ours_ms"]
        rows.append(row)
        print(f"{row['workload']} {row['dtype']:8s} err {err:.1e} "
              f"{'ok' if ok else 'FAIL'}  ours {row['ours_ms']:.3f} ms"
              f"  eager {row['eager_ms']:.3f}  compile {row['compile_ms']:.3f}",
              flush=True)
        del args, out, call
        torch.cuda.empty_cache()
    return rows, failures


def print_rows(rows, dev, seed):
    print(f"\n{dev}, layers (latency of one layer), seed {seed}")
    print("| layer | dtype | rel err | ours ms | eager ms | compile ms"
          " | compile/ours |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['workload']} | {r['dtype']} | {r['rel_err']:.1e}"
              f"{'' if r['ok'] else ' FAIL'} | {r['ours_ms']:.3f} "
              f"| {r['eager_ms']:.3f} | {r['compile_ms']:.3f} "
              f"| {r['compile/ours']:.2f} |")
