#!/usr/bin/env python3
# ===- decode.py - LLM decoding on CUDA: checked and timed ----------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""rlx.llm's decode program (rlx.llm.model.build_program) compiled for CUDA
(rlx.kv_cache_write as a copy kernel into the caches held in place,
rlx.decode_attention as the runtime's split decode-attention kernel),
checked and timed on the GPU machine, in two steps:

  # here (RLX built): the programs, the tiny models' weights
  PYTHONPATH=build/python /usr/bin/python3 bench/gpu/decode.py compile OUT

  # there (PyTorch, transformers; no MLIR)
  PYTHONPATH=OUT:build/python python3 OUT/decode.py run OUT

`run` checks, and exits 1 if a check fails:
  - matmuls of 1 to 5 rows (the runtime's skinny kernel, cuBLASLt past
    4 rows or where k does not fill 16-byte loads) against float64;
  - rlx.decode_attention alone (f32, f16, bf16; head dims 16 to 256; GQA
    groups 1 to 8; 1 to 9 new tokens; windows; lengths 0 to the whole
    cache) against float64 PyTorch on random caches;
  - tiny llama, qwen2 and qwen3 models (random weights): a prompt through
    the prefill program, then greedy decoding on the device (each step fed
    the reference's token), token for token equal to transformers' float32
    greedy decoding; the bf16 llama
    program's logits against the float64 model's;
then times decoding with Llama-3.1-8B's shapes in bf16 (random weights
made on the device, batch 1, a 512-position cache filled) against a
static-cache PyTorch decoder of the same weights under torch.compile with
CUDA graphs: each side replays one CUDA graph per token (step, argmax,
next position), and prints tokens/s and the weights' GB/s."""

import argparse
import json
import os
import shutil
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# rlx.decode_attention cases: (dtype, batch, heads, kv heads, new tokens,
# max_seq, head dim, value dim, window).
ATTENTION_CASES = [
    ("f32", 1, 8, 2, 1, 64, 16, 16, 0),
    ("f32", 2, 6, 3, 3, 100, 40, 24, 0),
    ("f16", 1, 32, 8, 1, 1024, 128, 128, 0),
    ("bf16", 1, 32, 8, 1, 4096, 128, 128, 0),
    ("bf16", 3, 16, 2, 5, 300, 64, 64, 7),
    ("bf16", 1, 8, 8, 9, 2048, 256, 256, 0),
    ("f16", 2, 28, 4, 1, 777, 80, 80, 100),
    ("f32", 1, 4, 1, 2, 33, 32, 32, 0),
]

# Matmuls of a few rows by a weight read as [n, k] (the runtime's skinny
# kernel where it takes them): (dtype, m, n, k, bias).
MATMUL_CASES = [
    ("bf16", 1, 4096, 4096, False),
    ("bf16", 4, 1001, 14336, True),
    ("f16", 3, 37, 72, True),
    ("f32", 2, 515, 36, False),
    ("f32", 1, 7, 20, True),
    ("bf16", 5, 64, 128, False),
    ("bf16", 1, 64, 100, False),
]

TINY_PROMPT = 9
TINY_NEW = 48
TINY_MAX_SEQ = 96
BIG_PROMPT = 512
BIG_NEW = 128
BIG_MAX_SEQ = 1024


def attention_program(case):
    dtype, B, H, Hkv, S, M, D, Dv, window = case
    t = lambda *shape: "tensor<%s%s>" % ("".join("%dx" % d for d in shape),
                                         dtype)
    return ("func.func @attend(%%q: %s, %%k: %s, %%v: %s, %%len: tensor<i64>)"
            " -> %s {\n  %%o = rlx.decode_attention %%q, %%k, %%v, %%len "
            "{num_kv_heads = %d : i64, window = %d : i64} : %s, %s, %s, "
            "tensor<i64>\n  return %%o : %s\n}\n" % (
                t(B, H, S, D), t(B, M, Hkv, D), t(B, M, Hkv, Dv),
                t(B, H, S, Dv), Hkv, window, t(B, H, S, D), t(B, M, Hkv, D),
                t(B, M, Hkv, Dv), t(B, H, S, Dv)))


def matmul_program(case):
    dtype, m, n, k, bias = case
    t = lambda *shape: "tensor<%s%s>" % ("".join("%dx" % d for d in shape),
                                         dtype)
    body = ("  %%y = rlx.matmul %%x, %%w transpose_b true : %s, %s\n" %
            (t(m, k), t(n, k)))
    result = "%y"
    if bias:
        body += "  %%z = rlx.add %%y, %%b : %s, %s\n" % (t(m, n), t(n))
        result = "%z"
    return ("func.func @mm(%%x: %s, %%w: %s%s) -> %s {\n%s  return %s : "
            "%s\n}\n" % (t(m, k), t(n, k),
                          ", %%b: %s" % t(n) if bias else "", t(m, n), body,
                          result, t(m, n)))


def tiny_configs():
    sys.path.insert(0, os.path.join(HERE, "..", "llm"))
    import hf_check
    configs = {}
    for arch in hf_check.ARCHS:
        configs[arch] = dict(vocab=300, hidden=64, ffn=160, layers=3,
                             heads=4, kv_heads=2, head_dim=16,
                             tie=(arch != "llama"), theta=10000.0)
    return hf_check, configs


BIG = dict(architecture="llama", vocab=128256, hidden=4096, n_layers=32,
           n_heads=32, n_kv_heads=8, head_dim=128, ffn=14336,
           rope_theta=500000.0, rms_eps=1e-5, max_seq=BIG_MAX_SEQ)


def compile_all(out):
    import rlx
    from rlx.llm import model as llm_model
    os.makedirs(out, exist_ok=True)
    shutil.copy(os.path.abspath(__file__), out)
    manifest = {"attention": [], "tiny": {}}

    def build(text, name, optimize=False):
        start = time.perf_counter()
        module = rlx.ir.Module.parse(text)
        if optimize:
            # Fusion, folding (a transpose of unit dims is a view) and
            # legalization for the target before its pipeline.
            module.run_pipeline("rlx-optimize{target=cuda}")
        folder = os.path.join(out, name)
        program = rlx.compile(module, target="cuda", out_dir=folder)
        print("compiled %-28s %6.1f s" % (name, time.perf_counter() - start))
        return os.path.relpath(program.library, out)

    for i, case in enumerate(ATTENTION_CASES):
        manifest["attention"].append(
            {"case": case, "library": build(attention_program(case),
                                            "attention%d" % i)})

    manifest["matmul"] = []
    for i, case in enumerate(MATMUL_CASES):
        manifest["matmul"].append(
            {"case": case, "library": build(matmul_program(case),
                                            "matmul%d" % i)})

    hf_check, configs = tiny_configs()
    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    for arch, c in configs.items():
        state = hf_check.random_state(arch, c, rng)
        hf = hf_check.hf_config(arch, c)
        config = llm_model.config_from_hf(hf, max_seq=TINY_MAX_SEQ)
        weights = llm_model.weights_from_hf(state, config)
        names = llm_model.weight_names(config, weights)
        entry = {"hf_config": hf, "weights": names, "programs": {}}
        np.savez(os.path.join(out, "%s_state.npz" % arch), **state)
        np.savez(os.path.join(out, "%s_weights.npz" % arch),
                 **{n: weights[n] for n in names})
        cos, sin = llm_model.rope_tables(config, 0, TINY_MAX_SEQ)
        np.savez(os.path.join(out, "%s_rope.npz" % arch), cos=cos, sin=sin)
        dtypes = ("f32", "bf16") if arch == "llama" else ("f32",)
        for dtype in dtypes:
            for n in (TINY_PROMPT, 1):
                text = llm_model.build_program(config, n=n, dtype=dtype)
                entry["programs"]["%s_n%d" % (dtype, n)] = build(
                    text, "%s_%s_n%d" % (arch, dtype, n), optimize=True)
        manifest["tiny"][arch] = entry

    config = llm_model.LlamaConfig(**BIG)
    text = llm_model.build_program(config, n=1, dtype="bf16")
    manifest["big"] = {"config": BIG, "weights": llm_model.weight_names(config),
                       "shapes": {n: list(llm_model._weight_shape(config, n))
                                  for n in llm_model.weight_names(config)},
                       "library": build(text, "big_bf16_n1", optimize=True)}
    text = llm_model.build_program(config, n=BIG_PROMPT, dtype="bf16")
    manifest["big"]["prefill"] = build(text, "big_bf16_n%d" % BIG_PROMPT,
                                       optimize=True)
    cos, sin = llm_model.rope_tables(config, 0, BIG_MAX_SEQ)
    np.savez(os.path.join(out, "big_rope.npz"), cos=cos, sin=sin)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    # Every library folder has its copy of the runtime (rlx.cuda.build);
    # one copy travels, the others link to it.
    runtime = "librlx_cuda_runtime.so"
    shutil.copy(os.path.join(out, "big_bf16_n1", runtime), out)
    for folder in os.listdir(out):
        copy = os.path.join(out, folder, runtime)
        if os.path.isfile(copy) and not os.path.islink(copy):
            os.remove(copy)
            os.symlink(os.path.join("..", runtime), copy)


# --------------------------------------------------------------------------
# On the GPU machine.

def torch_dtype(name):
    import torch
    return {"f32": torch.float32, "f16": torch.float16,
            "bf16": torch.bfloat16}[name]


def reference_attention(q, k, v, length, window):
    """rlx.decode_attention's definition in float64: q [B, H, S, D], caches
    [B, M, Hkv, D], query row s at position length - S + s."""
    import torch
    q, k, v = (t.double() for t in (q, k, v))
    B, H, S, D = q.shape
    Hkv = k.shape[2]
    group = H // Hkv
    k = k[:, :length].permute(0, 2, 1, 3).repeat_interleave(group, dim=1)
    v = v[:, :length].permute(0, 2, 1, 3).repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-1, -2) / np.sqrt(D)
    rows = torch.arange(S, device=q.device)[:, None] + length - S
    cols = torch.arange(length, device=q.device)[None, :]
    visible = cols <= rows
    if window > 0:
        visible &= cols > rows - window
    scores = scores.masked_fill(~visible, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    return weights @ v


def kernel_time(call, prefix, repeats=20):
    """The mean GPU time of the kernels named `prefix`... per call of
    `call` (torch.profiler; host time between calls is not counted)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(repeats):
            call()
        torch.cuda.synchronize()
    total = sum(e.self_device_time_total for e in prof.key_averages()
                if e.key.startswith(prefix))
    return total / repeats / 1e6


def check_attention(out, manifest):
    import torch
    from rlx import cuda
    ok = True
    tolerance = {"f32": 1e-5, "f16": 2e-3, "bf16": 1.6e-2}
    for entry in manifest["attention"]:
        dtype, B, H, Hkv, S, M, D, Dv, window = entry["case"]
        program = cuda.load(os.path.join(out, entry["library"]))
        t = torch_dtype(dtype)
        q = torch.randn(B, H, S, D, device="cuda").to(t)
        k = torch.randn(B, M, Hkv, D, device="cuda").to(t)
        v = torch.randn(B, M, Hkv, Dv, device="cuda").to(t)
        worst = 0.0
        for length in sorted({0, 1, S, M // 3, M - 1, M}):
            if length < 0:
                continue
            got = program(q, k, v, torch.tensor(length, device="cuda"))
            torch.cuda.synchronize()
            want = reference_attention(q, k, v, length, window)
            scale = max(float(want.abs().max()), 1e-30)
            err = float((got.double() - want).abs().max()) / scale
            if length == 0:
                err = float(got.abs().max())
            worst = max(worst, err)
        good = worst <= tolerance[dtype]
        ok &= good
        times = [kernel_time(lambda: program(q, k, v, torch.tensor(
            length, device="cuda")), "rlx_decode_attention")
            for length in (1, M)]
        print("decode_attention %-4s B%d H%d Hkv%d S%d M%d D%d Dv%d w%d: "
              "max error %.2e of max |ref| (tolerance %.0e) %s; %.1f us at "
              "length 1, %.1f us at %d" % (
                  dtype, B, H, Hkv, S, M, D, Dv, window, worst,
                  tolerance[dtype], "ok" if good else "FAILED",
                  times[0] * 1e6, times[1] * 1e6, M))
    return ok


def check_matmul(out, manifest):
    import torch
    from rlx import cuda
    ok = True
    tolerance = {"f32": 1e-5, "f16": 2e-3, "bf16": 1.6e-2}
    for entry in manifest["matmul"]:
        dtype, m, n, k, bias = entry["case"]
        program = cuda.load(os.path.join(out, entry["library"]))
        t = torch_dtype(dtype)
        args = [torch.randn(m, k, device="cuda").to(t),
                torch.randn(n, k, device="cuda").to(t)]
        if bias:
            args.append(torch.randn(n, device="cuda").to(t))
        got = program(*args)
        want = args[0].double() @ args[1].double().T
        if bias:
            want += args[2].double()
        err = float((got.double() - want).abs().max() / want.abs().max())
        good = err <= tolerance[dtype]
        ok &= good
        print("matmul %-4s %dx%dx%d%s: max error %.2e of max |ref| "
              "(tolerance %.0e) %s" % (dtype, m, n, k, " + bias" if bias
                                       else "", err, tolerance[dtype],
                                       "ok" if good else "FAILED"))
    return ok


class RlxDecoder:
    """A compiled decode program with its caches and rope tables on the
    device; `step(tokens, pos)` runs n tokens and returns the logits."""

    def __init__(self, library, weights, config, rope, dtype, max_seq):
        import torch
        from rlx import cuda
        self.program = cuda.load(library)
        t = torch_dtype(dtype)
        L, Hkv, D = config["layers"], config["kv_heads"], config["head_dim"]
        self.caches = [torch.zeros(1, max_seq, Hkv, D, dtype=t,
                                   device="cuda") for _ in range(2 * L)]
        self.weights = weights
        self.cos = torch.from_numpy(rope["cos"]).to("cuda", t)
        self.sin = torch.from_numpy(rope["sin"]).to("cuda", t)

    def step(self, tokens, pos):
        import torch
        n = tokens.shape[1]
        p = torch.tensor(pos, device="cuda")
        logits, *_ = self.program(tokens, p, self.cos[pos:pos + n],
                                  self.sin[pos:pos + n], *self.caches,
                                  *self.weights)
        return logits


def check_tiny(out, manifest):
    import torch
    from rlx import cuda  # noqa: F401
    from transformers import AutoConfig, AutoModelForCausalLM
    ok = True
    for arch, entry in manifest["tiny"].items():
        hf = entry["hf_config"]
        state = dict(np.load(os.path.join(out, "%s_state.npz" % arch)))
        weights_np = np.load(os.path.join(out, "%s_weights.npz" % arch))
        rope = np.load(os.path.join(out, "%s_rope.npz" % arch))
        config = AutoConfig.for_model(**{k: v for k, v in hf.items()
                                         if k != "architectures"})
        model = AutoModelForCausalLM.from_config(
            config, attn_implementation="eager").to("cuda").eval()
        missing = model.load_state_dict({k: torch.from_numpy(v) for k, v in
                                         state.items()}, strict=False)
        if missing.missing_keys and not (missing.missing_keys == [
                "lm_head.weight"] and hf["tie_word_embeddings"]):
            raise RuntimeError("%s: weights missing: %s" % (
                arch, missing.missing_keys))
        rng = np.random.default_rng()
        prompt = [int(t) for t in rng.integers(0, 256, TINY_PROMPT)]
        # transformers' greedy decoding, each step a whole forward over the
        # sequence so far (generate would stop at, or with min_new_tokens
        # mask out, the config's end-of-sequence token).
        ids, ref, ref_logits = list(prompt), [], []
        with torch.no_grad():
            for _ in range(TINY_NEW):
                last = model(torch.tensor([ids], device="cuda")).logits[0, -1]
                ref_logits.append(last.double())
                ref.append(int(torch.argmax(last)))
                ids.append(ref[-1])
        c = {"layers": hf["num_hidden_layers"],
             "kv_heads": hf["num_key_value_heads"],
             "head_dim": hf["head_dim"]}
        for dtype in ("f32", "bf16"):
            key = "%s_n%d" % (dtype, TINY_PROMPT)
            if key not in entry["programs"]:
                continue
            t = torch_dtype(dtype)
            weights = [torch.from_numpy(weights_np[n]).to("cuda", t)
                       for n in entry["weights"]]
            prefill = RlxDecoder(os.path.join(out, entry["programs"][key]),
                                 weights, c, rope, dtype, TINY_MAX_SEQ)
            decode = cuda.load(os.path.join(
                out, entry["programs"]["%s_n1" % dtype]))
            logits = prefill.step(torch.tensor([prompt], device="cuda"), 0)
            got, errs, ties = [], [], 0
            for i in range(TINY_NEW):
                want = ref_logits[i]
                errs.append(float((logits[0].double() - want).abs().max() /
                                  want.abs().max()))
                token = int(torch.argmax(logits[0]))
                got.append(token)
                # A step whose two best logits are closer than rounding
                # may go either way.
                top2 = torch.topk(want, 2).values
                if float(top2[0] - top2[1]) <= 1e-5 * float(want.abs().max()):
                    ties += 1
                # Teacher-forced on the reference's tokens: each step's
                # logits are compared on the same history.
                pos = TINY_PROMPT + i
                logits, *_ = decode(
                    torch.tensor([[ref[i]]], device="cuda"),
                    torch.tensor(pos, device="cuda"),
                    prefill.cos[pos:pos + 1], prefill.sin[pos:pos + 1],
                    *prefill.caches, *weights)
            same = sum(a == b for a, b in zip(got, ref))
            tol = 1e-4 if dtype == "f32" else 5e-2
            good = max(errs) <= tol and (dtype != "f32" or
                                         same >= TINY_NEW - ties)
            ok &= good
            print("%s %-4s: %d of %d greedy tokens equal to transformers' "
                  "float32 (%d near-ties); logits max error %.2e of max "
                  "|logit| (tolerance %.0e) %s" % (
                      arch, dtype, same, TINY_NEW, ties, max(errs), tol,
                      "ok" if good else "FAILED"))
    return ok


def torch_decoder(weights, c, max_seq, cos, sin):
    """A static-cache Llama decode step in PyTorch (gpt-fast's form: the
    weights and caches are a module's buffers, static for CUDA graphs) on
    the same weights: step(token [1, 1], pos [] int64) -> logits [1,
    vocab]."""
    import torch
    import torch.nn.functional as F
    L, H, Hkv, D = c["n_layers"], c["n_heads"], c["n_kv_heads"], c["head_dim"]
    eps = c["rms_eps"]

    class Decoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            dtype = weights["token_embd.weight"].dtype
            for name, w in weights.items():
                self.register_buffer(name.replace(".", "_"), w)
            for i in range(L):
                for kind in ("k", "v"):
                    self.register_buffer("%sc%d" % (kind, i), torch.zeros(
                        1, Hkv, max_seq, D, dtype=dtype, device="cuda"))
            self.register_buffer("cos", cos)
            self.register_buffer("sin", sin)
            self.register_buffer("positions",
                                 torch.arange(max_seq, device="cuda"))

        def w(self, name):
            return getattr(self, name.replace(".", "_"))

        def norm(self, x, g):
            x32 = x.float()
            return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) +
                                      eps)).to(x.dtype) * g

        @staticmethod
        def rope(x, cs, sn):
            x1, x2 = x[..., :D // 2], x[..., D // 2:]
            return torch.cat([x1 * cs - x2 * sn, x2 * cs + x1 * sn], dim=-1)

        def forward(self, token, pos):
            x = F.embedding(token, self.w("token_embd.weight"))
            cs = torch.index_select(self.cos, 0, pos.view(1))[None, None]
            sn = torch.index_select(self.sin, 0, pos.view(1))[None, None]
            mask = (self.positions <= pos)[None, None, None]
            for i in range(L):
                w = lambda s: self.w("blk.%d.%s" % (i, s))  # noqa: E731
                kc, vc = getattr(self, "kc%d" % i), getattr(self, "vc%d" % i)
                h = self.norm(x, w("attn_norm.weight"))
                q = F.linear(h, w("attn_q.weight")).view(1, 1, H, D)
                k = F.linear(h, w("attn_k.weight")).view(1, 1, Hkv, D)
                v = F.linear(h, w("attn_v.weight")).view(1, 1, Hkv, D)
                q = self.rope(q.transpose(1, 2), cs, sn)
                k = self.rope(k.transpose(1, 2), cs, sn)
                kc.index_copy_(2, pos.view(1), k)
                vc.index_copy_(2, pos.view(1), v.transpose(1, 2))
                a = F.scaled_dot_product_attention(q, kc, vc, attn_mask=mask,
                                                   enable_gqa=True)
                x = x + F.linear(a.transpose(1, 2).reshape(1, 1, H * D),
                                 w("attn_output.weight"))
                h = self.norm(x, w("ffn_norm.weight"))
                x = x + F.linear(F.silu(F.linear(h, w("ffn_gate.weight"))) *
                                 F.linear(h, w("ffn_up.weight")),
                                 w("ffn_down.weight"))
            x = self.norm(x, self.w("output_norm.weight"))
            return F.linear(x[:, 0], self.w("output.weight"))

    decoder = Decoder()
    kc = [getattr(decoder, "kc%d" % i) for i in range(L)]
    vc = [getattr(decoder, "vc%d" % i) for i in range(L)]
    return decoder, kc, vc


def timed(call, repeats):
    """Seconds per call (CUDA events around `repeats` calls after one)."""
    import torch
    call()
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    start.record()
    for _ in range(repeats):
        call()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / 1e3 / repeats


def replayed(step_tokens, new):
    """Times `new` replays of a captured graph, after a warm-up replay."""
    import torch
    step_tokens()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(new):
        step_tokens()
    torch.cuda.synchronize()
    return time.perf_counter() - start


def print_profile(name, step):
    """The GPU time of 8 steps by kernel, largest first (--profile)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(8):
            step()
        torch.cuda.synchronize()
    print("%s: GPU time of 8 steps by kernel" % name)
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=14,
                                    max_name_column_width=60))


