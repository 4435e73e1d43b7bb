"""The BERT-base encoder layer from Python on the GPU: compiled with
rlx.compile(target="cuda") and called on PyTorch CUDA tensors, against the
layer in float64 and beside PyTorch eager and torch.compile, in one run.

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/python_layer.py compile OUT
    # on the GPU machine (the driver, PyTorch and the rlx package alone)
    PYTHONPATH=build/python:OUT python3 bench/gpu/python_layer.py run OUT

The layer is examples/bert_encoder_layer.mlir at batch 32, sequence 128
(bench/gpu/layers.py's inputs and reference). The call passes the tensors'
device memory to the program as it is (no copies): the only memory PyTorch
allocates during a call is the result.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DTYPES = {"f32": "float32", "bf16": "bfloat16"}


def compile_layers(out):
    import rlx
    text = open(os.path.join(ROOT, "examples", "bert_encoder_layer.mlir")).read()
    for dtype in DTYPES:
        source = text.replace("tensor<1x", "tensor<32x")
        if dtype == "bf16":
            source = source.replace("xf32>", "xbf16>")
        module = rlx.Module.parse(source)
        program = rlx.compile(module, target="cuda", function="bert_layer",
                              out_dir=os.path.join(out, dtype))
        print("compiled", program, "into", os.path.join(out, dtype))
    from artifacts import LAYER_MODULES, copy_run_files
    copy_run_files(out, LAYER_MODULES)


def run_layers(out):
    import torch
    import rlx.cuda
    import layers
    from gpu_peers import bench
    failures = 0
    print("| dtype | rel err | rlx ms (from Python) | rlx ms (entry alone) |"
          " eager ms | compile ms | compile/rlx | extra MiB during call |")
    print("|---|---|---|---|---|---|---|---|")
    for name, dtype in DTYPES.items():
        torch_dtype = getattr(torch, dtype)
        program = rlx.cuda.load(os.path.join(out, name,
                                             "librlx_bert_layer.so"))
        args = layers.bert_inputs(torch_dtype, seed=0)
        with torch.no_grad():
            ref = layers.bert_layer(*[a.double() for a in args])
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        y = program(*args)
        torch.cuda.synchronize()
        extra = (torch.cuda.memory_allocated() - before) - y.numel() * y.element_size()
        err = ((y.double() - ref).norm() / ref.norm()).item()
        ok = err < layers.TOL[torch_dtype] and extra == 0
        failures += not ok
        ours = bench(lambda: program(*args))
        # The same call without Python: its library entry on fixed
        # descriptors, as bench.py times it.
        import ctypes
        from rlx.cuda import _descriptor
        result = torch.empty_like(y)
        descriptors = [_descriptor(t) for t in args + [result]]
        pointers = [ctypes.byref(d) for d in descriptors]
        bare = bench(lambda: program._fn(*pointers))
        eager = bench(lambda: layers.bert_layer(*args))
        compiled = torch.compile(layers.bert_layer)
        compiled(*args)
        peer = bench(lambda: compiled(*args))
        print("| %s | %.1e%s | %.3f | %.3f | %.3f | %.3f | %.2f | %.1f |" % (
            name, err, "" if ok else " FAIL", ours, bare, eager, peer,
            peer / ours, extra / 2**20))
        del y, args, ref, result
        torch.cuda.empty_cache()
    print("device:", torch.cuda.get_device_name())
    return failures


if __name__ == "__main__":
    from artifacts import main
    main(__doc__, compile_layers, lambda out, flags: run_layers(out))
