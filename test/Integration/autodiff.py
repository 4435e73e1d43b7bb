# RUN: %python %s
# --rlx-expand-autodiff against central finite differences in float64, for
# every op with a rule: one program per group of ops computes, for each op
# f and a random weighting w, the gradient of L = sum(w * f(x)) (rlx.grad),
# the tangents of f along K random directions v (rlx.jvp) and f(x +- h v).
# Checked, with FD = (f(x + h v) - f(x - h v)) / 2h:
#   JVP:  |jvp(v) - FD| / |FD| < 1e-6 (2-norms);
#   VJP:  |<grad, v> - <w, FD>| / |<w, FD>| < 1e-6;
#   and <grad, v> = <w, jvp(v)> to 1e-10 (the two modes agree).
# Inputs are fresh random numbers away from kinks (relu, abs, max, round).

import math
import sys

import numpy as np

import rlxtest
from rlxtest import Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []
suite = Suite("autodiff", KNOWN_FAILURES)
r = rlxtest.rng()
H = 1e-5
K = 2
RTOL = 1e-6


class Op:
    """f(args) = body's %y. args: (name, type, array, kind) with kind
    'x' (differentiated), 'c' (float constant: neither differentiated nor
    perturbed) or 'i' (integer/bool)."""

    def __init__(self, name, args, body, out, jvp=True):
        self.name, self.args, self.body, self.out = name, args, body, out
        self.jvp = jvp


def x(name, shape, lo=-2.0, hi=2.0, nonzero=False, values=None):
    v = rand(r, shape, "f64", lo, hi, nonzero) if values is None else values
    return (name, T(shape, "f64"), np.asarray(v, np.float64), "x")


def const(name, shape, lo=-2.0, hi=2.0, elem="f64", values=None):
    v = rand(r, shape, elem, lo, hi) if values is None else values
    return (name, T(shape, elem), v, "c" if elem == "f64" else "i")


def program(ops):
    """The MLIR module and the inputs of its @main."""
    text, main_args, main_body, rets, inputs = [], [], [], [], []
    for n, op in enumerate(ops):
        p = "o%d_" % n
        sig = ", ".join("%%%s: %s" % (a[0], a[1]) for a in op.args)
        names = ", ".join("%" + a[0] for a in op.args)
        types = ", ".join(a[1] for a in op.args)
        text.append("func.func @f%d(%s) -> %s {\n%s\n  return %%y : %s\n}" %
                    (n, sig, op.out, op.body, op.out))
        dims, _ = rlxtest.parse_type(op.out)
        axes = ", ".join(str(i) for i in range(len(dims)))
        red = ("%%s__ = rlx.reduce sum %%p__ axes = [%s] : %s" % (axes, op.out)
               if dims else "%n__ = rlx.neg %p__ : tensor<f64>\n"
               "  %s__ = rlx.neg %n__ : tensor<f64>")
        text.append(
            "func.func @L%d(%s, %%w__: %s) -> tensor<f64> {\n"
            "  %%y__ = call @f%d(%s) : (%s) -> %s\n"
            "  %%p__ = rlx.mul %%y__, %%w__ : %s\n  %s\n"
            "  return %%s__ : tensor<f64>\n}" %
            (n, sig, op.out, n, names, types, op.out, op.out, red))
        # main's arguments for this op
        w = rand(r, [d for d in dims], "f64", -1, 1)
        for a in op.args:
            main_args.append("%%%sa_%s: %s" % (p, a[0], a[1]))
            inputs.append(a[2])
        main_args.append("%%%sw: %s" % (p, op.out))
        inputs.append(w)
        dirs = []
        for k in range(K):
            vs = []
            for a in op.args:
                if a[3] == "x":
                    v = rand(r, a[2].shape, "f64", -1, 1)
                else:
                    v = np.zeros_like(a[2])
                main_args.append("%%%sv%d_%s: %s" % (p, k, a[0], a[1]))
                inputs.append(v)
                vs.append(v)
            dirs.append(vs)
        op.w, op.dirs = w, dirs
        arg = lambda a: "%" + p + "a_" + a[0]
        xs = [i for i, a in enumerate(op.args) if a[3] == "x"]
        gtypes = ", ".join(op.args[i][1] for i in xs)
        main_body.append(
            "%%%sg:%d = rlx.grad @L%d(%s, %%%sw) wrt [%s] : (%s, %s) -> "
            "(tensor<f64>, %s)" %
            (p, len(xs) + 1, n, ", ".join(arg(a) for a in op.args), p,
             ", ".join(map(str, xs)), types, op.out, gtypes))
        rets += [("%%%sg#%d" % (p, i + 1), op.args[j][1])
                 for i, j in enumerate(xs)]
        main_body.append("%%%sh = rlx.constant dense<%.1e> : tensor<f64>" %
                         (p, H))
        for k in range(K):
            vk = lambda a: "%%%sv%d_%s" % (p, k, a[0])
            if op.jvp:
                main_body.append(
                    "%%%sj%d:2 = rlx.jvp @f%d(%s) tangents(%s) : (%s, %s) -> "
                    "(%s, %s)" % (p, k, n, ", ".join(arg(a) for a in op.args),
                                  ", ".join(vk(a) for a in op.args), types,
                                  types, op.out, op.out))
                rets.append(("%%%sj%d#1" % (p, k), op.out))
            for sign, opname in (("p", "add"), ("m", "sub")):
                shifted = []
                for a in op.args:
                    if a[3] != "x":
                        shifted.append(arg(a))
                        continue
                    nm = "%%%s%s%d_%s" % (p, sign, k, a[0])
                    main_body.append("%sd = rlx.mul %s, %%%sh : %s, tensor<f64>"
                                     % (nm, vk(a), p, a[1]))
                    main_body.append("%s = rlx.%s %s, %sd : %s" %
                                     (nm, opname, arg(a), nm, a[1]))
                    shifted.append(nm)
                main_body.append("%%%sy%s%d = call @f%d(%s) : (%s) -> %s" %
                                 (p, sign, k, n, ", ".join(shifted), types,
                                  op.out))
                rets.append(("%%%sy%s%d" % (p, sign, k), op.out))
    text.append("func.func @main(%s) -> (%s) {\n  %s\n  return %s : %s\n}" %
                (", ".join(main_args), ", ".join(t for _, t in rets),
                 "\n  ".join(main_body), ", ".join(n for n, _ in rets),
                 ", ".join(t for _, t in rets)))
    return "\n".join(text) + "\n", inputs, len(rets)