def time_big(out, manifest, profile=False, peer=True):
    import torch
    from rlx import cuda
    big = manifest["big"]
    c = big["config"]
    torch.manual_seed(0)
    weights = {}
    for name in big["weights"]:
        shape = big["shapes"][name]
        if name.endswith("norm.weight"):
            w = 1.0 + 0.1 * torch.randn(shape, device="cuda")
        else:
            w = torch.randn(shape, device="cuda") / np.sqrt(shape[-1])
        weights[name] = w.to(torch.bfloat16)
    nbytes = sum(w.numel() * 2 for w in weights.values())
    rope = np.load(os.path.join(out, "big_rope.npz"))
    cos = torch.from_numpy(rope["cos"]).to("cuda", torch.bfloat16)
    sin = torch.from_numpy(rope["sin"]).to("cuda", torch.bfloat16)
    limit = 4.25e12 / nbytes
    print("Llama-3.1-8B shapes, bf16, batch 1: %.2f GB of weights; the "
          "4.25 TB/s copy rate allows %.0f tokens/s" % (nbytes / 1e9, limit))

    # A cache of BIG_PROMPT positions filled with random keys and values.
    L, Hkv, D = c["n_layers"], c["n_kv_heads"], c["head_dim"]
    filled = [torch.randn(1, BIG_PROMPT, Hkv, D, device="cuda").to(
        torch.bfloat16) for _ in range(2 * L)]

    # Prefill: the prompt's 512 tokens in one call of the n = 512 program,
    # against the rate of one dense bf16 matmul of the MLP's shape.
    prefill = cuda.load(os.path.join(out, big["prefill"]))
    caches = [torch.zeros(1, BIG_MAX_SEQ, Hkv, D, dtype=torch.bfloat16,
                          device="cuda") for _ in range(2 * L)]
    args = [weights[n] for n in big["weights"]]
    prompt = torch.randint(0, c["vocab"], (1, BIG_PROMPT), device="cuda")
    start_pos = torch.zeros((), dtype=torch.int64, device="cuda")

    def prefill_call():
        prefill(prompt, start_pos, cos[:BIG_PROMPT], sin[:BIG_PROMPT],
                *caches, *args)

    prefill_s = timed(prefill_call, 5)
    # The layers' matrices multiply every prompt token, the head only the
    # last one, the embedding none (a gather).
    layer_params = sum(w.numel() for n, w in weights.items()
                       if n.startswith("blk.") and w.dim() == 2)
    flops = 2.0 * (BIG_PROMPT * layer_params +
                   weights["output.weight"].numel())
    a = torch.randn(BIG_PROMPT, c["hidden"], device="cuda").bfloat16()
    b = torch.randn(c["ffn"], c["hidden"], device="cuda").bfloat16()
    mm_s = timed(lambda: torch.mm(a, b.T), 20)
    dense = 2.0 * BIG_PROMPT * c["hidden"] * c["ffn"] / mm_s
    print("prefill of %d tokens: %.1f ms, %.0f TFLOP/s of the matrices' "
          "products; a dense bf16 %dx%dx%d matmul runs at %.0f TFLOP/s "
          "(%.0f%%)" % (BIG_PROMPT, prefill_s * 1e3, flops / prefill_s / 1e12,
                        BIG_PROMPT, c["ffn"], c["hidden"], dense / 1e12,
                        100 * flops / prefill_s / dense))
    del caches

    # RLX: the step, the argmax and the next position in one graph.
    program = cuda.load(os.path.join(out, big["library"]))
    caches = [torch.zeros(1, BIG_MAX_SEQ, Hkv, D, dtype=torch.bfloat16,
                          device="cuda") for _ in range(2 * L)]
    args = [weights[n] for n in big["weights"]]
    token = torch.zeros(1, 1, dtype=torch.int64, device="cuda")
    pos = torch.zeros((), dtype=torch.int64, device="cuda")
    cs = torch.empty(1, D // 2, dtype=torch.bfloat16, device="cuda")
    sn = torch.empty_like(cs)
    produced = torch.zeros(BIG_MAX_SEQ, dtype=torch.int64, device="cuda")

    def rlx_body():
        torch.index_select(cos, 0, pos.view(1), out=cs)
        torch.index_select(sin, 0, pos.view(1), out=sn)
        logits, *_ = program(token, pos, cs, sn, *caches, *args)
        nxt = torch.argmax(logits, dim=-1)
        produced.index_copy_(0, pos.view(1), nxt)
        token.copy_(nxt.view(1, 1))
        pos.add_(1)
        return logits

    def reset_rlx():
        for cache, f in zip(caches, filled):
            cache[:, :BIG_PROMPT].copy_(f)
        token.fill_(1)
        pos.fill_(BIG_PROMPT)

    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        reset_rlx()
        first = rlx_body().float().clone()  # warm-up: library heuristics
        reset_rlx()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        rlx_body()
    reset_rlx()
    seconds = replayed(graph.replay, BIG_NEW)
    if profile:
        print_profile("RLX", graph.replay)
    rlx_tokens = produced[BIG_PROMPT + 1:BIG_PROMPT + 1 + BIG_NEW].tolist()
    # replay once more than timed (warm-up): positions BIG_PROMPT ..
    rlx_rate = BIG_NEW / seconds
    if not peer:
        print("  RLX (one CUDA graph per token)          %7.1f tokens/s  "
              "%6.0f GB/s" % (rlx_rate, rlx_rate * nbytes / 1e9))
        return

    # PyTorch: the same weights, the same filled cache, compiled.
    step, kc, vc = torch_decoder(weights, c, BIG_MAX_SEQ, cos, sin)

    def reset_torch():
        for i in range(L):
            kc[i][:, :, :BIG_PROMPT].copy_(filled[i].transpose(1, 2))
            vc[i][:, :, :BIG_PROMPT].copy_(filled[L + i].transpose(1, 2))
        token.fill_(1)
        pos.fill_(BIG_PROMPT)

    with torch.no_grad():
        reset_torch()
        eager = step(token, pos).float()
        # The same step in float32 (weights, cache and activations), the
        # reference both bf16 programs are measured against.
        exact, ekc, evc = torch_decoder(
            {n: w.float() for n, w in weights.items()}, c, BIG_MAX_SEQ,
            cos.float(), sin.float())
        for i in range(L):
            ekc[i][:, :, :BIG_PROMPT].copy_(filled[i].transpose(1, 2))
            evc[i][:, :, :BIG_PROMPT].copy_(filled[L + i].transpose(1, 2))
        token.fill_(1)
        pos.fill_(BIG_PROMPT)
        ref = exact(token, pos).double()
        del exact, ekc, evc
        scale = float(ref.abs().max())
        print("first step's logits against the float32 step: RLX bf16 max "
              "error %.2e, PyTorch bf16 %.2e of max |logit|" % (
                  float((first.double() - ref).abs().max()) / scale,
                  float((eager.double() - ref).abs().max()) / scale))
        start = time.perf_counter()
        compiled = torch.compile(step, mode="reduce-overhead", fullgraph=True)

        def torch_body():
            logits = compiled(token, pos)
            nxt = torch.argmax(logits, dim=-1)
            produced.index_copy_(0, pos.view(1), nxt)
            token.copy_(nxt.view(1, 1))
            pos.add_(1)

        for _ in range(3):
            reset_torch()
            torch_body()
        torch.cuda.synchronize()
        compile_s = time.perf_counter() - start
        reset_torch()
        torch_seconds = replayed(torch_body, BIG_NEW)
        if profile:
            print_profile("PyTorch", torch_body)
    torch_tokens = produced[BIG_PROMPT + 1:BIG_PROMPT + 1 + BIG_NEW].tolist()
    torch_rate = BIG_NEW / torch_seconds
    same = sum(a == b for a, b in zip(rlx_tokens, torch_tokens))
    print("decode, %d tokens after a %d-position cache:" % (BIG_NEW,
                                                            BIG_PROMPT))
    print("  RLX (one CUDA graph per token)          %7.1f tokens/s  "
          "%6.0f GB/s  %3.0f%% of the limit" % (
              rlx_rate, rlx_rate * nbytes / 1e9, 100 * rlx_rate / limit))
    print("  PyTorch torch.compile reduce-overhead   %7.1f tokens/s  "
          "%6.0f GB/s  (compiled in %.0f s)" % (
              torch_rate, torch_rate * nbytes / 1e9, compile_s))
    print("  RLX / torch.compile: %.2fx; greedy tokens equal: %d of %d" % (
        rlx_rate / torch_rate, same, BIG_NEW))


def run(out, skip_big, skip_checks, profile, peer):
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    ok = True
    if not skip_checks:
        ok &= check_attention(out, manifest)
        ok &= check_matmul(out, manifest)
        ok &= check_tiny(out, manifest)
    if not skip_big:
        time_big(out, manifest, profile, peer)
    print("all checks passed" if ok else "CHECKS FAILED")
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["compile", "run"])
    parser.add_argument("out")
    parser.add_argument("--checks-only", action="store_true",
                        help="run: skip the 8B-shaped timing")
    parser.add_argument("--timing-only", action="store_true",
                        help="run: skip the checks")
    parser.add_argument("--no-peer", action="store_true",
                        help="run: time RLX alone (no PyTorch decoder)")
    parser.add_argument("--profile", action="store_true",
                        help="run: print each side's GPU time by kernel")
    args = parser.parse_args()
    if args.mode == "compile":
        compile_all(args.out)
        return 0
    return run(args.out, args.checks_only, args.timing_only, args.profile,
               not args.no_peer)


if __name__ == "__main__":
    sys.exit(main())
