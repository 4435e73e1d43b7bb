# RUN: %python %s
# rlx-run --calibrate against NumPy on the same random batches: a conv (its
# weight per channel along axis 0), a matmul (weight per channel along
# axis 1) and a matmul with transpose_b (weight along axis 0) fed by a relu,
# so that one activation has no negative values.
#
# - min/max: exact for the taps that are inputs or params; rlx's and
#   NumPy's float32 matmul differ by their summation order, so the relu
#   output's extremes agree to 1e-5 relative.
# - percentile (q = 99.9, per side): np.percentile (linear interpolation);
#   exact for weights (to 1e-12 of the range), within one histogram bin,
#   (max - min) / 4096, for activations (plus the matmul's float32
#   difference for the relu output).
# - mse: the range minimizing the expected int8 error (values inside cost
#   step^2 / 12, values at or beyond an end their squared distance to it,
#   since an end is exact, and zeros nothing, since int8 holds 0; 255
#   steps over [a, b] with a <= 0 <= b for activations, 254 over [-t, t]
#   for weights), against NumPy's brute force over a grid on the raw
#   values. A weight's range is exact in rlx, so it must cost no more than
#   the best of 8192 grid points; an activation's is searched on a
#   histogram (values moved by at most half a bin) and must cost at most
#   0.5% more than the best of a 257 x 257 grid. The Laplace-distributed
#   input has tails long enough that its best range clips (min/max costs
#   at least 1% more), so a search that kept min/max would fail.

import os
import subprocess
import tempfile
import json

import numpy as np

import rlxtest
from rlxtest import Suite

suite = Suite("calibrate")
r = rlxtest.rng()
Q, BATCHES, BINS = 99.9, 5, 4096

PROGRAM = """
func.func @main(%img: tensor<4x3x8x8xf32>, %x: tensor<64x32xf32>)
    -> (tensor<4x5x6x6xf32>, tensor<64x10xf32>) {
  %k = rlx.param "k" : tensor<5x3x3x3xf32>
  %c = rlx.conv %img, %k : tensor<4x3x8x8xf32>, tensor<5x3x3x3xf32>
  %w1 = rlx.param "w1" : tensor<32x24xf32>
  %h0 = rlx.matmul %x, %w1 : tensor<64x32xf32>, tensor<32x24xf32>
  %h = rlx.relu %h0 : tensor<64x24xf32>
  %w2 = rlx.param "w2" : tensor<10x24xf32>
  %y = rlx.matmul %h, %w2 transpose_b true
      : tensor<64x24xf32>, tensor<10x24xf32>
  return %c, %y : tensor<4x5x6x6xf32>, tensor<64x10xf32>
}
"""

params = {"k": r.standard_normal((5, 3, 3, 3)).astype(np.float32),
          "w1": (r.standard_normal((32, 24)) / 4).astype(np.float32),
          "w2": r.uniform(-1, 1, (10, 24)).astype(np.float32)}
batches = [(r.standard_normal((4, 3, 8, 8)).astype(np.float32),
            r.laplace(0, 1, (64, 32)).astype(np.float32))
           for _ in range(BATCHES)]
relu = [np.maximum(x @ params["w1"], 0) for _, x in batches]

# Each tap's values as a [channels, values] array, and whether NumPy's values
# are exactly rlx's.
TAPS = {
    "main/conv0/input": (np.concatenate([i.ravel() for i, _ in batches])[None],
                         None, True),
    "main/conv0/weight": (params["k"].reshape(5, -1), 0, True),
    "main/matmul0/lhs": (np.concatenate([x.ravel() for _, x in batches])[None],
                         None, True),
    "main/matmul0/rhs": (params["w1"].T, 1, True),
    "main/matmul1/lhs": (np.concatenate([h.ravel() for h in relu])[None],
                         None, False),
    "main/matmul1/rhs": (params["w2"], 0, True),
}


def expected_error(v, a, b, step):
    """The expected int8 error of clipping `v` (one channel, [n]) to each
    [a, b] (arrays of candidates) with grid step `step`."""
    v = v[None, :].astype(np.float64)
    a, b, step = (np.asarray(t, np.float64)[:, None] for t in (a, b, step))
    clipped = np.clip(v, a, b)
    inside = (v > a) & (v < b) & (v != 0)
    return ((v - clipped) ** 2 + inside * step ** 2 / 12).sum(1)


