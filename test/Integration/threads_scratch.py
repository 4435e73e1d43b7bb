# RUN: %python %s
# UNSUPPORTED: sanitizers
# (loads librlx_c.so into python3, which has no sanitizer runtime)
# Many threads, many calls: a kernel whose per-row temporary has a dynamic
# size (the score row of attention over a key length known at run time) must
# give each thread its own (a shared one gave wrong rows or NaN in about one
# call of a hundred). Four threads on any machine, 200 calls over several
# key lengths from one compiled program, each against a float64 reference.
import os

os.environ["RLX_NUM_THREADS"] = "4"

import numpy as np  # noqa: E402

import rlx  # noqa: E402
import rlxtest  # noqa: E402

B, H, S, D = 2, 4, 64, 16
PROGRAM = """
func.func @att(%q: tensor<{B}x{H}x{S}x{D}xf32>, %k: tensor<{B}x{H}x?x{D}xf32>,
               %v: tensor<{B}x{H}x?x{D}xf32>) -> tensor<{B}x{H}x{S}x{D}xf32> {{
  %o = rlx.attention %q, %k, %v mask = none : tensor<{B}x{H}x{S}x{D}xf32>, tensor<{B}x{H}x?x{D}xf32>, tensor<{B}x{H}x?x{D}xf32>
  return %o : tensor<{B}x{H}x{S}x{D}xf32>
}}
""".format(B=B, H=H, S=S, D=D)

r = rlxtest.rng()
ctx = rlx.Context()
program = rlx.compile(rlx.Module.parse(PROGRAM, ctx))
failures = 0
calls = 0
for skv in (64, 129, 37, 300):
    q = r.uniform(-1.5, 1.5, (B, H, S, D)).astype(np.float32)
    k = r.uniform(-1.5, 1.5, (B, H, skv, D)).astype(np.float32)
    v = r.uniform(-1, 1, (B, H, skv, D)).astype(np.float32)
    expected = rlxtest.attention_reference(q, k, v, "none")
    for _ in range(50):
        got = program(q, k, v)
        calls += 1
        if not np.allclose(got, expected, rtol=1e-5, atol=1e-5):
            failures += 1
            err = np.nanmax(np.abs(got - expected))
            print("skv=%d: off by %g (nan: %s)" % (skv, err,
                                                   np.isnan(got).any()))
print("%d calls, %d wrong" % (calls, failures))
assert failures == 0
