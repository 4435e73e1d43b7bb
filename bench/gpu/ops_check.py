#!/usr/bin/env python3
# ===- bench/gpu/ops_check.py - ops.mlir on the GPU against PyTorch -------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# Runs the functions of ops.mlir and ops_arena.mlir (built by build.sh into
# librlx_ops_check.so) on the GPU on fresh random inputs (a new seed every
# run, printed), every output poisoned with NaN first, and compares them
# with PyTorch in float64: relative error ||ours - ref|| / ||ref|| below
# 1e-5 (f32); a NaN or an unwritten element fails. Exits 1 on a failure.
#
#     python3 OUT_DIR/ops_check.py
#
# ===---------------------------------------------------------------------=== #
import ctypes
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402

TOL = 1e-5
SINGLE = {torch.float64: torch.float32, torch.complex128: torch.complex64}


def cases(g):
    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g, device="cuda", dtype=dtype)

    x = randn(4, 16, 34, 34)
    w, b = randn(32, 16, 3, 3) * 0.1, randn(32)
    yield ("conv_bias", [x, w, b],
           [F.conv2d(x.double(), w.double(), b.double(), stride=2, padding=1)])
    yield ("max_pool_padded", [x],
           [F.max_pool2d(x.double(), 3, stride=2, padding=1)])
    yield ("avg_pool", [x], [F.avg_pool2d(x.double(), 2)])
    xg, gg, bg = randn(8, 64, 16, 16) * 3 + 1, randn(64), randn(64)
    yield ("group_norm", [xg, gg, bg],
           [F.group_norm(xg.double(), 8, gg.double(), bg.double(), 1e-5)])
    xr = randn(96, 160)
    yield ("reshape_exp", [xr], [xr.double().reshape(160, 96).exp()])
    xt = randn(256, 512)
    yield ("twice", [xt], [xt.double().tanh()] * 2)
    xi = randn(256, 512)
    for taken in (True, False):
        p = torch.tensor(taken, device="cuda")
        yield ("if_where", [p, xi],
               [xi.double().exp() if taken else -xi.double()])
    q, k, v = (randn(2, 4, 64, 32) for _ in range(3))
    yield ("attention_causal_f32_arena", [q, k, v],
           [F.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                           is_causal=True)])
    a = randn(64, 32, dtype=torch.complex64)
    c = randn(64, 48, dtype=torch.complex64)
    yield ("concat_complex", [a, c],
           [torch.cat([a.to(torch.complex128), c.to(torch.complex128)], 1)])


def main():
    seed = int.from_bytes(os.urandom(4), "little")
    ours = bench.Ours("librlx_ops_check.so")
    g = torch.Generator(device="cuda").manual_seed(seed)
    print("%s; seed %d; relative error against float64, limit %g"
          % (torch.cuda.get_device_name(0), seed, TOL))
    failures = 0
    for name, args, refs in cases(g):
        # Results in single precision: f32, or complex<f32>.
        outs = [torch.full(r.shape, float("nan"), device="cuda",
                           dtype=SINGLE[r.dtype]) for r in refs]
        descs = [bench.descriptor(t) for t in args + outs]
        fn = getattr(ours.lib, "_mlir_ciface_" + name)
        fn.restype = None
        fn(*[ctypes.byref(d) for d in descs])
        torch.cuda.synchronize()
        ours.check(name)
        errs = [bench.rel_err(o, r) for o, r in zip(outs, refs)]
        ok = all(e < TOL for e in errs)
        failures += not ok
        print("%-16s %s  %s" % (name, " ".join("%.1e" % e for e in errs),
                                "ok" if ok else "FAIL"), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
