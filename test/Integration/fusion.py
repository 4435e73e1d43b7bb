# RUN: %python %s
# The fusion passes against float64 NumPy: each program is a chain of
# primitive rlx ops that one fusion pattern recognizes (matmul → add(bias)
# → activation for every activation and without one, add → layer_norm /
# rms_norm with the sum read on, silu(x Wg) * (x Wu), a whole attention
# block (QKV projection with and without biases, rope neox / gptj / none,
# grouped-query heads, every mask kind, a scale), a block using the
# first three, a whole BERT post-LN layer, matmuls sharing an input and
# rms_norm → reshape). It runs once as written and once as
# `rlx-opt --rlx-fuse` rewrites it (RLX_OPT names that rlx-opt); both must
# match the reference, and the fused text must hold the fused op. Chains
# of elementwise ops run as written, grouped into rlx.elementwise_region
# (`--rlx-fuse=patterns=elementwise-regions`) and grouped by at most 4 ops
# then expanded again.

import copy
import math
import os
import subprocess

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand, weight
from rlxtest import tensor_type as T

RLX_OPT = os.environ.get("RLX_OPT", "rlx-opt")
suite = Suite("fusion")
r = rlxtest.rng()
# The references do not round the intermediates: f32 results are off by a
# few ulps of the sums they come from.
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-11, 1e-11)}


