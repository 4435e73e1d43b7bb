"""Training steps of the BERT-base encoder layer and the Llama decoder layer
on the GPU, against PyTorch eager and torch.compile of the same step in the
same run, with the fastest peer as the reference.

Each layer (examples/bert_encoder_layer.mlir and @llama_layer_hir of
examples/llama_layer_hir.mlir at batch 32, sequence 128, as
bench/gpu/build.sh compiles them) gets a loss mean(y^2) and two programs,
compiled with rlx.compile(target="cuda"):

- @grads: the loss and its gradient (rlx.grad) with respect to the input and
  every parameter (Llama's rotary tables excepted), checked against
  torch.autograd in float64;
- @step: one SGD step, written in rlx: the loss, the input's gradient and
  each parameter minus 0.01 times its gradient, as PyTorch's peer computes
  them (out of place).

    # here (LLVM/MLIR and the CUDA toolkit): compile into OUT
    PYTHONPATH=build/python python3 bench/gpu/train_step.py compile OUT
    # on the GPU machine (the driver, PyTorch and the rlx package alone)
    PYTHONPATH=build/python:OUT python3 bench/gpu/train_step.py run OUT [--profile]

--profile prints the kernels of one step of ours by their GPU time
(torch.profiler), the figure that says where a step's time goes.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DTYPES = {"f32": "float32", "bf16": "bfloat16"}
LR = 0.01
# Relative error of each gradient against float64 (norm of the difference
# over the norm of the reference): bf16 carries 8 bits of mantissa through
# the norms, attention and the matmuls.
TOL = {"f32": 1e-4, "bf16": 5e-2}


def bert_source(batch):
    text = open(os.path.join(ROOT, "examples", "bert_encoder_layer.mlir")).read()
    return text.replace("tensor<1x", "tensor<%dx" % batch), "bert_layer"


def llama_source(batch):
    text = open(os.path.join(ROOT, "examples", "llama_layer_hir.mlir")).read()
    text = re.search(r"^func.func @llama_layer_hir.*?^}", text,
                     re.S | re.M).group(0)
    text = text.replace("tensor<1x16x", "tensor<%dx128x" % batch).replace(
        "tensor<16x32x", "tensor<128x32x")
    return text, "llama_layer_hir"


# name: (source, indices of the arguments that are not trained)
LAYERS = {"bert": (bert_source, ()), "llama": (llama_source, (4, 5))}


def programs(layer, dtype, batch=32):
    """The layer at `batch` sequences of 128, its loss, @grads and @step
    (module text), and the trained argument indices."""
    source, frozen = LAYERS[layer]
    text, fn = source(batch)
    if dtype == "bf16":
        text = text.replace("xf32>", "xbf16>")
    sig = re.search(r"func.func @%s\((.*?)\)\s*->" % fn, text, re.S).group(1)
    args = re.findall(r"(%\w+): (tensor<[^>]*>)", sig)
    names = [a for a, _ in args]
    types = [t for _, t in args]
    wrt = [i for i in range(len(args)) if i not in frozen]
    y = types[0]
    loss_t = "tensor<%s>" % ("bf16" if dtype == "bf16" else "f32")
    grad_t = [types[i] for i in wrt]
    n = len(wrt)
    join = ", ".join
    grads = ["%%g#%d" % (i + 1) for i in range(n)]
    # @step: x's gradient, then each parameter minus LR times its gradient.
    updates, results = [], ["%g#0", grads[0]]
    for j, i in enumerate(wrt[1:]):
        updates.append("  %%u%d = rlx.mul %s, %%lr : %s, %s\n"
                       "  %%p%d = rlx.sub %s, %%u%d : %s\n" % (
                           j, grads[j + 1], types[i], loss_t, j, names[i], j,
                           types[i]))
        results.append("%%p%d" % j)
    grad_call = "  %%g:%d = rlx.grad @loss(%s) wrt [%s] : (%s) -> (%s, %s)\n" % (
        n + 1, join(names), join(map(str, wrt)), join(types), loss_t,
        join(grad_t))
    text += """
func.func @loss(%s) -> %s {
  %%y = call @%s(%s) : (%s) -> %s
  %%s = rlx.mul %%y, %%y : %s
  %%l = rlx.reduce mean %%s axes = [0, 1, 2] : %s
  return %%l : %s
}
func.func @grads(%s) -> (%s, %s) {
%s  return %s : %s, %s
}
func.func @step(%s) -> (%s, %s) {
%s  %%lr = rlx.constant dense<%r> : %s
%s  return %s : %s, %s
}
""" % (sig, loss_t, fn, join(names), join(types), y, y, y, loss_t,
       sig, loss_t, join(grad_t), grad_call, join(["%g#0"] + grads), loss_t,
       join(grad_t),
       sig, loss_t, join(grad_t), grad_call, LR, loss_t, "".join(updates),
       join(results), loss_t, join(grad_t))
    return text, wrt


def compile_steps(out):
    import rlx
    for layer in LAYERS:
        for dtype in DTYPES:
            text, _ = programs(layer, dtype)
            module = rlx.Module.parse(text)
            for fn in ("grads", "step"):
                where = os.path.join(out, "%s_%s" % (layer, dtype))
                program = rlx.compile(module, target="cuda", function=fn,
                                      out_dir=where)
                print("compiled", program, "into", where)
    from artifacts import LAYER_MODULES, copy_run_files
    copy_run_files(out, LAYER_MODULES)


def torch_grads(layer_fn, args, wrt):
    """PyTorch's loss and gradients of the same loss."""
    import torch
    args = [a.detach().requires_grad_(i in wrt) for i, a in enumerate(args)]
    y = layer_fn(*args)
    loss = (y.float() * y.float()).mean()
    return [loss] + list(torch.autograd.grad(loss, [args[i] for i in wrt]))


