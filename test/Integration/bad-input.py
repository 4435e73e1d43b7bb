# RUN: %python %s
# rlx-run rejects bad inputs and programs with a diagnostic and exit code 1:
# never a crash (a signal), never a silent success.

import os
import subprocess
import tempfile

import numpy as np

import rlxtest
from rlxtest import Suite

KNOWN_FAILURES = []

suite = Suite("bad-input", KNOWN_FAILURES)
r = rlxtest.rng()

PROGRAM = """
func.func @main(%x: tensor<4x8xf32>, %y: tensor<?x8xbf16>) -> tensor<4x8xf32> {
  %c = rlx.cast %y : tensor<?x8xbf16> -> tensor<?x8xf32>
  %s = rlx.reduce sum %c axes = [0] keepdim true : tensor<?x8xf32>
  %z = rlx.add %x, %s : tensor<4x8xf32>, tensor<1x8xf32>
  return %z : tensor<4x8xf32>
}
func.func @other(%x: tensor<3xi32>) -> tensor<3xi32> {
  %z = rlx.add %x, %x : tensor<3xi32>
  return %z : tensor<3xi32>
}
"""
# Ops that had no CPU lowering when this was written (rlx.fft first): each
# either runs or fails with "failed to legalize operation"; at least one must
# still fail that way, so that the path is tested.
UNLOWERED = [
    ("fft", "tensor<4x8xcomplex<f32>>",
     "%y = rlx.fft %x : tensor<4x8xcomplex<f32>>",
     "tensor<4x8xcomplex<f32>>"),
    ("topk", "tensor<4x8xf32>",
     "%y, %i = rlx.topk %x k = 2 axis = -1 : tensor<4x8xf32>",
     "tensor<4x2xf32>"),
    ("dense_solve", "tensor<3x3xf64>",
     "%y = rlx.dense_solve %x, %x : tensor<3x3xf64>, tensor<3x3xf64>",
     "tensor<3x3xf64>"),
    ("param", "tensor<4xf32>",
     """%w = rlx.param "w" : tensor<4xf32>
  %y = rlx.add %x, %w : tensor<4xf32>""", "tensor<4xf32>"),
    # Attention lowers only with static head counts and head dim.
    ("attention", "tensor<1x2x4x?xf32>",
     "%y = rlx.attention %x, %x, %x mask = none : tensor<1x2x4x?xf32>, "
     "tensor<1x2x4x?xf32>, tensor<1x2x4x?xf32>", "tensor<1x2x4x?xf32>"),
    ("grad", "tensor<4xf32>",
     "%y:2 = rlx.grad @loss(%x) wrt [0] : (tensor<4xf32>) -> "
     "(tensor<f32>, tensor<4xf32>)", "tensor<f32>"),
]
LOSS = """
func.func private @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %s = rlx.reduce sum %x axes = [0] : tensor<4xf32>
  return %s : tensor<f32>
}
"""
X = rlxtest.rand(r, (4, 8), "f32")
Y = rlxtest.rand(r, (3, 8), "bf16")


def expect_error(name, source, inputs, n_outputs, messages, entry=None,
                 extra=(), raw_inputs=None):
    """rlx-run exits with 1 and prints every one of `messages`."""
    def check():
        if raw_inputs is None:
            rc, log, _ = rlxtest.run(source, inputs, n_outputs, entry, extra)
        else:  # input files written as they are
            with tempfile.TemporaryDirectory() as d:
                prog = os.path.join(d, "p.mlir")
                with open(prog, "w") as f:
                    f.write(source)
                args = []
                for i, data in enumerate(raw_inputs):
                    path = os.path.join(d, "in%d.npy" % i)
                    if data is not None:
                        with open(path, "wb") as f:
                            f.write(data)
                    args.append("--input=" + path)
                p = subprocess.run([rlxtest.RLX_RUN, prog] + args,
                                   capture_output=True, text=True,
                                   timeout=120)
                rc, log = p.returncode, p.stdout + p.stderr
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


# The program itself runs on good inputs.
def good():
    rc, log, outs = rlxtest.run(PROGRAM, [X, Y], 1)
    assert rc == 0, "good inputs: exit code %d:\n%s" % (rc, log)
    rlxtest.assert_close(outs[0], X + Y.astype(np.float64).sum(0), 1e-2, 1e-2,
                         "good inputs", dtype=np.float32)


suite.check("good_inputs", good)

expect_error("wrong_shape", PROGRAM, [X[:3], Y], 1,
             ["error: argument #0 expects tensor<4x8xf32> (npy dtype 'f4')",
              "holds dtype 'f4' of shape [3, 8]"])
