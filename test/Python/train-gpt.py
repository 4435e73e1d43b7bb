# RUN: %python %s
# The character-level GPT of examples/train_gpt (2 layers, d_model 64,
# context 64) trained with rlx.grad and AdamW in one compiled step, against
# PyTorch from the same weights on the same batches:
# - float32, 30 steps of batch 16: every step's loss within the example's
#   stated tolerance (1e-4 relative) of PyTorch's, and the loss goes down;
# - float64, 8 steps of batch 4: the losses within 1e-8 and the trained
#   parameters within 1e-6 of each tensor's largest value (Adam turns
#   rounding in gradients that are ~0 into updates of ~lr * 1e-5, which
#   a float64 run measured at 5e-8 of the weights); with the one-hot
#   embedding of the CUDA benchmark too (one layer).
import dataclasses
import os
import sys
import time

import numpy as np
import torch

import rlx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "train_gpt"))
import gpt  # noqa: E402
import train  # noqa: E402

data, chars = gpt.load_text()
cfg = gpt.Config(vocab=len(chars))
failures = []

t0 = time.perf_counter()
ours, rlx_s, compile_s, first_s = train.train_rlx(cfg, 30)
theirs, torch_s = train.train_torch(cfg, 30)
print("float32: compile %.1f s, first step %.1f s, %.1f ms/step (torch "
      "%.1f)" % (compile_s, first_s, rlx_s * 1e3, torch_s * 1e3))
print("float32: loss %.4f -> %.4f, max rel difference %.1e" % (
    ours[0], ours[-1], train.max_rel(ours, theirs)))
failures += train.compare(ours, theirs, rtol=1e-4)



def check_float64(cfg, steps):
    """The step in float64 against PyTorch in float64: the failures."""
    failures = []
    program = rlx.compile(gpt.build_step(cfg))
    init = gpt.init_params(cfg)
    n = len(init)
    state = init + [np.zeros_like(p) for p in init] * 2
    t = np.array(0, np.float64)
    params, step = gpt.torch_trainer(cfg, init)
    worst = 0.0
    for i, (x, y) in enumerate(gpt.batches(data, cfg, steps)):
        out = program(x, y, t, *state)
        t, state = out[1], list(out[2:])
        want = step(torch.from_numpy(x), torch.from_numpy(y)).item()
        rel = abs(float(out[0]) - want) / want
        worst = max(worst, rel)
        if not rel <= 1e-8:
            failures.append("float64 %s step %d: loss %r, torch %r" % (
                cfg.embedding, i, float(out[0]), want))
    for (name, _, _), ours_p, p in zip(gpt.param_specs(cfg), state[:n],
                                       params):
        p = p.detach().numpy()
        err = np.abs(ours_p - p).max() / np.abs(p).max()
        if not err <= 1e-6:
            failures.append("float64 %s: %s after %d steps differs by %.1e"
                            % (cfg.embedding, name, steps, err))
    print("float64, %s embedding: max rel difference of the losses %.1e" % (
        cfg.embedding, worst))
    return failures


# The gather embedding (the CPU example's) and the one-hot one that
# bench/gpu/train_gpt.py compiles for CUDA, in one layer.
c64 = dataclasses.replace(cfg, dtype="float64", batch=4)
failures += check_float64(c64, 8)
failures += check_float64(dataclasses.replace(c64, layers=1,
                                              embedding="onehot"), 8)
print("total %.0f s" % (time.perf_counter() - t0))
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
