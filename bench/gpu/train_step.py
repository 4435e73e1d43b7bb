"""One training step of the BERT-base encoder layer on the GPU: the loss
mean(y^2) of examples/bert_encoder_layer.mlir at batch 32, sequence 128 and
its gradient with respect to the input and all 12 parameters (rlx.grad),
compiled with rlx.compile(target="cuda"), against PyTorch eager and
torch.compile of the same forward and backward (torch.autograd.grad) in the
same run, with the fastest peer as the reference. The gradients are
compared with PyTorch's in float64.

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/train_step.py compile OUT
    # on the GPU machine (the driver, PyTorch and the rlx package alone)
    PYTHONPATH=build/python:OUT python3 bench/gpu/train_step.py run OUT [--profile]

--profile prints the kernels of one step of ours by their GPU time
(torch.profiler), the figure that says where a step's time goes.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DTYPES = {"f32": "float32", "bf16": "bfloat16"}
# Relative error of each gradient against float64 (norm of the difference
# over the norm of the reference): bf16 carries 8 bits of mantissa through
# two layer norms, attention and four matmuls.
TOL = {"f32": 1e-4, "bf16": 5e-2}


def grad_program(text, batch, dtype):
    """The BERT layer of `text` at `batch`, a loss mean(y^2) and `@step`:
    the loss and its gradient with respect to every argument."""
    text = text.replace("tensor<1x", "tensor<%dx" % batch)
    if dtype == "bf16":
        text = text.replace("xf32>", "xbf16>")
    sig = re.search(r"func.func @bert_layer\((.*?)\)\s*->", text, re.S).group(1)
    args = re.findall(r"(%\w+): (tensor<[^>]*>)", sig)
    names = ", ".join(a for a, _ in args)
    types = ", ".join(t for _, t in args)
    y = args[0][1]
    loss_t = "tensor<%s>" % ("bf16" if dtype == "bf16" else "f32")
    n = len(args)
    return text + """
func.func @loss(%s) -> %s {
  %%y = call @bert_layer(%s) : (%s) -> %s
  %%s = rlx.mul %%y, %%y : %s
  %%l = rlx.reduce mean %%s axes = [0, 1, 2] : %s
  return %%l : %s
}
func.func @step(%s) -> (%s, %s) {
  %%r:%d = rlx.grad @loss(%s) wrt [%s] : (%s) -> (%s, %s)
  return %s : %s, %s
}
""" % (sig, loss_t, names, types, y, y, y, loss_t,
       sig, loss_t, types,
       n + 1, names, ", ".join(str(i) for i in range(n)), types, loss_t, types,
       ", ".join("%%r#%d" % i for i in range(n + 1)), loss_t, types)


def compile_steps(out):
    import shutil
    import rlx
    text = open(os.path.join(ROOT, "examples", "bert_encoder_layer.mlir")).read()
    for dtype in DTYPES:
        module = rlx.Module.parse(grad_program(text, 32, dtype))
        program = rlx.compile(module, target="cuda", function="step",
                              out_dir=os.path.join(out, dtype))
        print("compiled", program, "into", os.path.join(out, dtype))
    for name in ["layers.py", "attention_check.py", "constant_layers.py"]:
        shutil.copy(os.path.join(HERE, name), out)
    shutil.copy(os.environ.get("RLX_GPU_PEERS", os.path.join(
        ROOT, "..", "shared", "bench", "gpu_peers.py")), out)


def torch_step(args):
    """PyTorch's loss and gradients of the same step."""
    import torch
    import layers
    args = [a.detach().requires_grad_() for a in args]
    y = layers.bert_layer(*args)
    loss = (y.float() * y.float()).mean()
    return [loss] + list(torch.autograd.grad(loss, args))


def profile(program, args, name):
    """Prints the kernels of one step in launch order with their GPU time
    (the generated kernels share their function's name; the grid tells
    them apart), slowest first, and their total."""
    import torch
    from torch.profiler import profile as torch_profile, ProfilerActivity
    program(*args)
    torch.cuda.synchronize()
    with torch_profile(activities=[ProfilerActivity.CUDA]) as prof:
        program(*args)
        torch.cuda.synchronize()
    kernels = [e for e in prof.events()
               if e.device_type == torch.autograd.DeviceType.CUDA]
    total = sum(e.device_time for e in kernels)
    print("%s: %d kernels, %.3f ms of GPU time; the slowest:" % (
        name, len(kernels), total / 1e3))
    order = sorted(range(len(kernels)),
                   key=lambda i: -kernels[i].device_time)
    for i in order[:25]:
        print("  #%-3d %8.1f us  %s" % (i, kernels[i].device_time,
                                        kernels[i].name[:90]))


def run_steps(out, with_profile):
    import torch
    import rlx.cuda
    import layers
    from gpu_peers import bench
    failures = 0
    print("| dtype | max rel err (grads) | rlx ms | eager ms | compile ms |"
          " fastest peer / rlx | rlx peak MiB | peer peak MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for name, dtype in DTYPES.items():
        torch_dtype = getattr(torch, dtype)
        program = rlx.cuda.load(os.path.join(out, name, "librlx_step.so"))
        args = layers.bert_inputs(torch_dtype, seed=0)
        ref = torch_step([a.double() for a in args])
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        ours = program(*args)
        torch.cuda.synchronize()
        our_peak = (torch.cuda.max_memory_allocated() - base) / 2**20
        errs = [((o.double() - r).norm() / r.norm()).item()
                for o, r in zip(ours, ref)]
        err = max(errs)
        ok = err < TOL[name]
        failures += not ok
        t_ours = bench(lambda: program(*args))
        t_eager = bench(lambda: torch_step(args))
        compiled = torch.compile(torch_step)
        compiled(args)
        t_compiled = bench(lambda: compiled(args))
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        compiled(args)
        torch.cuda.synchronize()
        peer_peak = (torch.cuda.max_memory_allocated() - base) / 2**20
        print("| %s | %.1e%s | %.3f | %.3f | %.3f | %.2f | %.0f | %.0f |" % (
            name, err, "" if ok else " FAIL", t_ours, t_eager, t_compiled,
            min(t_eager, t_compiled) / t_ours, our_peak, peer_peak))
        if not ok:
            print("  per-gradient errors:", ["%.1e" % e for e in errs])
        if with_profile:
            profile(program, args, name)
        del ours, ref, args
        torch.cuda.empty_cache()
    print("device:", torch.cuda.get_device_name())
    return failures


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("compile", "run"):
        sys.exit(__doc__)
    if sys.argv[1] == "compile":
        compile_steps(sys.argv[2])
    else:
        sys.exit(1 if run_steps(sys.argv[2], "--profile" in sys.argv) else 0)
