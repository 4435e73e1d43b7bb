#!/usr/bin/env python3
# ===- bench/gpu/row_ceiling.py - what a kernel reaches on residual+LN ----=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# bench.py's residual_layernorm_32768x768 in bf16 and f16 misses 2.7 TB/s by
# about 1%, as torch.compile's kernel does. This probe times hand-written
# schedules of the same problem (row_ceiling.cu, built into
# row_ceiling.cubin by build.sh) with the same inputs, timer and byte count
# as bench.py, beside torch.compile, to tell whether another schedule would
# pass the target, beside the ceilings of the same bytes: x + r alone (ours
# and PyTorch's) and a device copy. Each output is poisoned and checked
# against float64 (relative error below 1e-2). Prints TB/s and
# compile_ms / kernel_ms.
#
#     python3 OUT_DIR/row_ceiling.py
#
# ===---------------------------------------------------------------------=== #
import ctypes
import os
import sys

import torch

import gpu_peers

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "residual_layernorm_32768x768"
ROWS, COLS = 32768, 768


class Module:
    def __init__(self, path):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.mod = ctypes.c_void_p()
        self.check(self.cu.cuModuleLoad(ctypes.byref(self.mod), path.encode()),
                   "cuModuleLoad")

    @staticmethod
    def check(rc, what):
        if rc != 0:
            raise RuntimeError("%s failed: CUresult %d" % (what, rc))

    def function(self, name):
        f = ctypes.c_void_p()
        self.check(self.cu.cuModuleGetFunction(ctypes.byref(f), self.mod,
                                               name.encode()), name)
        return f

    def blocks_per_sm(self, f):
        n = ctypes.c_int()
        self.check(self.cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(n), f, 256, ctypes.c_size_t(0)), "occupancy")
        return n.value

    def launcher(self, f, blocks, args):
        """A callable launching `f` on `blocks` blocks of 256 threads on
        PyTorch's current stream; args are ctypes values."""
        params = (ctypes.c_void_p * len(args))(
            *[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

        def launch():
            self.check(self.cu.cuLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0,
                                              stream, params, None), "launch")
        launch.keep = (args, params)
        return launch


def main():
    seed = int.from_bytes(os.urandom(4), "little")
    # The driver calls below run in PyTorch's context: make it current first.
    torch.zeros(1, device="cuda")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    mod = Module(os.path.join(HERE, "row_ceiling.cubin"))
    print("%s; seed %d" % (torch.cuda.get_device_name(0), seed))
    print("| dtype | kernel | rel err | ms | TB/s | compile/kernel |")
    print("|---|---|---|---|---|---|")
    failures = 0
    for dtype, suffix in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
        x, r, w, b = gpu_peers.make_inputs(NAME, dtype, seed=seed)
        ref = gpu_peers.reference(NAME, [x, r, w, b])
        nbytes = gpu_peers.WORKLOADS[NAME][2](x.element_size())
        out = torch.empty_like(x)
        ptr = lambda t: ctypes.c_void_p(t.data_ptr())
        args = [ptr(x), ptr(r), ptr(w), ptr(b), ptr(out), ctypes.c_int(ROWS)]
        kernels = []
        for name in ("row", "row_cs"):
            f = mod.function("%s_%s" % (name, suffix))
            kernels.append((name, mod.launcher(f, ROWS // 8, args), True))
        for name in ("persistent", "persistent_cs"):
            f = mod.function("%s_%s" % (name, suffix))
            per_sm = mod.blocks_per_sm(f)
            for mult in (1, 2):
                kernels.append(("%s %d blocks" % (name, sms * per_sm * mult),
                                mod.launcher(f, sms * per_sm * mult, args),
                                True))
        kernels.append(("x + r only", mod.launcher(
            mod.function("add_only"), ROWS * COLS // 8 // 256,
            [ptr(x), ptr(r), ptr(out), ctypes.c_long(ROWS * COLS // 8)]),
                        False))
        # PyTorch's own elementwise kernel and device copy on the same
        # bytes: the ceilings its library reaches at this size.
        kernels.append(("torch.add(x, r, out=)",
                        lambda: torch.add(x, r, out=out), False))
        src = torch.randn(3 * ROWS * COLS // 2, device="cuda").to(dtype)
        dst = torch.empty_like(src)
        kernels.append(("device copy of as many bytes",
                        lambda: dst.copy_(src), False))
        compiled = torch.compile(gpu_peers.WORKLOADS[NAME][0])
        compiled(x, r, w, b)
        torch.cuda.synchronize()
        compile_ms = gpu_peers.bench(lambda: compiled(x, r, w, b))
        print("| %s | torch.compile | | %.4f | %.3f | 1.00 |"
              % (suffix, compile_ms, nbytes / compile_ms / 1e9))
        for name, launch, checked in kernels:
            err = float("nan")
            if checked:
                out.fill_(float("nan"))
                launch()
                torch.cuda.synchronize()
                err = ((out.double() - ref).norm() / ref.norm()).item()
                if not err < 1e-2:
                    failures += 1
            ms = gpu_peers.bench(launch)
            print("| %s | %s | %s | %.4f | %.3f | %.3f |"
                  % (suffix, name, "%.1e" % err if checked else "-", ms,
                     nbytes / ms / 1e9, compile_ms / ms), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