expect_error("wrong_shape_dynamic_arg", PROGRAM, [X, Y[:, :5]], 1,
             ["error: argument #1 expects tensor<?x8xbf16>",
              "of shape [3, 5]"])
expect_error("wrong_rank", PROGRAM, [X.reshape(32), Y], 1,
             ["error: argument #0 expects tensor<4x8xf32>",
              "of shape [32]"])
expect_error("wrong_dtype", PROGRAM, [X.astype(np.float64), Y], 1,
             ["error: argument #0 expects tensor<4x8xf32> (npy dtype 'f4')",
              "holds dtype 'f8'"])
expect_error("wrong_dtype_bf16_as_f2", PROGRAM, [X, Y.astype(np.float16)], 1,
             ["argument #1 expects tensor<?x8xbf16> (npy dtype 'f4')",
              "holds dtype 'f2'"])
expect_error("wrong_dtype_int", PROGRAM, [X[0, :3]], 1,
             ["argument #0 expects tensor<3xi32> (npy dtype 'i4')",
              "holds dtype 'f4' of shape [3]"], entry="other")
expect_error("too_many_inputs", PROGRAM, [X, Y, X], 1,
             ["error: 3 inputs given but @main takes 2 arguments"])
expect_error("too_many_outputs", PROGRAM, [X, Y], 2,
             ["error: 2 outputs given but @main returns 1 results"])
expect_error("unknown_entry", PROGRAM, [], 0,
             ["error: no function 'nosuch'"], entry="nosuch")

def unlowered():
    failing = []
    for op, targ, body, tres in UNLOWERED:
        res = "%y#0" if op == "grad" else "%y"
        src = "func.func @main(%%x: %s) -> %s {\n  %s\n  return %s : %s\n}\n" \
            % (targ, tres, body, res, tres) + (LOSS if op == "grad" else "")
        rc, log, _ = rlxtest.run(src, [], 0)
        if rc < 0:
            raise AssertionError("rlx.%s: rlx-run crashed or did not run "
                                 "(%d):\n%s" % (op, rc, log))
        if rc == 0:
            continue  # lowered by now
        want = "failed to legalize operation 'rlx.%s'" % op
        if rc != 1 or want not in log:
            raise AssertionError("rlx.%s: exit code %d, diagnostic without "
                                 "%r:\n%s" % (op, rc, want, log))
        failing.append(op)
    print("ops without a lowering: %s" % (", ".join(failing) or "none"))
    if not failing:
        raise AssertionError("every op of UNLOWERED runs now: add one that "
                             "has no lowering")


suite.check("no_lowering", unlowered)
# Differentiating through an op without a rule (selective_scan of dynamic
# length, which is not unrolled) is an error naming it.
expect_error("no_differentiation_rule", """
func.func private @loss(%u: tensor<1x2x?xf32>, %dt: tensor<1x2x?xf32>,
                        %a: tensor<2x3xf32>, %b: tensor<1x3x?xf32>,
                        %c: tensor<1x3x?xf32>, %d: tensor<2xf32>) -> tensor<f32> {
  %y = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<1x2x?xf32>,
      tensor<1x2x?xf32>, tensor<2x3xf32>, tensor<1x3x?xf32>,
      tensor<1x3x?xf32>, tensor<2xf32>
  %s = rlx.reduce sum %y axes = [0, 1, 2] : tensor<1x2x?xf32>
  return %s : tensor<f32>
}
func.func @main(%u: tensor<1x2x?xf32>, %dt: tensor<1x2x?xf32>,
                %a: tensor<2x3xf32>, %b: tensor<1x3x?xf32>,
                %c: tensor<1x3x?xf32>, %d: tensor<2xf32>) -> tensor<2x3xf32> {
  %l, %g = rlx.grad @loss(%u, %dt, %a, %b, %c, %d) wrt [2]
      : (tensor<1x2x?xf32>, tensor<1x2x?xf32>, tensor<2x3xf32>,
         tensor<1x3x?xf32>, tensor<1x3x?xf32>, tensor<2xf32>)
      -> (tensor<f32>, tensor<2x3xf32>)
  return %g : tensor<2x3xf32>
}
""", [], 0, ["'rlx.selective_scan' op has no differentiation rule",
             "needed to differentiate 'loss' here"])
expect_error("parse_error", "func.func @main( {", [], 0, ["error:"])
expect_error("missing_file", PROGRAM, None, 0, ["error: cannot open"],
             raw_inputs=[None])
expect_error("not_npy", PROGRAM, None, 0, ["error:"],
             raw_inputs=[b"this is not an npy file\n"])
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }"
header += b" " * (63 - len(header) % 64) + b"\n"
expect_error("truncated_npy", PROGRAM, None, 0, ["error:"],
             raw_inputs=[b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) +
                         header + b"\x00" * 20])

suite.finish()
