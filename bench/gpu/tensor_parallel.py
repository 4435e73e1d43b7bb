"""Tensor parallelism over 2 or 4 GPUs: a Llama-3-8B-shaped decoder layer
(hidden 4096, 32 query heads and 8 key/value heads of 128, SwiGLU FFN
14336, bf16, batch 8 x 2048 tokens) partitioned by rlx-partition
(rlx.megatron.llama_layers: Megatron's column/row splits, one all-reduce
after the attention output and one after the down projection, carried by
NCCL through the CUDA runtime), against the one-GPU program and PyTorch
in the same run; and the collectives themselves against torch.distributed.

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/tensor_parallel.py compile OUT
    # on a machine with N = 2 or 4 GPUs (the driver, PyTorch, the rlx
    # package):
    PYTHONPATH=OUT:build/python NCCL_NVLS_ENABLE=0 python3 -m rlx.distributed \\
        -n N -- python3 OUT/tensor_parallel.py run OUT

Printed by rank 0: each collective of the runtime (all-reduce,
all-gather, reduce-scatter, all-to-all; f32 and bf16) against
torch.distributed's result on the same tensors; the layer's error against
a float32 PyTorch layer on the same bf16 weights (the 2-GPU program, the
1-GPU program and PyTorch's bf16 layer, each relative to max |ref|); the
layer's milliseconds on 1 and N GPUs (CUDA events around a fixed number
of calls made back to back, the same on every rank) and the all-reduce's bus
bandwidth for the layer's 128 MiB against torch.distributed's.
"""
import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from artifacts import copy_run_files, main, timed  # noqa: E402

SHAPE = dict(batch=8, seq=2048, hidden=4096, heads=32, kv_heads=8,
             head_dim=128, ffn=14336)
# The tensor-parallel widths compiled (one program each).
WIDTHS = (2, 4)
# The batch cut into these many micro-batches too (programs ordered so that
# one micro-batch's all-reduces overlap another's compute).
MICRO_BATCHES = (2, 4)
# bf16 layer against float32 (max error over max |ref|): PyTorch's own bf16
# layer is printed beside it for scale.
TOL = 3e-2


def compile_programs(out):
    import rlx
    import rlx.megatron
    programs = [("tp%d" % n, SHAPE, [n], 1) for n in WIDTHS]
    # The batch in micro-batches: each one's all-reduces run while another
    # computes (overlap-collectives orders the program so).
    programs += [("tp%d_mb%d" % (n, m), SHAPE, [n], m) for n in WIDTHS
                 for m in MICRO_BATCHES]
    programs += [("one", SHAPE, None, 1)]
    # What one device of N computes, alone: the layer at 1/N of the heads
    # and of the FFN, without collectives (the time the split's compute
    # takes; the rest of the N-GPU time is communication and waiting).
    programs += [("local%d" % n, local_shape(n), None, 1) for n in WIDTHS]
    programs += [("local%d_mb%d" % (n, m), local_shape(n), None, m)
                 for n in WIDTHS for m in MICRO_BATCHES]
    for name, shape, grid, micro in programs:
        text = rlx.megatron.llama_layers(**shape, grid=grid, dtype="bf16",
                                         name="layer", micro_batches=micro)
        program = rlx.compile(rlx.Module.parse(text), target="cuda",
                              function="layer",
                              options="overlap-collectives=true"
                              if micro > 1 else "",
                              out_dir=os.path.join(out, name))
        print("compiled", program, "into", os.path.join(out, name))
    copy_run_files(out, ["tensor_parallel.py"])


