"""The BERT-base encoder layer in automatic mixed precision on the GPU,
against torch.autocast(bfloat16) in eager mode and under torch.compile, on
the same f32 inputs, in one run.

examples/bert_encoder_layer.mlir at batch 32, sequence 128 (as
bench/gpu/train_step.py builds it), written in f32, goes through
`--rlx-auto-mixed-precision` (matmuls and attention in bf16 with f32
accumulation, the norms in f32, elementwise ops following their operands)
and is compiled for CUDA: the program takes and returns f32 tensors, as
the peers do (autocast casts inside). Its result and the peers' are
checked against the layer in float64 (relative error below 2e-2, bf16's
error through two norms); the f32 program (no AMP) is timed beside them.

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/amp_layer.py compile OUT
    # on the GPU machine (the driver, PyTorch and the rlx package alone)
    PYTHONPATH=build/python:OUT python3 bench/gpu/amp_layer.py run OUT
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOL = 2e-2


def compile_layers(out):
    import rlx
    sys.path.insert(0, HERE)
    from train_step import bert_source
    text, fn = bert_source(32)
    amp = subprocess.run(
        [os.path.join(ROOT, "build", "bin", "rlx-opt"),
         "--rlx-auto-mixed-precision"], input=text, capture_output=True,
        text=True, check=True).stdout
    for name, source in (("f32", text), ("amp", amp)):
        where = os.path.join(out, "bert_" + name)
        program = rlx.compile(rlx.Module.parse(source), target="cuda",
                              function=fn, out_dir=where)
        print("compiled", program, "into", where)
    from artifacts import LAYER_MODULES, copy_run_files
    copy_run_files(out, LAYER_MODULES)


def run_layers(out):
    import torch
    import rlx.cuda
    import layers
    from gpu_peers import bench

    args = layers.bert_inputs(torch.float32, seed=0)
    ref = layers.bert_layer(*[a.double() for a in args])

    def err(y):
        return ((y.double() - ref).norm() / ref.norm()).item()

    def autocast_layer(*a):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return layers.bert_layer(*a)

    compiled = torch.compile(autocast_layer)
    rows = []
    for name in ("amp", "f32"):
        program = rlx.cuda.load(
            os.path.join(out, "bert_" + name, "librlx_bert_layer.so"))
        y = program(*args)
        rows.append(("rlx " + name, err(y), bench(lambda: program(*args))))
    y = autocast_layer(*args)
    rows.append(("autocast eager", err(y), bench(lambda: autocast_layer(*args))))
    y = compiled(*args)
    rows.append(("autocast + compile", err(y),
                 bench(lambda: compiled(*args))))
    failures = 0
    print("| program | rel err vs float64 | ms | / rlx amp |")
    print("|---|---|---|---|")
    for name, e, ms in rows:
        bad = name.startswith("rlx") and e > (TOL if "amp" in name else 1e-4)
        failures += bad
        print("| %s | %.1e%s | %.3f | %.2f |" % (
            name, e, " FAIL" if bad else "", ms, ms / rows[0][2]))
    print("device:", torch.cuda.get_device_name())
    return failures


if __name__ == "__main__":
    from artifacts import main
    main(__doc__, compile_layers, lambda out, flags: run_layers(out))