def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    scale = max(np.linalg.norm(b.ravel()), 1e-300)
    return np.linalg.norm((a - b).ravel()) / scale


WORST = {"jvp": (0.0, ""), "vjp": (0.0, "")}


def note(kind, err, name):
    if err > WORST[kind][0]:
        WORST[kind] = (err, name)


def check(op, outs):
    xs = [a for a in op.args if a[3] == "x"]
    grads, outs = outs[:len(xs)], outs[len(xs):]
    for g, a in zip(grads, xs):
        assert g.shape == a[2].shape, "%s: gradient shape %s" % (op.name, g.shape)
    for k in range(K):
        if op.jvp:
            jv, outs = outs[0], outs[1:]
        yp, ym, outs = outs[0], outs[1], outs[2:]
        fd = (yp - ym) / (2 * H)
        vs = [v for v, a in zip(op.dirs[k], op.args) if a[3] == "x"]
        gv = sum(float(np.sum(g * v)) for g, v in zip(grads, vs))
        wfd = float(np.sum(op.w * fd))
        e = abs(gv - wfd) / max(abs(wfd), 1e-300)
        note("vjp", e, op.name)
        assert e < RTOL, "%s: VJP <grad, v> = %.12g, FD <w, df> = %.12g " \
            "(rel err %.3g)" % (op.name, gv, wfd, e)
        if op.jvp:
            e = rel(jv, fd)
            note("jvp", e, op.name)
            assert e < RTOL, "%s: JVP differs from FD, rel err %.3g" % (
                op.name, e)
            wj = float(np.sum(op.w * jv))
            e = abs(gv - wj) / max(abs(wj), 1e-300)
            assert e < 1e-10, "%s: <grad, v> = %.15g but <w, jvp(v)> = " \
                "%.15g" % (op.name, gv, wj)


def run_group(ops):
    src, inputs, n = program(ops)
    rc, log, outs = rlxtest.run(src, inputs, n)
    if rc != 0:
        if len(ops) > 1:
            half = len(ops) // 2
            run_group(ops[:half])
            run_group(ops[half:])
            return
        suite.check(ops[0].name, lambda: (_ for _ in ()).throw(
            AssertionError("rlx-run exited with %d:\n%s" % (
                rc, "\n".join("    | " + l
                              for l in log.strip().splitlines()[:15])))))
        return
    for op in ops:
        m = len([a for a in op.args if a[3] == "x"]) + K * (
            2 + (1 if op.jvp else 0))
        mine, outs = outs[:m], outs[m:]
        suite.check(op.name, lambda op=op, mine=mine: check(op, mine))


def t(shape):
    return T(shape, "f64")


# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------

def unary(name, lo=-2.0, hi=2.0, nonzero=False, attrs=""):
    s = (3, 4)
    mnemonic = name.split("/")[0]
    return Op(name, [x("a", s, lo, hi, nonzero)],
              "  %%y = rlx.%s %%a%s : %s" % (mnemonic, attrs, t(s)), t(s))


def binary(name, sa, sb, lo=-2.0, hi=2.0, lo_b=None, hi_b=None,
           nonzero=False):
    out = rlxtest.broadcast_dims(sa, sb)
    return Op("%s/%s_%s" % (name, "x".join(map(str, sa)),
                            "x".join(map(str, sb))),
              [x("a", sa, lo, hi), x("b", sb, lo if lo_b is None else lo_b,
                                      hi if hi_b is None else hi_b, nonzero)],
              "  %%y = rlx.%s %%a, %%b : %s, %s" % (name, t(sa), t(sb)),
              t(out))


