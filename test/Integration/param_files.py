# RUN: %python %s
# rlx-run --params on safetensors and GGUF files that this test writes with
# the independent writers of test/Tools/Inputs/weight_files.py (struct and
# NumPy, from the formats' descriptions): random tensors of every float and
# integer type, every GGUF metadata value type, a non-default GGUF
# alignment, renames through --param-map, and GGUF quantized tensors bound
# as packed ui8 rows. Params returned as results must equal the written
# arrays exactly; computations on them (x + w, dequant_matmul of Q4_0 and
# Q8_0 tensors) are compared in float64 with NumPy, whose weights come from
# the values the blocks were packed from (not from decoding them).

import os
import sys
import tempfile

import numpy as np

import rlxtest
from rlxtest import Suite, rand
from rlxtest import tensor_type as T

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tools",
                                "Inputs"))
import weight_files as wf  # noqa: E402

suite = Suite("param_files")
r = rlxtest.rng()


def bf16_bits(n):
    """Random finite bf16 values: (raw uint16 bits, their float64 values)."""
    f = r.uniform(-3, 3, n).astype(np.float32)
    bits = (f.view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32).astype(
        np.float64)


def run_and_compare(source, files, extra, x, expected, tols):
    """Runs `source` with --params=files, input x, and compares each result
    with `expected` (exact where the tolerance is None)."""
    code, log, outs = rlxtest.run(source, [x], len(expected),
                                  extra=["--params=" + f for f in files] +
                                  list(extra))
    assert code == 0, log
    for i, (out, exp, tol) in enumerate(zip(outs, expected, tols)):
        if tol is None:
            assert out.shape == exp.shape and np.array_equal(
                out.astype(np.float64) if out.dtype.kind == "f" else out,
                exp), ("result #%d differs" % i, out, exp)
        else:
            rlxtest.assert_close(out, exp, tol[0], tol[1], "result #%d" % i,
                                 dtype=np.float32)


def safetensors_case(d):
    w = rand(r, (8, 16), "f32")
    tensors = {
        "model.layers.0.weight": w,
        "d": r.uniform(-1, 1, 3),
        "h": rand(r, (4, 5), "f32").astype(np.float16),
        "i64": r.integers(-2**40, 2**40, (2, 3)),
        "i32": r.integers(-2**31, 2**31, 5).astype(np.int32),
        "i8": r.integers(-128, 128, 7).astype(np.int8),
        "u8": r.integers(0, 256, (3, 3)).astype(np.uint8),
        "unused": rand(r, (2,), "f32"),
    }
    bits, bvals = bf16_bits(6)
    tensors["b"] = ("BF16", [6], bits.astype("<u2").tobytes())
    # Split over two files: the params find their tensors in either.
    names = list(tensors)
    first = {k: tensors[k] for k in names[:4]}
    second = {k: tensors[k] for k in names[4:]}
    files = [os.path.join(d, "a.safetensors"), os.path.join(d, "b.safetensors")]
    wf.write_safetensors(files[0], first, {"format": "pt"})
    wf.write_safetensors(files[1], second)
    x = rand(r, (8, 16), "f32")
    source = """
func.func @main(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<3xf64>,
    tensor<4x5xf16>, tensor<2x3xi64>, tensor<5xi32>, tensor<7xi8>,
    tensor<3x3xui8>, tensor<6xbf16>) {
  %w = rlx.param "w1" : tensor<8x16xf32>
  %y = rlx.add %x, %w : tensor<8x16xf32>
  %d = rlx.param "d" : tensor<3xf64>
  %h = rlx.param "h" : tensor<4x5xf16>
  %i64 = rlx.param "i64" : tensor<2x3xi64>
  %i32 = rlx.param "i32" : tensor<5xi32>
  %i8 = rlx.param "i8" : tensor<7xi8>
  %u8 = rlx.param "u8" : tensor<3x3xui8>
  %b = rlx.param "b" : tensor<6xbf16>
  return %y, %d, %h, %i64, %i32, %i8, %u8, %b : tensor<8x16xf32>,
    tensor<3xf64>, tensor<4x5xf16>, tensor<2x3xi64>, tensor<5xi32>,
    tensor<7xi8>, tensor<3x3xui8>, tensor<6xbf16>
}
"""
    expected = [x.astype(np.float64) + w, tensors["d"],
                tensors["h"].astype(np.float64), tensors["i64"],
                tensors["i32"], tensors["i8"], tensors["u8"], bvals]
    run_and_compare(source, files, ["--param-map=w1=model.layers.0.weight"],
                    x, expected, [(1e-6, 1e-6)] + [None] * 7)


