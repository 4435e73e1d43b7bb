# ===- onnx.py - rlx.from_onnx: ONNX graphs of opset 13 to 17 -------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""rlx.from_onnx(path_or_model): an ONNX model (opset 13 to 17) as an rlx
function of its graph inputs.

Shapes are static: a graph input's dims come from the model or from
`input_shapes`. Values known when importing (Constant nodes, integer
initializers, Shape and the arithmetic on shapes that exporters emit) are
computed with NumPy; floating-point initializers become rlx.params named
by the initializer's name (or arguments, with `params_as_args`). GELU
exported as `x * 0.5 * (1 + erf(x / sqrt(2)))` becomes rlx.gelu (rlx has
no erf; Erf elsewhere is an error). An op without a translation raises
UnsupportedError naming the node and its op_type."""

import numpy as np

from .. import default_context
from ..builder import Function, Value, numpy_to_mlir
from ._emit import Emitter, ImportedModel, UnsupportedError, finish

_HANDLERS = {}

# TensorProto data types.
_ONNX_DTYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 5: np.int16,
                6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16,
                11: np.float64}


def _handles(*op_types):
    def register(fn):
        for op in op_types:
            _HANDLERS[op] = fn
        return fn
    return register


class _Erf:
    """Erf of `x / sqrt(2)`, and what GELU's expansion does with it
    (stage 1: erf + 1; stage 2: x * (erf + 1)), until a multiply by 0.5
    makes rlx.gelu of it."""

    def __init__(self, x, stage=0):
        self.x, self.stage = x, stage


def _static(x):
    return isinstance(x, (np.ndarray, np.generic, int, float, bool))


class _OnnxImporter:
    def __init__(self, model, name, params_as_args, input_shapes, context):
        import onnx
        from onnx import numpy_helper
        if isinstance(model, (str, bytes)) and not isinstance(model, bytes):
            model = onnx.load(model)
        elif isinstance(model, bytes):
            model = onnx.load_from_string(model)
        self.model = model
        self.numpy_helper = numpy_helper
        self.graph = model.graph
        self.opset = max([o.version for o in model.opset_import
                          if o.domain in ("", "ai.onnx")] or [0])
        if not 13 <= self.opset <= 17:
            raise UnsupportedError("rlx.from_onnx: opset %d (13 to 17 are "
                                   "supported)" % self.opset)
        self.name = name
        self.params_as_args = params_as_args
        self.input_shapes = dict(input_shapes or {})
        self.context = context or default_context()

    def _describe(self, node):
        return "ONNX node '%s' (%s)" % (node.name or "?", node.op_type)

    def run(self):
        helper = self.numpy_helper
        initializers = {i.name: helper.to_array(i)
                        for i in self.graph.initializer}
        consumers = {}
        for node in self.graph.node:
            for i in node.input:
                consumers.setdefault(i, []).append(node)
        params = {}
        for name, array in initializers.items():
            if np.issubdtype(array.dtype, np.floating):
                params[name] = (np.ascontiguousarray(array), False)
        inputs = [i for i in self.graph.input if i.name not in initializers]
        ctx = self.context
        types = []
        for i in inputs:
            t = i.type.tensor_type
            shape = self.input_shapes.get(i.name)
            if shape is None:
                shape = []
                for d in t.shape.dim:
                    if not d.HasField("dim_value"):
                        raise UnsupportedError(
                            "rlx.from_onnx: input '%s' has a dynamic dim "
                            "'%s'; give its shape in input_shapes" %
                            (i.name, d.dim_param))
                    shape.append(d.dim_value)
            types.append(ctx.tensor(shape, numpy_to_mlir(
                _ONNX_DTYPES[t.elem_type])))
        used = []
        for node in self.graph.node:
            for i in node.input:
                if i in params and i not in used:
                    used.append(i)
        params = {n: params[n] for n in used}
        param_args = list(params) if self.params_as_args else []
        param_types = [ctx.tensor(params[n][0].shape,
                                  numpy_to_mlir(params[n][0].dtype))
                       for n in param_args]
        with Function(self.name, types + param_types, context=ctx) as f:
            self.em = em = Emitter(f, params, param_args)
            env = {"": None}
            for i, arg in zip(inputs, f.args):
                env[i.name] = arg
            for name, array in initializers.items():
                env[name] = ("param", name) if name in params else array
            self.env = env
            self.run_nodes(self.graph.node)
            results = []
            for o in self.graph.output:
                v = self._value(env, o.name)
                if isinstance(v, _Erf):
                    raise UnsupportedError("rlx.from_onnx: output '%s' is "
                                           "an Erf outside GELU" % o.name)
                results.append(em.value(v, numpy_to_mlir(v.dtype)) if
                               _static(v) else v)
            f.returns(results)
        finish(f)
        return ImportedModel(f, params, [], param_args,
                             [i.name for i in inputs],
                             [o.name for o in self.graph.output])

    def run_nodes(self, nodes):
        """Translates `nodes` in order, their values into self.env."""
        env, em = self.env, self.em
        for node in nodes:
            em.loc = (node.name or node.op_type, 0, 0)
            args = [self._value(env, n) for n in node.input]
            handler = _HANDLERS.get(node.op_type)
            if handler is None or node.domain not in ("", "ai.onnx"):
                raise UnsupportedError("rlx.from_onnx: %s: no translation" %
                                       self._describe(node))
            try:
                attrs = {a.name: _attribute(a, self.numpy_helper)
                         for a in node.attribute}
                outs = handler(self, node, args, attrs)
            except UnsupportedError as error:
                if str(error).startswith("rlx.from_onnx"):
                    raise
                raise UnsupportedError("rlx.from_onnx: %s: %s" % (
                    self._describe(node), error)) from None
            except (TypeError, ValueError, KeyError) as error:
                raise UnsupportedError("rlx.from_onnx: %s: %s: %s" % (
                    self._describe(node), type(error).__name__,
                    error)) from error
            if not isinstance(outs, (list, tuple)):
                outs = [outs]
            for name, value in zip(node.output, outs):
                env[name] = value

    def _value(self, env, name):
        v = env[name]
        if isinstance(v, tuple) and v and v[0] == "param":
            v = self.em.param(v[1])
            env[name] = v
        return v

    # Helpers for the handlers.

    def v(self, x, dtype=None):
        """x as a Value (of `dtype`, default its own)."""
        if isinstance(x, _Erf):
            raise UnsupportedError("Erf outside the GELU pattern")
        if isinstance(x, Value):
            return x if dtype is None else self.em.cast(x, dtype)
        return self.em.const(x, dtype or numpy_to_mlir(np.asarray(x).dtype))


def _attribute(a, helper):
    import onnx
    kind = a.type
    A = onnx.AttributeProto
    if kind == A.FLOAT:
        return a.f
    if kind == A.INT:
        return a.i
    if kind == A.STRING:
        return a.s.decode()
    if kind == A.TENSOR:
        return helper.to_array(a.t)
    if kind == A.FLOATS:
        return list(a.floats)
    if kind == A.INTS:
        return list(a.ints)
    if kind == A.GRAPH:
        return a.g
    if kind == A.STRINGS:
        return [s.decode() for s in a.strings]
    raise UnsupportedError("attribute '%s' of type %d" % (a.name, kind))


def _ints(x):
    return [int(i) for i in np.asarray(x).reshape(-1)]


def _dtype_of(x):
    if isinstance(x, Value):
        return x.dtype
    return numpy_to_mlir(np.asarray(x).dtype)


# ---- Constants and shapes ----------------------------------------------- #

@_handles("Constant")
def _constant(t, node, args, attrs):
    if "value" in attrs:
        return np.asarray(attrs["value"])
    for key, dtype in (("value_float", np.float32), ("value_int", np.int64),
                       ("value_floats", np.float32),
                       ("value_ints", np.int64)):
        if key in attrs:
            return np.asarray(attrs[key], dtype)
    raise UnsupportedError("Constant without a value")


@_handles("Shape")
def _shape(t, node, args, attrs):
    x = args[0]
    shape = np.asarray(x.shape if isinstance(x, Value) else
                       np.shape(x), np.int64)
    start, end = attrs.get("start", 0), attrs.get("end", None)
    return shape[start:end]


@_handles("Size")
def _size(t, node, args, attrs):
    return np.asarray(int(np.prod(args[0].shape)), np.int64)


@_handles("ConstantOfShape")
def _constant_of_shape(t, node, args, attrs):
    value = np.asarray(attrs.get("value", np.zeros(1, np.float32)))
    return np.full(_ints(args[0]), value.reshape(-1)[0], value.dtype)


@_handles("Range")
def _range(t, node, args, attrs):
    if not all(_static(a) for a in args):
        raise UnsupportedError("Range of computed bounds")
    start, limit, delta = (np.asarray(a).reshape(()) for a in args)
    return np.arange(start, limit, delta).astype(np.asarray(args[0]).dtype)


@_handles("Identity", "Dropout")
def _identity(t, node, args, attrs):
    if node.op_type == "Dropout" and len(args) > 2 and args[2] is not None \
            and _static(args[2]) and bool(args[2]):
        raise UnsupportedError("Dropout in training mode")
    return [args[0]]


@_handles("Cast")
def _cast(t, node, args, attrs):
    dtype = _ONNX_DTYPES[attrs["to"]]
    x = args[0]
    if _static(x):
        return np.asarray(x).astype(dtype)
    return t.em.cast(x, numpy_to_mlir(dtype))


@_handles("CastLike")
def _cast_like(t, node, args, attrs):
    dtype = _dtype_of(args[1])
    if _static(args[0]):
        return np.asarray(args[0]).astype(np.dtype(
            {"f32": np.float32, "f64": np.float64, "i64": np.int64,
             "i1": np.bool_}[dtype]))
    return t.em.cast(args[0], dtype)


@_handles("Reshape")
def _reshape(t, node, args, attrs):
    x, shape = args[0], _ints(args[1])
    in_shape = list(x.shape if isinstance(x, Value) else np.shape(x))
    if not attrs.get("allowzero", 0):
        shape = [in_shape[i] if s == 0 else s for i, s in enumerate(shape)]
    if _static(x):
        return np.reshape(x, shape)
    return t.em.reshape(x, shape)


@_handles("Flatten")
def _flatten(t, node, args, attrs):
    x = args[0]
    shape = list(x.shape if isinstance(x, Value) else np.shape(x))
    axis = attrs.get("axis", 1)
    axis = axis + len(shape) if axis < 0 else axis
    new = [int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))]
    return np.reshape(x, new) if _static(x) else t.em.reshape(x, new)


def _axes_arg(args, attrs, index=1):
    if len(args) > index and args[index] is not None:
        return _ints(args[index])
    return attrs.get("axes")


@_handles("Unsqueeze")
def _unsqueeze(t, node, args, attrs):
    x = args[0]
    axes = _axes_arg(args, attrs)
    shape = list(x.shape if isinstance(x, Value) else np.shape(x))
    rank = len(shape) + len(axes)
    for a in sorted(a + rank if a < 0 else a for a in axes):
        shape.insert(a, 1)
    return np.reshape(x, shape) if _static(x) else t.em.reshape(x, shape)


@_handles("Squeeze")
def _squeeze(t, node, args, attrs):
    x = args[0]
    axes = _axes_arg(args, attrs)
    if _static(x):
        return np.squeeze(x, tuple(axes) if axes is not None else None)
    return t.em.squeeze(x, axes)


@_handles("Transpose")
def _transpose(t, node, args, attrs):
    x = args[0]
    rank = len(x.shape if isinstance(x, Value) else np.shape(x))
    perm = attrs.get("perm", list(range(rank))[::-1])
    if _static(x):
        return np.transpose(x, perm)
    return t.em.transpose(x, perm)


@_handles("Expand")
def _expand(t, node, args, attrs):
    x, shape = args[0], _ints(args[1])
    in_shape = x.shape if isinstance(x, Value) else np.shape(x)
    out = list(np.broadcast_shapes(tuple(in_shape), tuple(shape)))
    if _static(x):
        return np.broadcast_to(x, out).copy()
    return t.em.expand(x, out)


@_handles("Concat")
def _concat(t, node, args, attrs):
    axis = attrs["axis"]
    if all(_static(a) for a in args):
        return np.concatenate(args, axis)
    dtype = next(a.dtype for a in args if isinstance(a, Value))
    values = [t.v(a, dtype) for a in args if not (
        _static(a) and a.size == 0)]
    return t.em.concat(values, axis)


@_handles("Split")
def _split(t, node, args, attrs):
    x = args[0]
    axis = attrs.get("axis", 0)
    shape = x.shape if isinstance(x, Value) else np.shape(x)
    axis = axis + len(shape) if axis < 0 else axis
    sizes = _ints(args[1]) if len(args) > 1 and args[1] is not None else \
        attrs.get("split")
    n = len(node.output)
    if sizes is None:
        step = -(-shape[axis] // n)
        sizes = [min(step, shape[axis] - i * step) for i in range(n)]
    out, start = [], 0
    for s in sizes:
        if _static(x):
            out.append(np.take(x, range(start, start + s), axis))
        else:
            out.append(t.em.narrow(x, axis, start, s))
        start += s
    return out


@_handles("Slice")
def _slice(t, node, args, attrs):
    x = args[0]
    starts, ends = _ints(args[1]), _ints(args[2])
    shape = list(x.shape if isinstance(x, Value) else np.shape(x))
    axes = _ints(args[3]) if len(args) > 3 and args[3] is not None else \
        list(range(len(starts)))
    steps = _ints(args[4]) if len(args) > 4 and args[4] is not None else \
        [1] * len(starts)
    if _static(x):
        index = [slice(None)] * len(shape)
        for a, s, e, st in zip(axes, starts, ends, steps):
            index[a] = slice(s, e, st)
        return np.asarray(x)[tuple(index)]
    for a, s, e, st in zip(axes, starts, ends, steps):
        a = a + len(shape) if a < 0 else a
        n = shape[a]
        s, e = max(-n - 1, min(s, n)), max(-n - 1, min(e, n))
        x = t.em.slice(x, a, s, e, st)
    return x


@_handles("Gather")
def _gather(t, node, args, attrs):
    x, idx = args
    axis = attrs.get("axis", 0)
    if _static(x) and _static(idx):
        return np.take(x, idx, axis)
    shape = x.shape if isinstance(x, Value) else np.shape(x)
    axis = axis + len(shape) if axis < 0 else axis
    if _static(idx):
        i = np.asarray(idx)
        if i.ndim == 0:
            return t.em.squeeze(t.em.narrow(t.v(x), axis,
                                            int(i) % shape[axis], 1),
                                [axis])
        idx = np.where(i < 0, i + shape[axis], i)
    return t.em.op("gather", t.v(x), t.v(idx, "i64"), axis=axis)


@_handles("If")
def _if(t, node, args, attrs):
    cond = args[0]
    if not _static(cond):
        raise UnsupportedError("If on a computed condition")
    branch = attrs["then_branch" if bool(np.asarray(cond).reshape(-1)[0])
                   else "else_branch"]
    t.run_nodes(branch.node)
    return [t._value(t.env, o.name) for o in branch.output]


@_handles("Tile")
def _tile(t, node, args, attrs):
    x, reps = args[0], _ints(args[1])
    if _static(x):
        return np.tile(x, reps)
    return t.em.tile(x, reps)


@_handles("Trilu")
def _trilu(t, node, args, attrs):
    if not all(_static(a) for a in args if a is not None):
        raise UnsupportedError("Trilu of a computed tensor")
    k = int(np.asarray(args[1])) if len(args) > 1 and args[1] is not None \
        else 0
    return np.triu(args[0], k) if attrs.get("upper", 1) else \
        np.tril(args[0], k)


# ---- Elementwise ------------------------------------------------------ #

_NUMPY_BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
                 "Div": None, "Pow": np.power, "Max": np.maximum,
                 "Min": np.minimum}
_RLX_BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div",
               "Pow": "pow", "Max": "max", "Min": "min"}


@_handles("Add", "Sub", "Mul", "Div", "Pow", "Max", "Min")
def _binary(t, node, args, attrs):
    op = node.op_type
    if op in ("Max", "Min") and len(args) != 2:
        if len(args) == 1:
            return args[0]
        raise UnsupportedError("%s of %d inputs" % (op, len(args)))
    a, b = args
    if _static(a) and _static(b):
        a, b = np.asarray(a), np.asarray(b)
        if op == "Div":
            if np.issubdtype(a.dtype, np.integer):
                return np.asarray(a // b).astype(a.dtype)
            return np.asarray(a / b)
        return np.asarray(_NUMPY_BINARY[op](a, b)).astype(
            np.result_type(a, b))
    gelu = _gelu_step(t, op, a, b)
    if gelu is not None:
        return gelu
    if op == "Pow":
        return t.em.pow(a, b)
    if op == "Div" and _static(a) and np.all(np.asarray(a) == 1) and \
            t.em._is(b, "sqrt"):
        # 1 / sqrt(x), as torch.rsqrt exports.
        return t.em.op("rsqrt", t.em.meta[b][1][0])
    return t.em.binary(_RLX_BINARY[op], a, b,
                       _dtype_of(a if isinstance(a, Value) else b))


def _gelu_step(t, op, a, b):
    """Advances the GELU expansion x * 0.5 * (1 + erf(x / sqrt 2)) (in any
    order of the multiplies)."""
    erf, other = (a, b) if isinstance(a, _Erf) else (b, a)
    if not isinstance(erf, _Erf):
        if op == "Mul":
            # 0.5 * x first, then * (1 + erf): stage 1 meets x / 2.
            return None
        return None
    c = None if isinstance(other, (Value, _Erf)) else \
        float(np.asarray(other).reshape(-1)[0])
    if erf.stage == 0 and op == "Add" and c == 1.0:
        return _Erf(erf.x, 1)
    if erf.stage == 1 and op == "Mul" and other is erf.x:
        return _Erf(erf.x, 2)
    if erf.stage == 1 and op == "Mul" and t.em._is(other, "mul") and \
            erf.x in t.em.meta[other][1] and any(
                t.em._scalar(o) == 0.5 for o in t.em.meta[other][1]):
        return t.em.op("gelu", erf.x)
    if erf.stage == 2 and op == "Mul" and c == 0.5:
        return t.em.op("gelu", erf.x)
    if erf.stage == 2 and op == "Div" and c == 2.0 and a is erf:
        return t.em.op("gelu", erf.x)
    raise UnsupportedError("Erf outside the GELU pattern")


@_handles("Erf")
def _erf(t, node, args, attrs):
    x = args[0]
    if t.em._is(x, "div"):
        num, den = t.em.meta[x][1]
        if abs((t.em._scalar(den) or 0) - np.sqrt(2)) < 1e-6:
            return _Erf(num)
    if t.em._is(x, "mul"):
        num, c = t.em.meta[x][1]
        if abs((t.em._scalar(c) or 0) - 1 / np.sqrt(2)) < 1e-6:
            return _Erf(num)
    raise UnsupportedError("Erf outside the GELU pattern (rlx has no erf)")


def _unary(name, numpy_fn):
    def handler(t, node, args, attrs):
        x = args[0]
        if _static(x) and numpy_fn is not None:
            return numpy_fn(x).astype(np.asarray(x).dtype)
        return t.em.op(name, t.v(x))
    return handler


for _op, _name, _np in (("Relu", "relu", None), ("Sigmoid", "sigmoid", None),
                        ("Tanh", "tanh", np.tanh), ("Exp", "exp", np.exp),
                        ("Log", "log", np.log), ("Sqrt", "sqrt", np.sqrt),
                        ("Neg", "neg", np.negative), ("Abs", "abs", np.abs),
                        ("Sin", "sin", np.sin), ("Cos", "cos", np.cos),
                        ("Tan", "tan", np.tan), ("Atan", "atan", np.arctan)):
    _handles(_op)(_unary(_name, _np))


@_handles("Reciprocal")
def _reciprocal(t, node, args, attrs):
    return t.em.binary("div", 1.0, t.v(args[0]))


@_handles("Gelu")
def _gelu_op(t, node, args, attrs):
    return t.em.op("gelu", t.v(args[0]),
                   approximate=attrs.get("approximate", "none"))


@_handles("LeakyRelu")
def _leaky_relu(t, node, args, attrs):
    x = t.v(args[0])
    pos = t.em.cmp("gt", x, 0.0, x.dtype)
    return t.em.where(pos, x, t.em.binary("mul", x, attrs.get("alpha", 0.01)),
                      x.dtype)


@_handles("HardSigmoid", "HardSwish")
def _hard_sigmoid(t, node, args, attrs):
    # HardSigmoid: max(0, min(1, alpha x + beta)); HardSwish: x times it,
    # with alpha = 1/6 and beta = 1/2.
    x = t.v(args[0])
    alpha = attrs.get("alpha", 0.2) if node.op_type == "HardSigmoid" \
        else 1 / 6
    beta = attrs.get("beta", 0.5)
    y = t.em.binary("add", t.em.binary("mul", x, alpha), beta)
    y = t.em.binary("min", t.em.binary("max", y, 0.0), 1.0)
    return t.em.binary("mul", x, y) if node.op_type == "HardSwish" else y


def _float_input(t, node, x):
    x = t.v(x)
    if x.dtype not in ("f16", "bf16", "f32", "f64"):
        raise UnsupportedError("%s of %s (floating-point types only)" %
                               (node.op_type, x.dtype))
    return x


def _exp_neg(t, x):
    """exp(min(x, 0)): the exponential of the non-positive part of x,
    which never overflows (the ELUs' negative side)."""
    return t.em.op("exp", t.em.binary("min", x, 0.0))


def _log1p(t, u):
    """log(1 + u) for u >= 0, accurate for small u without a log1p op:
    log(w) * u / (w - 1) with w = 1 + u (Goldberg), u where w rounds to
    1."""
    w = t.em.binary("add", u, 1.0)
    d = t.em.binary("sub", w, 1.0)
    tiny = t.em.cmp("eq", d, 0.0, u.dtype)
    safe = t.em.where(tiny, t.em.const(1.0, u.dtype), d, u.dtype)
    ratio = t.em.binary("div", u, safe)
    return t.em.where(tiny, u, t.em.binary("mul", t.em.op("log", w), ratio),
                      u.dtype)


def _softplus(t, x):
    # log(1 + exp(x)) = max(x, 0) + log(1 + exp(-|x|)): no overflow.
    e = t.em.op("exp", t.em.op("neg", t.em.op("abs", x)))
    return t.em.binary("add", t.em.binary("max", x, 0.0), _log1p(t, e))


@_handles("Elu", "Selu", "Celu")
def _elu(t, node, args, attrs):
    # Elu: x >= 0 ? x : alpha (exp(x) - 1); Selu: gamma (x > 0 ? x :
    # alpha (exp(x) - 1)); Celu: max(0, x) + min(0, alpha (exp(x / alpha)
    # - 1)).
    x = _float_input(t, node, args[0])
    op = node.op_type
    alpha = attrs.get("alpha", {"Elu": 1.0, "Celu": 1.0,
                                "Selu": 1.6732631921768188}[op])
    if op == "Celu":
        if alpha == 0:
            raise UnsupportedError("Celu with alpha = 0")
        z = t.em.binary("div", x, alpha)
    else:
        z = x
    neg = t.em.binary("mul", t.em.binary("sub", _exp_neg(t, z), 1.0),
                      alpha)
    y = t.em.where(t.em.cmp("gt", x, 0.0, x.dtype), x, neg, x.dtype)
    if op == "Selu":
        y = t.em.binary("mul", y, attrs.get("gamma", 1.0507010221481323))
    return y


@_handles("Softplus", "Mish")
def _softplus_op(t, node, args, attrs):
    # Mish (opset 18): x tanh(softplus(x)).
    x = _float_input(t, node, args[0])
    y = _softplus(t, x)
    if node.op_type == "Mish":
        y = t.em.binary("mul", x, t.em.op("tanh", y))
    return y


@_handles("Softsign")
def _softsign(t, node, args, attrs):
    x = _float_input(t, node, args[0])
    return t.em.binary("div", x,
                       t.em.binary("add", t.em.op("abs", x), 1.0))


@_handles("PRelu")
def _prelu(t, node, args, attrs):
    # x < 0 ? slope x : x, the slope broadcast to x (unidirectionally).
    x = t.v(args[0])
    slope = args[1]
    shape = tuple(slope.shape) if isinstance(slope, Value) else \
        np.shape(slope)
    if len(shape) > len(x.shape) or any(
            s not in (1, d) for s, d in zip(shape[::-1], x.shape[::-1])):
        raise UnsupportedError("slope of shape %s does not broadcast to "
                               "the input's %s" % (list(shape),
                                                   list(x.shape)))
    slope = t.v(slope, x.dtype)
    return t.em.where(t.em.cmp("lt", x, 0.0, x.dtype),
                      t.em.binary("mul", x, slope), x, x.dtype)


@_handles("Shrink")
def _shrink(t, node, args, attrs):
    # x < -lambd ? x + bias : x > lambd ? x - bias : 0.
    x = t.v(args[0])
    lambd, bias = attrs.get("lambd", 0.5), attrs.get("bias", 0.0)
    if not x.dtype.startswith(("f", "bf")) and not (
            float(lambd).is_integer() and float(bias).is_integer()):
        raise UnsupportedError("Shrink of %s with lambd %g, bias %g (not "
                               "integers)" % (x.dtype, lambd, bias))
    zero = t.em.const(0, x.dtype)
    hi = t.em.where(t.em.cmp("gt", x, lambd, x.dtype),
                    t.em.binary("sub", x, bias), zero, x.dtype)
    return t.em.where(t.em.cmp("lt", x, -lambd, x.dtype),
                      t.em.binary("add", x, bias), hi, x.dtype)


@_handles("ThresholdedRelu")
def _thresholded_relu(t, node, args, attrs):
    x = _float_input(t, node, args[0])
    return t.em.where(t.em.cmp("gt", x, attrs.get("alpha", 1.0), x.dtype),
                      x, t.em.const(0.0, x.dtype), x.dtype)


@_handles("Clip")
def _clip(t, node, args, attrs):
    x = t.v(args[0])
    lo = args[1] if len(args) > 1 else None
    hi = args[2] if len(args) > 2 else None
    if lo is not None:
        x = t.em.binary("max", x, lo)
    if hi is not None:
        x = t.em.binary("min", x, hi)
    return x


_CMP = {"Equal": ("eq", np.equal), "Less": ("lt", np.less),
        "LessOrEqual": ("le", np.less_equal),
        "Greater": ("gt", np.greater),
        "GreaterOrEqual": ("ge", np.greater_equal)}


@_handles(*_CMP)
def _compare(t, node, args, attrs):
    predicate, fn = _CMP[node.op_type]
    a, b = args
    if _static(a) and _static(b):
        return fn(a, b)
    return t.em.cmp(predicate, a, b, _dtype_of(a if isinstance(a, Value)
                                               else b))


@_handles("Not")
def _not(t, node, args, attrs):
    if _static(args[0]):
        return np.logical_not(args[0])
    return t.em.cmp("eq", args[0], np.zeros((), np.bool_), "i1")


@_handles("Where")
def _where(t, node, args, attrs):
    cond, a, b = args
    if all(_static(x) for x in args):
        return np.where(cond, a, b)
    dtype = _dtype_of(a if isinstance(a, Value) else b)
    return t.em.where(cond, a, b, dtype)


# ---- Reductions, softmax ---------------------------------------------- #

_REDUCE = {"ReduceMean": "mean", "ReduceSum": "sum", "ReduceMax": "max",
           "ReduceMin": "min", "ReduceProd": "prod"}


@_handles(*_REDUCE)
def _reduce(t, node, args, attrs):
    x = args[0]
    # ReduceSum takes its axes as an input from opset 13, the others from
    # 18 (after the opsets imported here).
    axes = _axes_arg(args, attrs) if node.op_type == "ReduceSum" else \
        attrs.get("axes")
    keep = bool(attrs.get("keepdims", 1))
    if axes is None and attrs.get("noop_with_empty_axes", 0):
        return x
    if _static(x):
        fn = {"mean": np.mean, "sum": np.sum, "max": np.max, "min": np.min,
              "prod": np.prod}[_REDUCE[node.op_type]]
        return np.asarray(fn(x, axis=None if axes is None else tuple(axes),
                             keepdims=keep))
    return t.em.reduce(_REDUCE[node.op_type], x, axes, keep)


@_handles("ArgMax", "ArgMin")
def _argmax(t, node, args, attrs):
    if attrs.get("select_last_index", 0):
        raise UnsupportedError("select_last_index")
    x = t.v(args[0])
    axis = attrs.get("axis", 0)
    return t.em.op(node.op_type.lower(), x,
                   axis=axis + len(x.shape) if axis < 0 else axis,
                   keepdim=bool(attrs.get("keepdims", 1)))


@_handles("Softmax", "LogSoftmax")
def _softmax(t, node, args, attrs):
    x = t.v(args[0])
    axis = attrs.get("axis", -1)
    axis = axis + len(x.shape) if axis < 0 else axis
    name = "softmax" if node.op_type == "Softmax" else "log_softmax"
    return t.em.op(name, x, axis=axis)


@_handles("CumSum")
def _cumsum(t, node, args, attrs):
    if attrs.get("exclusive", 0) or attrs.get("reverse", 0):
        raise UnsupportedError("exclusive or reverse CumSum")
    x = t.v(args[0])
    axis = int(np.asarray(args[1]))
    return t.em.op("cumsum", x, axis=axis + len(x.shape) if axis < 0
                   else axis)


# ---- Linear algebra, normalization -------------------------------------- #

@_handles("MatMul")
def _matmul(t, node, args, attrs):
    a, b = args
    if _static(a) and _static(b):
        return np.matmul(a, b)
    return t.em.matmul(t.v(a), t.v(b, _dtype_of(a)))


@_handles("Gemm")
def _gemm(t, node, args, attrs):
    a, b = t.v(args[0]), args[1]
    c = args[2] if len(args) > 2 else None
    if attrs.get("transA", 0):
        a = t.em.transpose(a, [1, 0])
    b = t.v(b, a.dtype)
    if attrs.get("transB", 0):
        b = t.em.transpose(b, [1, 0])
    y = t.em.matmul(a, b)
    alpha, beta = attrs.get("alpha", 1.0), attrs.get("beta", 1.0)
    if alpha != 1.0:
        y = t.em.binary("mul", y, alpha)
    if c is not None:
        c = t.v(c, a.dtype)
        if beta != 1.0:
            c = t.em.binary("mul", c, beta)
        y = t.em.binary("add", y, c)
    return y


@_handles("LayerNormalization")
def _layer_norm(t, node, args, attrs):
    x = t.v(args[0])
    axis = attrs.get("axis", -1)
    rank = len(x.shape)
    axis = axis + rank if axis < 0 else axis
    if len(node.output) > 1 and any(node.output[1:]):
        raise UnsupportedError("LayerNormalization's mean and inverse "
                               "deviation outputs")
    gamma = args[1] if len(args) > 1 else None
    beta = args[2] if len(args) > 2 else None
    return t.em.layer_norm(x, rank - axis, gamma, beta,
                           attrs.get("epsilon", 1e-5))


@_handles("InstanceNormalization")
def _instance_norm(t, node, args, attrs):
    x, scale, bias = t.v(args[0]), args[1], args[2]
    shape = list(x.shape)
    n, c = shape[0], shape[1]
    flat = t.em.reshape(x, [n, c, int(np.prod(shape[2:]))])
    y = t.em.layer_norm(flat, 1, None, None, attrs.get("epsilon", 1e-5))
    y = t.em.reshape(y, shape)
    view = [c] + [1] * (len(shape) - 2)
    s, b = t.v(scale, x.dtype), t.v(bias, x.dtype)
    if not (_static(scale) and np.all(np.asarray(scale) == 1)):
        y = t.em.binary("mul", y, t.em.reshape(s, view))
    if not (_static(bias) and np.all(np.asarray(bias) == 0)):
        y = t.em.binary("add", y, t.em.reshape(b, view))
    return y


@_handles("BatchNormalization")
def _batch_norm(t, node, args, attrs):
    if attrs.get("training_mode", 0):
        raise UnsupportedError("BatchNormalization in training mode")
    x = t.v(args[0])
    gamma, beta, mean, var = (t.v(a, x.dtype) for a in args[1:5])
    return t.em.op("batch_norm_inference", x, gamma, beta, mean, var,
                   epsilon=float(attrs.get("epsilon", 1e-5)))


# ---- Convolution and pooling -------------------------------------------- #

def _pads(attrs, spatial, kernel, strides, dilations, in_shape):
    auto = attrs.get("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = []
        for i in range(spatial):
            out = -(-in_shape[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + dilations[i] *
                        (kernel[i] - 1) + 1 - in_shape[i])
            lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
            pads += [lo, total - lo]
        return pads
    onnx_pads = attrs.get("pads", [0] * (2 * spatial))
    # ONNX: [begin0, begin1, ..., end0, end1, ...]; rlx: [lo0, hi0, ...].
    return [p for i in range(spatial)
            for p in (onnx_pads[i], onnx_pads[i + spatial])]


@_handles("Conv")
def _conv(t, node, args, attrs):
    x, w = t.v(args[0]), args[1]
    w = t.v(w, x.dtype)
    b = t.v(args[2], x.dtype) if len(args) > 2 and args[2] is not None \
        else None
    spatial = len(x.shape) - 2
    kernel = attrs.get("kernel_shape", list(w.shape[2:]))
    strides = attrs.get("strides", [1] * spatial)
    dilations = attrs.get("dilations", [1] * spatial)
    pads = _pads(attrs, spatial, kernel, strides, dilations, x.shape[2:])
    return t.em.op("conv", x, w, b, strides=strides, padding=pads,
                   dilations=dilations, groups=attrs.get("group", 1))


@_handles("MaxPool", "AveragePool")
def _pool(t, node, args, attrs):
    x = t.v(args[0])
    if len(node.output) > 1 and node.output[1]:
        raise UnsupportedError("MaxPool's indices output")
    spatial = len(x.shape) - 2
    kernel = attrs["kernel_shape"]
    strides = attrs.get("strides", [1] * spatial)
    dilations = attrs.get("dilations", [1] * spatial)
    if any(d != 1 for d in dilations):
        raise UnsupportedError("pooling with dilations")
    pads = _pads(attrs, spatial, kernel, strides, dilations, x.shape[2:])
    kind = "max" if node.op_type == "MaxPool" else "avg"
    return t.em.pool(x, kind, kernel, strides, pads,
                     bool(attrs.get("ceil_mode", 0)),
                     bool(attrs.get("count_include_pad", 0)))


@_handles("GlobalAveragePool", "GlobalMaxPool")
def _global_pool(t, node, args, attrs):
    x = t.v(args[0])
    kind = "mean" if node.op_type == "GlobalAveragePool" else "max"
    return t.em.reduce(kind, x, list(range(2, len(x.shape))), True)


@_handles("Pad")
def _pad(t, node, args, attrs):
    mode = attrs.get("mode", "constant")
    if mode != "constant":
        raise UnsupportedError("Pad mode %r" % mode)
    x = t.v(args[0])
    rank = len(x.shape)
    pads = _ints(args[1])
    value = args[2] if len(args) > 2 and args[2] is not None else 0
    axes = _ints(args[3]) if len(args) > 3 and args[3] is not None else \
        list(range(rank))
    if isinstance(value, Value):
        raise UnsupportedError("Pad with a computed value")
    value = float(np.asarray(value).reshape(-1)[0])
    k = len(axes)
    for i, a in enumerate(axes):
        a = a + rank if a < 0 else a
        lo, hi = pads[i], pads[i + k]
        if lo < 0 or hi < 0:
            raise UnsupportedError("negative pads")
        parts = []
        for n in (lo, hi):
            shape = list(x.shape)
            shape[a] = n
            parts.append(t.em.const(np.full(shape, value), x.dtype)
                         if n else None)
        x = t.em.concat([p for p in (parts[0], x, parts[1])
                         if p is not None], a)
    return x


# The example sizes of dynamic dims that input_shapes does not give: one
# per symbol, distinct so that two symbols are told apart.
_EXAMPLE_SIZES = (3, 5, 7, 11, 13, 17, 19, 23)


def _import_dynamic(model, name, params_as_args, input_shapes, context):
    """from_onnx with dynamic=True: every input dim of no dim_value is `?`,
    one symbol per dim_param (importers/_dynamic.py)."""
    from . import _dynamic
    first = _OnnxImporter(model, name, params_as_args, None, context)
    initializers = {i.name for i in first.graph.initializer}
    inputs = [i for i in first.graph.input if i.name not in initializers]
    given = dict(input_shapes or {})
    dynamic, shapes, sizes = {}, {}, {}
    for index, i in enumerate(inputs):
        shape = []
        for d, dim in enumerate(i.type.tensor_type.shape.dim):
            if dim.HasField("dim_value"):
                shape.append(dim.dim_value)
                continue
            symbol = dim.dim_param or "%s.%d" % (i.name, d)
            dynamic.setdefault(index, {})[d] = symbol
            if i.name in given:
                size = int(given[i.name][d])
            else:
                size = sizes.get(symbol) or _EXAMPLE_SIZES[
                    len(set(sizes)) % len(_EXAMPLE_SIZES)]
            if sizes.setdefault(symbol, size) != size:
                raise ValueError(
                    "rlx.from_onnx: input_shapes gives the dim '%s' the "
                    "sizes %d and %d" % (symbol, sizes[symbol], size))
            shape.append(size)
        shapes[i.name] = tuple(given.get(i.name, shape))
    first.input_shapes = shapes
    model_a = first.run()
    if not dynamic:
        return model_a
    shape_list = [shapes[i.name] for i in inputs]
    for index, dims in dynamic.items():
        for d, symbol in dims.items():
            if shape_list[index][d] < 2:
                raise ValueError(
                    "rlx.from_onnx: the dynamic dim '%s' has the example "
                    "size %d in input_shapes; give 2 or more (sizes 0 and 1 "
                    "are special: broadcasts, squeezes)" %
                    (symbol, shape_list[index][d]))
    others = _dynamic.other_sizes(dynamic, shape_list)
    try:
        second = _OnnxImporter(first.model, name, params_as_args,
                               {i.name: s for i, s in zip(inputs, others)},
                               first.context).run()
    except UnsupportedError as error:
        raise UnsupportedError(
            "rlx.from_onnx: the model does not import with other sizes of "
            "its dynamic dims (inputs of shapes %s): a static size is baked "
            "in: %s" % (", ".join(str(tuple(s)) for s in others),
                        error)) from error
    nodes = {}
    for node in first.graph.node:
        key = (node.name or node.op_type, 0)
        nodes.setdefault(key, first._describe(node))
    return _dynamic.imported(model_a, second, name, nodes, dynamic)


def from_onnx(model, name="main", params_as_args=False, input_shapes=None,
              context=None, dynamic=False):
    """Imports an ONNX model (a path, serialized bytes or an
    onnx.ModelProto of opset 13 to 17) into an rlx function of its graph
    inputs. Floating-point initializers become rlx.params named by the
    initializer (or the function's arguments after the inputs, with
    `params_as_args`); `input_shapes` (name -> shape) fixes inputs with
    dynamic dims. Returns an rlx.ImportedModel. Raises
    rlx.UnsupportedError naming the node and op_type where an op has no
    translation.

    With `dynamic=True`, the inputs' dims that have no dim_value (a
    dim_param, or none) import as `?` dims: dims of one dim_param are one
    symbol (they must agree when the program runs). The model is imported
    at example sizes of them (`input_shapes`, else 3, 5, 7, ... per
    dim_param) and at others, and the two are merged: what a dynamic dim
    changes besides the types (a constant or slice of its size) is an
    UnsupportedError naming the node. The model's `dynamic_dims` records
    them as {input index: {dim: dim_param}}."""
    if dynamic:
        return _import_dynamic(model, name, params_as_args, input_shapes,
                               context)
    return _OnnxImporter(model, name, params_as_args, input_shapes,
                         context).run()