def round_input(shape):
    # Away from the half-integers where round jumps.
    k = r.integers(-3, 3, shape)
    return k + r.uniform(-0.4, 0.4, shape)


elementwise = [
    unary("gelu"), unary("gelu/tanh", attrs=' {approximate = "tanh"}'),
    unary("silu"), unary("relu", nonzero=True), unary("sigmoid"),
    unary("tanh"), unary("exp"), unary("log", 0.2, 3.0),
    unary("sqrt", 0.2, 3.0), unary("rsqrt", 0.2, 3.0), unary("neg"),
    unary("abs", nonzero=True), unary("sin"), unary("cos"),
    unary("tan", -1.2, 1.2), unary("atan"),
    Op("round", [x("a", (3, 4), values=round_input((3, 4)))],
       "  %y = rlx.round %a : " + t((3, 4)), t((3, 4))),
    binary("add", (3, 4), (4,)), binary("sub", (3, 1), (1, 4)),
    binary("mul", (2, 3, 4), (3, 1)), binary("div", (3, 4), (3, 4),
                                             nonzero=True),
    binary("max", (3, 4), (4,)), binary("min", (2, 3), (2, 3)),
    binary("pow", (3, 4), (4,), 0.3, 2.0, -1.5, 1.5),
    Op("fma", [x("a", (3, 4)), x("b", (4,)), x("c", (3, 1))],
       "  %%y = rlx.fma %%a, %%b, %%c : %s, %s, %s" % (t((3, 4)), t((4,)),
                                                     t((3, 1))), t((3, 4))),
    Op("where", [const("m", (3, 4), elem="i1"), x("a", (3, 4)), x("b", (4,))],
       "  %%y = rlx.where %%m, %%a, %%b : tensor<3x4xi1>, %s, %s" % (
           t((3, 4)), t((4,))), t((3, 4))),
]

# ---------------------------------------------------------------------------
# Reductions, softmax, scans
# ---------------------------------------------------------------------------

S3 = (2, 3, 4)


def reduce(kind, axes, keep=False, lo=-2.0, hi=2.0):
    out = [d for i, d in enumerate(S3) if i not in [a % 3 for a in axes]] \
        if not keep else [1 if i in [a % 3 for a in axes] else d
                          for i, d in enumerate(S3)]
    return Op("reduce_%s/%s%s" % (kind, axes, "_keep" if keep else ""),
              [x("a", S3, lo, hi)],
              "  %%y = rlx.reduce %s %%a axes = %s%s : %s" % (
                  kind, list(axes), " keepdim true" if keep else "", t(S3)),
              t(out))


def axis_op(name, axis, shape=S3):
    return Op("%s/axis%d" % (name, axis), [x("a", shape)],
              "  %%y = rlx.%s %%a axis = %d : %s" % (name, axis, t(shape)),
              t(shape))


labels = r.integers(0, 5, (4,)).astype(np.int64)
reductions = [
    reduce("sum", [1]), reduce("sum", [0, 2], True), reduce("mean", [-1]),
    reduce("max", [1]), reduce("min", [0, 2], True),
    reduce("prod", [2], lo=0.5, hi=1.5),
    axis_op("softmax", -1), axis_op("softmax", 1),
    axis_op("log_softmax", 0), axis_op("log_softmax", -1),
    axis_op("cumsum", 0), axis_op("cumsum", 2),
    Op("topk/last", [x("a", (3, 6))],
       "  %y, %i = rlx.topk %a k = 2 axis = -1 : " + t((3, 6)), t((3, 2))),
    Op("topk/axis0", [x("a", (5, 3))],
       "  %y, %i = rlx.topk %a k = 3 axis = 0 : " + t((5, 3)), t((3, 3))),
    Op("softmax_cross_entropy",
       [x("l", (4, 5)), const("c", (4,), elem="i64", values=labels)],
       "  %y = rlx.softmax_cross_entropy %l, %c : " + t((4, 5)) +
       ", tensor<4xi64>", t(())),
]

# ---------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------


def matmul(sa, sb, ta=False, tb=False):
    flags = (" transpose_a true" if ta else "") + (
        " transpose_b true" if tb else "")
    m = sa[-1] if ta else sa[-2]
    n = sb[-2] if tb else sb[-1]
    batch = rlxtest.broadcast_dims(list(sa[:-2]), list(sb[:-2]))
    return Op("matmul/%s_%s%s" % ("x".join(map(str, sa)),
                                  "x".join(map(str, sb)),
                                  flags.replace(" true", "").replace(" ", "_")),
              [x("a", sa), x("b", sb)],
              "  %%y = rlx.matmul %%a, %%b%s : %s, %s" % (flags, t(sa), t(sb)),
              t(batch + [m, n]))


