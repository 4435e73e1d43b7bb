# ===- megatron.py - Megatron tensor parallelism of a Llama stack -------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Llama decoder layers annotated for Megatron-LM's tensor parallelism, as
rlx module text, and each device's shards of their weights:

    text = rlx.megatron.llama_layers(batch=8, seq=2048, hidden=4096,
                                     heads=32, kv_heads=8, head_dim=128,
                                     ffn=14336, grid=[2], dtype="bf16")
    program = rlx.compile(rlx.Module.parse(text, ctx), target="cuda")
    # in the process of rank r (one per GPU, rlx.distributed.launch):
    y = program(x, *rlx.megatron.shard_weights(weights, r, [2]))

The q, k and v projections, gate and up are split by columns on the grid's
last axis, the attention output and down projections by rows; attention
runs over each device's heads (with GQA, its key/value heads); rlx-partition
(inside rlx.compile) then places one all-reduce after each row-split
product, as Megatron does. With a 2-D grid the first axis is data parallel:
the batch is split over it. `grid=None` gives the same layers unannotated
(the one-device program). Weights per layer, in argument order (after the
input x [batch, seq, hidden]): attn_norm [hidden], wq [hidden, heads *
head_dim], wk and wv [hidden, kv_heads * head_dim], wo [heads * head_dim,
hidden], ffn_norm [hidden], w_gate and w_up [hidden, ffn], w_down [ffn,
hidden], cos and sin [seq, head_dim / 2] (rlx.rope's neox tables)."""

# How each weight of a layer splits: None (replicated), 1 (by columns) or
# 0 (by rows), in argument order.
LAYER_SPLITS = (None, 1, 1, 1, 0, None, 1, 1, 0, None, None)


def llama_layers(batch, seq, hidden, heads, kv_heads, head_dim, ffn, layers=1,
                 grid=(2,), dtype="f32", name="layers", micro_batches=1):
    """Module text of `layers` Llama decoder layers (pre-RMSNorm with
    epsilon 1e-6, rope, causal grouped-query attention, SwiGLU) in one
    function, annotated for `grid` (see the module's doc). With
    `micro_batches` = m > 1 the batch is cut into m slices that run through
    the layers one after another and are joined at the end: the same
    result, and independent work that lets each slice's all-reduces run
    while the next slice computes (rlx-lower-collectives' overlap)."""
    B, S, E, H, Hkv, D, F = batch, seq, hidden, heads, kv_heads, head_dim, ffn
    m = micro_batches
    if m < 1 or B % m:
        raise ValueError("micro_batches must divide the batch (%d), not %r"
                         % (B, m))
    if m > 1 and grid is not None and len(grid) == 2:
        raise ValueError("micro_batches cuts the batch, which a 2-D grid "
                         "splits over its first axis already")

    def t(*shape):
        return "tensor<%sx%s>" % ("x".join(map(str, shape)), dtype)

    X = t(B, S, E)
    args, lines = ["%%x: %s" % X], []
    sharded = grid is not None
    if sharded:
        tp = len(grid) - 1
        batch_split = "[[0]]" if len(grid) == 2 else "[[]]"
        lines += [
            "%%col = shard.sharding @grid split_axes = [[], [%d]] "
            ": !shard.sharding" % tp,
            "%%row = shard.sharding @grid split_axes = [[%d]] "
            ": !shard.sharding" % tp,
            "%%act = shard.sharding @grid split_axes = %s : !shard.sharding" %
            batch_split,
            "%%h0 = shard.shard %%x to %%act annotate_for_users : %s" % X]

    # Every layer's weights, declared (and annotated) once.
    weights = []
    for l in range(layers):
        def w(label, shape, split=None):
            args.append("%%%s%d: %s" % (label, l, t(*shape)))
            if not sharded or split is None:
                return "%%%s%d" % (label, l)
            lines.append("%%%s%ds = shard.shard %%%s%d to %%%s "
                         "annotate_for_users : %s" %
                         (label, l, label, l, split, t(*shape)))
            return "%%%s%ds" % (label, l)
        weights.append(dict(
            an=w("an", (E,)), wq=w("wq", (E, H * D), "col"),
            wk=w("wk", (E, Hkv * D), "col"), wv=w("wv", (E, Hkv * D), "col"),
            wo=w("wo", (H * D, E), "row"), fn=w("fn", (E,)),
            wg=w("wg", (E, F), "col"), wu=w("wu", (E, F), "col"),
            wd=w("wd", (F, E), "row"), cos=w("cos", (S, D // 2)),
            sin=w("sin", (S, D // 2))))

    x0 = "%h0" if sharded else "%x"
    b = B // m
    X = t(b, S, E)
    outputs = []
    for c in range(m):
        current = x0
        if m > 1:
            current = "%%x_mb%d" % c
            lines.append("%s = rlx.narrow %s axis = 0 start = %d length = %d "
                         ": %s" % (current, x0, c * b, b, t(B, S, E)))
        for l, wl in enumerate(weights):
            current = _llama_layer(lines, current, wl, t, X, b, S, E, H, Hkv,
                                   D, F, "%%mb%dl%d_" % (c, l))
        outputs.append(current)
    X = t(B, S, E)
    result = outputs[0]
    if m > 1:
        result = "%y_joined"
        lines.append("%s = rlx.concat %s axis = 0 : %s" %
                     (result, ", ".join(outputs),
                      ", ".join([t(b, S, E)] * m)))
    if sharded:
        lines.append(f"%y = shard.shard {result} to %act : {X}")
        lines.append(f"return %y : {X}")
        head = "shard.grid @grid(shape = %s)\n" % "x".join(map(str, grid))
    else:
        lines.append(f"return {result} : {X}")
        head = ""
    return (head + "func.func @%s(%s) -> %s {\n  " % (name, ", ".join(args), X)
            + "\n  ".join(lines) + "\n}\n")


def _llama_layer(lines, x, w, t, X, B, S, E, H, Hkv, D, F, p):
    """Appends one decoder layer on `x` (of type X, batch B) with weights
    `w` to `lines`, its values prefixed `p`; returns its output's name."""
    an, wq, wk, wv, wo = w["an"], w["wq"], w["wk"], w["wv"], w["wo"]
    fn, wg, wu, wd, cos, sin = (w["fn"], w["wg"], w["wu"], w["wd"], w["cos"],
                                w["sin"])
    lines += [
        f"{p}n = rlx.rms_norm {x}, {an} : {X}, {t(E)}",
        f"{p}q = rlx.matmul {p}n, {wq} : {X}, {t(E, H * D)}",
        f"{p}k = rlx.matmul {p}n, {wk} : {X}, {t(E, Hkv * D)}",
        f"{p}v = rlx.matmul {p}n, {wv} : {X}, {t(E, Hkv * D)}",
        f"{p}q4 = rlx.reshape {p}q : {t(B, S, H * D)} -> {t(B, S, H, D)}",
        f"{p}qt = rlx.transpose {p}q4 [0, 2, 1, 3] : {t(B, S, H, D)}",
        f"{p}k4 = rlx.reshape {p}k : {t(B, S, Hkv * D)} -> "
        f"{t(B, S, Hkv, D)}",
        f"{p}kt = rlx.transpose {p}k4 [0, 2, 1, 3] : {t(B, S, Hkv, D)}",
        f"{p}v4 = rlx.reshape {p}v : {t(B, S, Hkv * D)} -> "
        f"{t(B, S, Hkv, D)}",
        f"{p}vt = rlx.transpose {p}v4 [0, 2, 1, 3] : {t(B, S, Hkv, D)}",
        f"{p}qr = rlx.rope {p}qt, {cos}, {sin} : {t(B, H, S, D)}, "
        f"{t(S, D // 2)}",
        f"{p}kr = rlx.rope {p}kt, {cos}, {sin} : {t(B, Hkv, S, D)}, "
        f"{t(S, D // 2)}",
        f"{p}a = rlx.attention {p}qr, {p}kr, {p}vt mask = causal : "
        f"{t(B, H, S, D)}, {t(B, Hkv, S, D)}, {t(B, Hkv, S, D)}",
        f"{p}at = rlx.transpose {p}a [0, 2, 1, 3] : {t(B, H, S, D)}",
        f"{p}a3 = rlx.reshape {p}at : {t(B, S, H, D)} -> {t(B, S, H * D)}",
        f"{p}o = rlx.matmul {p}a3, {wo} : {t(B, S, H * D)}, {t(H * D, E)}",
        f"{p}h = rlx.add {x}, {p}o : {X}",
        f"{p}n2 = rlx.rms_norm {p}h, {fn} : {X}, {t(E)}",
        f"{p}g = rlx.matmul {p}n2, {wg} : {X}, {t(E, F)}",
        f"{p}gs = rlx.silu {p}g : {t(B, S, F)}",
        f"{p}u = rlx.matmul {p}n2, {wu} : {X}, {t(E, F)}",
        f"{p}m = rlx.mul {p}gs, {p}u : {t(B, S, F)}",
        f"{p}d = rlx.matmul {p}m, {wd} : {t(B, S, F)}, {t(F, E)}",
        f"{p}out = rlx.add {p}h, {p}d : {X}",
    ]
    return f"{p}out"


def shard_of(array, axis, index, parts):
    """Block `index` of `parts` of `array` along `axis` (None: all of it);
    NumPy arrays and PyTorch tensors alike."""
    if axis is None or parts == 1:
        return array
    size = array.shape[axis] // parts
    if hasattr(array, "narrow"):  # a torch.Tensor
        return array.narrow(axis, index * size, size).contiguous()
    return array.take(range(index * size, (index + 1) * size), axis=axis)


def shard_weights(weights, rank, grid):
    """The weights that the process of `rank` passes: each layer's weights
    (llama_layers' argument order after x) split on the grid's last axis as
    LAYER_SPLITS says."""
    tp = rank % grid[-1]
    return [shard_of(w, LAYER_SPLITS[i % len(LAYER_SPLITS)], tp, grid[-1])
            for i, w in enumerate(weights)]


def shard_input(x, rank, grid):
    """The input rows of `rank`: its block of the batch on a 2-D grid's
    first (data parallel) axis, else all of x."""
    if len(grid) != 2:
        return x
    return shard_of(x, 0, rank // grid[-1], grid[0])
