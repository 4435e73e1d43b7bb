# RUN: %python %s
#
# Whole models as importers write them: many transformer layers chained in
# one function (each with its own weights), compiled for the CPU by rlx-run
# and compared on fresh random inputs with the same layers in float64
# (hir_reference). Depth is what these check: a pass whose work grows with
# the chain (the CPU row tiling once fused through the residual stream,
# cloning each layer's norms per reader) shows here as a compile that never
# ends or a wrong result deep in the stack.
# - 24 post-LN BERT layers (GELU, no mask), batch 2, sequence 8;
# - 12 pre-norm Llama layers (grouped-query attention, causal, RoPE).

import numpy as np

import rlxtest
from hir_reference import bert_layer, bert_weights, llama_layer, llama_weights
from rlxtest import Suite, rand
from rlxtest import tensor_type as T

suite = Suite("deep_models")
r = rlxtest.rng()
# Each layer's error adds to the residual stream; the norms keep it from
# growing, so the tolerance is a few times one layer's (hir.py: 2e-5).
TOL = (2e-4, 2e-4)


def chain(name, depth, x, layer_weights, attrs, reference):
    """A function applying `depth` transformer_layer ops to x."""
    args = [("%x", x)]
    body = []
    cur = "%x"
    for i, ws in enumerate(layer_weights):
        names = ["%%w%d_%d" % (i, j) for j in range(len(ws))]
        args += list(zip(names, ws))
        types = ", ".join(T(v.shape, "f32") for v in [x] + ws)
        body.append("  %%h%d = rlx_hir.transformer_layer %s {%s} : (%s) -> %s"
                    % (i, ", ".join([cur] + names), attrs, types,
                       T(x.shape, "f32")))
        cur = "%%h%d" % i
    sig = ", ".join("%s: %s" % (n, T(v.shape, "f32")) for n, v in args)
    source = "func.func @%s(%s) -> %s {\n%s\n  return %s : %s\n}\n" % (
        name, sig, T(x.shape, "f32"), "\n".join(body), cur, T(x.shape, "f32"))

    def check():
        code, log, outs = rlxtest.run(source, [v for _, v in args], 1)
        assert code == 0, "rlx-run failed (%d):\n%s" % (code, log[-2000:])
        rlxtest.assert_close(outs[0], reference().astype(np.float32), *TOL,
                             "%s, %d layers" % (name, depth))
    suite.check("%s/%d_layers" % (name, depth), check)


B, S, E, H, Fh = 2, 32, 64, 4, 128
x = rand(r, (B, S, E), "f32", -1.5, 1.5)
ws = [bert_weights(r, E, Fh, "f32") for _ in range(24)]


def bert_reference():
    h = x
    for w in ws:
        h = bert_layer(h, w, H, "none", np.float32(1e-12), "gelu")
    return h


chain("bert", 24, x, ws,
      'style = "bert", num_heads = %d : i64, epsilon = 1.0e-12 : f32' % H,
      bert_reference)

Hkv, D = 2, E // H
lw = [llama_weights(r, E, H, Hkv, D, Fh, S, "f32") for _ in range(12)]


def llama_reference():
    h = x
    for w in lw:
        h = llama_layer(h, w, H, Hkv, "causal", np.float32(1e-6), "neox")
    return h


chain("llama", 12, x, lw,
      'style = "llama", num_heads = %d : i64, num_kv_heads = %d : i64, '
      'mask = "causal"' % (H, Hkv), llama_reference)

suite.finish()