spd = r.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
qweight = r.integers(-128, 128, (5, 64)).astype(np.int8)
qscale = r.uniform(0.002, 0.02, (5, 2)).astype(np.float32)
linalg = [
    matmul((3, 4), (4, 5)), matmul((4, 3), (4, 5), ta=True),
    matmul((3, 4), (5, 4), tb=True), matmul((4, 3), (5, 4), True, True),
    matmul((2, 3, 4), (4, 5)), matmul((2, 1, 3, 4), (3, 4, 2)),
    Op("dot_general", [x("a", (2, 3, 4)), x("b", (2, 4, 5))],
       "  %%y = rlx.dot_general %%a, %%b batch [0] x [0] contracting [2] x [1]"
       " : %s, %s" % (t((2, 3, 4)), t((2, 4, 5))), t((2, 3, 5))),
    # The scales are constants: only the input has a derivative.
    Op("dequant_matmul/int8_block",
       [x("a", (3, 64)), const("w", (5, 64), elem="i8", values=qweight)],
       "  %%s = rlx.constant dense<%s> : tensor<5x2xf32>\n"
       "  %%y = rlx.dequant_matmul #rlx.quant<int8_block, 32> %%a, %%w, %%s : "
       "tensor<3x64xf64>, tensor<5x64xi8>, tensor<5x2xf32>" %
       np.array2string(qscale, separator=", ", precision=9,
                       max_line_width=10**6).replace("\n", ""),
       t((3, 5))),
    Op("dense_solve", [x("a", (3, 3), values=spd), x("b", (3, 2))],
       "  %%y = rlx.dense_solve %%a, %%b : %s, %s" % (t((3, 3)), t((3, 2))),
       t((3, 2))),
]

# ---------------------------------------------------------------------------
# Shape and data movement
# ---------------------------------------------------------------------------

idx2 = r.integers(0, 5, (2, 3)).astype(np.int64)
idx1 = np.array([3, 0, 3, 1], np.int64)  # a repeated index accumulates
shape_ops = [
    Op("reshape", [x("a", (2, 6))],
       "  %y = rlx.reshape %a : tensor<2x6xf64> -> tensor<3x2x2xf64>",
       t((3, 2, 2))),
    Op("transpose", [x("a", S3)],
       "  %y = rlx.transpose %a [2, 0, 1] : " + t(S3),
       t((4, 2, 3))),
    Op("narrow", [x("a", (3, 7))],
       "  %y = rlx.narrow %a axis = 1 start = 2 length = 3 : " + t((3, 7)),
       t((3, 3))),
    Op("concat", [x("a", (2, 3)), x("b", (2, 1)), x("c", (2, 2))],
       "  %y = rlx.concat %a, %b, %c axis = 1 : tensor<2x3xf64>, "
       "tensor<2x1xf64>, tensor<2x2xf64>", t((2, 6))),
    Op("expand", [x("a", (3, 1))],
       "  %y = rlx.expand %a : tensor<3x1xf64> -> tensor<2x3x4xf64>",
       t((2, 3, 4))),
    Op("reverse", [x("a", S3)],
       "  %y = rlx.reverse %a axes = [0, 2] : " + t(S3), t(S3)),
    Op("gather", [x("a", (5, 3)), const("i", (2, 3), elem="i64",
                                          values=idx2)],
       "  %y = rlx.gather %a, %i axis = 0 : tensor<5x3xf64>, tensor<2x3xi64>",
       t((2, 3, 3))),
    Op("gather/axis1", [x("a", (2, 5, 3)),
                        const("i", (4,), elem="i64", values=idx1)],
       "  %y = rlx.gather %a, %i axis = 1 : tensor<2x5x3xf64>, tensor<4xi64>",
       t((2, 4, 3))),
    Op("scatter_add", [x("a", (5, 3)), const("i", (4,), elem="i64",
                                               values=idx1), x("u", (4, 3))],
       "  %y = rlx.scatter_add %a, %i, %u axis = 0 : tensor<5x3xf64>, "
       "tensor<4xi64>, tensor<4x3xf64>", t((5, 3))),
]

# ---------------------------------------------------------------------------
# Norms, rope, attention
# ---------------------------------------------------------------------------

angles = r.uniform(0, 6, (3, 4))
NC = (2, 4, 3, 2)
nn = [
    Op("group_norm", [x("a", NC), x("g", (4,)), x("b", (4,))],
       "  %y = rlx.group_norm %a, %g, %b {num_groups = 2 : i64} : " + t(NC) +
       ", " + t((4,)), t(NC)),
    Op("batch_norm_inference",
       [x("a", NC), x("g", (4,)), x("b", (4,)), x("m", (4,)),
        x("v", (4,), 0.5, 2.0)],
       "  %y = rlx.batch_norm_inference %a, %g, %b, %m, %v : " + t(NC) +
       ", " + t((4,)), t(NC)),
    Op("layer_norm", [x("a", S3), x("g", (4,)), x("b", (4,))],
       "  %y = rlx.layer_norm %a, %g, %b {epsilon = 1.0e-5 : f32} : " +
       t(S3) + ", " + t((4,)), t(S3)),
    Op("rms_norm", [x("a", S3), x("g", (4,))],
       "  %y = rlx.rms_norm %a, %g {epsilon = 1.0e-6 : f32} : " + t(S3) +
       ", " + t((4,)), t(S3)),
]
for style in ("neox", "gptj"):
    nn.append(Op("rope/" + style,
                 [x("a", (2, 2, 3, 8)), x("c", (3, 4), values=np.cos(angles)),
                  x("s", (3, 4), values=np.sin(angles))],
                 '  %%y = rlx.rope %%a, %%c, %%s {style = "%s"} : %s, %s' % (
                     style, t((2, 2, 3, 8)), t((3, 4))), t((2, 2, 3, 8))))