def torch_step(layer_fn, args, wrt):
    """The peer's SGD step: the loss, x's gradient, the updated
    parameters."""
    grads = torch_grads(layer_fn, args, wrt)
    return grads[:2] + [args[i] - LR * g for i, g in zip(wrt[1:], grads[2:])]


def profile(program, args, name):
    """Prints the kernels of one step in launch order with their GPU time
    (the generated kernels share their function's name), slowest first, and
    their total."""
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
    for i in order[:12]:
        print("  #%-3d %8.1f us  %s" % (i, kernels[i].device_time,
                                        kernels[i].name[:90]))


def peak_mib(fn):
    """Memory allocated beyond what was live before one call of fn (MiB)."""
    import torch
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = fn()
    torch.cuda.synchronize()
    peak = (torch.cuda.max_memory_allocated() - base) / 2**20
    del out
    return peak


def program_peak_mib(fn):
    """What one call of a compiled program needs at most (MiB): the
    intermediates its runtime allocated (cuMemAllocAsync, from the device's
    default memory pool, which PyTorch's allocator does not use: its
    used-memory high watermark) plus what PyTorch allocated (the
    results)."""
    import ctypes
    cuda = ctypes.CDLL("libcuda.so.1")
    used_mem_high = 8  # CU_MEMPOOL_ATTR_USED_MEM_HIGH
    device, pool = ctypes.c_int(), ctypes.c_void_p()
    high = ctypes.c_uint64(0)
    assert cuda.cuCtxGetDevice(ctypes.byref(device)) == 0
    assert cuda.cuDeviceGetDefaultMemPool(ctypes.byref(pool), device) == 0
    assert cuda.cuMemPoolSetAttribute(pool, used_mem_high,
                                      ctypes.byref(high)) == 0
    results = peak_mib(fn)
    assert cuda.cuMemPoolGetAttribute(pool, used_mem_high,
                                      ctypes.byref(high)) == 0
    return high.value / 2**20 + results


def run_steps(out, with_profile):
    import torch
    import rlx.cuda
    import layers
    from gpu_peers import bench
    failures = 0
    print("| layer | dtype | max rel err (grads) | step: rlx ms | eager ms |"
          " compile ms | fastest peer / rlx | fwd+bwd: rlx ms | compile ms |"
          " peak MiB rlx / compile |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for layer in LAYERS:
        layer_fn = getattr(layers, layer + "_layer")
        inputs = getattr(layers, layer + "_inputs")
        for name, dtype in DTYPES.items():
            _, wrt = programs(layer, name)
            where = os.path.join(out, "%s_%s" % (layer, name))
            grads = rlx.cuda.load(os.path.join(where, "librlx_grads.so"))
            step = rlx.cuda.load(os.path.join(where, "librlx_step.so"))
            args = inputs(getattr(torch, dtype), seed=0)
            ref = torch_grads(layer_fn, [a.double() for a in args], wrt)
            ours = grads(*args)
            errs = [((o.double() - r).norm() / r.norm()).item()
                    for o, r in zip(ours, ref)]
            # The step's loss, x's gradient and updated parameters against
            # float64 (the update is mostly below the parameters' rounding:
            # the parameters are compared whole).
            stepped = step(*args)
            for s, r in zip(stepped[:2], ref[:2]):
                errs.append(((s.double() - r).norm() / r.norm()).item())
            for s, i, r in zip(stepped[2:], wrt[1:], ref[2:]):
                want = args[i].double() - LR * r
                errs.append(((s.double() - want).norm() /
                             want.norm()).item())
            err = max(errs)
            ok = err < TOL[name]
            failures += not ok
            t_step = bench(lambda: step(*args))
            t_grads = bench(lambda: grads(*args))
            t_eager = bench(lambda: torch_step(layer_fn, args, wrt))
            compiled = torch.compile(lambda *a: torch_step(layer_fn, a, wrt))
            compiled(*args)
            t_compiled = bench(lambda: compiled(*args))
            compiled_grads = torch.compile(
                lambda *a: torch_grads(layer_fn, a, wrt))
            compiled_grads(*args)
            t_compiled_grads = bench(lambda: compiled_grads(*args))
            ours_peak = program_peak_mib(lambda: step(*args))
            peer_peak = peak_mib(lambda: compiled(*args))
            print("| %s | %s | %.1e%s | %.3f | %.3f | %.3f | %.2f | %.3f |"
                  " %.3f | %.0f / %.0f |" % (
                      layer, name, err, "" if ok else " FAIL", t_step,
                      t_eager, t_compiled, min(t_eager, t_compiled) / t_step,
                      t_grads, t_compiled_grads, ours_peak, peer_peak))
            if not ok:
                print("  per-result errors:", ["%.1e" % e for e in errs])
            if with_profile:
                profile(step, args, "%s %s" % (layer, name))
            del ours, stepped, ref, args
            torch.cuda.empty_cache()
    print("device:", torch.cuda.get_device_name())
    return failures


if __name__ == "__main__":
    from artifacts import main
    main(__doc__, compile_steps,
         lambda out, flags: run_steps(out, "--profile" in flags))