def fuse(text, passes=("--rlx-fuse",)):
    """`text` after rlx-opt `passes` (--rlx-fuse); raises AssertionError
    on failure."""
    p = subprocess.run([RLX_OPT] + list(passes), input=text,
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError("rlx-opt %s exited with %d:\n%s" %
                             (" ".join(passes), p.returncode, p.stderr))
    return p.stdout


def f64(x):
    return np.asarray(x, np.float64)


def activation(x, kind):
    erf = np.vectorize(math.erf)
    return {"none": lambda: x, "relu": lambda: np.maximum(x, 0),
            "gelu": lambda: 0.5 * x * (1 + erf(x / math.sqrt(2))),
            "gelu_tanh": lambda: 0.5 * x * (1 + np.tanh(
                math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
            "silu": lambda: x / (1 + np.exp(-x)),
            "sigmoid": lambda: 1 / (1 + np.exp(-x)),
            "tanh": lambda: np.tanh(x)}[kind]()


# The op of each activation of rlx.fused_matmul_bias_act.
ACT_OPS = {"relu": "rlx.relu %a", "gelu": "rlx.gelu %a",
           "gelu_tanh": 'rlx.gelu %a {approximate = "tanh"}',
           "silu": "rlx.silu %a", "sigmoid": "rlx.sigmoid %a",
           "tanh": "rlx.tanh %a"}


def mba_case(act, elem="f32", xshape=(3, 5, 8), N=6, bias_first=False,
             transpose_b=False):
    K = xshape[-1]
    x = rand(r, xshape, elem)
    w = weight(r, (N, K) if transpose_b else (K, N), K, elem)
    b = rand(r, (N,), elem, -1, 1)
    y = f64(x) @ (f64(w).T if transpose_b else f64(w)) + b
    e = activation(y, act)
    tx, tw, tb, ty = T(x.shape, elem), T(w.shape, elem), T(b.shape, elem), \
        T(y.shape, elem)
    add = ("%a = rlx.add %b, %m : {tb}, {ty}" if bias_first else
           "%a = rlx.add %m, %b : {ty}, {tb}").format(tb=tb, ty=ty)
    body = ["%m = rlx.matmul %x, %w{} : {}, {}".format(
        " transpose_b true" if transpose_b else "", tx, tw), add]
    res = "%a"
    if act != "none":
        body.append("%y = {} : {}".format(ACT_OPS[act], ty))
        res = "%y"
    rt, at = TOL[elem]
    name = "matmul_bias_act/%s/%s%s%s" % (
        act, elem, "/bias_first" if bias_first else "",
        "/tb" if transpose_b else "")
    return Case(name, [("%x", tx, x), ("%w", tw, w), ("%b", tb, b)],
                "\n".join(body), [(res, ty)], [e], (rt, at * math.sqrt(K))), \
        "rlx.fused_matmul_bias_act"


def residual_case(kind, elem, shape, eps=None):
    d = shape[-1]
    x, res = rand(r, shape, elem), rand(r, shape, elem)
    g, b = rand(r, (d,), elem, 0.5, 1.5), rand(r, (d,), elem, -1, 1)
    s = f64(x) + res
    tx, tg = T(shape, elem), T((d,), elem)
    attr = "" if eps is None else " {epsilon = %.6e : f32}" % eps
    args = [("%x", tx, x), ("%r", tx, res), ("%g", tg, g)]
    if kind == "layer_norm":
        e = rlxtest.layer_norm_reference(s, g, b,
                                         float(np.float32(eps or 1e-5)))
        args.append(("%b", tg, b))
    else:
        e = rlxtest.rms_norm_reference(s, g, float(np.float32(eps or 1e-6)))
    # The sum is read on after the norm (the residual stream).
    body = """
      %s = rlx.add %x, %r : {tx}
      %y = rlx.{kind} %s, {params}{attr} : {tx}, {tg}
      %t = rlx.mul %s, %s : {tx}
    """.format(tx=tx, tg=tg, kind=kind, attr=attr,
               params=", ".join(n for n, _, _ in args[2:]))
    return Case("residual_%s/%s/%s" % (kind, elem, "x".join(map(str, shape))),
                args, body, [("%y", tx), ("%t", tx)], [e, s * s],
                TOL[elem]), "rlx.fused_residual_" + kind


def swiglu_case(elem, xshape, F, swapped=False):
    E = xshape[-1]
    x = rand(r, xshape, elem)
    wg, wu = weight(r, (E, F), E, elem), weight(r, (E, F), E, elem)
    e = activation(f64(x) @ wg, "silu") * (f64(x) @ wu)
    tx, tw, th = T(xshape, elem), T((E, F), elem), T(e.shape, elem)
    body = """
      %g = rlx.matmul %x, %wg : {tx}, {tw}
      %u = rlx.matmul %x, %wu : {tx}, {tw}
      %s = rlx.silu %g : {th}
      %h = rlx.mul {ops} : {th}
    """.format(tx=tx, tw=tw, th=th, ops="%u, %s" if swapped else "%s, %u")
    rt, at = TOL[elem]
    return Case("swiglu/%s/%s%s" % (elem, "x".join(map(str, xshape)),
                                    "/swapped" if swapped else ""),
                [("%x", tx, x), ("%wg", tw, wg), ("%wu", tw, wu)], body,
                [("%h", th)], [e], (rt, at * math.sqrt(E))), \
        "rlx.fused_swiglu"


def swiglu_concat_case(elem, xshape, F, concat):
    """The gate and up as columns of one matmul: of a concat of the two
    weights (concat=True) or of one merged [E, 2F] weight."""
    E = xshape[-1]
    x = rand(r, xshape, elem)
    wg, wu = weight(r, (E, F), E, elem), weight(r, (E, F), E, elem)
    e = activation(f64(x) @ wg, "silu") * (f64(x) @ wu)
    lead = list(e.shape[:-1])
    tx, tw, th = T(xshape, elem), T((E, F), elem), T(e.shape, elem)
    tm, tw2 = T(lead + [2 * F], elem), T((E, 2 * F), elem)
    axis = len(e.shape) - 1
    if concat:
        args = [("%x", tx, x), ("%wg", tw, wg), ("%wu", tw, wu)]
        weights = "%w = rlx.concat %wg, %wu axis = 1 : {tw}, {tw}".format(
            tw=tw)
    else:
        args = [("%x", tx, x), ("%w", tw2, np.concatenate([wg, wu], 1))]
        weights = ""
    body = """
      {weights}
      %m = rlx.matmul %x, %w : {tx}, {tw2}
      %g = rlx.narrow %m axis = {axis} start = 0 length = {F} : {tm}
      %u = rlx.narrow %m axis = {axis} start = {F} length = {F} : {tm}
      %s = rlx.silu %g : {th}
      %h = rlx.mul %s, %u : {th}
    """.format(weights=weights, tx=tx, tw2=tw2, tm=tm, th=th, F=F,
               axis=axis)
    rt, at = TOL[elem]
    return Case("swiglu_%s/%s/%s" % ("concat" if concat else "merged", elem,
                                     "x".join(map(str, xshape))),
                args, body, [("%h", th)], [e], (rt, at * math.sqrt(E))), \
        "rlx.fused_swiglu"


def block_case(elem, S=5, E=8, F=12):
    """rms_norm(x + r) → SwiGLU → down projection + bias → layer_norm of
    the residual sum: every family in one program."""
    x, res = rand(r, (S, E), elem), rand(r, (S, E), elem)
    g, lg = rand(r, (E,), elem, 0.5, 1.5), rand(r, (E,), elem, 0.5, 1.5)
    lb, bd = rand(r, (E,), elem, -1, 1), rand(r, (E,), elem, -1, 1)
    wg, wu = weight(r, (E, F), E, elem), weight(r, (E, F), E, elem)
    wd = weight(r, (F, E), F, elem)
    s = f64(x) + res
    n = rlxtest.rms_norm_reference(s, g, float(np.float32(1e-6)))
    h = activation(n @ wg, "silu") * (n @ wu)
    e = rlxtest.layer_norm_reference(s + (h @ wd + bd), lg, lb,
                                     float(np.float32(1e-5)))
    tx, tv, tw, th, twd = (T((S, E), elem), T((E,), elem), T((E, F), elem),
                           T((S, F), elem), T((F, E), elem))
    body = """
      %s = rlx.add %x, %r : {tx}
      %n = rlx.rms_norm %s, %g : {tx}, {tv}
      %gate = rlx.matmul %n, %wg : {tx}, {tw}
      %up = rlx.matmul %n, %wu : {tx}, {tw}
      %a = rlx.silu %gate : {th}
      %h = rlx.mul %a, %up : {th}
      %dm = rlx.matmul %h, %wd : {th}, {twd}
      %d = rlx.add %dm, %bd : {tx}, {tv}
      %s2 = rlx.add %s, %d : {tx}
      %y = rlx.layer_norm %s2, %lg, %lb : {tx}, {tv}
    """.format(tx=tx, tv=tv, tw=tw, th=th, twd=twd)
    args = [("%x", tx, x), ("%r", tx, res), ("%g", tv, g), ("%wg", tw, wg),
            ("%wu", tw, wu), ("%wd", twd, wd), ("%bd", tv, bd),
            ("%lg", tv, lg), ("%lb", tv, lb)]
    rt, at = TOL[elem]
    return Case("block/%s" % elem, args, body, [("%y", tx)], [e],
                (rt, at * math.sqrt(F))), \
        ("rlx.fused_residual_rms_norm", "rlx.fused_swiglu",
         "rlx.fused_matmul_bias_act", "rlx.fused_residual_layer_norm")


def attention_case(name, H=2, Hkv=None, D=4, B=2, S=5, E=8, kind="none",
                   qkv_bias=False, out_bias=False, style=None, window=None,
                   mshape=None, scale=None):
    """The chain rlx-unfuse makes of rlx.fused_attention_block."""
    Hkv = Hkv or H
    cols = (H + 2 * Hkv) * D
    elem = "f32"
    x = rand(r, (B, S, E), elem)
    wqkv = weight(r, (E, cols), E, elem)
    wout = weight(r, (H * D, E), H * D, elem)
    args = [("%x", T(x.shape, elem), x), ("%wqkv", T(wqkv.shape, elem), wqkv),
            ("%wout", T(wout.shape, elem), wout)]
    body = ["%qkv = rlx.matmul %x, %wqkv : {}, {}".format(
        T(x.shape, elem), T(wqkv.shape, elem))]
    qkv = f64(x) @ wqkv
    if qkv_bias:
        bq = rand(r, (cols,), elem, -1, 1)
        args.append(("%bq", T(bq.shape, elem), bq))
        body.append("%qkvb = rlx.add %qkv, %bq : {}, {}".format(
            T((B, S, cols), elem), T(bq.shape, elem)))
        qkv = qkv + bq
    src = "%qkvb" if qkv_bias else "%qkv"

    def heads(n, start, count):
        body.extend([
            "%{n}n = rlx.narrow {src} axis = 2 start = {s} length = {l} : {t}"
            .format(n=n, src=src, s=start, l=count * D,
                    t=T((B, S, cols), elem)),
            "%{n}r = rlx.reshape %{n}n : {a} -> {b}".format(
                n=n, a=T((B, S, count * D), elem),
                b=T((B, S, count, D), elem)),
            "%{n} = rlx.transpose %{n}r [0, 2, 1, 3] : {a}".format(
                n=n, a=T((B, S, count, D), elem))])
        return qkv[..., start:start + count * D].reshape(
            B, S, count, D).transpose(0, 2, 1, 3)
    q, k, v = heads("q", 0, H), heads("k", H * D, Hkv), \
        heads("v", (H + Hkv) * D, Hkv)
    qn, kn = "%q", "%k"
    if style:
        cos, sin = rand(r, (S, D // 2), elem, -1, 1), \
            rand(r, (S, D // 2), elem, -1, 1)
        args += [("%cos", T(cos.shape, elem), cos),
                 ("%sin", T(sin.shape, elem), sin)]
        for n, h in (("q", H), ("k", Hkv)):
            body.append("%{n}e = rlx.rope %{n}, %cos, %sin {{style = \"{st}\"}}"
                        " : {a}, {b}".format(n=n, st=style,
                                             a=T((B, h, S, D), elem),
                                             b=T(cos.shape, elem)))
        q = rlxtest.rope_reference(q, cos, sin, style)
        k = rlxtest.rope_reference(k, cos, sin, style)
        qn, kn = "%qe", "%ke"
    ops = "{}, {}, %v".format(qn, kn)
    types = ", ".join(T((B, h, S, D), elem) for h in (H, Hkv, Hkv))
    mask = None
    if kind in ("custom", "bias"):
        mask = (r.random(mshape) < 0.7) | np.eye(S, dtype=bool) \
            if kind == "custom" else rand(r, mshape, elem, -1, 1)
        mtype = T(mshape, "i1" if kind == "custom" else elem)
        args.append(("%m", mtype, mask))
        ops += ", %m"
        types += ", " + mtype
    attrs = " window = %d" % window if window else ""
    if scale is not None:
        attrs += " {scale = %r : f32}" % scale
    body += ["%a = rlx.attention {} mask = {}{} : {}".format(
                 ops, kind, attrs, types),
             "%at = rlx.transpose %a [0, 2, 1, 3] : {}".format(
                 T((B, H, S, D), elem)),
             "%m2 = rlx.reshape %at : {} -> {}".format(
                 T((B, S, H, D), elem), T((B, S, H * D), elem)),
             "%y = rlx.matmul %m2, %wout : {}, {}".format(
                 T((B, S, H * D), elem), T(wout.shape, elem))]
    a = rlxtest.attention_reference(
        q, k, v, kind, window,
        mask if kind in ("custom", "bias") else None, scale)
    y = a.transpose(0, 2, 1, 3).reshape(B, S, H * D) @ wout
    res = "%y"
    if out_bias:
        bo = rand(r, (E,), elem, -1, 1)
        args.append(("%bo", T(bo.shape, elem), bo))
        body.append("%yb = rlx.add %y, %bo : {}, {}".format(
            T((B, S, E), elem), T(bo.shape, elem)))
        y, res = y + bo, "%yb"
    rt, at = TOL[elem]
    return Case("attention_block/" + name, args, "\n".join(body),
                [(res, T((B, S, E), elem))], [y], (2 * rt, 2 * at)), \
        "rlx.fused_attention_block"


def transformer_layer_case(name, act="gelu", kind="none", mshape=None, B=2,
                           S=5, H=2, D=4, F=12, eps=None):
    """The chain rlx-unfuse makes of rlx.fused_transformer_layer: an
    attention block with both biases (attention_case), then
    h = layer_norm(x + a), f = act(h W1 + c1) W2 + c2, layer_norm(h + f)."""
    E, elem = H * D, "f32"
    c, _ = attention_case("", H=H, D=D, B=B, S=S, E=E, kind=kind,
                          qkv_bias=True, out_bias=True, mshape=mshape)
    args, body = list(c.args), [c.body]
    x, a = f64(args[0][2]), c.expected[0]
    g1, g2 = rand(r, (E,), elem, 0.5, 1.5), rand(r, (E,), elem, 0.5, 1.5)
    b1, b2 = rand(r, (E,), elem, -1, 1), rand(r, (E,), elem, -1, 1)
    w1, w2 = weight(r, (E, F), E, elem), weight(r, (F, E), F, elem)
    c1, c2 = rand(r, (F,), elem, -1, 1), rand(r, (E,), elem, -1, 1)
    tv, tx, th = T((E,), elem), T((B, S, E), elem), T((B, S, F), elem)
    args += [("%g1", tv, g1), ("%b1", tv, b1), ("%w1", T(w1.shape, elem), w1),
             ("%c1", T(c1.shape, elem), c1), ("%w2", T(w2.shape, elem), w2),
             ("%c2", tv, c2), ("%g2", tv, g2), ("%b2", tv, b2)]
    attr = "" if eps is None else " {epsilon = %.6e : f32}" % eps
    e = float(np.float32(1e-5 if eps is None else eps))
    act_op = ACT_OPS[act].replace("%a", "%f1") if act != "none" else None
    body.append("""
      %s1 = rlx.add %x, %yb : {tx}
      %h = rlx.layer_norm %s1, %g1, %b1{attr} : {tx}, {tv}
      %f1m = rlx.matmul %h, %w1 : {tx}, {tw1}
      %f1 = rlx.add %f1m, %c1 : {th}, {tc1}
      {act}
      %f2m = rlx.matmul {hid}, %w2 : {th}, {tw2}
      %f2 = rlx.add %f2m, %c2 : {tx}, {tv}
      %s2 = rlx.add %h, %f2 : {tx}
      %ln = rlx.layer_norm %s2, %g2, %b2{attr} : {tx}, {tv}
    """.format(tx=tx, tv=tv, th=th, attr=attr, tw1=T(w1.shape, elem),
               tw2=T(w2.shape, elem), tc1=T(c1.shape, elem),
               act="%f1a = {} : {}".format(act_op, th) if act_op else "",
               hid="%f1a" if act_op else "%f1"))
    h = rlxtest.layer_norm_reference(x + a, g1, b1, e)
    f = activation(h @ w1 + c1, act) @ w2 + c2
    y = rlxtest.layer_norm_reference(h + f, g2, b2, e)
    rt, at = TOL[elem]
    return Case("transformer_layer/" + name, args, "\n".join(body),
                [("%ln", tx)], [y], (4 * rt, 4 * at * math.sqrt(F))), \
        "rlx.fused_transformer_layer"


def shared_input_case(elem, xshape, widths):
    """matmuls of one x with weights of several widths (no bias, no
    SwiGLU), each result read: one matmul of the concatenated weights."""
    K = xshape[-1]
    x = rand(r, xshape, elem)
    tx = T(xshape, elem)
    args, body, results, expected = [("%x", tx, x)], [], [], []
    for i, n in enumerate(widths):
        w = weight(r, (K, n), K, elem)
        args.append(("%%w%d" % i, T(w.shape, elem), w))
        y = f64(x) @ w
        body.append("%%m%d = rlx.matmul %%x, %%w%d : %s, %s" %
                    (i, i, tx, T(w.shape, elem)))
        body.append("%%y%d = rlx.tanh %%m%d : %s" % (i, i, T(y.shape, elem)))
        results.append(("%%y%d" % i, T(y.shape, elem)))
        expected.append(np.tanh(y))
    rt, at = TOL[elem]
    return Case("shared_input/%s/%s/%s" % (elem, "x".join(map(str, xshape)),
                                           "-".join(map(str, widths))),
                args, "\n".join(body), results, expected,
                (rt, at * math.sqrt(K))), "rlx.concat"


def rms_norm_reshape_case(elem, shape, out_shape, eps=None):
    """reshape(rms_norm(x, g)) keeping the last dim."""
    d = shape[-1]
    x, g = rand(r, shape, elem), rand(r, (d,), elem, 0.5, 1.5)
    e = rlxtest.rms_norm_reference(
        f64(x), g, float(np.float32(eps or 1e-6))).reshape(out_shape)
    tx, tg, ty = T(shape, elem), T((d,), elem), T(out_shape, elem)
    attr = "" if eps is None else " {epsilon = %.6e : f32}" % eps
    body = """
      %n = rlx.rms_norm %x, %g{attr} : {tx}, {tg}
      %y = rlx.reshape %n : {tx} -> {ty}
    """.format(tx=tx, tg=tg, ty=ty, attr=attr)
    return Case("rms_norm_reshape/%s/%s" % (elem, "x".join(map(str, shape))),
                [("%x", tx, x), ("%g", tg, g)], body, [("%y", ty)], [e],
                TOL[elem]), "rlx.reshape %arg"


def region_chain_case(elem, shape):
    """exp(x) + b squared, compared with x, selecting it or a cast of z,
    negated: unary, broadcasting binary, cmp, cast and where in one
    region."""
    other = {"f32": "f64", "f64": "f32"}[elem]
    d = shape[-1]
    x, b = rand(r, shape, elem, -1, 1), rand(r, (d,), elem, -1, 1)
    z = rand(r, shape, other, -2, 2)
    a = np.exp(f64(x)) + b
    m = a * a
    zc = f64(np.asarray(z).astype(rlxtest.NPY[elem]))
    e = -np.where(m > 2 * f64(x) + 1, m, zc)
    tx, tb, tz = T(shape, elem), T((d,), elem), T(shape, other)
    body = """
      %e = rlx.exp %x : {tx}
      %a = rlx.add %e, %b : {tx}, {tb}
      %m = rlx.mul %a, %a : {tx}
      %x2 = rlx.add %x, %x : {tx}
      %x21 = rlx.add %x2, %one : {tx}, {t0}
      %c = rlx.cmp gt, %m, %x21 : {tx}
      %zc = rlx.cast %z : {tz} -> {tx}
      %w = rlx.where %c, %m, %zc : {ti1}, {tx}
      %y = rlx.neg %w : {tx}
    """.format(tx=tx, tb=tb, tz=tz, t0=T((), elem), ti1=T(shape, "i1"))
    one = np.asarray(1, rlxtest.NPY[elem])
    return Case("elementwise_region/chain/%s" % elem,
                [("%x", tx, x), ("%b", tb, b), ("%z", tz, z),
                 ("%one", T((), elem), one)], body, [("%y", tx)], [e],
                TOL[elem]), "rlx.elementwise_region"


def region_math_case(elem, shape):
    """The unary and binary math ops a region holds, in one chain."""
    x, y = rand(r, shape, elem, 0.5, 2), rand(r, shape, elem, -1, 1)
    fx, fy = f64(x), f64(y)
    p = np.power(np.sqrt(np.abs(fx)), fy)
    q = np.tanh(p) - np.sin(fy) * np.cos(fx)
    u = np.arctan(q) / (1 / np.sqrt(fx))
    v = np.maximum(u, np.tan(fy)) + np.minimum(np.log(fx), np.round(4 * fy))
    t = T(shape, elem)
    body = """
      %ab = rlx.abs %x : {t}
      %sq = rlx.sqrt %ab : {t}
      %p = rlx.pow %sq, %y : {t}
      %th = rlx.tanh %p : {t}
      %s = rlx.sin %y : {t}
      %c = rlx.cos %x : {t}
      %sc = rlx.mul %s, %c : {t}
      %q = rlx.sub %th, %sc : {t}
      %at = rlx.atan %q : {t}
      %rs = rlx.rsqrt %x : {t}
      %u = rlx.div %at, %rs : {t}
      %tn = rlx.tan %y : {t}
      %mx = rlx.max %u, %tn : {t}
      %lg = rlx.log %x : {t}
      %y4 = rlx.mul %y, %four : {t}
      %rd = rlx.round %y4 : {t}
      %mn = rlx.min %lg, %rd : {t}
      %v = rlx.add %mx, %mn : {t}
    """.format(t=t)
    four = np.full(shape, 4, rlxtest.NPY[elem])
    rt, at = TOL[elem]
    return Case("elementwise_region/math/%s" % elem,
                [("%x", T(shape, elem), x), ("%y", T(shape, elem), y),
                 ("%four", T(shape, elem), four)], body, [("%v", t)], [v],
                (4 * rt, 4 * at)), "rlx.elementwise_region"


def check_fused(case, ops, passes=("--rlx-fuse",)):
    text = fuse(rlxtest.function_text([case]), passes)
    for op in (ops if isinstance(ops, tuple) else (ops,)):
        if op not in text:
            raise AssertionError("%s: no %s after %s:\n%s" %
                                 (case.name, op, " ".join(passes), text))


def run_both(pairs, passes=("--rlx-fuse",)):
    """Checks that each case fuses, then runs all cases in one function as
    written and once fused, comparing both with the references."""
    cases = [c for c, _ in pairs]
    for c, ops in pairs:
        suite.check(c.name + "/fuses",
                    lambda c=c, ops=ops: check_fused(c, ops, passes))
    text = rlxtest.function_text(cases)
    try:
        fused = fuse(text, passes)
    except AssertionError as err:
        fused, fuse_error = None, str(err)
    inputs = [x for c in cases for x in c.inputs]
    n = sum(len(c.results) for c in cases)
    for variant, src in (("unfused", text), ("fused", fused)):
        rc, log, outs = (rlxtest.run(src, inputs, n) if src is not None else
                         (1, fuse_error, []))
        for c in cases:
            def check(c=c, outs=outs[:len(c.results)]):
                if rc != 0:
                    raise AssertionError("rlx-run exited with %d:\n%s" %
                                         (rc, log))
                for k, ((_, ty), a, e, (rt, at)) in enumerate(
                        zip(c.results, outs, c.expected, c.tols)):
                    rlxtest.assert_close(
                        a, e, rt, at, "%s result #%d" % (c.name, k),
                        dtype=rlxtest.NPY[rlxtest.parse_type(ty)[1]])
            suite.check("%s/%s" % (c.name, variant), check)
            outs = outs[len(c.results):]


pairs = []
for act in ["none"] + list(ACT_OPS):
    pairs.append(mba_case(act))
pairs += [mba_case("gelu", "f64"), mba_case("silu", bias_first=True),
          mba_case("tanh", xshape=(4, 8), transpose_b=True),
          mba_case("none", "f64", xshape=(2, 2, 3, 16), N=5,
                   bias_first=True)]
for kind in ("layer_norm", "rms_norm"):
    pairs += [residual_case(kind, "f32", (2, 3, 32)),
              residual_case(kind, "f64", (4, 16), eps=0.25),
              residual_case(kind, "f32", (3, 768), eps=1e-12)]
pairs += [swiglu_case("f32", (2, 3, 16), 24),
          swiglu_case("f64", (5, 8), 12, swapped=True),
          swiglu_case("f32", (4, 64), 40, swapped=True)]
pairs += [swiglu_concat_case("f32", (2, 3, 16), 24, concat=True),
          swiglu_concat_case("f64", (5, 8), 12, concat=False)]
pairs += [block_case("f32"), block_case("f64")]
pairs += [
    attention_case("plain"),
    attention_case("biases_neox_gqa_causal", H=4, Hkv=2, qkv_bias=True,
                   out_bias=True, style="neox", kind="causal"),
    attention_case("gptj_mqa_window", H=4, Hkv=1, D=2, style="gptj",
                   kind="sliding_window", window=2),
    attention_case("custom", kind="custom", mshape=(5, 5), out_bias=True),
    attention_case("bias_scale", kind="bias", mshape=(2, 1, 5, 5),
                   qkv_bias=True, scale=0.25),
]
pairs += [
    transformer_layer_case("gelu"),
    transformer_layer_case("relu_causal_eps", act="relu", kind="causal",
                           eps=1e-12),
    transformer_layer_case("gelu_tanh_custom", act="gelu_tanh",
                           kind="custom", mshape=(5, 5), H=4, D=2),
    shared_input_case("f32", (2, 3, 8), (6, 4)),
    shared_input_case("f64", (5, 16), (3, 7, 2)),
    rms_norm_reshape_case("f32", (2, 3, 16), (6, 16)),
    rms_norm_reshape_case("f64", (4, 6, 8), (2, 12, 8), eps=0.25),
]
run_both(pairs)
region_pairs = [region_chain_case("f32", (3, 5, 8)),
                region_chain_case("f64", (4, 6)),
                region_math_case("f32", (2, 3, 8)),
                region_math_case("f64", (16,))]
run_both(region_pairs, ("--rlx-fuse=patterns=elementwise-regions",))
# Regions of at most 4 ops, expanded again: the chain as written.
def renamed(case, suffix):
    c = copy.copy(case)
    c.name += suffix
    return c


run_both([(renamed(c, "/max4_unfused"), "rlx.") for c, _ in region_pairs],
         ("--rlx-form-elementwise-regions=max-ops=4",
          "--rlx-unfuse-elementwise-regions"))
suite.finish()
