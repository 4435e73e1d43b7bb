# RUN: %python %s
# Results of 16 MiB and more written with non-temporal stores
# (rlx-cpu-stream-stores, on by default in the CPU pipeline) against float64
# NumPy: a broadcast add, gelu (tanh) and a where on 2048x2048 f32 and
# 1024x2048 f64 (16 MiB each), with rlx-run's outputs poisoned so that an
# element the streamed loop skips fails. The compiled program must hold
# the streaming stores (RLX_OPT names the rlx-opt that checks it), so this
# test fails if the pass stops applying to them.

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


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                  (x + 0.044715 * x ** 3)))


def cases(elem, rows):
    shape = (rows, 2048)
    x, y = rand(r, shape, elem), rand(r, shape, elem)
    b = rand(r, (2048,), elem)
    tx, tb = T(shape, elem), T((2048,), elem)
    ti1 = T(shape, "i1")
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    return [
        Case("add_row/%s" % elem, [("%x", tx, x), ("%b", tb, b)],
             "%y = rlx.add %x, %b : {}, {}".format(tx, tb), [("%y", tx)],
             [xd + b.astype(np.float64)]),
        Case("gelu_tanh/%s" % elem, [("%x", tx, x)],
             '%y = rlx.gelu %x {{approximate = "tanh"}} : {}'.format(tx),
             [("%y", tx)], [gelu_tanh(xd)]),
        Case("where/%s" % elem, [("%x", tx, x), ("%z", tx, y)], """
             %m = rlx.cmp gt, %x, %z : {0}, {0}
             %y = rlx.where %m, %x, %z : {1}, {0}, {0}""".format(tx, ti1),
             [("%y", tx)], [np.where(xd > yd, xd, yd)]),
    ]


all_cases = cases("f32", 2048) + cases("f64", 1024)
for c in all_cases:
    text = rlxtest.function_text([c])
    p = subprocess.run([RLX_OPT, "--rlx-cpu-pipeline"], input=text,
                       capture_output=True, text=True, timeout=300)
    streams = p.returncode == 0 and "nontemporal" in p.stdout
    assert streams, "%s: the compiled program has no non-temporal store:\n%s" % (
        c.name, p.stderr)
suite.run(all_cases)
suite.finish()
