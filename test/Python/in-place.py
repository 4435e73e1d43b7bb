# RUN: %python %s %rlx_build_dir/bin
# Arguments that hold a result in place (`rlx.in_place_result = J`): the
# call writes the array passed and returns it as result J, with no copy of
# it (a KV cache written at a run-time position, step after step), against
# NumPy on fresh random inputs. Also: a program that must read the old
# value after writing (bufferization copies; the result is still handed
# back in the argument), a non-contiguous array (a copy is updated and
# returned), rlx-run on the same program, and the errors: one array passed
# for two arguments written in place, an index out of range, a type that
# cannot hold the result.
import os
import subprocess
import sys
import tempfile

import numpy as np

import rlx
import rlxtest  # noqa: F401  (the seed)

TOOLS = sys.argv[1] if len(sys.argv) > 1 else "build/bin"
SEED = int.from_bytes(os.urandom(4), "little")
print("seed", SEED)
rng = np.random.default_rng(SEED)
ctx = rlx.Context()

STEP = """
func.func @step(%k: tensor<2x16x2x4xf32> {rlx.in_place_result = 1 : i64},
                %v: tensor<2x16x2x4xf32> {rlx.in_place_result = 2 : i64},
                %nk: tensor<2x1x2x4xf32>, %nv: tensor<2x1x2x4xf32>,
                %pos: tensor<i64>)
    -> (tensor<2x1x2x4xf32>, tensor<2x16x2x4xf32>, tensor<2x16x2x4xf32>) {
  %kc = rlx.kv_cache_write %k, %nk, %pos : tensor<2x16x2x4xf32>, tensor<2x1x2x4xf32>, tensor<i64>
  %vc = rlx.kv_cache_write %v, %nv, %pos : tensor<2x16x2x4xf32>, tensor<2x1x2x4xf32>, tensor<i64>
  %s = rlx.add %nk, %nv : tensor<2x1x2x4xf32>, tensor<2x1x2x4xf32>
  return %s, %kc, %vc : tensor<2x1x2x4xf32>, tensor<2x16x2x4xf32>, tensor<2x16x2x4xf32>
}
"""
step = rlx.compile(rlx.Module.parse(STEP, ctx))
assert step.result_arguments == [None, 0, 1], step.result_arguments
k = rng.standard_normal((2, 16, 2, 4)).astype(np.float32)
v = rng.standard_normal((2, 16, 2, 4)).astype(np.float32)
ref_k, ref_v = k.copy(), v.copy()
for pos in rng.permutation(16)[:10]:
    nk = rng.standard_normal((2, 1, 2, 4)).astype(np.float32)
    nv = rng.standard_normal((2, 1, 2, 4)).astype(np.float32)
    s, kc, vc = step(k, v, nk, nv, np.array(pos))
    ref_k[:, pos], ref_v[:, pos] = nk[:, 0], nv[:, 0]
    assert kc is k and vc is v, "the caches are not the arrays passed"
    assert np.array_equal(k, ref_k) and np.array_equal(v, ref_v), pos
    assert np.allclose(s, nk.astype(np.float64) + nv, rtol=1e-6, atol=1e-6)
print("step: 10 writes in place, caches equal to NumPy's")

# Reading the old cache after the write: bufferization copies, and the
# updated cache still comes back in the argument.
OLD = """
func.func @old(%c: tensor<8x1x3xf32> {rlx.in_place_result = 0 : i64},
               %n: tensor<1x1x3xf32>, %pos: tensor<i64>)
    -> (tensor<8x1x3xf32>, tensor<1x3xf32>) {
  %w = rlx.kv_cache_write %c, %n, %pos : tensor<8x1x3xf32>, tensor<1x1x3xf32>, tensor<i64>
  %old = rlx.reduce sum %c axes = [0] : tensor<8x1x3xf32>
  return %w, %old : tensor<8x1x3xf32>, tensor<1x3xf32>
}
"""
old = rlx.compile(rlx.Module.parse(OLD, ctx))
c = rng.standard_normal((8, 1, 3)).astype(np.float32)
n = rng.standard_normal((1, 1, 3)).astype(np.float32)
want_sum = c.astype(np.float64).sum(0)
want_c = c.copy()
want_c[4] = n[0]
w, total = old(c, n, np.array(4))
assert w is c and np.array_equal(c, want_c)
assert np.allclose(total, want_sum, rtol=1e-5, atol=1e-5), (total, want_sum)
print("old value read after the write: cache and sum equal to NumPy's")

# A non-contiguous array: a contiguous copy is updated and returned.
wide = rng.standard_normal((8, 1, 6)).astype(np.float32)
view = wide[:, :, ::2]
before = view.copy()
w, _ = old(view, n, np.array(0))
assert w is not view and np.array_equal(w[1:], before[1:]) and \
    np.array_equal(w[0], n[0]) and np.array_equal(view, before)
print("non-contiguous argument: its updated copy is returned")

# Errors.
try:
    step(k, k, nk, nv, np.array(0))
    raise AssertionError("one array for two in-place arguments ran")
except rlx.RLXError as e:
    assert "argument #0 of @step holds result #1 in place and shares " \
        "memory with argument #1" in str(e), e
for bad, message in (
        (STEP.replace("rlx.in_place_result = 2", "rlx.in_place_result = 3"),
         "argument #1: rlx.in_place_result must be the index of one of the "
         "3 results, got 3 : i64"),
        (STEP.replace("rlx.in_place_result = 2", "rlx.in_place_result = 0"),
         "argument #1 of type 'tensor<2x16x2x4xf32>' cannot hold result #0 "
         "of type 'tensor<2x1x2x4xf32>'"),
        (STEP.replace("rlx.in_place_result = 2", "rlx.in_place_result = 1"),
         "result #1 is held in place by arguments #0 and #1")):
    try:
        rlx.compile(rlx.Module.parse(bad, ctx))
        raise AssertionError("compiled: " + message)
    except rlx.RLXError as e:
        assert message in str(e), (message, str(e))
print("errors: shared memory, index out of range, type, taken twice")

# rlx-run writes the updated cache as the result.
with tempfile.TemporaryDirectory(prefix="rlx-in-place-") as d:
    src = os.path.join(d, "old.mlir")
    with open(src, "w") as f:
        f.write(OLD)
    c = rng.standard_normal((8, 1, 3)).astype(np.float32)
    np.save(os.path.join(d, "c.npy"), c)
    np.save(os.path.join(d, "n.npy"), n)
    np.save(os.path.join(d, "p.npy"), np.array(7, np.int64))
    p = subprocess.run([os.path.join(TOOLS, "rlx-run"), src] +
                       ["--input=" + os.path.join(d, x) for x in
                        ("c.npy", "n.npy", "p.npy")] +
                       ["--output=" + os.path.join(d, "w.npy"),
                        "--output=" + os.path.join(d, "s.npy")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    want = c.copy()
    want[7] = n[0]
    assert np.array_equal(np.load(os.path.join(d, "w.npy")), want)
    assert np.allclose(np.load(os.path.join(d, "s.npy")),
                       c.astype(np.float64).sum(0), rtol=1e-5, atol=1e-5)
print("rlx-run: the updated cache and the sum equal NumPy's")
