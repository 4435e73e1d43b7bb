#!/usr/bin/env python3
"""RLX's CUDA kernels against PyTorch eager and torch.compile, in one run.

Run on the GPU machine from the folder bench/gpu/build.sh fills (it holds
librlx_bench_kernels.so, librlx_cuda_runtime.so, gpu_peers.py and this file):

    python3 bench.py [--json out.json] [--dtypes float32,bfloat16,float16]
                     [--rows-json rows.json]

For each workload and dtype: fresh random inputs (a new seed every run,
printed), our output poisoned with NaN, one call, the runtime's error
checked, then ||ours - ref|| / ||ref|| against the float64 reference of
gpu_peers.py (f32 must be below 1e-4, bf16 and f16 below 1e-2; a NaN or an
unwritten element fails). Then ours,
eager and torch.compile are timed in the same process with CUDA events
(gpu_peers.bench: Triton's do_bench, median). Ours runs on PyTorch's
current stream (rlxCudaSetStream), asynchronously like the peers.
The matmul and attention workloads (FLOP_WORKLOADS: cuBLASLt with its
epilogue; the runtime's flash-attention kernel, or in f32 two cuBLASLt
products around a masked softmax) are checked the same way and reported
in TFLOP/s. --only takes comma-separated parts of workload names.
--rows-json writes every row's ms of ours, eager and compile in the form
bench/plot.py draws on a machine with matplotlib (this one may lack it):
python3 bench/plot.py rows.json plot.svg.
"""
import argparse, ctypes, json, os, sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_peers  # noqa: E402
import layers  # noqa: E402

# workload of gpu_peers -> our entry point
OURS = {
    "rmsnorm_16384x4096": "rmsnorm",
    "softmax_16384x4096": "softmax",
    "swiglu_8192x11008": "swiglu",
    "residual_layernorm_32768x768": "residual_layernorm",
}
# compute-bound workloads: (workload, dtype) -> our entry point (matmuls:
# cuBLASLt with the GELU_BIAS epilogue; causal attention: the flash kernel,
# in f32 two cuBLASLt products around a masked softmax),
# checked at the tolerances, timed in TFLOP/s.
ATTENTION = "attention_causal_b8_h16_s2048_d128"
FLOP_WORKLOADS = {
    ("matmul_bias_gelu_8192x768x3072", torch.float32): "matmul_bias_gelu_f32",
    ("matmul_bias_gelu_8192x768x3072", torch.bfloat16): "matmul_bias_gelu_bf16",
    (ATTENTION, torch.float32): "attention_causal_f32",
    (ATTENTION, torch.bfloat16): "attention_causal_bf16",
    (ATTENTION, torch.float16): "attention_causal_f16",
}
FLOP_TOL = {torch.float32: 1e-4, torch.bfloat16: 1e-2, torch.float16: 1e-2}
# The bf16 / f16 versions of these workloads: the entry point's name plus
# the suffix.
LOW_PRECISION = {torch.bfloat16: "_bf16", torch.float16: "_f16"}
LOW_PRECISION_WORKLOADS = ["rmsnorm_16384x4096", "softmax_16384x4096",
                           "swiglu_8192x11008", "residual_layernorm_32768x768"]
TOL = {torch.float32: 1e-4, torch.bfloat16: 1e-2, torch.float16: 1e-2}


def descriptor(t):
    """MLIR's memref descriptor of a contiguous CUDA tensor."""
    rank = t.dim()

    class Desc(ctypes.Structure):
        _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                    ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * rank),
                    ("strides", ctypes.c_int64 * rank)]

    assert t.is_cuda and t.is_contiguous() and t.data_ptr() % 16 == 0
    return Desc(t.data_ptr(), t.data_ptr(), 0, (ctypes.c_int64 * rank)(*t.shape),
                (ctypes.c_int64 * rank)(*t.stride()))


