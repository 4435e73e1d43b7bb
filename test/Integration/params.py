# RUN: %python %s
# rlx.param through rlx-run: the entry function's params become trailing
# arguments (--rlx-promote-params), bound from --param=NAME=PATH.npy files
# or, where none is given, filled randomly from --seed after the ordinary
# inputs. A param file of the wrong shape or dtype, and a --param that names
# no param, are errors with a diagnostic naming the param.

import atexit
import os
import shutil
import tempfile

import numpy as np

import rlxtest
from rlxtest import Suite

KNOWN_FAILURES = []

suite = Suite("params", KNOWN_FAILURES)
r = rlxtest.rng()

# A linear layer whose weight is read twice (one argument for both), a bf16
# bias and an integer offset.
PROGRAM = """
func.func @main(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<2xf32>) {
  %w = rlx.param "layer0.w" : tensor<4x2xf32>
  %m = rlx.matmul %x, %w : tensor<3x4xf32>, tensor<4x2xf32>
  %bh = rlx.param "layer0.b" : tensor<2xbf16>
  %b = rlx.cast %bh : tensor<2xbf16> -> tensor<2xf32>
  %y = rlx.add %m, %b : tensor<3x2xf32>, tensor<2xf32>
  %k = rlx.param "offset" : tensor<2xi32>
  %kf = rlx.cast %k : tensor<2xi32> -> tensor<2xf32>
  %w2 = rlx.param "layer0.w" : tensor<4x2xf32>
  %s = rlx.reduce sum %w2 axes = [0] : tensor<4x2xf32>
  %z = rlx.add %s, %kf : tensor<2xf32>
  return %y, %z : tensor<3x2xf32>, tensor<2xf32>
}
"""
X = rlxtest.rand(r, (3, 4), "f32")
W = rlxtest.rand(r, (4, 2), "f32")
B = rlxtest.rand(r, (2,), "bf16")  # float32 values that bf16 holds exactly
K = rlxtest.rand(r, (2,), "i32", -5, 5)
TMP = tempfile.mkdtemp(prefix="rlx-params-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)


def save(name, array):
    path = os.path.join(TMP, name + ".npy")
    np.save(path, array)
    return path


FILES = {"layer0.w": save("w", W), "layer0.b": save("b", B),
         "offset": save("k", K)}


def flags(files, seed=None):
    out = ["--param=%s=%s" % (n, p) for n, p in files.items()]
    return out + (["--seed=%d" % seed] if seed is not None else [])


def run_ok(what, inputs, extra):
    rc, log, outs = rlxtest.run(PROGRAM, inputs, 2, extra=extra)
    assert rc == 0, "%s: exit code %d:\n%s" % (what, rc, log)
    return outs


def bound():
    y, z = run_ok("all params bound", [X], flags(FILES))
    ref_y = X.astype(np.float64) @ W + B
    ref_z = W.astype(np.float64).sum(0) + K
    rlxtest.assert_close(y, ref_y, 1e-5, 1e-5, "y", dtype=np.float32)
    rlxtest.assert_close(z, ref_z, 1e-5, 1e-5, "z", dtype=np.float32)


suite.check("all_params_bound", bound)


def random_fill():
    # No --param for the bias: random from the seed, the same on every run.
    files = {n: p for n, p in FILES.items() if n != "layer0.b"}
    y1, z1 = run_ok("random bias, seed 7", [X], flags(files, seed=7))
    y2, z2 = run_ok("random bias, seed 7 again", [X], flags(files, seed=7))
    y3, _ = run_ok("random bias, seed 8", [X], flags(files, seed=8))
    assert np.array_equal(y1, y2) and np.array_equal(z1, z2), \
        "the same seed gave different results:\n%s\n%s" % (y1, y2)
    assert not np.array_equal(y1, y3), "seeds 7 and 8 gave the same bias"
    # The bound params are still used: y - x @ w is one bias row.
    bias = y1.astype(np.float64) - X.astype(np.float64) @ W
    rlxtest.assert_close(bias, np.broadcast_to(bias[0], bias.shape), 1e-5,
                         1e-5, "random bias rows")
    rlxtest.assert_close(z1, W.astype(np.float64).sum(0) + K, 1e-5, 1e-5,
                         "z with the bias random", dtype=np.float32)


suite.check("missing_param_random", random_fill)


def all_random():
    # No --input and no --param: every argument random, reproducibly.
    a = run_ok("all random", [], ["--seed=3"])
    b = run_ok("all random again", [], ["--seed=3"])
    for u, v in zip(a, b):
        assert np.array_equal(u, v), "seed 3 twice differs"


suite.check("all_random", all_random)


def expect_error(name, extra, messages, inputs=(X,)):
    def check():
        rc, log, _ = rlxtest.run(PROGRAM, list(inputs), 2, extra=extra)
        if rc < 0:
            raise AssertionError("%s: rlx-run crashed or did not run "
                                 "(%d):\n%s" % (name, rc, log))
        if rc != 1:
            raise AssertionError("%s: exit code %d, expected 1:\n%s" %
                                 (name, rc, log))
        for m in messages:
            if m not in log:
                raise AssertionError("%s: the diagnostic lacks %r:\n%s" %
                                     (name, m, log))
    suite.check(name, check)


expect_error("wrong_shape",
             flags(dict(FILES, **{"layer0.w": save("w_t", W.T.copy())})),
             ['error: param "layer0.w" (argument #1) expects '
              "tensor<4x2xf32>", "holds dtype 'f4' of shape [2, 4]"])
expect_error("wrong_dtype",
             flags(dict(FILES, offset=save("k64", K.astype(np.int64)))),
             ['error: param "offset"', "(npy dtype 'i4')",
              "holds dtype 'i8' of shape [2]"])
expect_error("bf16_needs_f32",
             flags(dict(FILES, **{"layer0.b": save("b16",
                                                   B.astype(np.float16))})),
             ['error: param "layer0.b"', "expects tensor<2xbf16> (npy dtype "
              "'f4')", "holds dtype 'f2'"])
expect_error("missing_file",
             flags(dict(FILES, offset=os.path.join(TMP, "nosuch.npy"))),
             ['error: param "offset"', "cannot open"])
expect_error("unknown_param", flags(dict(FILES, nosuch=FILES["offset"])),
             ['error: --param=nosuch=', 'has no rlx.param "nosuch"',
              "its params: layer0.w, layer0.b, offset"])
expect_error("malformed_param", ["--param=layer0.w"],
             ["error: --param=layer0.w: expected NAME=PATH.npy"])
expect_error("param_twice",
             flags(FILES) + ["--param=offset=" + FILES["offset"]],
             ['error: --param: "offset" is given twice'])
# --input binds only the ordinary arguments.
expect_error("too_many_inputs", flags(FILES),
             ["error: 2 inputs given but @main takes 1 arguments"],
             inputs=(X, W))

suite.finish()
