#!/usr/bin/env python3
# ===- bench/gpu/scatter_add.py - rlx.scatter_add on the GPU --------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
"""rlx.scatter_add compiled for CUDA (a copy, then one atomic add per
update element) against torch.index_add on the same fresh random inputs (a
new seed every run, printed): floats against float64 sums (f32 within 1e-5,
f16/bf16 within a few roundings of each sum's magnitude), integers exactly;
indices outside the axis add nothing. Then the gradient of a GPT-2 token
embedding (50257 x 768, 8 x 1024 tokens) timed against torch's index_add_.

    bench/gpu/scatter_add.py compile OUT     (here, with rlx built)
    python3 OUT/scatter_add.py run OUT       (on the GPU machine)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from artifacts import copy_run_files, main, timed  # noqa: E402

# name: (base shape, index count, axis, element type, index type)
CASES = {
    "rows_f32": ((1000, 64), 512, 0, "f32", "i64"),
    "axis1_f32": ((4, 50, 8), 30, 1, "f32", "i64"),
    "last_axis_f64": ((6, 7, 40), 100, 2, "f64", "i64"),
    "rows_f16": ((300, 32), 200, 0, "f16", "i64"),
    "rows_bf16": ((300, 32), 200, 0, "bf16", "i64"),
    "rows_i32": ((100, 16), 400, 0, "i32", "i64"),
    "embedding_grad": ((50257, 768), 8 * 1024, 0, "f32", "i64"),
}


def program(shape, count, axis, elem, index):
    upd = list(shape)
    upd[axis] = count

    def t(s, e):
        return "tensor<%sx%s>" % ("x".join(map(str, s)), e)
    return """
func.func @scatter(%%b: %(b)s, %%i: %(i)s, %%u: %(u)s) -> %(b)s {
  %%r = rlx.scatter_add %%b, %%i, %%u axis = %(axis)d : %(b)s, %(i)s, %(u)s
  return %%r : %(b)s
}
""" % {"b": t(shape, elem), "i": t([count], index), "u": t(upd, elem),
       "axis": axis}


def compile_programs(out):
    import rlx
    for name, case in CASES.items():
        where = os.path.join(out, name)
        compiled = rlx.compile(rlx.Module.parse(program(*case)),
                               target="cuda", function="scatter",
                               out_dir=where)
        print("compiled", compiled, "into", where)
    copy_run_files(out, ["scatter_add.py"])


def run(out, flags):
    import torch
    import rlx.cuda
    seed = int.from_bytes(os.urandom(4), "little")
    g = torch.Generator(device="cuda").manual_seed(seed)
    types = {"f32": torch.float32, "f64": torch.float64,
             "f16": torch.float16, "bf16": torch.bfloat16,
             "i32": torch.int32, "i64": torch.int64}
    failures = 0
    for name, (shape, count, axis, elem, index) in CASES.items():
        fn = rlx.cuda.load(os.path.join(out, name, "librlx_scatter.so"))
        dtype = types[elem]
        upd_shape = list(shape)
        upd_shape[axis] = count
        # Repeats: indices drawn from a fifth of the rows; and, but for the
        # timed case, two out of range (-1 and the axis size).
        rows = shape[axis]
        idx = torch.randint(0, max(1, rows // 5), (count,), generator=g,
                            device="cuda")
        if name != "embedding_grad":
            idx[0], idx[-1] = -1, rows
        idx = idx.to(types[index])
        if dtype.is_floating_point:
            base = torch.randn(shape, generator=g, device="cuda").to(dtype)
            upd = torch.randn(upd_shape, generator=g, device="cuda").to(dtype)
        else:
            base = torch.randint(-50, 50, shape, generator=g, device="cuda",
                                 dtype=dtype)
            upd = torch.randint(-50, 50, upd_shape, generator=g,
                                device="cuda", dtype=dtype)
        got = fn(base, idx, upd)
        valid = (idx >= 0) & (idx < rows)
        kept = upd.index_select(axis, valid.nonzero().flatten())
        wide = torch.float64 if dtype.is_floating_point else torch.int64
        ref = base.to(wide).index_add(axis, idx[valid].long(), kept.to(wide))
        if dtype.is_floating_point:
            # Each sum's magnitude: |base| + the |updates| added to it.
            # (At least the smallest normal: an untouched zero of the base
            # has a magnitude of 0 and an error of 0.)
            scale = base.abs().to(torch.float64).index_add(
                axis, idx[valid].long(), kept.abs().to(torch.float64)
            ).clamp_min(torch.finfo(torch.float64).tiny)
            eps = torch.finfo(dtype).eps
            # f32/f64: 1e-5 (f64: 1e-12) of it; f16/bf16: an output rounding
            # and a rounding per addend of the chain (count / rows ~ 5 deep,
            # more with repeats), 16 roundings allowed.
            tol = {torch.float32: 1e-5, torch.float64: 1e-12}.get(
                dtype, 16 * eps)
            err = ((got.to(torch.float64) - ref).abs() / scale).max().item()
            ok = err <= tol
            print("%-15s max error %.2e of each sum's magnitude (tol %.0e)"
                  % (name, err, tol))
        else:
            ok = torch.equal(got.to(torch.int64), ref)
            print("%-15s %s" % (name, "equal" if ok else "DIFFERENT"))
        failures += not ok
        if name == "embedding_grad":
            base = torch.zeros_like(base)
            t_rlx = timed(torch, lambda: fn(base, idx, upd))
            t_torch = timed(torch, lambda: base.clone().index_add_(
                0, idx, upd))
            print("| GPT-2 embedding gradient (50257x768 f32, 8192 tokens) "
                  "| rlx %.3f ms | torch clone + index_add_ %.3f ms | "
                  "%.2fx |" % (t_rlx, t_torch, t_torch / t_rlx))
    print("seed %d, failures: %d" % (seed, failures))
    return failures


if __name__ == "__main__":
    main(__doc__, compile_programs, run)
