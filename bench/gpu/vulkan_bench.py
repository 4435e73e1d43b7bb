#!/usr/bin/env python3
"""RLX's Vulkan kernels against PyTorch eager and torch.compile, in one run.

Run on the GPU machine from the folder bench/gpu/build_vulkan.sh fills (it
holds librlx_vulkan_bench.so, librlx_vulkan_runtime.so, gpu_peers.py and
this file), with a Vulkan loader and driver:

    python3 vulkan_bench.py [--only rmsnorm,matmul] [--dtypes float32,bfloat16]

For each memory-bound workload of gpu_peers.py, the bias-GELU matmul and
the BERT layer (layers.py's inputs and float64 reference), and each dtype: fresh random inputs (a new seed every run,
printed) copied into Vulkan buffers, our output filled with 0xFF bytes
(NaN), one call, the runtime's error checked, then ||ours - ref|| /
||ref|| against gpu_peers' float64 reference (f32 below 1e-4, bf16 below
1e-2). Ours is timed as N calls recorded into one command buffer, one
submission, wall-clock time over N (the device's time plus one submit);
eager and torch.compile are timed with CUDA events (gpu_peers.bench) on
the same inputs. bench.py gives our CUDA path's figures in the same run.
"""

import argparse, ctypes, os, sys, time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_peers  # noqa: E402
import layers  # noqa: E402
import bench  # noqa: E402
from bench import rel_err  # noqa: E402

# workload of gpu_peers -> our entry point (f32; + _bf16 for bf16):
# bench.py's memory-bound ones and the matmul, which is a generated kernel
# here.
OURS = dict(bench.OURS,
            matmul_bias_gelu_8192x768x3072="matmul_bias_gelu")
TOL = layers.TOL