def attention(kind, hkv=2, extra="", mask=None, tag=""):
    q, kv = (1, 4, 3, 4), (1, hkv, 5, 4)
    args = [x("q", q), x("k", kv), x("v", kv)]
    operands, types = "%q, %k, %v", "%s, %s, %s" % (t(q), t(kv), t(kv))
    if mask is not None:
        args.append(mask)
        operands += ", %m"
        types += ", " + mask[1]
    return Op("attention/%s_hkv%d%s" % (kind, hkv, tag), args,
              "  %%y = rlx.attention %s mask = %s%s : %s" % (
                  operands, kind, extra, types), t(q))


custom = r.random((3, 5)) < 0.7
custom[:, 0] = True
nn += [
    attention("none"), attention("none", 4), attention("causal"),
    attention("sliding_window", extra=" window = 2"),
    attention("custom", mask=const("m", (3, 5), elem="i1", values=custom)),
    attention("bias", mask=const("m", (1, 1, 3, 5))),
    attention("none", extra=" {scale = 0.3 : f32}", tag="_scale"),
]

# ---------------------------------------------------------------------------
# Fused ops (unfused first)
# ---------------------------------------------------------------------------

fused = [
    Op("fused_matmul_bias_act", [x("a", (3, 4)), x("w", (4, 5)),
                                 x("b", (5,))],
       "  %y = rlx.fused_matmul_bias_act %a, %w, %b activation = silu : "
       "tensor<3x4xf64>, tensor<4x5xf64>, tensor<5xf64>", t((3, 5))),
]

fused += [
    Op("fused_residual_layer_norm", [x("a", S3), x("r", S3), x("g", (4,)),
                                     x("b", (4,))],
       "  %y, %s = rlx.fused_residual_layer_norm %a, %r, %g, %b : " + t(S3) +
       ", " + t((4,)), t(S3)),
    Op("fused_swiglu", [x("a", (3, 4)), x("g", (4, 6)), x("u", (4, 6))],
       "  %y = rlx.fused_swiglu %a, %g, %u : tensor<3x4xf64>, "
       "tensor<4x6xf64>, tensor<4x6xf64>", t((3, 6))),
    Op("elementwise_region", [x("a", (3, 4)), x("b", (4,))],
       "  %y = rlx.elementwise_region ins(%a, %b : tensor<3x4xf64>, "
       "tensor<4xf64>) -> tensor<3x4xf64> {\n  ^bb0(%p: f64, %q: f64):\n"
       "    %m = arith.mulf %p, %q : f64\n    %e = math.exp %m : f64\n"
       "    rlx.yield %e : f64\n  }", t((3, 4))),
]

# ---------------------------------------------------------------------------
# The dedicated backward ops (their rules give second derivatives)
# ---------------------------------------------------------------------------

S4 = (2, 3, 4)
backward_ops = []
for i, res in enumerate(["dx", "dg", "db"]):
    backward_ops.append(Op(
        "layer_norm_backward/" + res,
        [x("d", S4), x("a", S4), x("g", (4,))],
        "  %%r:3 = rlx.layer_norm_backward %%d, %%a, %%g : %s, %s\n"
        "  %%y = rlx.neg %%r#%d : %s" % (t(S4), t((4,)), i,
                                      t(S4) if i == 0 else t((4,))),
        t(S4) if i == 0 else t((4,))))
for i, res in enumerate(["dx", "dg"]):
    backward_ops.append(Op(
        "rms_norm_backward/" + res,
        [x("d", S4), x("a", S4), x("g", (4,))],
        "  %%r:2 = rlx.rms_norm_backward %%d, %%a, %%g : %s, %s\n"
        "  %%y = rlx.neg %%r#%d : %s" % (t(S4), t((4,)), i,
                                      t(S4) if i == 0 else t((4,))),
        t(S4) if i == 0 else t((4,))))
AQ, AKV = (1, 4, 3, 4), (1, 2, 5, 4)
for i, res in enumerate(["dq", "dk", "dv"]):
    backward_ops.append(Op(
        "attention_backward/causal_" + res,
        [x("q", AQ), x("k", AKV), x("v", AKV), x("d", AQ)],
        "  %%o = rlx.attention %%q, %%k, %%v mask = causal : %s, %s, %s\n"
        "  %%r:3 = rlx.attention_backward %%q, %%k, %%v, %%o, %%d mask = causal"
        " : %s, %s, %s, %s\n  %%y = rlx.neg %%r#%d : %s" % (
            t(AQ), t(AKV), t(AKV), t(AQ), t(AKV), t(AKV), t(AQ), i,
            t(AQ) if i == 0 else t(AKV)),
        t(AQ) if i == 0 else t(AKV)))