def best_asymmetric(v, steps=256):
    lo, hi = min(v.min(), 0.0), max(v.max(), 0.0)
    best = np.inf
    for i in range(steps + 1):
        a = np.full(steps + 1, lo * i / steps)
        b = hi * np.arange(steps + 1) / steps
        ok = b > a
        if ok.any():
            best = min(best, expected_error(v, a[ok], b[ok],
                                            (b[ok] - a[ok]) / 255).min())
    return best


def best_symmetric(v, steps=8192):
    t = np.abs(v).max() * np.arange(1, steps + 1) / steps
    return expected_error(v, -t, t, t / 127).min()


def calibrate():
    with tempfile.TemporaryDirectory(prefix="rlxtest-") as d:
        path = os.path.join(d, "prog.mlir")
        with open(path, "w") as f:
            f.write(PROGRAM)
        for b, arrays in enumerate(batches):
            os.makedirs(os.path.join(d, "data", "b%02d" % b))
            for i, a in enumerate(arrays):
                np.save(os.path.join(d, "data", "b%02d" % b, "arg%d.npy" % i),
                        a)
        cmd = [rlxtest.RLX_RUN, path, "--calibrate=%s/rec.json" % d,
               "--calibration-data=%s/data" % d, "--percentile=%g" % Q]
        for name, value in params.items():
            np.save(os.path.join(d, name + ".npy"), value)
            cmd.append("--param=%s=%s/%s.npy" % (name, d, name))
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, "rlx-run exited with %d:\n%s%s" % (
            p.returncode, p.stdout, p.stderr)
        with open(os.path.join(d, "rec.json")) as f:
            return json.load(f)


record = calibrate()


def check_tap(name):
    values, axis, exact = TAPS[name]
    entry = record["taps"][name]
    assert entry["axis"] == axis, "axis %r, expected %r" % (entry["axis"],
                                                             axis)
    lo, hi = values.min(1), values.max(1)
    if exact:
        assert entry["min"] == lo.tolist() and entry["max"] == hi.tolist(), \
            "min/max %s %s, expected %s %s" % (entry["min"], entry["max"],
                                               lo, hi)
    else:
        for side, want in (("min", lo), ("max", hi)):
            rlxtest.assert_close(np.array(entry[side], np.float64), want,
                                 1e-5, 1e-6, side, dtype=np.float64)
    slack = 0 if exact else 1e-5 * np.abs(values).max()
    width = (hi - lo) * (1e-12 if axis is not None else 1.0 / BINS) + slack
    for side, q in (("min", 100 - Q), ("max", Q)):
        got = np.array(entry["percentile"][side])
        want = np.percentile(values.astype(np.float64), q, axis=1)
        assert np.all(np.abs(got - want) <= width), \
            "percentile %s %s, np.percentile %s (bin width %s)" % (
                side, got, want, width)
    for c, v in enumerate(values):
        a, b = entry["mse"]["min"][c], entry["mse"]["max"][c]
        if axis is None:
            assert a <= 0 <= b, "mse range [%g, %g] excludes 0" % (a, b)
            ours = expected_error(v, [a], [b], [(b - a) / 255])[0]
            best = best_asymmetric(v)
            if name == "main/matmul0/lhs":
                a0, b0 = min(lo[c], 0), max(hi[c], 0)
                minmax = expected_error(v, [a0], [b0], [(b0 - a0) / 255])[0]
                assert minmax >= 1.01 * best, \
                    "min/max is near the best range: the test lacks bite"
        else:
            assert a == -b, "weight mse range [%g, %g] not symmetric" % (a, b)
            ours = expected_error(v, [a], [b], [b / 127])[0]
            best = best_symmetric(v)
        assert ours <= best * (1.005 if axis is None else 1 + 1e-12), \
            "channel %d: mse range [%g, %g] costs %g, NumPy's best %g" % (
                c, a, b, ours, best)


assert record["format"] == "rlx-calibration" and record["version"] == 1
assert record["batches"] == BATCHES
assert sorted(record["taps"]) == sorted(TAPS), sorted(record["taps"])
for tap in TAPS:
    suite.check(tap, lambda: check_tap(tap))
suite.finish()