def pack_q4_0(q, dh):
    """block_q4_0 rows from nibbles q [N, K] (0..15) and f16 scales dh
    [N, K / 32]: {d; qs[16]} with qs[j] = q[j] | q[j + 16] << 4."""
    n, k = q.shape
    q = q.reshape(n, k // 32, 2, 16)
    qs = (q[:, :, 0] | (q[:, :, 1] << 4)).astype(np.uint8)
    d = dh.astype("<f2")[..., None].view(np.uint8)
    return np.concatenate([d, qs], axis=2).reshape(n, -1)


def pack_q8_0(q, dh):
    """block_q8_0 rows from int8 q [N, K] and f16 dh [N, K / 32]."""
    n, k = q.shape
    qs = q.astype(np.int8).reshape(n, k // 32, 32).view(np.uint8)
    d = dh.astype("<f2")[..., None].view(np.uint8)
    return np.concatenate([d, qs], axis=2).reshape(n, -1)


def gguf_case(d):
    n, k = 6, 64
    q4 = r.integers(0, 16, (n, k))
    d4 = (r.uniform(0.01, 0.1, (n, k // 32)) *
          r.choice([-1, 1], (n, k // 32))).astype(np.float16)
    q8 = r.integers(-128, 128, (n, k))
    d8 = r.uniform(-0.05, 0.05, (n, k // 32)).astype(np.float16)
    w4 = (q4 - 8) * np.repeat(d4.astype(np.float64), 32, axis=1)
    w8 = q8 * np.repeat(d8.astype(np.float64), 32, axis=1)
    emb = rand(r, (5, 16), "f32")
    h = rand(r, (7,), "f32").astype(np.float16)
    bits, bvals = bf16_bits(4)
    i32 = r.integers(-1000, 1000, 3).astype(np.int32)
    f64 = r.uniform(-1, 1, 2)
    packed = {name: r.integers(0, 256, (3, 256 // 256 * size)).astype(
        np.uint8) for name, size in [("Q2_K", 84), ("Q3_K", 110),
                                     ("Q4_K", 144), ("Q5_K", 176),
                                     ("Q6_K", 210), ("Q8_K", 292)]}
    tensors = [("token_embd.weight", "F32", [5, 16], emb.tobytes()),
               ("h", "F16", [7], h.astype("<f2").tobytes()),
               ("b", "BF16", [4], bits.astype("<u2").tobytes()),
               ("i32", "I32", [3], i32.astype("<i4").tobytes()),
               ("f64", "F64", [2], f64.astype("<f8").tobytes()),
               ("blk.0.q4", "Q4_0", [n, k], pack_q4_0(q4, d4).tobytes()),
               ("blk.0.q8", "Q8_0", [n, k], pack_q8_0(q8, d8).tobytes())]
    tensors += [("k." + t, t, [3, 256], p.tobytes()) for t, p in packed.items()]
    path = os.path.join(d, "model.gguf")
    wf.write_gguf(path, tensors, wf.ALL_METADATA, alignment=64)
    x = rand(r, (3, k), "f32")
    kq = "".join(
        "  %%%s = rlx.param \"k.%s\" : tensor<3x%dxui8>\n" %
        (t.lower(), t, p.shape[1]) for t, p in packed.items())
    source = """
func.func @main(%%x: tensor<3x64xf32>) -> (tensor<3x6xf32>, tensor<3x6xf32>,
    tensor<5x16xf32>, tensor<7xf16>, tensor<4xbf16>, tensor<3xi32>,
    tensor<2xf64>, tensor<6x36xui8>, %s) {
  %%q4 = rlx.param "blk.0.q4" : tensor<6x36xui8>
  %%q8 = rlx.param "q8" : tensor<6x68xui8>
  %%y4 = rlx.dequant_matmul #rlx.quant<gguf_q4_0> %%x, %%q4 : tensor<3x64xf32>, tensor<6x36xui8>
  %%y8 = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %%x, %%q8 : tensor<3x64xf32>, tensor<6x68xui8>
  %%emb = rlx.param "token_embd.weight" : tensor<5x16xf32>
  %%h = rlx.param "h" : tensor<7xf16>
  %%b = rlx.param "b" : tensor<4xbf16>
  %%i32 = rlx.param "i32" : tensor<3xi32>
  %%f64 = rlx.param "f64" : tensor<2xf64>
%s  return %%y4, %%y8, %%emb, %%h, %%b, %%i32, %%f64, %%q4, %s : tensor<3x6xf32>,
    tensor<3x6xf32>, tensor<5x16xf32>, tensor<7xf16>, tensor<4xbf16>,
    tensor<3xi32>, tensor<2xf64>, tensor<6x36xui8>, %s
}
""" % (", ".join("tensor<3x%dxui8>" % p.shape[1] for p in packed.values()),
       kq, ", ".join("%" + t.lower() for t in packed),
       ", ".join("tensor<3x%dxui8>" % p.shape[1] for p in packed.values()))
    ref4, ref8 = x.astype(np.float64) @ w4.T, x.astype(np.float64) @ w8.T
    eps = np.finfo(np.float32).eps * np.sqrt(k)
    tol = lambda w: (1e-5, 1e-5 + eps * (np.abs(x) @ np.abs(w).T).mean())
    expected = [ref4, ref8, emb.astype(np.float64), h.astype(np.float64),
                bvals, i32, f64, pack_q4_0(q4, d4)] + list(packed.values())
    run_and_compare(source, [path], ["--param-map=q8=blk.0.q8"], x, expected,
                    [tol(w4), tol(w8)] + [None] * (len(expected) - 2))


with tempfile.TemporaryDirectory(prefix="rlx-param-files-") as tmp:
    suite.check("safetensors/all_dtypes", lambda: safetensors_case(tmp))
    suite.check("gguf/all_types", lambda: gguf_case(tmp))
suite.finish()