backward_ops += [
    Op("softmax_cross_entropy_backward",
       [x("l", (4, 5)), const("c", (4,), elem="i64", values=labels),
        x("d", ())],
       "  %y = rlx.softmax_cross_entropy_backward %l, %c, %d : " + t((4, 5)) +
       ", tensor<4xi64>, tensor<f64>", t((4, 5))),
    Op("conv2d_backward_input", [x("d", (2, 4, 3, 3)), x("w", (4, 2, 3, 3))],
       "  %y = rlx.conv2d_backward_input %d, %w strides = [2, 2] padding = "
       "[1, 1, 1, 1] groups = 2 : tensor<2x4x3x3xf64>, tensor<4x2x3x3xf64> "
       "-> tensor<2x4x6x6xf64>", t((2, 4, 6, 6))),
    Op("conv2d_backward_weight", [x("d", (2, 4, 3, 3)), x("a", (2, 4, 6, 6))],
       "  %y = rlx.conv2d_backward_weight %d, %a strides = [2, 2] padding = "
       "[1, 1, 1, 1] groups = 2 : tensor<2x4x3x3xf64>, tensor<2x4x6x6xf64> "
       "-> tensor<4x2x3x3xf64>", t((4, 2, 3, 3))),
]

# ---------------------------------------------------------------------------
# Convolution and pooling
# ---------------------------------------------------------------------------


def pool_input(shape):
    # Distinct values, so that no window has a tie (max is not
    # differentiable there) and FD steps do not reorder a window.
    n = int(np.prod(shape))
    v = r.permutation(n).reshape(shape) * 0.1 + r.uniform(-0.01, 0.01, shape)
    return v


conv = [
    Op("conv2d/stride_pad_dil_groups",
       [x("a", (2, 4, 7, 6)), x("w", (6, 2, 3, 2)), x("b", (6,))],
       "  %y = rlx.conv %a, %w, %b strides = [2, 1] padding = [1, 0, 1, 1] "
       "dilations = [1, 2] groups = 2 : tensor<2x4x7x6xf64>, "
       "tensor<6x2x3x2xf64>, tensor<6xf64>", t((2, 6, 3, 6))),
    Op("conv1d", [x("a", (2, 3, 9)), x("w", (4, 3, 3))],
       "  %y = rlx.conv %a, %w strides = [2] padding = [1, 2] : "
       "tensor<2x3x9xf64>, tensor<4x3x3xf64>", t((2, 4, 5))),
    Op("conv_transpose2d",
       [x("a", (2, 4, 3, 3)), x("w", (4, 3, 3, 3)), x("b", (6,))],
       "  %y = rlx.conv_transpose2d %a, %w, %b strides = [2, 2] padding = "
       "[1, 1, 1, 1] output_padding = [1, 0] groups = 2 : "
       "tensor<2x4x3x3xf64>, tensor<4x3x3x3xf64>, tensor<6xf64>",
       t((2, 6, 6, 5))),
    Op("pool/max2d_overlap", [x("a", (2, 3, 5, 5), values=pool_input(
        (2, 3, 5, 5)))],
       "  %y = rlx.pool max %a kernel = [3, 2] strides = [1, 2] : "
       "tensor<2x3x5x5xf64>", t((2, 3, 3, 2))),
    Op("pool/max1d_pad", [x("a", (2, 3, 7), values=pool_input((2, 3, 7)))],
       "  %y = rlx.pool max %a kernel = [3] strides = [2] padding = [1, 1] : "
       "tensor<2x3x7xf64>", t((2, 3, 4))),
    Op("pool/avg2d_pad", [x("a", (2, 3, 6, 6))],
       "  %y = rlx.pool avg %a kernel = [3, 3] strides = [2, 2] padding = "
       "[1, 1, 1, 1] : tensor<2x3x6x6xf64>", t((2, 3, 3, 3))),
]

# ---------------------------------------------------------------------------
# Control flow (rlx.if is legalized first, rlx.scan and rlx.while unrolled)
# and custom_fn. The while's inputs keep every condition well away from its
# threshold (two trips: the row max goes about 0.41 -> 0.58 -> 0.91 against
# 0.7), so the finite differences never cross it.
# ---------------------------------------------------------------------------

control = [
    Op("if/then" if flag else "if/else",
       [const("p", (), elem="i1", values=np.array(flag)), x("a", (3, 4))],
       "  %y = rlx.if %p : tensor<i1> -> tensor<3x4xf64> {\n"
       "    %e = rlx.exp %a : tensor<3x4xf64>\n"
       "    rlx.yield %e : tensor<3x4xf64>\n  } else {\n"
       "    %s = rlx.sin %a : tensor<3x4xf64>\n"
       "    rlx.yield %s : tensor<3x4xf64>\n  }", t((3, 4)))
    for flag in (True, False)]