def local_shape(n):
    """SHAPE with the heads, key/value heads and FFN of one device of n."""
    return dict(SHAPE, heads=SHAPE["heads"] // n,
                kv_heads=SHAPE["kv_heads"] // n, ffn=SHAPE["ffn"] // n)


def weights(torch, seed=0):
    """x and one layer's weights (rlx.megatron's order) in bf16, made on
    the GPU from one seed: every rank makes the same."""
    B, S, E = SHAPE["batch"], SHAPE["seq"], SHAPE["hidden"]
    H, Hkv, D, F = (SHAPE["heads"], SHAPE["kv_heads"], SHAPE["head_dim"],
                    SHAPE["ffn"])
    g = torch.Generator(device="cuda").manual_seed(seed)

    def normal(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g, device="cuda") * scale
                ).bfloat16()

    def uniform(*shape):
        return (torch.rand(*shape, generator=g, device="cuda") + 0.5
                ).bfloat16()

    theta = torch.arange(S, device="cuda")[:, None] * 10000.0 ** (
        -2.0 * torch.arange(D // 2, device="cuda") / D)
    x = normal(B, S, E)
    ws = [uniform(E), normal(E, H * D, scale=E ** -0.5),
          normal(E, Hkv * D, scale=E ** -0.5),
          normal(E, Hkv * D, scale=E ** -0.5),
          normal(H * D, E, scale=(H * D) ** -0.5), uniform(E),
          normal(E, F, scale=E ** -0.5), normal(E, F, scale=E ** -0.5),
          normal(F, E, scale=F ** -0.5), theta.cos().bfloat16(),
          theta.sin().bfloat16()]
    return x, ws


def torch_layer(torch, x, ws, dtype):
    """The layer in PyTorch (rlx.rms_norm, rlx.rope neox, causal GQA
    attention, SwiGLU) in `dtype`."""
    import torch.nn.functional as F
    B, S, E = x.shape
    H, Hkv, D = SHAPE["heads"], SHAPE["kv_heads"], SHAPE["head_dim"]
    an, wq, wk, wv, wo, fn, wg, wu, wd, cos, sin = [w.to(dtype) for w in ws]
    x = x.to(dtype)

    def rms(v, g):
        return v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + 1e-6) * g

    def rope(v):
        a, b = v[..., :D // 2], v[..., D // 2:]
        return torch.cat([a * cos - b * sin, b * cos + a * sin], -1)

    n = rms(x, an)
    q = (n @ wq).view(B, S, H, D).transpose(1, 2)
    k = (n @ wk).view(B, S, Hkv, D).transpose(1, 2)
    v = (n @ wv).view(B, S, Hkv, D).transpose(1, 2)
    q, k = rope(q), rope(k)
    k = k.repeat_interleave(H // Hkv, 1)
    v = v.repeat_interleave(H // Hkv, 1)
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    h = x + a.transpose(1, 2).reshape(B, S, H * D) @ wo
    n2 = rms(h, fn)
    return h + (F.silu(n2 @ wg) * (n2 @ wu)) @ wd


def check_collectives(torch, dist, lib, rank, world):
    """Each collective of the runtime against torch.distributed's on the
    same tensors; returns the number of mismatches."""
    i64 = ctypes.c_int64
    fns = {}
    for name in ("AllReduce", "AllGather", "ReduceScatter", "AllToAll"):
        fn = getattr(lib, "rlxCollective" + name)
        fn.restype = None
        fns[name] = fn
    lib.rlxCollectiveGetLastError.restype = ctypes.c_char_p
    codes = {torch.float32: 0, torch.bfloat16: 2}
    group = (i64(1), i64(0), i64(rank), i64(world))
    failures = 0
    for dtype, code in codes.items():
        for count in (1, 1000, 1 << 20):
            g = torch.Generator(device="cuda").manual_seed(rank * 7 + count)
            x = torch.randn(world * count, generator=g, device="cuda"
                            ).to(dtype)
            torch.cuda.synchronize()
            want = {}
            r = x.clone()
            dist.all_reduce(r)
            want["AllReduce"] = r
            parts = [torch.empty_like(x) for _ in range(world)]
            dist.all_gather(parts, x)
            want["AllGather"] = torch.cat(parts)
            rs = torch.empty(count, dtype=dtype, device="cuda")
            dist.reduce_scatter_tensor(rs, x)
            want["ReduceScatter"] = rs
            a2a = torch.empty_like(x)
            dist.all_to_all_single(a2a, x)
            want["AllToAll"] = a2a
            torch.cuda.synchronize()
            for name, ref in want.items():
                out = torch.empty_like(ref)
                p = ctypes.c_void_p
                if name in ("AllReduce", "ReduceScatter"):
                    n = x.numel() if name == "AllReduce" else count
                    fns[name](ctypes.c_int32(code), ctypes.c_int32(0),
                              p(x.data_ptr()), p(out.data_ptr()), i64(n),
                              *group)
                else:
                    n = x.numel() if name == "AllGather" else count
                    fns[name](ctypes.c_int32(code), p(x.data_ptr()),
                              p(out.data_ptr()), i64(n), *group)
                torch.cuda.synchronize()
                error = lib.rlxCollectiveGetLastError()
                # NCCL's sums in another order round differently in bf16.
                tol = 1e-2 if dtype == torch.bfloat16 else 1e-5
                bad = error or not torch.allclose(out.float(), ref.float(),
                                                  rtol=tol, atol=tol)
                failures += bool(bad)
                if rank == 0 and (bad or count == 1 << 20):
                    print("collective %-13s %-8s x %7d: %s" %
                          (name, str(dtype).split(".")[1], count,
                           error.decode() if error else
                           ("MISMATCH" if bad else "equal to torch")))
    return failures


def bus_bandwidth(torch, dist, lib, rank, world, elements):
    """GB/s of all-reduce bus traffic (2 (n-1)/n bytes per call) for a bf16
    buffer of `elements`: ours, torch.distributed's."""
    x = torch.randn(elements, device="cuda").bfloat16()
    out = torch.empty_like(x)
    fn = lib.rlxCollectiveAllReduce
    p, i64 = ctypes.c_void_p, ctypes.c_int64
    stream = torch.cuda.current_stream().cuda_stream or 1
    lib.rlxCudaSetStream(p(stream))

    def ours():
        fn(ctypes.c_int32(2), ctypes.c_int32(0), p(x.data_ptr()),
           p(out.data_ptr()), i64(elements), i64(1), i64(0), i64(rank),
           i64(world))

    t_ours = timed(torch, ours)
    lib.rlxCudaSetStream(p(0))
    t_torch = timed(torch, lambda: dist.all_reduce(x))
    traffic = 2 * (world - 1) / world * x.numel() * 2 / 1e9
    return t_ours, traffic / (t_ours / 1e3), t_torch, traffic / (t_torch /
                                                                  1e3)


def run(out, flags):
    import torch
    import torch.distributed as dist
    import rlx.cuda
    import rlx.megatron
    rank = int(os.environ["RLX_RANK"])
    world = int(os.environ["RLX_WORLD_SIZE"])
    torch.cuda.set_device(int(os.environ.get("RLX_LOCAL_RANK", rank)))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("nccl", rank=rank, world_size=world)
    failures = 0

    tp = rlx.cuda.load(os.path.join(out, "tp%d" % world, "librlx_layer.so"))
    x, ws = weights(torch)
    mine = rlx.megatron.shard_weights(ws, rank, [world])
    local = rlx.cuda.load(os.path.join(out, "local%d" % world,
                                       "librlx_layer.so"))
    t_local_first = timed(torch, lambda: local(x, *mine))
    y = tp(x, *mine)  # loads the library (and NCCL) on this rank
    torch.cuda.synchronize()
    failures += check_collectives(torch, dist, tp._lib, rank, world)

    t_tp = timed(torch, lambda: tp(x, *mine))
    t_mb, y_mb = {}, {}
    for m in MICRO_BATCHES:
        mb = rlx.cuda.load(os.path.join(out, "tp%d_mb%d" % (world, m),
                                        "librlx_layer.so"))
        y_mb[m] = mb(x, *mine)
        t_mb[m] = timed(torch, lambda: mb(x, *mine))
    t_local = timed(torch, lambda: local(x, *mine))
    t_local_mb = {}
    for m in MICRO_BATCHES:
        local_mb = rlx.cuda.load(os.path.join(
            out, "local%d_mb%d" % (world, m), "librlx_layer.so"))
        t_local_mb[m] = timed(torch, lambda: local_mb(x, *mine))
    bw = bus_bandwidth(torch, dist, tp._lib, rank, world,
                       SHAPE["batch"] * SHAPE["seq"] * SHAPE["hidden"])
    dist.barrier()
    if rank == 0:
        one = rlx.cuda.load(os.path.join(out, "one", "librlx_layer.so"))
        y1 = one(x, *ws)
        ref = torch_layer(torch, x, ws, torch.float32)
        yb = torch_layer(torch, x, ws, torch.bfloat16)
        scale = ref.abs().max().item()
        err = {name: ((v.float() - ref).abs().max().item() / scale)
               for name, v in [("rlx N GPUs", y), ("rlx 1 GPU", y1),
                               ("PyTorch bf16", yb)] +
               [("rlx N GPUs mb%d" % m, y_mb[m]) for m in MICRO_BATCHES]}
        two_vs_one = (y.float() - y1.float()).abs().max().item() / scale
        for name, e in err.items():
            print("layer %-14s max error %.2e of max |ref| (float32)" %
                  (name, e))
        print("layer %d GPUs vs 1 GPU: max difference %.2e of max |ref|" %
              (world, two_vs_one))
        failures += sum(e > TOL for name, e in err.items()
                        if name.startswith("rlx"))
        t_one = timed(torch, lambda: one(x, *ws))
        t_eager = timed(torch, lambda: torch_layer(torch, x, ws,
                                                   torch.bfloat16))
        compiled = torch.compile(lambda *a: torch_layer(torch, a[0], a[1:],
                                                        torch.bfloat16))
        compiled(x, *ws)
        t_compiled = timed(torch, lambda: compiled(x, *ws))
        print("| program | ms | speedup over rlx 1 GPU |")
        print("|---|---|---|")
        print("| rlx, 1 GPU | %.2f | 1.00 |" % t_one)
        print("| rlx, %d GPUs (tensor parallel) | %.2f | %.2f |" %
              (world, t_tp, t_one / t_tp))
        for m in MICRO_BATCHES:
            print("| rlx, %d GPUs, %d micro-batches (overlapped all-reduces)"
                  " | %.2f | %.2f |" % (world, m, t_mb[m], t_one / t_mb[m]))
        print("| one GPU's share alone (no collectives) | %.2f | %.2f |" %
              (t_local, t_one / t_local))
        for m in MICRO_BATCHES:
            print("| the share alone, %d micro-batches | %.2f | %.2f |" %
                  (m, t_local_mb[m], t_one / t_local_mb[m]))
        print("| the share before NCCL was loaded | %.2f | %.2f |" %
              (t_local_first, t_one / t_local_first))
        print("| PyTorch eager, 1 GPU | %.2f | %.2f |" %
              (t_eager, t_one / t_eager))
        print("| torch.compile, 1 GPU | %.2f | %.2f |" %
              (t_compiled, t_one / t_compiled))
        print("all-reduce of %d MiB bf16: rlx %.3f ms (%.0f GB/s bus), "
              "torch.distributed %.3f ms (%.0f GB/s bus)" %
              (SHAPE["batch"] * SHAPE["seq"] * SHAPE["hidden"] * 2 >> 20,
               *bw))
        print("failures:", failures)
    dist.barrier()
    dist.destroy_process_group()
    return failures


if __name__ == "__main__":
    main(__doc__, compile_programs, run)
