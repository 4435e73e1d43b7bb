# RUN: %python %s
# Row groups whose results are written with non-temporal stores
# (rlx-cpu-stream-stores, on by default in the CPU pipeline: results of
# 16 MiB and more) against float64 NumPy, with rlx-run's outputs poisoned
# so that an element the streamed loop skips fails: layer_norm (f32, f64,
# bf16, a large mean), rms_norm and a residual add + layer_norm, at row
# counts that are not a power of two, plus the programs the pass must
# leave alone (rows that are not a whole number of 64-byte vectors) still
# right. Softmax streams from a row staged on the stack, its exp
# prefetching the next rows (f32, f64, and widths that are not whole
# tiles, which do not prefetch). Lone elementwise ops (gelu, a broadcast
# add) stream too.
# Each program is compiled once more with rlx-opt (RLX_OPT) to check that
# it streams exactly when it should, so this test fails if the pass stops
# applying or applies where the alignment does not hold.

import math
import os
import subprocess

import numpy as np

import rlxtest
from rlxtest import Case, rand
from rlxtest import tensor_type as T

RLX_OPT = os.environ.get("RLX_OPT", "rlx-opt")
suite = rlxtest.Suite("stream_stores")
r = rlxtest.rng()
TOL = {"f32": (2e-5, 2e-5), "f64": (1e-11, 1e-11), "bf16": (2e-2, 2e-2)}


def ln_case(elem, shape, offset=0.0, residual=False, tol=None):
    d = shape[-1]
    x = rlxtest.as_elem(rand(r, shape, "f64") + offset, elem)
    g, b = rand(r, (d,), elem, 0.5, 1.5), rand(r, (d,), elem, -1, 1)
    tx, tg = T(shape, elem), T((d,), elem)
    args = [("%x", tx, x), ("%g", tg, g), ("%b", tg, b)]
    body = "%y = rlx.layer_norm %x, %g, %b : {}, {}".format(tx, tg)
    s = x.astype(np.float64)
    if residual:
        h = rand(r, shape, elem)
        args.append(("%h", tx, h))
        body = "%s = rlx.add %x, %h : {0}, {0}\n".format(tx) + body.replace(
            "layer_norm %x", "layer_norm %s")
        s = s + h
    name = "layer_norm%s/%s/%dx%d%s" % ("_residual" if residual else "",
                                       elem, shape[0], d,
                                       "/mean%g" % offset if offset else "")
    return Case(name, args, body, [("%y", tx)],
                [rlxtest.layer_norm_reference(s, g, b, 1e-5)],
                tol or TOL[elem])


def softmax_case(elem, shape):
    x = rand(r, shape, elem, -4, 4)
    tx = T(shape, elem)
    xd = x.astype(np.float64)
    e = np.exp(xd - xd.max(-1, keepdims=True))
    return Case("softmax/%s/%dx%d" % (elem, shape[0], shape[-1]),
                [("%x", tx, x)], "%y = rlx.softmax %x axis = -1 : " + tx,
                [("%y", tx)], [e / e.sum(-1, keepdims=True)], (1e-5, 1e-6))


def rms_case(elem, shape):
    d = shape[-1]
    x, g = rand(r, shape, elem), rand(r, (d,), elem, 0.5, 1.5)
    tx, tg = T(shape, elem), T((d,), elem)
    return Case("rms_norm/%s/%dx%d" % (elem, shape[0], d),
                [("%x", tx, x), ("%g", tg, g)],
                "%y = rlx.rms_norm %x, %g : {}, {}".format(tx, tg),
                [("%y", tx)], [rlxtest.rms_norm_reference(x, g, 1e-6)],
                TOL[elem])


def gelu_case(elem, shape):
    x = rand(r, shape, elem, -5, 5)
    tx = T(shape, elem)
    xd = x.astype(np.float64)
    erf = np.frompyfunc(math.erf, 1, 1)
    ref = 0.5 * xd * (1.0 + erf(xd / math.sqrt(2.0)).astype(np.float64))
    return Case("gelu/%s/%dx%d" % (elem, shape[0], shape[-1]),
                [("%x", tx, x)], "%y = rlx.gelu %x : " + tx,
                [("%y", tx)], [ref], TOL[elem])