class Ours:
    def __init__(self, kernels="librlx_bench_kernels.so"):
        torch.cuda.init()
        torch.empty(1, device="cuda")  # the primary context, current here
        self.rt = ctypes.CDLL(os.path.join(HERE, "librlx_cuda_runtime.so"),
                              mode=ctypes.RTLD_GLOBAL)
        self.rt.rlxCudaGetLastError.restype = ctypes.c_char_p
        self.rt.rlxCudaSetStream.argtypes = [ctypes.c_void_p]
        # Its global constructors load the kernels' cubins.
        self.lib = ctypes.CDLL(os.path.join(HERE, kernels))
        self.check("loading the kernels")

    def check(self, what):
        err = self.rt.rlxCudaGetLastError()
        if err:
            raise RuntimeError(f"{what}: {err.decode()}")

    def call(self, fn_name, args, out):
        """Binds `fn_name` to fixed descriptors; returns a no-argument call."""
        descs = [descriptor(t) for t in args + [out]]
        ptrs = [ctypes.byref(d) for d in descs]
        fn = getattr(self.lib, "_mlir_ciface_" + fn_name)
        fn.restype = None

        def run():
            fn(*ptrs)
        run.keep = (descs, args, out)
        return run


def rel_err(out, ref):
    if not torch.isfinite(out).all():
        return float("nan")
    return ((out.to(ref.dtype) - ref).norm() / ref.norm()).item()


def check_and_time(ours, name, fn_name, dtype, args, ref, tol, peer):
    """Ours once on a NaN-poisoned output, checked against the float64
    `ref` (relative error below `tol`; NaN never passes), then ours, `peer`
    eager and torch.compile(peer) timed on `args`; `peer` may be a dict of
    variants, each timed both ways, the row keeping the fastest of each
    column (and their names). Returns the row."""
    out = torch.full(ref.shape, float("nan"), dtype=dtype, device=ref.device)
    run = ours.call(fn_name, args, out)
    run()
    torch.cuda.synchronize()
    ours.check(fn_name)
    err = rel_err(out, ref)
    row = {"workload": name, "dtype": str(dtype).replace("torch.", ""),
           "rel_err": err, "ok": err < tol}
    row["ours_ms"] = gpu_peers.bench(run)
    ours.check(fn_name + " (timed)")
    variants = peer if isinstance(peer, dict) else {"": peer}
    eager, compile_ = {}, {}
    with torch.no_grad():
        for variant, fn in variants.items():
            eager[variant] = gpu_peers.bench(lambda: fn(*args))
            compiled = torch.compile(fn)
            compiled(*args)
            torch.cuda.synchronize()
            compile_[variant] = gpu_peers.bench(lambda: compiled(*args))
    row["eager_ms"] = min(eager.values())
    row["compile_ms"] = min(compile_.values())
    if len(variants) > 1:
        row["peers"] = "eager: %s, compile: %s (%s)" % (
            min(eager, key=eager.get), min(compile_, key=compile_.get),
            ", ".join("%s %.3f/%.3f ms" % (v, eager[v], compile_[v])
                      for v in variants))
    row["compile/ours"] = row["compile_ms"] / row["ours_ms"]
    print(f"{name:30s} {row['dtype']:8s} err {err:.1e} "
          f"{'ok' if row['ok'] else 'FAIL'}  ours {row['ours_ms']:.3f} ms"
          f"  eager {row['eager_ms']:.3f}  compile {row['compile_ms']:.3f}",
          flush=True)
    return row


def run_flop_workloads(ours, seed, wanted, dtypes):
    """Checks and times FLOP_WORKLOADS; returns (rows, failures)."""
    rows, failures = [], 0
    for (name, dtype), fn_name in FLOP_WORKLOADS.items():
        if not wanted(name) or dtype not in dtypes:
            continue
        fn, _, _, flops = gpu_peers.WORKLOADS[name]
        args = gpu_peers.make_inputs(name, dtype, seed=seed)
        ref = gpu_peers.reference(name, args)
        row = check_and_time(ours, name, fn_name, dtype, args, ref,
                             FLOP_TOL[dtype], fn)
        failures += not row["ok"]
        for k in ("ours", "eager", "compile"):
            row[k + "_TFLOPs"] = flops / row[k + "_ms"] / 1e9
        rows.append(row)
        del args, ref
        torch.cuda.empty_cache()
    return rows, failures