SCAN = (
    "  %%h, %%ys = rlx.scan init(%%h0 : tensor<3xf64>) xs(%%a : tensor<4x3xf64>)"
    "%s -> (tensor<3xf64>, tensor<4x3xf64>) {\n"
    "  ^bb0(%%c: tensor<3xf64>, %%xt: tensor<3xf64>):\n"
    "    %%m = rlx.mul %%c, %%w : tensor<3xf64>\n"
    "    %%s = rlx.add %%m, %%xt : tensor<3xf64>\n"
    "    %%n = rlx.tanh %%s : tensor<3xf64>\n"
    "    %%o = rlx.mul %%n, %%c : tensor<3xf64>\n"
    "    rlx.yield %%n, %%o : tensor<3xf64>, tensor<3xf64>\n  }\n"
    "  %%hr = rlx.reshape %%h : tensor<3xf64> -> tensor<1x3xf64>\n"
    "  %%y = rlx.concat %%ys, %%hr axis = 0 : tensor<4x3xf64>, tensor<1x3xf64>")
control += [
    Op("scan" + suffix.replace(" {reverse = true}", "/reverse"),
       [x("h0", (3,)), x("a", (4, 3)), x("w", (3,))],
       SCAN % suffix, t((5, 3)))
    for suffix in ("", " {reverse = true}")]
WHILE = (
    "  %lim = rlx.constant dense<0.7> : tensor<f64>\n"
    "  %y = rlx.while (%a) : (tensor<4xf64>) {max_iterations = 4} cond {\n"
    "  ^bb0(%v: tensor<4xf64>):\n"
    "    %m = rlx.reduce max %v axes = [0] : tensor<4xf64>\n"
    "    %c = rlx.cmp lt, %m, %lim : tensor<f64>\n"
    "    rlx.yield %c : tensor<i1>\n  } do {\n"
    "  ^bb0(%v: tensor<4xf64>):\n"
    "    %n = rlx.mul %v, %v : tensor<4xf64>\n"
    "    %s = rlx.add %n, %v : tensor<4xf64>\n"
    "    rlx.yield %s : tensor<4xf64>\n  }")
control += [
    Op("while", [x("a", (4,), values=np.array([0.2, 0.25, 0.3, 0.4]) +
                   r.uniform(0, 0.01, 4))], WHILE, t((4,)))]
# selective_scan is rewritten into an rlx.scan, then unrolled: every
# operand, with and without softplus on delta; A < 0 so the state decays.
SSM_TYPES = ", ".join(t(s) for s in ((2, 3, 5), (2, 3, 5), (3, 4), (2, 4, 5),
                                     (2, 4, 5), (3,)))
control += [
    Op("selective_scan" + ("/softplus" if softplus else ""),
       [x("u", (2, 3, 5)), x("dt", (2, 3, 5), -1.0 if softplus else 0.1, 0.8),
        x("a", (3, 4), -1.5, -0.2), x("b", (2, 4, 5)), x("c", (2, 4, 5)),
        x("d", (3,))],
       "  %%y = rlx.selective_scan %%u, %%dt, %%a, %%b, %%c, %%d%s : %s" %
       (" {delta_softplus = true}" if softplus else "", SSM_TYPES),
       t((2, 3, 5)))
    for softplus in (False, True)]
control += [
    Op("custom_fn/fwd_only", [x("a", (3, 4)), x("b", (4,))],
       "  %y = rlx.custom_fn (%a, %b) : (tensor<3x4xf64>, tensor<4xf64>) -> "
       "tensor<3x4xf64> fwd {\n"
       "  ^bb0(%p: tensor<3x4xf64>, %q: tensor<4xf64>):\n"
       "    %m = rlx.mul %p, %q : tensor<3x4xf64>, tensor<4xf64>\n"
       "    %t = rlx.tanh %m : tensor<3x4xf64>\n"
       "    rlx.yield %t : tensor<3x4xf64>\n  }", t((3, 4))),
    Op("custom_fn/vjp_jvp_regions", [x("a", (3, 4))],
       "  %y = rlx.custom_fn (%a) : (tensor<3x4xf64>) -> tensor<3x4xf64> fwd {\n"
       "  ^bb0(%p: tensor<3x4xf64>):\n"
       "    %e = rlx.exp %p : tensor<3x4xf64>\n"
       "    rlx.yield %e : tensor<3x4xf64>\n  } vjp {\n"
       "  ^bb0(%p: tensor<3x4xf64>, %e: tensor<3x4xf64>, %g: tensor<3x4xf64>):\n"
       "    %d = rlx.mul %e, %g : tensor<3x4xf64>\n"
       "    rlx.yield %d : tensor<3x4xf64>\n  } jvp {\n"
       "  ^bb0(%p: tensor<3x4xf64>, %t: tensor<3x4xf64>):\n"
       "    %e = rlx.exp %p : tensor<3x4xf64>\n"
       "    %d = rlx.mul %e, %t : tensor<3x4xf64>\n"
       "    rlx.yield %e, %d : tensor<3x4xf64>, tensor<3x4xf64>\n  }",
       t((3, 4))),
]

