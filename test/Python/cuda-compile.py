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
                         "results": [[[4, 8], "bf16"]]}, signature
    # A second compile of the same function is the first library.
    again = rlx.compile(f, target="cuda", chip="sm_90", out_dir=out)
    assert again.library == program.library
    try:
        program(np.zeros((4, 8)), np.zeros(8))
    except TypeError as e:
        print("TypeError:", e)
    # CHECK: TypeError: @scale: argument #0 must be a CUDA torch.Tensor, got 'ndarray'

with rlx.Function("dynamic", [ctx.tensor((None, 8))]) as g:
    g.returns(rlx.exp(g.args[0]))
try:
    rlx.compile(g, target="cuda")
except ValueError as e:
    print("ValueError:", e)
# CHECK: ValueError: rlx.compile(target='cuda'): @dynamic has type tensor<?x8xf32>; CUDA programs take static shapes
