# RUN: %python %s
# rlx-decompose-attention against NumPy: attention on fresh random q, k, v
# (f32, f64, bf16; self- and cross-attention with another value width; an
# explicit scale; causal and sliding-window masks, with more keys than
# queries; grouped-query heads) runs once rewritten by `rlx-opt
# --rlx-decompose-attention` (RLX_OPT) and must match the masked
# softmax(scale q k^T) v in float64 (rlxtest.attention_reference); the
# rewritten text must hold no rlx.attention. attention_backward on the same
# cases must match torch.autograd of the attention in float64.

import os
import subprocess

import numpy as np
import torch

import rlxtest
from rlxtest import rand
from rlxtest import tensor_type as T

RLX_OPT = os.environ.get("RLX_OPT", "rlx-opt")
r = rlxtest.rng()
TOL = {"f32": (1e-5, 1e-6), "f64": (1e-12, 1e-13), "bf16": (2e-2, 2e-2)}
failures = 0

# (elem, B, H, Hkv, S, Skv, D, Dv, scale, mask, window)
CASES = [("f32", 2, 4, 4, 16, 16, 32, 32, None, "none", None),
         ("f32", 1, 3, 3, 8, 24, 16, 40, 0.3, "none", None),
         ("f64", 2, 2, 2, 12, 12, 8, 8, None, "none", None),
         ("bf16", 2, 4, 4, 32, 32, 64, 64, None, "none", None),
         ("f64", 2, 4, 4, 12, 12, 8, 8, None, "causal", None),
         ("f64", 1, 6, 2, 10, 17, 8, 12, 0.4, "causal", None),
         ("f64", 2, 4, 1, 16, 16, 8, 8, None, "sliding_window", 5),
         ("f64", 1, 2, 2, 7, 9, 4, 4, None, "sliding_window", 1),
         ("f64", 1, 8, 2, 6, 6, 8, 8, None, "none", None),
         ("f32", 2, 8, 2, 16, 16, 16, 16, None, "causal", None),
         ("bf16", 2, 8, 2, 32, 32, 64, 64, None, "causal", None)]



def case(elem, B, H, Hkv, S, Skv, D, Dv, scale, mask, window):
    """The case's name and fresh random q, k, v."""
    name = "%s/b%dh%dkv%ds%dk%dd%dv%d%s/%s%s" % (
        elem, B, H, Hkv, S, Skv, D, Dv, "" if scale is None else "/scale",
        mask, "" if window is None else str(window))
    return (name, rand(r, (B, H, S, D), elem), rand(r, (B, Hkv, Skv, D), elem),
            rand(r, (B, Hkv, Skv, Dv), elem))


for elem, B, H, Hkv, S, Skv, D, Dv, scale, mask, window in CASES:
    name, q, k, v = case(elem, B, H, Hkv, S, Skv, D, Dv, scale, mask, window)
    tq, tk, tv = T(q.shape, elem), T(k.shape, elem), T(v.shape, elem)
    to = T((B, H, S, Dv), elem)
    attr = "" if scale is None else " {scale = %r : f32}" % scale
    kind = mask + ("" if window is None else " window = %d" % window)
    text = ("func.func @main(%%q: %s, %%k: %s, %%v: %s) -> %s {\n"
            "  %%a = rlx.attention %%q, %%k, %%v mask = %s%s : %s, %s, %s\n"
            "  return %%a : %s\n}\n" % (tq, tk, tv, to, kind, attr, tq, tk,
                                          tv, to))
    p = subprocess.run([RLX_OPT, "--rlx-decompose-attention"], input=text,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "rlx.attention" not in p.stdout, name + ": not decomposed"
    code, log, outs = rlxtest.run(p.stdout, [q, k, v], 1)
    ref = rlxtest.attention_reference(q, k, v, mask, window=window,
                                      scale=scale)
    try:
        assert code == 0, log
        rlxtest.assert_close(outs[0], ref, *TOL[elem], name,
                             dtype=rlxtest.NPY[elem])
        print("ok  ", name)
    except AssertionError as err:
        failures += 1
        print("FAIL", name, "(seed %d)\n  %s" % (rlxtest.SEED, err))

# attention_backward: the same cases, against torch.autograd of the
# attention in float64 (rlxtest.attention_torch) with a fresh random
# cotangent; o is the float64 forward rounded to the operands' type.
# Gradients are sums over keys or queries: atol relative to the largest
# magnitude of each.
BACKWARD_TOL = {"f32": 1e-4, "f64": 1e-10, "bf16": 3e-2}
for elem, B, H, Hkv, S, Skv, D, Dv, scale, mask, window in CASES:
    name, q, k, v = case(elem, B, H, Hkv, S, Skv, D, Dv, scale, mask, window)
    name = "backward/" + name
    t = [torch.tensor(np.asarray(a, np.float64), requires_grad=True)
         for a in (q, k, v)]
    out = rlxtest.attention_torch(*t, mask, window=window, scale=scale)
    o = rlxtest.as_elem(out.detach().numpy(), elem)
    do = rand(r, o.shape, elem)
    expected = [g.numpy() for g in torch.autograd.grad(
        out, t, torch.tensor(np.asarray(do, np.float64)))]
    tq, tk, tv = T(q.shape, elem), T(k.shape, elem), T(v.shape, elem)
    to = T(o.shape, elem)
    attr = "" if scale is None else " {scale = %r : f32}" % scale
    kind = mask + ("" if window is None else " window = %d" % window)
    text = ("func.func @main(%%q: %s, %%k: %s, %%v: %s, %%o: %s, %%do: %s)"
            " -> (%s, %s, %s) {\n"
            "  %%dq, %%dk, %%dv = rlx.attention_backward %%q, %%k, %%v, %%o, "
            "%%do mask = %s%s : %s, %s, %s, %s\n"
            "  return %%dq, %%dk, %%dv : %s, %s, %s\n}\n" % (
                tq, tk, tv, to, to, tq, tk, tv, kind, attr, tq, tk, tv, to,
                tq, tk, tv))
    p = subprocess.run([RLX_OPT, "--rlx-decompose-attention"], input=text,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "rlx.attention_backward" not in p.stdout, name + ": not decomposed"
    code, log, outs = rlxtest.run(p.stdout, [q, k, v, o, do], 3)
    try:
        assert code == 0, log
        for what, got, want in zip(("dq", "dk", "dv"), outs, expected):
            tol = BACKWARD_TOL[elem]
            rlxtest.assert_close(got, want, tol, tol * np.abs(want).max(),
                                 name + " " + what, dtype=rlxtest.NPY[elem])
        print("ok  ", name)
    except AssertionError as err:
        failures += 1
        print("FAIL", name, "(seed %d)\n  %s" % (rlxtest.SEED, err))
print("decompose_attention: %d cases, %d failed" % (2 * len(CASES),
                                                      failures))
raise SystemExit(1 if failures else 0)