def bias_add_case(elem, shape):
    d = shape[-1]
    x, b = rand(r, shape, elem), rand(r, (d,), elem)
    tx, tb = T(shape, elem), T((d,), elem)
    return Case("bias_add/%s/%dx%d" % (elem, shape[0], d),
                [("%x", tx, x), ("%b", tb, b)],
                "%y = rlx.add %x, %b : {}, {}".format(tx, tb),
                [("%y", tx)], [x.astype(np.float64) + b], TOL[elem])


# (case, whether its result streams): 16 MiB results and more whose rows
# are whole 64-byte vectors stream, whatever the number of rows.
cases = [
    (ln_case("f32", (1024, 4096)), True),
    (ln_case("f32", (1027, 4096)), True),  # rows: not a power of two
    (ln_case("f32", (1021, 4112)), True),  # 257 vectors a row
    # Mean 1000 over a spread of ~1: the tolerance allows the rounding of
    # x - mean, not a one-pass variance.
    (ln_case("f32", (1024, 4096), offset=1000.0, tol=(3e-3, 3e-3)), True),
    (ln_case("f64", (513, 4096)), True),
    (ln_case("bf16", (2048, 4096)), True),
    (ln_case("f32", (1024, 4096), residual=True), True),
    (rms_case("f32", (1031, 4096)), True),
    # Rows of 4100 elements, most of which start off 64-byte boundaries:
    # ordinary stores, same results.
    (ln_case("f32", (1031, 4100)), False),
    (ln_case("f64", (517, 4100)), False),
    (rms_case("f32", (1031, 4100)), False),
    # Softmax writes exp into a row staged on the stack, reads it back and
    # streams the scaled row (its exp prefetches the next rows of x:
    # PREFETCHES below); rows that are not whole vectors stay as they were.
    (softmax_case("f32", (1024, 4096)), True),
    (softmax_case("f32", (1027, 4128)), True),
    (softmax_case("f64", (515, 4096)), True),
    (softmax_case("f32", (1031, 4100)), False),
    # Lone elementwise ops stream too (elementwise, on by default): gelu,
    # and an add whose bias is broadcast along the rows; not where rows
    # are not whole vectors.
    (gelu_case("f32", (1027, 4096)), True),
    (gelu_case("f64", (515, 4112)), True),
    (bias_add_case("f32", (1021, 4112)), True),
    (gelu_case("f32", (1031, 4100)), False),
    # 12 MiB: below the threshold.
    (ln_case("f32", (768, 4096)), False),
]

# Softmax cases whose exp prefetches the next rows (rlx-cpu-stream-stores'
# prefetch-only ops): 16 MiB results and more whose rows are whole tiles of
# four 64-byte lines (4128 f32: 258 lines, so no).
PREFETCHES = {"softmax/f32/1024x4096": True, "softmax/f32/1027x4128": False,
              "softmax/f64/515x4096": True, "softmax/f32/1031x4100": False}


def check_lowered(c, marker, expected, problem):
    """Whether `marker` is in c's function after --rlx-cpu-pipeline is
    `expected`; `problem` names the mismatch (what is missing, where the
    marker should not be)."""
    def check():
        p = subprocess.run([RLX_OPT, "--rlx-cpu-pipeline"],
                           input=rlxtest.function_text([c]),
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, "rlx-opt failed:\n" + p.stderr
        found = marker in p.stdout
        assert found == expected, problem[0 if expected else 1]
    return check


def check_prefetches(c, expected):
    return check_lowered(c, "llvm.intr.prefetch", expected,
                         ("prefetches missing",
                          "prefetches where rows are not whole tiles"))


def check_streams(c, expected):
    return check_lowered(c, "nontemporal", expected,
                         ("non-temporal stores missing",
                          "non-temporal stores where the alignment does "
                          "not hold"))


for c, expected in cases:
    suite.check("%s/%s" % (c.name, "streams" if expected else "ordinary"),
                check_streams(c, expected))
for c, _ in cases:
    if c.name in PREFETCHES:
        suite.check("%s/%s" % (c.name, "prefetches" if PREFETCHES[c.name]
                                else "no prefetch"),
                    check_prefetches(c, PREFETCHES[c.name]))
# One case a program: the inputs are 16 MiB each.
suite.run([c for c, _ in cases], chunk=1)
suite.finish()