class Vulkan:
    def __init__(self):
        self.rt = ctypes.CDLL(os.path.join(HERE, "librlx_vulkan_runtime.so"),
                              mode=ctypes.RTLD_GLOBAL)
        rt = self.rt
        rt.rlxVulkanGetLastError.restype = ctypes.c_char_p
        rt.rlxVulkanDeviceName.restype = ctypes.c_char_p
        rt.rlxVulkanCooperativeMatrices.restype = ctypes.c_char_p
        rt.rlxVulkanAlloc.restype = ctypes.c_void_p
        rt.rlxVulkanAlloc.argtypes = [ctypes.c_uint64]
        rt.rlxVulkanFree.argtypes = [ctypes.c_void_p]
        for f in (rt.rlxVulkanCopyToDevice, rt.rlxVulkanCopyToHost):
            f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64]
        rt.rlxVulkanStreamCreate.restype = ctypes.c_void_p
        for f in (rt.rlxVulkanStreamSynchronize, rt.rlxVulkanStreamDestroy,
                  rt.rlxVulkanSetStream):
            f.argtypes = [ctypes.c_void_p]
        # Its global constructors load the kernels' SPIR-V modules.
        self.lib = ctypes.CDLL(os.path.join(HERE, "librlx_vulkan_bench.so"))
        self.check("loading the kernels")
        self.name = rt.rlxVulkanDeviceName().decode()
        # What --vulkan-options=cooperative-matrix=... may assume of it.
        self.cooperative = rt.rlxVulkanCooperativeMatrices().decode()

    def check(self, what):
        err = self.rt.rlxVulkanGetLastError()
        if err:
            raise RuntimeError(f"{what}: {err.decode()}")

    def buffer(self, t):
        """A device buffer holding the CPU tensor `t` and its descriptor."""
        t = t.contiguous()
        nbytes = t.numel() * t.element_size()
        ptr = self.rt.rlxVulkanAlloc(nbytes)
        self.check("alloc")
        assert self.rt.rlxVulkanCopyToDevice(ptr, t.data_ptr(), nbytes) == 0
        rank = t.dim()

        class Desc(ctypes.Structure):
            _fields_ = [("allocated", ctypes.c_void_p),
                        ("aligned", ctypes.c_void_p),
                        ("offset", ctypes.c_int64),
                        ("sizes", ctypes.c_int64 * rank),
                        ("strides", ctypes.c_int64 * rank)]
        return ptr, Desc(ptr, ptr, 0, (ctypes.c_int64 * rank)(*t.shape),
                         (ctypes.c_int64 * rank)(*t.stride()))

    def run(self, fn_name, args, out_shape, dtype, ref, tol, bytes_moved,
            flops=None):
        bufs = [self.buffer(a.cpu()) for a in args]
        poison = torch.full(out_shape, float("nan"), dtype=dtype)
        out_ptr, out_desc = self.buffer(poison)
        fn = getattr(self.lib, "_mlir_ciface_" + fn_name)
        fn.restype = None
        ptrs = [ctypes.byref(d) for _, d in bufs] + [ctypes.byref(out_desc)]
        fn(*ptrs)
        self.check(fn_name)
        out = torch.empty(out_shape, dtype=dtype)
        self.rt.rlxVulkanCopyToHost(out.data_ptr(), out_ptr,
                                    out.numel() * out.element_size())
        err = rel_err(out, ref.cpu())
        # N calls in one submission, N chosen from one timed call.
        stream = self.rt.rlxVulkanStreamCreate()
        self.rt.rlxVulkanSetStream(stream)
        start = time.perf_counter()
        fn(*ptrs)
        self.rt.rlxVulkanStreamSynchronize(stream)
        once = time.perf_counter() - start
        n = max(3, min(200, int(0.5 / max(once, 1e-6))))
        start = time.perf_counter()
        for _ in range(n):
            fn(*ptrs)
        self.rt.rlxVulkanStreamSynchronize(stream)
        ms = (time.perf_counter() - start) / n * 1e3
        self.rt.rlxVulkanSetStream(None)
        self.rt.rlxVulkanStreamDestroy(stream)
        self.check(fn_name + " (timed)")
        for p, _ in bufs + [(out_ptr, None)]:
            self.rt.rlxVulkanFree(p)
        rate = (f"{bytes_moved / ms / 1e9:.2f} TB/s" if flops is None else
                f"{flops / ms / 1e9:.1f} TFLOP/s")
        return err, err < tol, ms, rate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--dtypes", default="float32,bfloat16")
    ap.add_argument("--peers", action="store_true",
                    help="also time eager and torch.compile")
    a = ap.parse_args()
    seed = int.from_bytes(os.urandom(4), "little")
    vk = Vulkan()
    print(f"Vulkan device: {vk.name}; seed {seed}", flush=True)
    print("cooperative matrices: "
          + ("; ".join(vk.cooperative.splitlines()) or "none"), flush=True)
    wanted = [w for w in a.only.split(",") if w]
    for name, entry in OURS.items():
        if wanted and not any(w in name for w in wanted):
            continue
        fn, shapes, bytes_fn, flops = gpu_peers.WORKLOADS[name]
        for dt in a.dtypes.split(","):
            dtype = getattr(torch, dt)
            args = gpu_peers.make_inputs(name, dtype, seed)
            ref = gpu_peers.reference(name, args)
            suffix = "" if dtype == torch.float32 else "_" + dt.replace(
                "bfloat16", "bf16")
            fn_name = entry + ("_f32" if name.startswith("matmul") and
                               dtype == torch.float32 else suffix)
            size = torch.tensor([], dtype=dtype).element_size()
            err, ok, ms, rate = vk.run(fn_name, args, tuple(ref.shape), dtype,
                                       ref, TOL[dtype], bytes_fn(size), flops)
            line = (f"{name:32s} {dt:9s} vulkan err {err:.1e} "
                    f"{'ok' if ok else 'FAIL'} {ms:.3f} ms ({rate})")
            if a.peers:
                with torch.no_grad():
                    comp = torch.compile(fn)
                    comp(*args)
                    torch.cuda.synchronize()
                    cms = gpu_peers.bench(lambda: comp(*args))
                line += f"  compile {cms:.3f} ms"
            print(line, flush=True)
    if wanted and not any(w in "bert_layer" for w in wanted):
        return
    for dt in a.dtypes.split(","):
        dtype = getattr(torch, dt)
        args = layers.bert_inputs(dtype, seed)
        ref = layers.bert_layer(*[t.double() for t in args])
        suffix = "_f32" if dtype == torch.float32 else "_bf16"
        err, ok, ms, _ = vk.run("bert_layer" + suffix, args, tuple(ref.shape),
                                dtype, ref, TOL[dtype], 0)
        print(f"{'bert_layer_b32_s128':32s} {dt:9s} vulkan err {err:.1e} "
              f"{'ok' if ok else 'FAIL'} {ms:.3f} ms", flush=True)


if __name__ == "__main__":
    main()
