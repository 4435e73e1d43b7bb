# RUN: %python %s
# --rlx-specialize-shapes from Python: one program written with ? dims,
# specialised to a shape, gives the dynamic program's results (and
# float64 NumPy's) on fresh random inputs; the specialised program refuses
# other shapes.
import math

import numpy as np

import rlx

PROGRAM = """
func.func @layer(%x: tensor<?x?x64xf32>, %w: tensor<64x64xf32>, %g: tensor<64xf32>) -> tensor<?x?x64xf32> {
  %h = rlx.matmul %x, %w : tensor<?x?x64xf32>, tensor<64x64xf32>
  %a = rlx.gelu %h : tensor<?x?x64xf32>
  %n = rlx.rms_norm %a, %g : tensor<?x?x64xf32>, tensor<64xf32>
  %s = rlx.softmax %n axis = -1 : tensor<?x?x64xf32>
  return %s : tensor<?x?x64xf32>
}
"""
rng = np.random.default_rng()
ctx = rlx.Context()
dynamic = rlx.compile(rlx.Module.parse(PROGRAM, ctx))
special = rlx.Module.parse(PROGRAM, ctx)
special.run_pipeline(
    "rlx-specialize-shapes{function=layer dims=0:0=3,0:1=17}")
assert "tensor<3x17x64xf32>" in str(special), special
program = rlx.compile(special)

x = rng.standard_normal((3, 17, 64)).astype(np.float32)
w = (rng.standard_normal((64, 64)) / 8).astype(np.float32)
g = (1 + 0.1 * rng.standard_normal(64)).astype(np.float32)
h = x.astype(np.float64) @ w
a = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
n = a / np.sqrt((a * a).mean(-1, keepdims=True) + 1e-6) * g
e = np.exp(n - n.max(-1, keepdims=True))
want = e / e.sum(-1, keepdims=True)
for name, p in (("dynamic", dynamic), ("specialised", program)):
    got = p(x, w, g)
    err = np.abs(got - want).max()
    print("%s: max error %.2e" % (name, err))
    assert err < 1e-5, (name, err)
try:
    program(rng.standard_normal((3, 18, 64)).astype(np.float32), w, g)
    raise AssertionError("the specialised program ran on 3x18x64")
except ValueError as error:
    assert "expects tensor<3x17x64xf32>" in str(error), error
print("specialised program refuses 3x18x64")
