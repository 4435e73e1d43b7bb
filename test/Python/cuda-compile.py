# REQUIRES: cuda-toolkit, target-cuda
# RUN: %python %s | FileCheck %s
# rlx.compile(target="cuda") on a machine without a GPU: the library and
# its signature are written (calling them needs a GPU: bench/gpu/python_layer.py
# runs the BERT layer on the H100), and what it cannot take is an error.
import json
import os
import tempfile

import numpy as np

import rlx

ctx = rlx.Context()
with tempfile.TemporaryDirectory() as out:
    with rlx.Function("scale", [ctx.tensor((4, 8), "bf16"),
                                ctx.tensor((8,), "bf16")]) as f:
        x, s = f.args
        f.returns(rlx.mul(rlx.exp(x), s))
    program = rlx.compile(f, target="cuda", chip="sm_90", out_dir=out)
    print(program, sorted(os.listdir(out)))
    # CHECK: rlx.cuda.CudaProgram(@scale) ['librlx_cuda_runtime.so', 'librlx_scale.so', 'librlx_scale.so.json', 'program.mlir']
    with open(os.path.join(out, "librlx_scale.so.json")) as sig:
        signature = json.load(sig)
    assert signature == {"function": "scale",
                         "arguments": [[[4, 8], "bf16"], [[8], "bf16"]],
                         "results": [[[4, 8], "bf16"]],
                         "result_arguments": [None]}, signature
    # A second compile of the same function is the first library.
    again = rlx.compile(f, target="cuda", chip="sm_90", out_dir=out)
    assert again.library == program.library
    try:
        program(np.zeros((4, 8)), np.zeros(8))
    except TypeError as e:
        print("TypeError:", e)
    # CHECK: TypeError: @scale: argument #0 must be a CUDA torch.Tensor, got 'ndarray'

# A KV cache held in place by its argument (rlx.in_place_result): the
# signature says which argument holds which result, and the library's
# function no longer returns it (the program writes the argument's buffer).
step = rlx.ir.Module.parse("""
func.func @step(%c: tensor<1x16x2x8xbf16> {rlx.in_place_result = 1 : i64},
                %u: tensor<1x1x2x8xbf16>, %p: tensor<i64>)
    -> (tensor<1x1x2x8xbf16>, tensor<1x16x2x8xbf16>) {
  %c2 = rlx.kv_cache_write %c, %u, %p : tensor<1x16x2x8xbf16>, tensor<1x1x2x8xbf16>, tensor<i64>
  %e = rlx.exp %u : tensor<1x1x2x8xbf16>
  return %e, %c2 : tensor<1x1x2x8xbf16>, tensor<1x16x2x8xbf16>
}
""", ctx)
with tempfile.TemporaryDirectory() as out:
    program = rlx.compile(step, target="cuda", chip="sm_90", out_dir=out)
    print("result_arguments", program.result_arguments)
    # CHECK: result_arguments [None, 0]
    header = open(os.path.join(out, "program.mlir")).read()
    assert "rlx.in_place_result = 1" in header

bad = rlx.ir.Module.parse("""
func.func @twice(%a: tensor<4xf32> {rlx.in_place_result = 0 : i64},
                 %b: tensor<4xf32> {rlx.in_place_result = 0 : i64})
    -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
""", ctx)
try:
    bad.result_arguments("twice")
except rlx.RLXError as e:
    print("RLXError:", e)
# CHECK: RLXError: @twice: argument #1's rlx.in_place_result 0 is not a result of its own

with rlx.Function("dynamic", [ctx.tensor((None, 8))]) as g:
    g.returns(rlx.exp(g.args[0]))
try:
    rlx.compile(g, target="cuda")
except ValueError as e:
    print("ValueError:", e)
# CHECK: ValueError: rlx.compile(target='cuda'): @dynamic has type tensor<?x8xf32>; CUDA programs take static shapes