# ---------------------------------------------------------------------------
# fft family, through real-input, real-output compositions (the complex
# values in between carry PyTorch-convention cotangents): spectral energy
# sum(|rfft(x)|^2 w) with |X|^2 = 2 Re(X)^2 - Re(X X), filtering
# irfft(rfft(x) h), and fft / ifft of a complex signal a + i b read back
# through Re(F h). Odd, even and non-power-of-two lengths, n cropping and
# zero-padding, every norm.
# ---------------------------------------------------------------------------

def tc(shape):
    return T(shape, "complex<f64>")


def cconst(name, shape, values=None):
    v = rand(r, shape, "complex<f64>") if values is None else values
    return (name, tc(shape), np.asarray(v, np.complex128), "i")


def energy(m, n=None, norm="backward"):
    bins = (m if n is None else n) // 2 + 1
    nattr = "" if n is None else " n = %d" % n
    return Op("rfft/energy/m%d%s/%s" % (m, "" if n is None else "_n%d" % n,
                                         norm),
              [x("a", (2, m))],
              "  %%f = rlx.rfft %%a%s {norm = \"%s\"} : %s\n"
              "  %%re = rlx.cast %%f : %s -> %s\n"
              "  %%ff = rlx.mul %%f, %%f : %s\n"
              "  %%reff = rlx.cast %%ff : %s -> %s\n"
              "  %%sq = rlx.mul %%re, %%re : %s\n"
              "  %%two = rlx.add %%sq, %%sq : %s\n"
              "  %%y = rlx.sub %%two, %%reff : %s" %
              (nattr, norm, t((2, m)), tc((2, bins)), t((2, bins)),
               tc((2, bins)), tc((2, bins)), t((2, bins)), t((2, bins)),
               t((2, bins)), t((2, bins))), t((2, bins)))


def filtered(m, n_in=None, n_out=None, norm="backward"):
    n = m if n_in is None else n_in
    bins = n // 2 + 1
    out = 2 * (bins - 1) if n_out is None else n_out
    a_in = "" if n_in is None else " n = %d" % n_in
    a_out = "" if n_out is None else " n = %d" % n_out
    return Op("irfft/filter/m%d_n%s_out%s/%s" % (m, n_in, n_out, norm),
              [x("a", (3, m)), cconst("h", (bins,))],
              "  %%f = rlx.rfft %%a%s {norm = \"%s\"} : %s\n"
              "  %%g = rlx.mul %%f, %%h : %s, %s\n"
              "  %%y = rlx.irfft %%g%s {norm = \"%s\"} : %s" %
              (a_in, norm, t((3, m)), tc((3, bins)), tc((bins,)), a_out,
               norm, tc((3, bins))), t((3, out)))


def complex_fft(m, inverse, norm):
    s = (2, m)
    return Op("fft/%s/m%d/%s" % ("inv" if inverse else "fwd", m, norm),
              [x("a", s), x("b", s),
               cconst("j", (), values=np.array(1j)), cconst("h", s)],
              "  %%ca = rlx.cast %%a : %s -> %s\n"
              "  %%cb = rlx.cast %%b : %s -> %s\n"
              "  %%ib = rlx.mul %%cb, %%j : %s, %s\n"
              "  %%z = rlx.add %%ca, %%ib : %s\n"
              "  %%f = rlx.fft %%z {inverse = %s, norm = \"%s\"} : %s\n"
              "  %%p = rlx.mul %%f, %%h : %s\n"
              "  %%y = rlx.cast %%p : %s -> %s" %
              (t(s), tc(s), t(s), tc(s), tc(s), tc(()), tc(s),
               "true" if inverse else "false", norm, tc(s), tc(s), tc(s),
               t(s)), t(s))


fft_ops = [energy(m, n, norm)
           for m, n, norm in ((8, None, "backward"), (9, None, "ortho"),
                              (12, 7, "forward"), (10, 15, "backward"),
                              (7, 12, "ortho"))]
fft_ops += [filtered(m, n_in, n_out, norm)
            for m, n_in, n_out, norm in ((10, None, None, "backward"),
                                         (9, None, 9, "ortho"),
                                         (12, 10, 14, "forward"),
                                         (11, 13, 5, "backward"),
                                         (6, None, 20, "ortho"))]
fft_ops += [complex_fft(m, inverse, norm)
            for m in (6, 7, 12)
            for inverse, norm in ((False, "backward"), (True, "backward"),
                                  (False, "ortho"), (True, "forward"))]

groups = [elementwise, reductions, linalg, shape_ops, nn, fused,
          backward_ops, conv, control, fft_ops]
only = sys.argv[1:]
for g in groups:
    g = [op for op in g if not only or any(op.name.startswith(o)
                                           for o in only)]
    if g:
        run_group(g)
for kind, (err, name) in WORST.items():
    print("worst %s relative error vs FD: %.2e (%s)" % (kind, err, name))
suite.finish()
