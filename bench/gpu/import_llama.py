"""A Llama decoder layer written in PyTorch, imported with rlx.from_torch,
compiled for CUDA and called on PyTorch CUDA tensors, against the layer in
float64 and beside PyTorch eager and torch.compile on the same weights, in
one run.

    # here (LLVM/MLIR and the CUDA toolkit): import, compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/import_llama.py compile OUT
    # on the GPU machine (the driver, PyTorch and the rlx package alone)
    PYTHONPATH=build/python:OUT python3 bench/gpu/import_llama.py run OUT

The layer is test/Python/Inputs/import_models.py's LlamaLayer (pre
RMSNorm, grouped-query attention with rotate-half rotary embeddings and a
causal mask, SwiGLU) at the size of examples/llama_layer_hir.mlir (hidden
512, 8 query heads of 64 sharing 2 key/value heads, FFN 1376) and of
bench/gpu/build.sh's Llama layer (batch 32, sequence 128), float32. Its
parameters are the program's arguments after the input (params_as_args),
linear weights transposed to [in, out] as the import binds them. `compile`
prints the fusion report for the cuda target and writes the weights
(seed 0) beside the library, so that `run` calls the program and PyTorch
on the same ones.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "test", "Python", "Inputs", "import_models.py")
CONFIG = dict(hidden=512, heads=8, kv_heads=2, ffn=1376, max_len=128)
BATCH, SEQ = 32, 128
TOL = 1e-4  # float32 against float64, relative (Frobenius norm)


def make_model(models, torch):
    model = models.LlamaLayer(**CONFIG).double()
    models.randomize(model, torch.Generator().manual_seed(0))
    return model


def compile_layer(out):
    import torch
    import rlx
    sys.path.insert(0, os.path.dirname(MODELS))
    import import_models as models
    os.makedirs(out, exist_ok=True)
    model = make_model(models, torch).float()
    x = torch.randn(BATCH, SEQ, CONFIG["hidden"])
    imported = rlx.from_torch(model, (x,), name="llama_layer",
                              params_as_args=True)
    report = imported.fusion_report(target="cuda")
    print("fusions for cuda:", sorted({f["op"] for f in report["fusions"]}))
    print("ops after fusion:", report["ops_after"])
    program = rlx.compile(imported.function, target="cuda",
                          out_dir=os.path.join(out, "f32"))
    print("compiled", program, "into", os.path.join(out, "f32"))
    torch.save(model.state_dict(), os.path.join(out, "llama_weights.pt"))
    with open(os.path.join(out, "llama_import.json"), "w") as f:
        json.dump({"param_args": imported.param_args,
                   "transposed": sorted(imported.transposed),
                   "config": CONFIG, "batch": BATCH, "seq": SEQ}, f)
    from artifacts import copy_run_files
    copy_run_files(out, [MODELS])


def run_layer(out):
    import torch
    import rlx.cuda
    import import_models as models
    from gpu_peers import bench
    with open(os.path.join(out, "llama_import.json")) as f:
        meta = json.load(f)
    state = torch.load(os.path.join(out, "llama_weights.pt"))
    model = models.LlamaLayer(**meta["config"])
    model.load_state_dict(state)
    model = model.cuda().eval()
    program = rlx.cuda.load(os.path.join(out, "f32", "librlx_llama_layer.so"))
    params = [state[n].cuda() for n in meta["param_args"]]
    params = [p.t().contiguous() if n in meta["transposed"] else
              p.contiguous() for n, p in zip(meta["param_args"], params)]
    x = torch.randn(meta["batch"], meta["seq"], meta["config"]["hidden"],
                    generator=torch.Generator().manual_seed(1)).cuda()
    with torch.no_grad():
        ref = model.double()(x.double())
        model.float()
        y = program(x, *params)
        torch.cuda.synchronize()
        err = ((y.double() - ref).norm() / ref.norm()).item()
        eager_err = ((model(x).double() - ref).norm() / ref.norm()).item()
        ours = bench(lambda: program(x, *params))
        eager = bench(lambda: model(x))
        compiled = torch.compile(model)
        compiled(x)
        peer = bench(lambda: compiled(x))
    ok = err < TOL
    print("| layer | rel err (rlx) | rel err (eager) | rlx ms | eager ms |"
          " torch.compile ms | compile/rlx |")
    print("|---|---|---|---|---|---|---|")
    print("| Llama %dx%d, hidden %d, GQA %d/%d, f32 | %.1e%s | %.1e | %.3f |"
          " %.3f | %.3f | %.2f |" % (
              meta["batch"], meta["seq"], meta["config"]["hidden"],
              meta["config"]["heads"], meta["config"]["kv_heads"], err,
              "" if ok else " FAIL", eager_err, ours, eager, peer,
              peer / ours))
    print("device:", torch.cuda.get_device_name())
    return 0 if ok else 1


if __name__ == "__main__":
    from artifacts import main
    main(__doc__, compile_layer, lambda out, flags: run_layer(out))
