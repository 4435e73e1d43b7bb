# REQUIRES: spirv-cross, target-vulkan
# RUN: env RLX_RUN=%S/Inputs/metal-run %python %s
# The cross-check of the MSL emitter (docs/Metal.md): each program runs on
# the CPU runner twice on the same fresh random inputs, once as RLX's MSL
# (rlx-compile --target=metal) and once as SPIRV-Cross's MSL of the Vulkan
# path's SPIR-V (rlx-compile --target=vulkan for 32-lane subgroups, then
# `spirv-cross --msl`; metal-run --spirv-cross). Both results must be
# within the stated (rtol, atol) of the float64 reference, and of each
# other: an elementwise chain (f32, f16), a softmax and an rms_norm (row
# kernels reducing with SIMD-group shuffles and threadgroup memory), a
# generated matmul and a fused matmul + bias + GELU (erf's polynomial),
# and the Llama layer of examples/llama_layer_hir.mlir as it is.

import os

import numpy as np

import rlxtest
from hir_reference import activation, llama_layer, llama_weights
from rlxtest import Case, Suite, rand, weight
from rlxtest import tensor_type as T

suite = Suite("spirv_cross")
r = rlxtest.rng()
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "..")


def cross_check(name, source, inputs, expected, dtypes, tol, entry=None):
    """Runs `source` as both MSLs; checks each (results of `dtypes`)
    against `expected` and the two against each other, within `tol` =
    (rtol, atol)."""
    def check():
        results = {}
        for msl, extra in (("RLX's MSL", []),
                           ("SPIRV-Cross's MSL", ["--spirv-cross"])):
            rc, log, outs = rlxtest.run(source, inputs, len(expected),
                                        entry=entry, extra=extra)
            assert rc == 0, "%s: %s exited with %d:\n%s" % (
                name, msl, rc, log)
            for k, (out, e, dtype) in enumerate(zip(outs, expected, dtypes)):
                rlxtest.assert_close(out, e, *tol, "%s result #%d, %s" %
                                     (name, k, msl), dtype=dtype)
            results[msl] = outs
        for k, (ours, theirs) in enumerate(zip(*results.values())):
            rlxtest.assert_close(theirs, ours, *tol,
                                 "%s result #%d, SPIRV-Cross's MSL against "
                                 "RLX's" % (name, k))
            diff = np.abs(f64(theirs) - f64(ours))
            print("%s result #%d: max |SPIRV-Cross's - RLX's| = %.3g "
                  "(largest |result| %.3g)" %
                  (name, k, diff.max(), np.abs(f64(ours)).max()))
    suite.check(name, check)


def case_check(case):
    """A rlxtest Case: its (rtol, atol) for every result."""
    (tol,) = set(case.tols)
    dtypes = [rlxtest.NPY[rlxtest.parse_type(t)[1]] for _, t in case.results]
    cross_check(case.name, rlxtest.function_text([case]), case.inputs,
                case.expected, dtypes, tol)


def f64(x):
    return np.asarray(x, np.float64)


# Elementwise: exp(tanh(a) * |b|), one fused kernel.
for elem, tol in (("f32", (1e-5, 1e-6)), ("f16", (1e-2, 1e-3))):
    a, b = rand(r, (37, 129), elem), rand(r, (37, 129), elem)
    t = T(a.shape, elem)
    case_check(Case(
        "elementwise/" + elem, [("%a", t, a), ("%b", t, b)],
        "%t = rlx.tanh %a : {0}\n%m = rlx.abs %b : {0}\n"
        "%p = rlx.mul %t, %m : {0}, {0}\n%y = rlx.exp %p : {0}".format(t),
        [("%y", t)], [np.exp(np.tanh(f64(a)) * np.abs(f64(b)))], tol))

# Softmax over rows of 300.
x = rand(r, (19, 300), "f32", -4, 4)
e = np.exp(f64(x) - f64(x).max(-1, keepdims=True))
case_check(Case("softmax/f32", [("%x", T(x.shape, "f32"), x)],
                "%y = rlx.softmax %x axis = -1 : " + T(x.shape, "f32"),
                [("%y", T(x.shape, "f32"))], [e / e.sum(-1, keepdims=True)],
                (1e-5, 1e-6)))

# RMS norm over rows of 384.
x, g = rand(r, (23, 384), "f32"), rand(r, (384,), "f32", 0.5, 1.5)
tx, tg = T(x.shape, "f32"), T(g.shape, "f32")
case_check(Case("rms_norm/f32", [("%x", tx, x), ("%g", tg, g)],
                "%y = rlx.rms_norm %x, %g : {}, {}".format(tx, tg),
                [("%y", tx)], [rlxtest.rms_norm_reference(x, g, 1e-6)],
                (2e-5, 2e-5)))

# A generated matmul, and one fused with a bias and GELU; the f32
# tolerance grows with the inner size K.
M, K, N = 33, 65, 47
s = np.sqrt(K)
a, b = rand(r, (M, K), "f32", -1, 1), rand(r, (K, N), "f32", -1, 1)
ta, tb, tc = T(a.shape, "f32"), T(b.shape, "f32"), T((M, N), "f32")
case_check(Case("matmul/f32", [("%a", ta, a), ("%b", tb, b)],
                "%c = rlx.matmul %a, %b : {}, {}".format(ta, tb),
                [("%c", tc)], [f64(a) @ f64(b)], (1e-5 * s, 1e-5 * s)))
w, bias = weight(r, (K, N), K, "f32"), rand(r, (N,), "f32", -1, 1)
tw, tbias = T(w.shape, "f32"), T(bias.shape, "f32")
case_check(Case(
    "matmul_bias_gelu/f32",
    [("%a", ta, a), ("%w", tw, w), ("%bias", tbias, bias)],
    "%y = rlx.fused_matmul_bias_act %a, %w, %bias activation = gelu : "
    "{}, {}, {}".format(ta, tw, tbias),
    [("%y", tc)], [activation(f64(a) @ f64(w) + f64(bias), "gelu")],
    (1e-5 * s, 1e-5 * s)))

# The Llama layer of examples/ (hidden 512, 8 heads of 64 over 2 kv heads,
# SwiGLU FFN 1376, sequence 16), with hir.py's tolerance of it.
with open(os.path.join(ROOT, "examples", "llama_layer_hir.mlir")) as f:
    source = f.read()
x = rand(r, (1, 16, 512), "f32", -1.5, 1.5)
w = llama_weights(r, 512, 8, 2, 64, 1376, 16, "f32")
cross_check("example/llama_layer_hir", source, [x] + w,
            [llama_layer(x, w, 8, 2, "causal")], [np.float32], (2e-5, 4e-5),
            entry="llama_layer_hir")

suite.finish()