def print_flop_rows(rows, dev, seed):
    print(f"\n{dev}, matmul and attention (allow_tf32={torch.backends.cuda.matmul.allow_tf32}), seed {seed}")
    print("| workload | dtype | rel err | ours ms | ours TFLOP/s | eager TFLOP/s"
          " | compile TFLOP/s | compile/ours |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['workload']} | {r['dtype']} | {r['rel_err']:.1e}{'' if r['ok'] else ' FAIL'} "
              f"| {r['ours_ms']:.3f} | {r['ours_TFLOPs']:.0f} | {r['eager_TFLOPs']:.0f} "
              f"| {r['compile_TFLOPs']:.0f} | {r['compile/ours']:.2f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", default="",
                    help="comma-separated parts of the workloads' names")
    ap.add_argument("--dtypes", default="float32,bfloat16,float16")
    ap.add_argument("--kernels", default="librlx_bench_kernels.so",
                    help="the kernels library (a variant built for tuning)")
    ap.add_argument("--rows-json", metavar="FILE",
                    help="the tables' ms for bench/plot.py")
    a = ap.parse_args()
    dtypes = [getattr(torch, d) for d in a.dtypes.split(",")]

    def wanted(name):
        return any(part in name for part in a.only.split(","))
    seed = int.from_bytes(os.urandom(4), "little")
    ours = Ours(a.kernels)
    # One stream for everything (PyTorch's default stream is handle 0, which
    # the runtime would take for "no stream set").
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    ours.rt.rlxCudaSetStream(ctypes.c_void_p(stream.cuda_stream))
    dev = torch.cuda.get_device_name(0)
    ceil = gpu_peers.ceilings()
    print(f"{dev}: copy {ceil['copy_TBps']:.2f} TB/s; seed {seed}", flush=True)
    rows, failures = [], 0
    jobs = [(name, torch.float32, fn_name) for name, fn_name in OURS.items()]
    jobs += [(name, dtype, OURS[name] + suffix)
             for dtype, suffix in LOW_PRECISION.items()
             for name in LOW_PRECISION_WORKLOADS]
    for name, dtype, fn_name in jobs:
        if not wanted(name) or dtype not in dtypes:
            continue
        fn, _, bytes_fn, _ = gpu_peers.WORKLOADS[name]
        args = gpu_peers.make_inputs(name, dtype, seed=seed)
        ref = gpu_peers.reference(name, args)
        row = check_and_time(ours, name, fn_name, dtype, args, ref, TOL[dtype],
                             fn)
        failures += not row["ok"]
        nbytes = bytes_fn(dtype.itemsize)
        for k in ("ours", "eager", "compile"):
            row[k + "_TBps"] = nbytes / row[k + "_ms"] / 1e9
        rows.append(row)
        del args, ref
        torch.cuda.empty_cache()

    mm_rows, mm_failures = run_flop_workloads(ours, seed, wanted, dtypes)
    failures += mm_failures
    layer_rows, layer_failures = layers.run(ours, seed, wanted, dtypes, check_and_time)
    failures += layer_failures

    print(f"\n{dev}, copy ceiling {ceil['copy_TBps']:.2f} TB/s, seed {seed}")
    print("| workload | dtype | rel err | ours ms | ours TB/s | eager ms | eager TB/s"
          " | compile ms | compile TB/s | compile/ours |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['workload']} | {r['dtype']} | {r['rel_err']:.1e}{'' if r['ok'] else ' FAIL'} "
              f"| {r['ours_ms']:.3f} | {r['ours_TBps']:.2f} | {r['eager_ms']:.3f} "
              f"| {r['eager_TBps']:.2f} | {r['compile_ms']:.3f} | {r['compile_TBps']:.2f} "
              f"| {r['compile/ours']:.2f} |")
    print_flop_rows(mm_rows, dev, seed)
    layers.print_rows(layer_rows, dev, seed)
    if a.json:
        json.dump({"device": dev, "seed": seed, "ceilings": ceil, "rows": rows,
                   "matmul_rows": mm_rows, "layer_rows": layer_rows},
                  open(a.json, "w"), indent=1)
    if a.rows_json:
        json.dump({"title": f"{dev}: ms against the fastest of ours, eager "
                   f"and torch.compile (seed {seed})",
                   "lower_is_better": True, "unit": "ms",
                   "rows": [[f"{r['workload']} {r['dtype']}"
                             f"{'' if r['ok'] else ' FAIL'}", peer,
                             r[peer + "_ms"]]
                            for r in rows + mm_rows + layer_rows
                            for peer in ("ours", "eager", "compile")]},
                  open(a.rows_json, "w"), indent=1)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
