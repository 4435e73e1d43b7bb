"""int8 and fp8 matmuls on the GPU through the runtime's library: checked
against independent NumPy references, then timed beside our bf16 path and
PyTorch's int8 / fp8 matmuls in one run.

int8: `rlx.int8_matmul` (i8 x i8 -> i32), as `--rlx-quant-propagate` makes
it, runs on cuBLASLt's int8 kernels (`rlx-gpu-dispatch-matmul`
int8-library); the checks are exact against NumPy's int64 product, on odd
shapes, each layout, batches, K not a multiple of 4 (a generated kernel)
and all -128 at K = 4096.

fp8: `rlx.dequant_matmul` with `fp8_e4m3` / `fp8_e5m2` weights, compiled
with `fp8-activations=true`, quantizes x to e4m3 at each call (per row,
or per tensor where the weight's scale is one splat constant) and runs
cuBLASLt's fp8 kernels. The reference emulates that in float64 from the
formats' definitions (test/Integration/fp8ref.py: every e4m3 / e5m2 code
decoded by hand, x / s rounded to the nearest e4m3 value, ties to even,
saturating at 448): the result must match it to the output type's
rounding, and NaN rows stay NaN rows.

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/low_precision_matmul.py compile OUT
    # on the GPU machine (the driver, PyTorch and the rlx package alone)
    PYTHONPATH=build/python:OUT python3 OUT/low_precision_matmul.py run OUT
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The fp8 references (fp8ref.py): test/Integration here, copied beside
# this file into OUT for the GPU machine.
sys.path.insert(0, os.path.join(ROOT, "test", "Integration"))
from fp8ref import E4M3, E5M2, round_e4m3  # noqa: E402
BIG = 8192

# name: (lhs shape, rhs shape, transpose_a, transpose_b)
INT8_CASES = {
    "i8_tn_37x24x16": ((37, 16), (24, 16), False, True),
    "i8_nn_6x12x20": ((6, 20), (20, 12), False, False),
    "i8_ta_20x12x8": ((8, 20), (12, 8), True, True),
    "i8_odd_n_5x7x12": ((5, 12), (7, 12), False, True),
    "i8_k18_generated": ((3, 18), (18, 5), False, False),
    "i8_batched_2x8x12x16": ((2, 8, 16), (2, 12, 16), False, True),
    "i8_rows_3x5x12x16": ((3, 5, 16), (12, 16), False, True),
    "i8_extreme_k4096": ((4, 4096), (8, 4096), False, True),
    "i8_big": ((BIG, BIG), (BIG, BIG), False, True),
}
# name: (x shape, n, x type, weight scheme, per-tensor scale or None)
FP8_CASES = {
    "fp8_bf16_channel_70x48x96": ((70, 96), 48, "bf16", "fp8_e4m3", None),
    "fp8_f32_tensor_2x35x24x32": ((2, 35, 32), 24, "f32", "fp8_e4m3", 0.0625),
    "fp8_f16_e5m2_channel_33x40x64": ((33, 64), 40, "f16", "fp8_e5m2", None),
    "fp8_bf16_special_rows_6x16x32": ((6, 32), 16, "bf16", "fp8_e4m3", None),
    "fp8_k24_generated": ((5, 24), 16, "bf16", "fp8_e4m3", None),
    "fp8_big_channel": ((BIG, BIG), BIG, "bf16", "fp8_e4m3", None),
    "fp8_big_tensor": ((BIG, BIG), BIG, "bf16", "fp8_e4m3", 0.01),
}


def shape_type(shape, element):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), element)


def int8_source(name, case):
    a, b, ta, tb = case
    batch = a[:-2]
    m = a[-1] if ta else a[-2]
    n = b[-2] if tb else b[-1]
    out = shape_type(tuple(batch) + (m, n), "i32")
    attrs = (" transpose_a true" if ta else "") + (" transpose_b true" if tb
                                                   else "")
    return ("func.func @%s(%%a: %s, %%b: %s) -> %s {\n"
            "  %%0 = rlx.int8_matmul %%a, %%b%s : %s, %s\n"
            "  return %%0 : %s\n}\n" % (
                name, shape_type(a, "i8"), shape_type(b, "i8"), out, attrs,
                shape_type(a, "i8"), shape_type(b, "i8"), out))


def fp8_source(name, case):
    x, n, xt, scheme, splat = case
    k = x[-1]
    xs, ws = shape_type(x, xt), shape_type((n, k), "ui8")
    ss, out = shape_type((n,), "f32"), shape_type(x[:-1] + (n,), xt)
    if splat is None:
        args, scale = "%%x: %s, %%w: %s, %%s: %s" % (xs, ws, ss), ""
    else:
        args = "%%x: %s, %%w: %s" % (xs, ws)
        scale = "  %%s = rlx.constant dense<%r> : %s\n" % (splat, ss)
    return ("func.func @%s(%s) -> %s {\n%s"
            "  %%0 = rlx.dequant_matmul #rlx.quant<%s> %%x, %%w, %%s : %s, %s, %s\n"
            "  return %%0 : %s\n}\n" % (name, args, out, scale, scheme, xs, ws,
                                        ss, out))


def bf16_source():
    t = shape_type((BIG, BIG), "bf16")
    return ("func.func @bf16_big(%%a: %s, %%b: %s) -> %s {\n"
            "  %%0 = rlx.matmul %%a, %%b transpose_b true : %s, %s\n"
            "  return %%0 : %s\n}\n" % (t, t, t, t, t, t))


def compile_all(out):
    import rlx
    os.makedirs(out, exist_ok=True)
    programs = [(n, int8_source(n, c), "") for n, c in INT8_CASES.items()]
    programs += [(n, fp8_source(n, c), "fp8-activations=true")
                 for n, c in FP8_CASES.items()]
    programs.append(("bf16_big", bf16_source(), ""))
    for name, text, options in programs:
        rlx.compile(rlx.Module.parse(text), target="cuda", function=name,
                    options=options, out_dir=os.path.join(out, name))
        print("compiled", name)
    from artifacts import copy_run_files
    copy_run_files(out, [os.path.abspath(__file__), os.path.join(
        ROOT, "test", "Integration", "fp8ref.py")])


def fp8_reference(x, w_codes, scale, scheme, per_tensor):
    """The float64 result rlxGpuMatmulFp8 computes, from its definition."""
    x32 = x.astype(np.float32).reshape(-1, x.shape[-1])
    mag = np.abs(x32)
    amax = (np.max(mag) if per_tensor else np.max(mag, axis=1, keepdims=True))
    amax = np.asarray(amax, np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.where(~np.isfinite(amax), np.float32(np.nan),
                     np.where(amax > 0, amax / np.float32(448), np.float32(1)))
        s = s.astype(np.float32)
        q = round_e4m3((x32 / s).astype(np.float32))
    w = (E4M3 if scheme == "fp8_e4m3" else E5M2)[w_codes]
    y = (q @ w.T) * s.astype(np.float64) * scale.astype(np.float64)[None, :]
    return y.reshape(x.shape[:-1] + (w.shape[0],))


def run_all(out):
    import torch
    import rlx.cuda
    from gpu_peers import bench

    def load(name):
        return rlx.cuda.load(os.path.join(out, name, "librlx_%s.so" % name))

    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    failures = 0
    print("| int8 case | max abs error vs NumPy int64 |")
    print("|---|---|")
    for name, (a, b, ta, tb) in INT8_CASES.items():
        if name == "i8_big":
            continue
        if name == "i8_extreme_k4096":
            qa = np.full(a, -128, np.int8)
            qb = np.full(b, -128, np.int8)
        else:
            qa = rng.integers(-128, 128, a, dtype=np.int8)
            qb = rng.integers(-128, 128, b, dtype=np.int8)
        A = qa.astype(np.int64)
        B = qb.astype(np.int64)
        if ta:
            A = np.swapaxes(A, -1, -2)
        if tb:
            B = np.swapaxes(B, -1, -2)
        ref = A @ B
        y = load(name)(torch.from_numpy(qa).cuda(), torch.from_numpy(qb).cuda())
        got = y.cpu().numpy().astype(np.int64)
        err = np.abs(got - ref).max()
        failures += err != 0
        print("| %s | %d%s |" % (name, err, "" if err == 0 else " FAIL"))

    types = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    print("\n| fp8 case | rel error vs fp8 emulation | vs exact product |")
    print("|---|---|---|")
    for name, (x, n, xt, scheme, splat) in FP8_CASES.items():
        if "big" in name:
            continue
        k = x[-1]
        xv = torch.from_numpy(rng.standard_normal(x).astype(np.float32) * 3)
        xv = xv.to(types[xt])
        if "special" in name:
            xv[1, 5] = float("nan")
            xv[3] = 0
            xv[4, 0] = 1e4  # far beyond 448: the row's scale absorbs it
        table = E4M3 if scheme == "fp8_e4m3" else E5M2
        finite = np.flatnonzero(np.isfinite(table) & (np.abs(table) < 64))
        w = rng.choice(finite, size=(n, k)).astype(np.uint8)
        scale = (np.full(n, splat, np.float32) if splat is not None else
                 rng.uniform(0.01, 0.1, n).astype(np.float32))
        args = [xv.cuda(), torch.from_numpy(w).cuda()]
        if splat is None:
            args.append(torch.from_numpy(scale).cuda())
        try:
            y = load(name)(*args).double().cpu().numpy()
        except Exception as e:  # a failed case is reported, not fatal
            failures += 1
            print("| %s | FAIL: %s | |" % (name, e))
            continue
        xd = xv.double().numpy()
        exact = xd @ (table[w] * scale[:, None]).T
        if "generated" in name:
            ref = exact  # not taken by the fp8 library: x stays bf16
        else:
            ref = fp8_reference(xd, w, scale, scheme, splat is not None)
        rows = np.isnan(ref).any(axis=-1)
        ok = np.array_equal(np.isnan(y).any(axis=-1), rows)
        finite_rows = ~rows
        # The output type's rounding; for f32, the fp8 tensor cores' own
        # accumulator, which keeps about 14 significant bits (as the
        # DeepSeek-V3 report measured on Hopper), not f32's 24.
        tol = {"f32": 5e-4, "bf16": 8e-3, "f16": 1e-3}[xt]
        denom = np.abs(ref[finite_rows]).max()
        err = np.abs(y[finite_rows] - ref[finite_rows]).max() / denom
        err_exact = np.abs(y[finite_rows] - exact[finite_rows]).max() / denom
        ok &= err <= tol
        if "special" in name:
            ok &= bool(np.isnan(y[1]).all()) and bool((y[3] == 0).all())
        failures += not ok
        print("| %s | %.1e (tol %.0e)%s | %.1e |" % (
            name, err, tol, "" if ok else " FAIL", err_exact))

    # Timings, 8192^3: ours beside PyTorch's on the same inputs.
    flops = 2.0 * BIG ** 3
    rows = []
    a8 = torch.randint(-128, 128, (BIG, BIG), dtype=torch.int8, device="cuda")
    b8 = torch.randint(-128, 128, (BIG, BIG), dtype=torch.int8, device="cuda")
    i8 = load("i8_big")
    corner = i8(a8, b8)[:64, :64].cpu()
    exact = torch.equal(corner, (a8[:64].cpu().long() @
                                 b8[:64].cpu().long().T).int())
    failures += not exact
    rows.append(("rlx int8 -> i32", bench(lambda: i8(a8, b8))))
    bt = b8.t()
    rows.append(("torch._int_mm", bench(lambda: torch._int_mm(a8, bt))))
    xb = torch.randn(BIG, BIG, device="cuda", dtype=torch.bfloat16)
    wb = torch.randn(BIG, BIG, device="cuda", dtype=torch.bfloat16)
    bf = load("bf16_big")
    rows.append(("rlx bf16", bench(lambda: bf(xb, wb))))
    rows.append(("torch bf16 x @ w.T", bench(lambda: xb @ wb.t())))
    w8 = (wb * 20).to(torch.float8_e4m3fn)
    wcodes = w8.view(torch.uint8)
    sw = torch.full((BIG,), 0.05, device="cuda")
    fc, ft = load("fp8_big_channel"), load("fp8_big_tensor")
    rows.append(("rlx fp8 per channel (x quantized per call)",
                 bench(lambda: fc(xb, wcodes, sw))))
    rows.append(("rlx fp8 per tensor (x quantized per call)",
                 bench(lambda: ft(xb, wcodes))))
    x8 = xb.to(torch.float8_e4m3fn)
    one = torch.ones((), device="cuda")
    rows.append(("torch._scaled_mm per tensor (x already fp8)",
                 bench(lambda: torch._scaled_mm(x8, w8.t(), scale_a=one,
                                                scale_b=one,
                                                out_dtype=torch.bfloat16))))
    sa = torch.ones((BIG, 1), device="cuda")
    sb = torch.ones((1, BIG), device="cuda")
    rows.append(("torch._scaled_mm rowwise (x already fp8)",
                 bench(lambda: torch._scaled_mm(x8, w8.t(), scale_a=sa,
                                                scale_b=sb,
                                                out_dtype=torch.bfloat16))))

    def torch_quantized(x):
        s = x.abs().amax().float() / 448
        q = (x.float() / s).to(torch.float8_e4m3fn)
        return torch._scaled_mm(q, w8.t(), scale_a=s, scale_b=one,
                                out_dtype=torch.bfloat16)
    compiled = torch.compile(torch_quantized)
    rows.append(("torch.compile(quantize + _scaled_mm) per tensor",
                 bench(lambda: compiled(xb))))
    base = dict(rows)["rlx bf16"]
    print("\n| %dx%dx%d | ms | TFLOP/s | rlx bf16 / this |" % (BIG, BIG, BIG))
    print("|---|---|---|---|")
    for name, ms in rows:
        print("| %s | %.3f | %.0f | %.2f |" % (name, ms, flops / ms / 1e9,
                                               base / ms))
    print("int8 8192^3 corner exact:", exact)
    print("device:", torch.cuda.get_device_name())
    print("failures:", failures)
    return failures


if __name__ == "__main__":
    from artifacts import main
    main(__doc__, compile_all, lambda out, flags: run_all(out))
