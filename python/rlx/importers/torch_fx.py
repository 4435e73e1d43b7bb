# ===- torch_fx.py - rlx.from_torch: PyTorch modules through torch.fx -=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""rlx.from_torch(module, example_inputs): a torch.nn.Module traced with
torch.fx (symbolic_trace, with the source line of every node) and run once
on the example inputs, which fixes every shape and every value that does
not depend on the inputs' data; then each node becomes rlx ops.

- Parameters (`nn.Parameter`) become rlx.params named by their state_dict
  keys, bound to their values (or, with `params_as_args=True`, function
  arguments after the inputs). A weight read only as a linear layer's
  (`nn.Linear`, `F.linear`) is bound transposed, [in, out].
- Buffers (BatchNorm's running statistics, masks, rope tables) and every
  tensor computed from buffers and shapes alone are evaluated by PyTorch
  and become constants.
- Modules that torch.fx keeps whole (those of torch.nn: activations,
  pooling, nn.MultiheadAttention, the nn.Transformer* layers) become the
  composition of rlx ops their eval-mode forward computes.
- A node without a translation raises UnsupportedError naming the node,
  its target and its source line; nothing is skipped."""

import os
import re

import numpy as np

from .. import default_context
from ..builder import Function, Value, numpy_to_mlir
from ._emit import Emitter, ImportedModel, UnsupportedError, finish

_FUNCTIONS = {}
_METHODS = {}
_MODULES = []


def _function(*names):
    def register(fn):
        for name in names:
            _FUNCTIONS[name] = fn
        return fn
    return register


def _method(*names):
    def register(fn):
        for name in names:
            _METHODS[name] = fn
        return fn
    return register


def _both(*names):
    def register(fn):
        for name in names:
            _FUNCTIONS[name] = fn
            _METHODS[name] = fn
        return fn
    return register


def _torch():
    import torch
    import torch.fx
    return torch


# Functions and methods whose result depends on the shapes of their
# operands only, never on the values: evaluated when importing.
_SHAPE_ONLY = {"size", "dim", "numel", "zeros_like", "ones_like",
               "full_like", "new_zeros", "new_ones", "new_full",
               "new_empty", "empty_like", "ndimension"}
_SHAPE_ATTRS = {"shape", "dtype", "device", "ndim", "is_cuda"}


_NO_VALUE = object()


def _tracer_class():
    """torch.fx.Tracer that also runs each traced op on the example inputs,
    so that shapes are concrete while tracing: `b, s, _ = x.shape`
    unpacks and `if x.shape[1] > 1:` branches (on the example's shapes;
    control flow on tensor data stays an error)."""
    torch = _torch()
    fx = torch.fx

    class Proxy(fx.Proxy):
        # PyTorch 1.13's Proxy.__iter__ reads the caller's bytecode in a way
        # Python 3.11 breaks; the tracer knows the value's length instead.
        def __iter__(self):
            return self.tracer.iter(self)

        def __len__(self):
            value = self.tracer._value(self)
            if isinstance(value, (tuple, list)):
                return len(value)
            raise RuntimeError("len() of a traced value of unknown length")

    class Tracer(fx.Tracer):
        def proxy(self, node):
            return Proxy(node, self)

        def __init__(self, inputs):
            super().__init__()
            self.example_inputs = list(inputs)
            self.node_values = {}
            self.concrete = False

        # While an op runs on the example's values, modules run as they
        # are and their attributes are themselves (not graph nodes).
        def getattr(self, attr, attr_val, parameter_proxy_cache):
            if self.concrete:
                return attr_val
            return super().getattr(attr, attr_val, parameter_proxy_cache)

        def call_module(self, m, forward, args, kwargs):
            if self.concrete:
                return forward(*args, **kwargs)
            return super().call_module(m, forward, args, kwargs)

        def _concrete(self, arg):
            return fx.node.map_arg(arg, lambda n: self.node_values.get(
                n, _NO_VALUE))

        def create_proxy(self, kind, target, args, kwargs, *rest, **kw):
            proxy = super().create_proxy(kind, target, args, kwargs, *rest,
                                         **kw)
            node = proxy.node
            self.concrete = True
            try:
                a = self._concrete(node.args)
                k = self._concrete(node.kwargs)
                if kind == "placeholder":
                    n = len([m for m in self.node_values
                             if m.op == "placeholder"])
                    value = self.example_inputs[n]
                elif kind == "get_attr":
                    value = self.root
                    for part in target.split("."):
                        value = getattr(value, part)
                elif kind == "call_function":
                    value = target(*a, **k)
                elif kind == "call_method":
                    value = getattr(a[0], target)(*a[1:], **k)
                elif kind == "call_module":
                    value = self.root.get_submodule(target)(*a, **k)
                else:
                    return proxy
                self.node_values[node] = value
            except Exception:  # noqa: BLE001 - left symbolic
                pass
            finally:
                self.concrete = False
            return proxy

        def _value(self, proxy):
            return self.node_values.get(proxy.node, _NO_VALUE)

        def iter(self, obj):
            value = self._value(obj)
            if isinstance(value, (tuple, list)):
                return iter([obj[i] for i in range(len(value))])
            return super().iter(obj)

        def to_bool(self, obj):
            value = self._value(obj)
            if value is _NO_VALUE or isinstance(value, torch.Tensor):
                return super().to_bool(obj)
            return bool(value)

    return Tracer


class _Interpreter:
    """Runs the traced graph on the example inputs and keeps every node's
    value."""

    def __init__(self, gm):
        torch = _torch()

        class Recorder(torch.fx.Interpreter):
            def run_node(inner, node):
                value = super().run_node(node)
                self.values[node] = value
                return value

        self.values = {}
        self.interpreter = Recorder(gm)

    def run(self, *inputs):
        torch = _torch()
        with torch.no_grad():
            return self.interpreter.run(*inputs)


def _source_line(node):
    """(file, line, code) of the user's code that made `node`, or None."""
    trace = node.stack_trace
    if not trace:
        return None
    torch = _torch()
    skip = (os.path.dirname(torch.__file__),
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    frames = []
    lines = trace.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r'\s*File "(.*)", line (\d+), in (\S+)', line)
        if not m or m.group(1).startswith(skip):
            continue
        code = ""
        if i + 1 < len(lines) and not lines[i + 1].lstrip().startswith(
                "File "):
            code = lines[i + 1].strip()
        frames.append((m.group(1), int(m.group(2)), code))
    if not frames:
        return None
    # PyTorch 1.x lists the innermost frame first, 2.x last.
    return frames[0] if torch.__version__.startswith("1.") else frames[-1]


def _describe(node):
    target = node.target
    if callable(target):
        target = getattr(target, "__module__", None) and "%s.%s" % (
            target.__module__, getattr(target, "__name__", target)) or \
            repr(target)
    where = _source_line(node)
    text = "fx node '%s' (%s %s)" % (node.name, node.op, target)
    if where:
        text += " at %s:%d" % where[:2]
        if where[2]:
            text += ": %s" % where[2]
    return text


class _TorchImporter:
    def __init__(self, module, example_inputs, name, params_as_args,
                 context):
        torch = _torch()
        self.torch = torch
        if not isinstance(module, torch.nn.Module):
            raise TypeError("rlx.from_torch takes a torch.nn.Module, got %r"
                            % type(module).__name__)
        if isinstance(example_inputs, torch.Tensor):
            example_inputs = (example_inputs,)
        self.inputs = tuple(example_inputs)
        for i, x in enumerate(self.inputs):
            if not isinstance(x, torch.Tensor):
                raise TypeError("rlx.from_torch: example input %d is a %s; "
                                "inputs are tensors" % (i, type(x).__name__))
        self.module = module
        self.name = name
        self.params_as_args = params_as_args
        self.context = context or default_context()
        self.gm = self._trace(module)
        self.modules = dict(self.gm.named_modules())
        self.parameters = dict(module.named_parameters())

    def _trace(self, module):
        torch = self.torch
        tracer = _tracer_class()(self.inputs)
        tracer.record_stack_traces = True
        # Buffers as graph nodes, so that they can be indexed by shapes.
        tracer.proxy_buffer_attributes = True
        # Arguments after the example inputs keep their defaults.
        import inspect
        concrete = {}
        try:
            signature = inspect.signature(module.forward)
        except (TypeError, ValueError):
            signature = None
        if signature is not None:
            names = [p for p in signature.parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY,
                                   p.POSITIONAL_OR_KEYWORD)]
            for p in names[len(self.inputs):]:
                if p.default is not p.empty:
                    concrete[p.name] = p.default
        try:
            with torch.no_grad():
                graph = tracer.trace(module, concrete_args=concrete or None)
            self.defaults = concrete
        except Exception as error:  # noqa: BLE001 - torch.fx's own errors
            raise UnsupportedError(
                "rlx.from_torch: torch.fx cannot trace %s: %s" %
                (type(module).__name__, error)) from error
        return torch.fx.GraphModule(tracer.root, graph)

    # ---- What the graph reads ------------------------------------------ #

    def _param_of(self, node):
        """The parameter name a get_attr node reads, or None."""
        if node.op == "get_attr" and node.target in self.parameters:
            return node.target
        return None

    def _module_params(self, node):
        """(name, read as a linear weight) of each parameter of a
        call_module node's module, its submodules' included (a leaf such
        as nn.MultiheadAttention holds its out_proj)."""
        torch = self.torch
        sub = self.modules[node.target]
        out = []
        for n, _ in sub.named_parameters():
            owner = sub.get_submodule(n.rpartition(".")[0]) if "." in n \
                else sub
            out.append(("%s.%s" % (node.target, n),
                        isinstance(owner, torch.nn.Linear) and
                        n.rpartition(".")[2] == "weight"))
        return out

    def _collect_params(self):
        """Parameters in the order the graph first reads them, and whether
        every read is as a linear weight."""
        torch = self.torch
        order, linear_only = [], {}

        def use(name, as_linear):
            if name not in linear_only:
                order.append(name)
                linear_only[name] = True
            linear_only[name] &= as_linear

        for node in self.gm.graph.nodes:
            if node.op == "call_module":
                for pname, as_linear in self._module_params(node):
                    use(pname, as_linear)
            else:
                for i, arg in enumerate(node.args):
                    if isinstance(arg, torch.fx.Node) and \
                            self._param_of(arg):
                        use(self._param_of(arg),
                            node.op == "call_function" and
                            getattr(node.target, "__name__", "") == "linear"
                            and i == 1)
                for key, arg in node.kwargs.items():
                    if isinstance(arg, torch.fx.Node) and \
                            self._param_of(arg):
                        use(self._param_of(arg),
                            node.op == "call_function" and
                            getattr(node.target, "__name__", "") == "linear"
                            and key == "weight")
        params = {}
        for name in order:
            array = self.parameters[name].detach().cpu().numpy()
            if linear_only[name] and array.ndim == 2:
                params[name] = (np.ascontiguousarray(array.T), True)
            else:
                params[name] = (np.ascontiguousarray(array), False)
        return params

    # ---- Values ---------------------------------------------------------- #

    def _resolve(self, arg):
        torch = self.torch
        if isinstance(arg, torch.fx.Node):
            return self._value_of(arg)
        if isinstance(arg, (list, tuple)):
            return type(arg)(self._resolve(a) for a in arg)
        if isinstance(arg, dict):
            return {k: self._resolve(v) for k, v in arg.items()}
        if isinstance(arg, slice):
            return slice(self._resolve(arg.start), self._resolve(arg.stop),
                         self._resolve(arg.step))
        return arg

    def _value_of(self, node):
        if node in self.env:
            return self.env[node]
        # A constant: its value from the run on the example inputs.
        value = self.values[node]
        return self._constant(node, value)

    def _constant(self, node, value):
        torch = self.torch
        if isinstance(value, torch.Tensor):
            array = value.detach().cpu().numpy()
            dtype = numpy_to_mlir(array.dtype)
            saved = self.em.loc
            self.em.loc = None
            v = self.em.const(array, dtype)
            self.em.loc = saved
            self.env[node] = v
            return v
        if isinstance(value, (tuple, list)) and any(
                isinstance(x, torch.Tensor) for x in value):
            out = type(value)(self._constant(None, x) if isinstance(
                x, torch.Tensor) else x for x in value)
            self.env[node] = out
            return out
        if isinstance(value, torch.Size):
            value = tuple(value)
        self.env[node] = value
        return value

    def dtype(self, node):
        value = self.values[node]
        if isinstance(value, (tuple, list)):
            value = value[0]
        return numpy_to_mlir(value.detach().cpu().numpy().dtype)

    # ---- Import ------------------------------------------------------- #

    def run(self):
        module = self.module
        placeholders = [n for n in self.gm.graph.nodes
                        if n.op == "placeholder"]
        # The arguments left at their defaults follow the inputs (PyTorch
        # 1.x names their placeholders name_1).
        rest = placeholders[len(self.inputs):]
        names = [n.target if n.target in self.defaults else
                 re.sub(r"_\d+$", "", n.target) for n in rest]
        if len(placeholders) < len(self.inputs) or any(
                name not in self.defaults for name in names):
            raise TypeError("rlx.from_torch: %s.forward takes %d inputs, %d "
                            "example inputs given" % (
                                type(module).__name__, len(placeholders),
                                len(self.inputs)))
        self.extra = {n: self.defaults[name] for n, name in zip(rest, names)}
        rec = _Interpreter(self.gm)
        outputs = rec.run(*self.inputs, *self.extra.values())
        self.values = rec.values
        params = self._collect_params()
        param_args = list(params) if self.params_as_args else []
        ctx = self.context
        placeholders = placeholders[:len(self.inputs)]
        input_types = [ctx.tensor(tuple(x.shape), numpy_to_mlir(
            x.detach().cpu().numpy().dtype)) for x in self.inputs]
        param_types = [ctx.tensor(params[n][0].shape,
                                  numpy_to_mlir(params[n][0].dtype))
                       for n in param_args]
        self.env, self.dynamic = {}, {}
        with Function(self.name, input_types + param_types,
                      context=ctx) as f:
            self.em = Emitter(f, params, param_args)
            results = None
            for node in self.gm.graph.nodes:
                if node.op == "output":
                    results = self._outputs(node)
                    continue
                self._node(node, f)
            f.returns(results)
        finish(f)
        del outputs
        return ImportedModel(f, params, [n for n in params if params[n][1]],
                             param_args, [n.name for n in placeholders],
                             self.output_names)

    def _outputs(self, node):
        out = node.args[0]
        names = []
        if isinstance(out, dict):
            names = list(out.keys())
            out = list(out.values())
        elif isinstance(out, (list, tuple)):
            names = ["output%d" % i for i in range(len(out))]
        else:
            resolved = self._resolve(out)
            if isinstance(resolved, (tuple, list)):
                # A module's tuple returned as it is (nn.MultiheadAttention's
                # output and weights).
                out = list(resolved)
                names = ["output%d" % i for i in range(len(out))]
            else:
                names = ["output"]
                out = [out]
        values, kept = [], []
        for name, o in zip(names, out):
            v = self._resolve(o)
            if v is None:
                continue  # MultiheadAttention's weights, not asked for
            kept.append(name)
            if isinstance(v, Value):
                values.append(v)
            else:
                raise UnsupportedError(
                    "rlx.from_torch: the module returns %r, not a tensor "
                    "computed from its inputs or params (%s)" %
                    (v, _describe(node)))
        self.output_names = kept
        return values

    def _node(self, node, f):
        torch = self.torch
        where = _source_line(node)
        # The ops' location: the user's line, or the fx node's name.
        self.em.loc = (where[0], where[1], 1) if where else (node.name, 0, 0)
        if node.op == "placeholder":
            index = len([n for n in self.env if n.op == "placeholder"])
            if node in self.extra:  # an argument left at its default
                self.env[node] = self.extra[node]
                return
            self.env[node] = f.args[index]
            self.dynamic[node] = True
            return
        if node.op == "get_attr":
            name = self._param_of(node)
            if name is not None:
                self.env[node] = self.em.param(name)
                self.dynamic[node] = True
            return  # a buffer: a constant where read
        inputs = node.all_input_nodes
        dynamic = any(self.dynamic.get(n, False) for n in inputs)
        value = self.values[node]
        name = node.target if isinstance(node.target, str) else \
            getattr(node.target, "__name__", "")
        if node.op == "call_function" and name == "getattr" and \
                node.args[1] in _SHAPE_ATTRS:
            return  # x.shape, x.dtype: a constant of the example
        if name in _SHAPE_ONLY and node.op != "call_module":
            return
        has_tensor = isinstance(value, torch.Tensor) or (
            isinstance(value, (tuple, list)) and any(
                isinstance(v, torch.Tensor) for v in value))
        if not dynamic:
            return  # computed from constants: PyTorch's value
        if not has_tensor and not (node.op == "call_function" and
                                   name == "getitem"):
            raise UnsupportedError(
                "rlx.from_torch: %s gives %r, a value that depends on the "
                "inputs' data" % (_describe(node), value))
        self.dynamic[node] = True
        args = self._resolve(node.args)
        kwargs = self._resolve(node.kwargs)
        try:
            if node.op == "call_module":
                result = self._call_module(node, args, kwargs)
            elif node.op == "call_function":
                handler = _FUNCTIONS.get(name)
                if handler is None:
                    raise UnsupportedError("no translation")
                result = handler(self, node, *args, **kwargs)
            elif node.op == "call_method":
                handler = _METHODS.get(name)
                if handler is None:
                    raise UnsupportedError("no translation")
                result = handler(self, node, *args, **kwargs)
            else:
                raise UnsupportedError("no translation")
        except UnsupportedError as error:
            raise UnsupportedError("rlx.from_torch: %s: %s" %
                                   (_describe(node), error)) from None
        except (TypeError, ValueError) as error:
            raise UnsupportedError("rlx.from_torch: %s: %s: %s" % (
                _describe(node), type(error).__name__, error)) from error
        self.env[node] = result
        if result is None and value is None:
            return  # nn.MultiheadAttention's weights with need_weights=False
        if not isinstance(result, (tuple, list)) and \
                not isinstance(result, Value):
            raise UnsupportedError("rlx.from_torch: %s: translated to %r" %
                                   (_describe(node), result))

    def _call_module(self, node, args, kwargs):
        sub = self.modules[node.target]
        for cls, handler in _MODULES:
            cls = getattr(self.torch.nn, cls, None)
            if cls is not None and isinstance(sub, cls):
                return handler(self, node, sub, *args, **kwargs)
        raise UnsupportedError("no translation of module %s" %
                               type(sub).__name__)

    # ---- Helpers for the handlers -------------------------------------- #

    def v(self, x, node=None, dtype=None):
        """x as a Value of `dtype` (default: node's result dtype)."""
        return self.em.value(x, dtype or self.dtype(node))

    def p(self, node, name):
        """The Value of the module parameter `name` of a call_module node,
        or None if the module has none."""
        full = "%s.%s" % (node.target, name)
        if full in self.em.params:
            return self.em.param(full)
        return None


def _module(*names):
    """Registers a handler of the torch.nn classes `names`."""
    def register(fn):
        for name in names:
            _MODULES.append((name, fn))
        return fn
    return register


def _dims(dim, rank):
    if dim is None:
        return list(range(rank))
    if isinstance(dim, int):
        return [dim]
    return list(dim)


# ---- Modules ------------------------------------------------------------ #

@_module("Linear")
def _m_linear(t, node, m, x):
    w = t.em.weight_in_out("%s.weight" % node.target)
    return t.em.linear(x, w, t.p(node, "bias"))


@_module("Conv1d", "Conv2d")
def _m_conv(t, node, m, x):
    return _conv(t, x, t.p(node, "weight"), t.p(node, "bias"), m.stride,
                 m.padding, m.dilation, m.groups, m.padding_mode)


def _conv(t, x, w, b, stride, padding, dilation, groups, mode="zeros"):
    spatial = len(w.shape) - 2
    if mode != "zeros":
        raise UnsupportedError("padding_mode=%r" % mode)
    as_list = (lambda v: [v] * spatial if isinstance(v, int) else list(v))
    stride, dilation = as_list(stride), as_list(dilation)
    kernel = list(w.shape[2:])
    if padding == "valid":
        padding = [0] * spatial
    elif padding == "same":
        pads = []
        for k, d in zip(kernel, dilation):
            total = d * (k - 1)
            pads += [total // 2, total - total // 2]
        padding = pads
    else:
        padding = [p for p in as_list(padding) for _ in (0, 1)]
    return t.em.op("conv", x, w, b, strides=stride, padding=padding,
                   dilations=dilation, groups=int(groups))


@_module("LayerNorm")
def _m_layer_norm(t, node, m, x):
    return t.em.layer_norm(x, len(m.normalized_shape), t.p(node, "weight"),
                           t.p(node, "bias"), m.eps)


@_module("GroupNorm")
def _m_group_norm(t, node, m, x):
    c = x.shape[1]
    gamma = t.p(node, "weight")
    beta = t.p(node, "bias")
    gamma = gamma if gamma is not None else t.em.value(np.ones(c), x.dtype)
    beta = beta if beta is not None else t.em.value(np.zeros(c), x.dtype)
    return t.em.op("group_norm", x, gamma, beta, num_groups=m.num_groups,
                   epsilon=float(m.eps))


@_module("BatchNorm1d", "BatchNorm2d")
def _m_batch_norm(t, node, m, x):
    if m.training and not m.track_running_stats:
        raise UnsupportedError("BatchNorm without running statistics")
    c = x.shape[1]
    gamma = t.p(node, "weight")
    beta = t.p(node, "bias")
    dtype = x.dtype
    gamma = gamma if gamma is not None else t.em.value(np.ones(c), dtype)
    beta = beta if beta is not None else t.em.value(np.zeros(c), dtype)
    mean = t.em.value(m.running_mean.detach().cpu().numpy(), dtype)
    var = t.em.value(m.running_var.detach().cpu().numpy(), dtype)
    if len(x.shape) == 2:
        y = t.em.op("batch_norm_inference", t.em.reshape(x, list(x.shape) +
                                                         [1]),
                    gamma, beta, mean, var, epsilon=float(m.eps))
        return t.em.reshape(y, x.shape)
    return t.em.op("batch_norm_inference", x, gamma, beta, mean, var,
                   epsilon=float(m.eps))


@_module("Embedding")
def _m_embedding(t, node, m, ids):
    return _embedding(t, ids, t.p(node, "weight"))


def _embedding(t, ids, table):
    return t.em.op("gather", table, t.em.cast(ids, "i64"), axis=0)


@_module("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
         "FeatureAlphaDropout", "Identity")
def _m_identity(t, node, m, x, *rest, **kwargs):
    return x


@_module("ReLU")
def _m_relu(t, node, m, x):
    return t.em.op("relu", x)


@_module("GELU")
def _m_gelu(t, node, m, x):
    return _gelu(t, node, x, getattr(m, "approximate", "none"))


@_module("SiLU")
def _m_silu(t, node, m, x):
    return t.em.op("silu", x)


@_module("Sigmoid")
def _m_sigmoid(t, node, m, x):
    return t.em.op("sigmoid", x)


@_module("Tanh")
def _m_tanh(t, node, m, x):
    return t.em.op("tanh", x)


@_module("Softmax")
def _m_softmax(t, node, m, x):
    return _softmax(t, node, x, m.dim)


@_module("LogSoftmax")
def _m_log_softmax(t, node, m, x):
    return _log_softmax(t, node, x, m.dim)


@_module("LeakyReLU")
def _m_leaky_relu(t, node, m, x):
    return _leaky_relu(t, node, x, m.negative_slope)


@_module("ReLU6", "Hardtanh")
def _m_hardtanh(t, node, m, x):
    lo, hi = (0.0, 6.0) if type(m).__name__ == "ReLU6" else (m.min_val,
                                                             m.max_val)
    return _clamp(t, node, x, lo, hi)


@_module("Flatten")
def _m_flatten(t, node, m, x):
    return _flatten(t, node, x, m.start_dim, m.end_dim)


@_module("MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d")
def _m_pool(t, node, m, x):
    kind = "max" if "Max" in type(m).__name__ else "avg"
    if kind == "max":
        if m.dilation not in (1, (1, 1), [1, 1], (1,)):
            raise UnsupportedError("max pooling with dilation")
        if m.return_indices:
            raise UnsupportedError("max pooling that returns indices")
        return _pool(t, kind, x, m.kernel_size, m.stride, m.padding,
                     m.ceil_mode)
    return _pool(t, kind, x, m.kernel_size, m.stride, m.padding,
                 m.ceil_mode, m.count_include_pad,
                 getattr(m, "divisor_override", None))


def _pool(t, kind, x, kernel, stride, padding, ceil_mode=False,
          count_include_pad=True, divisor_override=None):
    spatial = len(x.shape) - 2
    as_list = (lambda v: [v] * spatial if isinstance(v, int) else list(v))
    kernel = as_list(kernel)
    stride = as_list(stride) if stride not in (None, [], ()) else kernel
    padding = [p for p in as_list(padding) for _ in (0, 1)]
    return t.em.pool(x, kind, kernel, stride, padding, ceil_mode,
                     count_include_pad, divisor_override)


@_module("AdaptiveAvgPool1d", "AdaptiveAvgPool2d")
def _m_adaptive(t, node, m, x):
    return _adaptive_avg(t, x, m.output_size)


def _adaptive_avg(t, x, size):
    spatial = len(x.shape) - 2
    size = [size] * spatial if isinstance(size, int) else list(size)
    size = [x.shape[2 + i] if s is None else s for i, s in enumerate(size)]
    if all(s == 1 for s in size):
        return t.em.reduce("mean", x, list(range(2, 2 + spatial)), True)
    if not any(x.shape[2 + i] % s for i, s in enumerate(size)):
        kernel = [x.shape[2 + i] // s for i, s in enumerate(size)]
        return t.em.op("pool", x, kind="avg", kernel=kernel, strides=kernel)
    # Windows of unequal sizes (PyTorch's: output i of n averages inputs
    # floor(i L / n) to ceil((i + 1) L / n)), one axis at a time as a
    # matmul by the constant [L, n] table of each window's weights.
    for i, n in enumerate(size):
        axis, length = 2 + i, x.shape[2 + i]
        if n == length:
            continue
        table = np.zeros((length, n))
        for j in range(n):
            lo, hi = j * length // n, -(-(j + 1) * length // n)
            table[lo:hi, j] = 1.0 / (hi - lo)
        y = t.em.swap(x, axis, -1)
        y = t.em.matmul(y, t.em.const(table, x.dtype))
        x = t.em.swap(y, axis, -1)
    return x


# ---- Attention and transformer layers ------------------------------------ #
# torch.fx keeps nn.MultiheadAttention and the nn.Transformer* layers as
# leaves (modules of torch.nn); each becomes the composition its forward
# computes in eval mode (dropout off), from its parameters by name.

def _bind(m, args, kwargs):
    """The arguments of m.forward by name, defaults included."""
    import inspect
    bound = inspect.signature(type(m).forward).bind(m, *args, **kwargs)
    bound.apply_defaults()
    return bound.arguments


def _named(t, name):
    """The Value of parameter `name` (a state_dict key), or None."""
    return t.em.param(name) if name in t.em.params else None


def _mha_mask(t, mask, n, heads, s, skv, kind):
    """A MultiheadAttention mask as a [N or 1, H or 1, S, Skv] table: an
    attn_mask [S, Skv] or [N * H, S, Skv], or a key_padding_mask [N, Skv]."""
    em = t.em
    if kind == "key_padding":
        return em.reshape(mask, [n, 1, 1, skv])
    if len(mask.shape) == 2:
        return em.reshape(mask, [1, 1, s, skv])
    return em.reshape(mask, [n, heads, s, skv])


def _multihead_attention(t, prefix, m, query, key, value,
                         key_padding_mask=None, need_weights=True,
                         attn_mask=None, average_attn_weights=True):
    """F.multi_head_attention_forward in eval mode: the projections, one
    rlx.attention over the heads (or, for the weights, softmax and matmul
    written out), the output projection. Boolean masks are True where a
    key is masked out, float masks are added to the scores."""
    em = t.em
    e, heads = m.embed_dim, m.num_heads
    d = e // heads
    batched = len(query.shape) == 3
    # Everything as batch first, [N, S, E].
    if not batched:
        query, key, value = (em.unsqueeze(x, 0) for x in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = em.unsqueeze(key_padding_mask, 0)
    elif not m.batch_first:
        query, key, value = (em.swap(x, 0, 1) for x in (query, key, value))
    n, s, skv = query.shape[0], query.shape[1], key.shape[1]
    if m._qkv_same_embed_dim:
        w = em.transpose(em.param(prefix + "in_proj_weight"), [1, 0])
        weights = [em.narrow(w, 1, i * e, e) for i in range(3)]
    else:
        weights = [em.transpose(em.param(prefix + name), [1, 0])
                   for name in ("q_proj_weight", "k_proj_weight",
                                "v_proj_weight")]
    b = _named(t, prefix + "in_proj_bias")
    biases = [None] * 3 if b is None else [em.narrow(b, 0, i * e, e)
                                           for i in range(3)]
    projected = [em.linear(x, w, bias) for x, w, bias in
                 zip((query, key, value), weights, biases)]
    # add_bias_kv: one more key and value, bias_k and bias_v;
    # add_zero_attn: one more of zeros (after the heads' split). The masks
    # let every query see them.
    extra = 0
    if getattr(m, "bias_k", None) is not None:
        for i, name in ((1, "bias_k"), (2, "bias_v")):
            row = em.expand(em.param(prefix + name), [n, 1, e])
            projected[i] = em.concat([projected[i], row], 1)
        extra += 1
    heads_of = []
    for p in projected:
        p = em.reshape(p, [n, p.shape[1], heads, d])
        heads_of.append(em.transpose(p, [0, 2, 1, 3]))
    q, k, v = heads_of
    if m.add_zero_attn:
        zeros = em.const(np.zeros((n, heads, 1, d)), k.dtype)
        k, v = em.concat([k, zeros], 2), em.concat([v, zeros], 2)
        extra += 1
    skv += extra
    if extra:
        def pad(mask):
            if mask is None:
                return None
            shape = list(mask.shape[:-1]) + [extra]
            return em.concat([mask, em.const(
                np.zeros(shape, np.bool_ if mask.dtype == "i1"
                         else np.float64), mask.dtype)], len(shape) - 1)
        attn_mask, key_padding_mask = pad(attn_mask), pad(key_padding_mask)
    # The masks: True where a query may attend, or a bias to add.
    masks = [(_mha_mask(t, mk, n, heads, s, skv, kind), mk.dtype == "i1")
             for mk, kind in ((attn_mask, "attn"),
                              (key_padding_mask, "key_padding"))
             if mk is not None]
    shape = (n, heads, s, skv)
    kind, mask = "none", None
    if masks and all(is_bool for _, is_bool in masks):
        allowed = None
        for mk, _ in masks:
            keep = em._not(mk)
            allowed = keep if allowed is None else em.where(
                allowed, keep, np.zeros((), np.bool_), "i1")
        kind, mask = em._bool_mask(allowed, shape)
    elif masks:
        bias = None
        for mk, is_bool in masks:
            if is_bool:
                mk = em.where(mk, float("-inf"), 0.0, q.dtype)
            mk = em.cast(mk, q.dtype)
            bias = mk if bias is None else em.binary("add", bias, mk)
        kind, mask = em._additive_mask(bias, shape, q.dtype)
    probs = None
    if need_weights:
        scores = em.binary("mul", em.op("matmul", q, em.swap(k, 2, 3)),
                           1.0 / np.sqrt(d))
        if kind == "causal":
            kind, mask = "custom", em.const(np.tril(np.ones((s, skv),
                                                            np.bool_)))
        if kind == "custom":
            scores = em.where(em.expand(mask, shape) if tuple(
                mask.shape) != shape else mask, scores, float("-inf"),
                q.dtype)
        elif kind == "bias":
            scores = em.binary("add", scores, mask)
        probs = em.op("softmax", scores, axis=3)
        out = em.op("matmul", probs, v)
    else:
        out = em.attention(q, k, v, kind, mask)
    out = em.reshape(em.transpose(out, [0, 2, 1, 3]), [n, s, e])
    out = em.linear(out, em.weight_in_out(prefix + "out_proj.weight"),
                    _named(t, prefix + "out_proj.bias"))
    if not batched:
        out = em.squeeze(out, [0])
    elif not m.batch_first:
        out = em.swap(out, 0, 1)
    if probs is None:
        return out, None
    if average_attn_weights:
        probs = em.reduce("mean", probs, [1], False)
    if not batched:
        probs = em.squeeze(probs, [0])
    return out, probs


@_module("MultiheadAttention")
def _m_multihead_attention(t, node, m, *args, **kwargs):
    a = _bind(m, args, kwargs)
    return _multihead_attention(
        t, node.target + ".", m, a["query"], a["key"], a["value"],
        a.get("key_padding_mask"), a.get("need_weights", True),
        a.get("attn_mask"), a.get("average_attn_weights", True))


def _activation(t, node, fn, x):
    """A transformer layer's activation: F.relu / F.gelu (or their torch.*)
    or an activation module."""
    torch = t.torch
    F = torch.nn.functional
    if fn in (F.relu, torch.relu):
        return t.em.op("relu", x)
    if fn is F.gelu:
        return t.em.op("gelu", x)
    if isinstance(fn, torch.nn.Module):
        for cls, handler in _MODULES:
            cls = getattr(torch.nn, cls, None)
            if cls is not None and isinstance(fn, cls):
                return handler(t, node, fn, x)
    raise UnsupportedError("transformer layer activation %r" % (fn,))


def _norm_of(t, prefix, m, x):
    return t.em.layer_norm(x, len(m.normalized_shape),
                           _named(t, prefix + "weight"),
                           _named(t, prefix + "bias"), m.eps)


def _feed_forward(t, node, prefix, m, x):
    em = t.em
    h = em.linear(x, em.weight_in_out(prefix + "linear1.weight"),
                  _named(t, prefix + "linear1.bias"))
    h = _activation(t, node, m.activation, h)
    return em.linear(h, em.weight_in_out(prefix + "linear2.weight"),
                     _named(t, prefix + "linear2.bias"))


def _encoder_layer(t, node, prefix, m, x, mask, key_padding_mask):
    """nn.TransformerEncoderLayer.forward in eval mode."""
    em = t.em

    def attend(y):
        return _multihead_attention(t, prefix + "self_attn.", m.self_attn,
                                    y, y, y, key_padding_mask, False,
                                    mask)[0]

    def norm(i, y):
        return _norm_of(t, "%snorm%d." % (prefix, i),
                        getattr(m, "norm%d" % i), y)

    if m.norm_first:
        x = em.binary("add", x, attend(norm(1, x)))
        return em.binary("add", x, _feed_forward(t, node, prefix, m,
                                                 norm(2, x)))
    x = norm(1, em.binary("add", x, attend(x)))
    return norm(2, em.binary("add", x, _feed_forward(t, node, prefix, m, x)))


def _decoder_layer(t, node, prefix, m, x, memory, tgt_mask, memory_mask,
                   tgt_key_padding_mask, memory_key_padding_mask):
    """nn.TransformerDecoderLayer.forward in eval mode."""
    em = t.em

    def self_attend(y):
        return _multihead_attention(t, prefix + "self_attn.", m.self_attn,
                                    y, y, y, tgt_key_padding_mask, False,
                                    tgt_mask)[0]

    def cross_attend(y):
        return _multihead_attention(
            t, prefix + "multihead_attn.", m.multihead_attn, y, memory,
            memory, memory_key_padding_mask, False, memory_mask)[0]

    def norm(i, y):
        return _norm_of(t, "%snorm%d." % (prefix, i),
                        getattr(m, "norm%d" % i), y)

    if m.norm_first:
        x = em.binary("add", x, self_attend(norm(1, x)))
        x = em.binary("add", x, cross_attend(norm(2, x)))
        return em.binary("add", x, _feed_forward(t, node, prefix, m,
                                                 norm(3, x)))
    x = norm(1, em.binary("add", x, self_attend(x)))
    x = norm(2, em.binary("add", x, cross_attend(x)))
    return norm(3, em.binary("add", x, _feed_forward(t, node, prefix, m, x)))


@_module("TransformerEncoderLayer")
def _m_encoder_layer(t, node, m, *args, **kwargs):
    a = _bind(m, args, kwargs)
    return _encoder_layer(t, node, node.target + ".", m, a["src"],
                          a.get("src_mask"), a.get("src_key_padding_mask"))


@_module("TransformerDecoderLayer")
def _m_decoder_layer(t, node, m, *args, **kwargs):
    a = _bind(m, args, kwargs)
    return _decoder_layer(t, node, node.target + ".", m, a["tgt"],
                          a["memory"], a.get("tgt_mask"),
                          a.get("memory_mask"),
                          a.get("tgt_key_padding_mask"),
                          a.get("memory_key_padding_mask"))


@_module("TransformerEncoder")
def _m_encoder(t, node, m, *args, **kwargs):
    """The layers in turn, then the optional norm (PyTorch's nested-tensor
    fast path, which zeroes the outputs at padded keys, is not followed:
    those positions keep the layers' values)."""
    a = _bind(m, args, kwargs)
    x = a["src"]
    for i, layer in enumerate(m.layers):
        x = _encoder_layer(t, node, "%s.layers.%d." % (node.target, i),
                           layer, x, a.get("mask"),
                           a.get("src_key_padding_mask"))
    if m.norm is not None:
        x = _norm_of(t, node.target + ".norm.", m.norm, x)
    return x


@_module("TransformerDecoder")
def _m_decoder(t, node, m, *args, **kwargs):
    a = _bind(m, args, kwargs)
    x = a["tgt"]
    for i, layer in enumerate(m.layers):
        x = _decoder_layer(t, node, "%s.layers.%d." % (node.target, i),
                           layer, x, a["memory"], a.get("tgt_mask"),
                           a.get("memory_mask"),
                           a.get("tgt_key_padding_mask"),
                           a.get("memory_key_padding_mask"))
    if m.norm is not None:
        x = _norm_of(t, node.target + ".norm.", m.norm, x)
    return x


# ---- Functions and methods ------------------------------------------- #

def _norm(dim, x):
    rank = len(x.shape)
    return dim + rank if dim < 0 else dim


@_both("add", "iadd")
def _add(t, node, a, b, alpha=1):
    if alpha != 1:
        b = t.em.binary("mul", t.v(b, node), alpha)
    return t.em.binary("add", t.v(a, node), t.v(b, node))


@_both("sub", "isub", "subtract")
def _sub(t, node, a, b, alpha=1):
    if alpha != 1:
        b = t.em.binary("mul", t.v(b, node), alpha)
    return t.em.binary("sub", t.v(a, node), t.v(b, node))


@_both("rsub")
def _rsub(t, node, a, b, alpha=1):
    return _sub(t, node, b, a, alpha)


@_both("mul", "imul", "multiply")
def _mul(t, node, a, b):
    return t.em.binary("mul", t.v(a, node), t.v(b, node))


@_both("truediv", "div", "true_divide", "itruediv", "divide")
def _div(t, node, a, b, rounding_mode=None):
    if rounding_mode is not None:
        raise UnsupportedError("division with rounding_mode=%r" %
                               rounding_mode)
    return t.em.binary("div", t.v(a, node), t.v(b, node))


@_both("neg", "negative")
def _neg(t, node, x):
    return t.em.op("neg", t.v(x, node))


@_both("pow")
def _pow(t, node, x, e):
    if not isinstance(x, Value):
        return t.em.binary("pow", t.v(x, node), t.v(e, node))
    return t.em.pow(t.v(x, node), e if not isinstance(e, Value)
                    else t.v(e, node))


def _unary(name):
    def handler(t, node, x, *rest, **kwargs):
        return t.em.op(name, t.v(x, node))
    return handler


for _name in ("exp", "log", "sqrt", "rsqrt", "abs", "sin", "cos", "tan",
              "atan", "tanh", "sigmoid", "relu", "silu"):
    _both(_name)(_unary(_name))


@_both("gelu")
def _gelu(t, node, x, approximate="none"):
    return t.em.op("gelu", t.v(x, node), approximate=approximate)


@_both("leaky_relu")
def _leaky_relu(t, node, x, negative_slope=0.01, inplace=False):
    x = t.v(x, node)
    pos = t.em.cmp("gt", x, 0.0, x.dtype)
    return t.em.where(pos, x, t.em.binary("mul", x, negative_slope),
                      x.dtype)


@_function("hardtanh", "relu6")
def _f_hardtanh(t, node, x, min_val=-1.0, max_val=1.0, inplace=False):
    if node.target.__name__ == "relu6":
        min_val, max_val = 0.0, 6.0
    return _clamp(t, node, x, min_val, max_val)


@_both("clamp", "clip")
def _clamp(t, node, x, min=None, max=None):
    x = t.v(x, node)
    if min is not None:
        x = t.em.binary("max", x, min)
    if max is not None:
        x = t.em.binary("min", x, max)
    return x


@_both("maximum")
def _maximum(t, node, a, b):
    return t.em.binary("max", t.v(a, node), t.v(b, node))


@_both("minimum")
def _minimum(t, node, a, b):
    return t.em.binary("min", t.v(a, node), t.v(b, node))


def _comparison(predicate):
    def handler(t, node, a, b):
        torch = t.torch
        ta = t.values[node.args[0]] if isinstance(
            node.args[0], torch.fx.Node) else a
        tb = t.values[node.args[1]] if isinstance(
            node.args[1], torch.fx.Node) else b
        dtype = numpy_to_mlir(np.dtype(str(torch.result_type(
            ta, tb)).replace("torch.", "")))
        return t.em.cmp(predicate, a, b, dtype)
    return handler


for _names, _pred in ((("eq", "__eq__"), "eq"), (("ne", "__ne__"), "ne"),
                      (("lt", "__lt__"), "lt"), (("le", "__le__"), "le"),
                      (("gt", "__gt__"), "gt"), (("ge", "__ge__"), "ge")):
    _both(*_names)(_comparison(_pred))


@_both("logical_not", "invert", "bitwise_not")
def _logical_not(t, node, x):
    if x.dtype != "i1":
        raise UnsupportedError("bitwise not of %s" % x.dtype)
    return t.em.cmp("eq", x, np.zeros((), np.bool_), "i1")


@_both("logical_and", "and_")
def _logical_and(t, node, a, b):
    a, b = t.em.value(a, "i1"), t.em.value(b, "i1")
    return t.em.where(a, b, np.zeros((), np.bool_), "i1")


@_both("logical_or", "or_")
def _logical_or(t, node, a, b):
    a, b = t.em.value(a, "i1"), t.em.value(b, "i1")
    return t.em.where(a, np.ones((), np.bool_), b, "i1")


@_both("where")
def _where(t, node, cond, a, b):
    return t.em.where(cond, a, b, t.dtype(node))


@_both("masked_fill", "masked_fill_")
def _masked_fill(t, node, x, mask, value):
    x = t.v(x, node)
    return t.em.where(mask, value, x, x.dtype)


@_both("matmul", "bmm", "mm")
def _matmul(t, node, a, b):
    return t.em.matmul(t.v(a, node), t.v(b, node))


@_function("linear")
def _f_linear(t, node, x, weight, bias=None):
    torch = t.torch
    w_node = node.args[1] if len(node.args) > 1 else node.kwargs["weight"]
    name = t._param_of(w_node) if isinstance(w_node, torch.fx.Node) \
        else None
    w = t.em.weight_in_out(name) if name else t.em.transpose(weight, [1, 0])
    return t.em.linear(x, w, bias)


@_function("layer_norm")
def _f_layer_norm(t, node, x, normalized_shape, weight=None, bias=None,
                  eps=1e-5):
    return t.em.layer_norm(x, len(normalized_shape), weight, bias, eps)


@_function("group_norm")
def _f_group_norm(t, node, x, num_groups, weight=None, bias=None, eps=1e-5):
    c = x.shape[1]
    weight = t.em.value(weight if weight is not None else np.ones(c),
                        x.dtype)
    bias = t.em.value(bias if bias is not None else np.zeros(c), x.dtype)
    return t.em.op("group_norm", x, weight, bias, num_groups=num_groups,
                   epsilon=float(eps))


@_function("batch_norm")
def _f_batch_norm(t, node, x, mean, var, weight=None, bias=None,
                  training=False, momentum=0.1, eps=1e-5):
    if training:
        raise UnsupportedError("batch_norm in training mode")
    c, dtype = x.shape[1], x.dtype
    weight = t.em.value(weight if weight is not None else np.ones(c), dtype)
    bias = t.em.value(bias if bias is not None else np.zeros(c), dtype)
    return t.em.op("batch_norm_inference", x, weight, bias,
                   t.em.value(mean, dtype), t.em.value(var, dtype),
                   epsilon=float(eps))


@_function("embedding")
def _f_embedding(t, node, ids, weight, *rest, **kwargs):
    return _embedding(t, ids, weight)


@_function("dropout", "dropout1d", "dropout2d", "dropout3d",
           "alpha_dropout", "feature_alpha_dropout")
def _f_dropout(t, node, x, p=0.5, training=False, inplace=False):
    if training:
        raise UnsupportedError("dropout in training mode")
    return x


@_function("stochastic_depth")
def _stochastic_depth(t, node, x, p, mode, training=True):
    """torchvision.ops.stochastic_depth: the identity in eval mode."""
    if training and p > 0:
        raise UnsupportedError("stochastic_depth in training mode")
    return x


@_function("drop_block2d", "drop_block3d")
def _drop_block(t, node, x, p, block_size, inplace=False, eps=1e-6,
                training=True):
    """torchvision.ops.drop_block2d/3d: the identity in eval mode."""
    if training and p > 0:
        raise UnsupportedError("drop_block in training mode")
    return x


@_method("contiguous", "clone", "detach", "requires_grad_")
@_function("clone", "detach")
def _identity(t, node, x, *rest, **kwargs):
    return x


@_function("conv1d", "conv2d")
def _f_conv(t, node, x, weight, bias=None, stride=1, padding=0, dilation=1,
            groups=1):
    return _conv(t, x, weight, bias, stride, padding, dilation, groups)


@_function("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d")
def _f_pool(t, node, x, kernel_size, stride=None, padding=0, *rest,
            **kwargs):
    kind = "max" if "max" in node.target.__name__ else "avg"
    # The arguments after padding, positional or named.
    names = ("ceil_mode", "count_include_pad", "divisor_override") \
        if kind == "avg" else ("dilation", "ceil_mode", "return_indices")
    given = dict(zip(names, rest))
    given.update(kwargs)
    if given.get("dilation", 1) not in (1, (1, 1), [1, 1], (1,)):
        raise UnsupportedError("max pooling with dilation")
    if given.get("return_indices"):
        raise UnsupportedError("max pooling that returns indices")
    return _pool(t, kind, x, kernel_size, stride, padding,
                 bool(given.get("ceil_mode", False)),
                 given.get("count_include_pad", True),
                 given.get("divisor_override"))


@_function("adaptive_avg_pool1d", "adaptive_avg_pool2d")
def _f_adaptive(t, node, x, output_size):
    return _adaptive_avg(t, x, output_size)


@_both("softmax")
def _softmax(t, node, x, dim=None, _stacklevel=3, dtype=None):
    x = t.v(x, node)
    dim = _legacy_softmax_dim(x) if dim is None else dim
    return t.em.op("softmax", x, axis=_norm(dim, x))


@_both("log_softmax")
def _log_softmax(t, node, x, dim=None, _stacklevel=3, dtype=None):
    x = t.v(x, node)
    dim = _legacy_softmax_dim(x) if dim is None else dim
    return t.em.op("log_softmax", x, axis=_norm(dim, x))


@_function("scaled_dot_product_attention")
def _sdpa(t, node, q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False,
          scale=None, enable_gqa=False):
    if dropout_p:
        raise UnsupportedError("attention dropout")
    kind, mask = "none", None
    if is_causal:
        s, skv = q.shape[-2], k.shape[-2]
        if s == skv:
            kind = "causal"
        else:  # PyTorch aligns its causal mask at the top left.
            kind, mask = "custom", t.em.const(np.tril(np.ones((s, skv),
                                                             np.bool_)))
    elif attn_mask is not None:
        if attn_mask.dtype == "i1":
            kind, mask = t.em._bool_mask(attn_mask, q.shape[:-1] +
                                         (k.shape[-2],))
        else:
            kind, mask = t.em._additive_mask(attn_mask, q.shape[:-1] +
                                             (k.shape[-2],), q.dtype)
    return t.em.attention(q, k, v, kind, mask, scale)


# Activations of torch.nn, each composed from rlx ops as PyTorch's CPU
# kernels compute it; the modules, the F.* functions, their in-place
# variants and the Tensor methods share one helper each.

def _val(t, node, x):
    return x if isinstance(x, Value) else t.v(x, node)


def _softplus_of(em, x):
    """log(1 + exp(x)) without overflow: max(x, 0) + log(1 + exp(-|x|))."""
    e = em.op("exp", em.op("neg", em.op("abs", x)))
    return em.binary("add", em.op("relu", x),
                     em.op("log", em.binary("add", e, 1.0)))


def _where_positive(em, x, negative, threshold=0.0):
    """x where x > threshold, else `negative`."""
    return em.where(em.cmp("gt", x, threshold, x.dtype), x, negative,
                    x.dtype)


def _expm1_scaled(em, x, alpha, inner=1.0):
    """alpha * (exp(x * inner) - 1)."""
    e = em.op("exp", x if inner == 1.0 else em.binary("mul", x, inner))
    return em.binary("mul", em.binary("sub", e, 1.0), alpha)


def _relu6_of(em, x):
    return em.binary("min", em.binary("max", x, 0.0), 6.0)


def _legacy_softmax_dim(x):
    """The axis F.softmax(x) picks without `dim` (PyTorch's legacy rule)."""
    return 0 if len(x.shape) in (0, 1, 3) else 1


@_both("hardsigmoid", "hardsigmoid_")
def _hardsigmoid(t, node, x, inplace=False):
    em, x = t.em, _val(t, node, x)
    # relu6(x + 3) / 6
    return em.binary("div", _relu6_of(em, em.binary("add", x, 3.0)), 6.0)


@_both("hardswish", "hardswish_")
def _hardswish(t, node, x, inplace=False):
    em, x = t.em, _val(t, node, x)
    # x * relu6(x + 3) / 6
    return em.binary("div", em.binary(
        "mul", x, _relu6_of(em, em.binary("add", x, 3.0))), 6.0)


@_both("mish", "mish_")
def _mish(t, node, x, inplace=False):
    em, x = t.em, _val(t, node, x)
    # x * tanh(softplus(x))
    return em.binary("mul", x, em.op("tanh", _softplus_of(em, x)))


@_both("softplus")
def _softplus(t, node, x, beta=1, threshold=20):
    em, x = t.em, _val(t, node, x)
    # log(1 + exp(beta x)) / beta, x itself where beta x > threshold
    bx = x if beta == 1 else em.binary("mul", x, float(beta))
    y = _softplus_of(em, bx)
    if beta != 1:
        y = em.binary("div", y, float(beta))
    return em.where(em.cmp("gt", bx, float(threshold), x.dtype), x, y,
                    x.dtype)


@_both("elu", "elu_")
def _elu(t, node, x, alpha=1.0, inplace=False):
    em, x = t.em, _val(t, node, x)
    # x > 0 ? x : alpha (exp(x) - 1)
    return _where_positive(em, x, _expm1_scaled(em, x, float(alpha)))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@_both("selu", "selu_")
def _selu(t, node, x, inplace=False):
    em, x = t.em, _val(t, node, x)
    # scale (x > 0 ? x : alpha (exp(x) - 1))
    return em.binary("mul", _where_positive(
        em, x, _expm1_scaled(em, x, _SELU_ALPHA)), _SELU_SCALE)


@_both("celu", "celu_")
def _celu(t, node, x, alpha=1.0, inplace=False):
    em, x = t.em, _val(t, node, x)
    # x > 0 ? x : alpha (exp(x / alpha) - 1)
    return _where_positive(em, x, _expm1_scaled(em, x, float(alpha),
                                                1.0 / float(alpha)))


@_both("softsign")
def _softsign(t, node, x):
    em, x = t.em, _val(t, node, x)
    return em.binary("div", x, em.binary("add", em.op("abs", x), 1.0))


@_both("tanhshrink")
def _tanhshrink(t, node, x):
    em, x = t.em, _val(t, node, x)
    return em.binary("sub", x, em.op("tanh", x))


@_both("log_sigmoid", "logsigmoid")
def _log_sigmoid(t, node, x):
    em, x = t.em, _val(t, node, x)
    # -softplus(-x) = min(x, 0) - log(1 + exp(-|x|))
    e = em.op("exp", em.op("neg", em.op("abs", x)))
    return em.binary("sub", em.binary("min", x, 0.0),
                     em.op("log", em.binary("add", e, 1.0)))


@_both("prelu")
def _prelu(t, node, x, weight):
    em, x = t.em, _val(t, node, x)
    w = _val(t, node, weight)
    rank = len(x.shape)
    n = int(np.prod(w.shape))
    if n == 1:
        w = em.reshape(w, [1] * max(rank, 1))
    elif rank >= 2:  # one slope per channel (axis 1)
        w = em.reshape(w, [n] + [1] * (rank - 2))
    return _where_positive(em, x, em.binary("mul", x, em.cast(w, x.dtype)))


@_both("rrelu", "rrelu_")
def _rrelu(t, node, x, lower=1.0 / 8, upper=1.0 / 3, training=False,
           inplace=False):
    if training:
        raise UnsupportedError("rrelu in training mode")
    return _leaky_relu(t, node, x, (lower + upper) / 2)


@_both("hardshrink")
def _hardshrink(t, node, x, lambd=0.5):
    em, x = t.em, _val(t, node, x)
    # |x| > lambd ? x : 0
    keep = em.cmp("gt", em.op("abs", x), float(lambd), x.dtype)
    return em.where(keep, x, 0.0, x.dtype)


@_both("softshrink")
def _softshrink(t, node, x, lambd=0.5):
    em, x = t.em, _val(t, node, x)
    # x > l ? x - l : (x < -l ? x + l : 0)
    lo = em.where(em.cmp("lt", x, -float(lambd), x.dtype),
                  em.binary("add", x, float(lambd)), 0.0, x.dtype)
    return em.where(em.cmp("gt", x, float(lambd), x.dtype),
                    em.binary("sub", x, float(lambd)), lo, x.dtype)


@_function("threshold", "_threshold", "threshold_")
def _threshold(t, node, x, threshold, value, inplace=False):
    em, x = t.em, _val(t, node, x)
    # x > threshold ? x : value
    return em.where(em.cmp("gt", x, float(threshold), x.dtype), x,
                    float(value), x.dtype)


@_both("glu")
def _glu(t, node, x, dim=-1):
    em, x = t.em, _val(t, node, x)
    d = _norm(dim, x)
    half = x.shape[d] // 2
    if x.shape[d] % 2:
        raise UnsupportedError("glu of an odd axis (%d)" % x.shape[d])
    a, b = em.narrow(x, d, 0, half), em.narrow(x, d, half, half)
    return em.binary("mul", a, em.op("sigmoid", b))


@_both("softmin")
def _softmin(t, node, x, dim=None, _stacklevel=3, dtype=None):
    em, x = t.em, _val(t, node, x)
    dim = _legacy_softmax_dim(x) if dim is None else dim
    return em.op("softmax", em.op("neg", x), axis=_norm(dim, x))


@_method("relu_", "sigmoid_", "tanh_", "exp_", "neg_", "abs_", "sqrt_")
@_function("relu_")
def _unary_inplace(t, node, x, *rest, **kwargs):
    name = node.target if isinstance(node.target, str) else \
        node.target.__name__
    return t.em.op(name[:-1], _val(t, node, x))


@_both("hardtanh_")
def _hardtanh_inplace(t, node, x, min_val=-1.0, max_val=1.0):
    return _clamp(t, node, x, min_val, max_val)


@_both("leaky_relu_")
def _leaky_relu_inplace(t, node, x, negative_slope=0.01):
    return _leaky_relu(t, node, x, negative_slope)


@_both("clamp_", "clip_")
def _clamp_inplace(t, node, x, min=None, max=None):
    return _clamp(t, node, x, min, max)


@_both("clamp_min", "clamp_min_")
def _clamp_min(t, node, x, min):
    return _clamp(t, node, x, min, None)


@_both("clamp_max", "clamp_max_")
def _clamp_max(t, node, x, max):
    return _clamp(t, node, x, None, max)


# The activation modules: the function of the same semantics.

def _module_activation(fn, *attrs):
    def handler(t, node, m, x):
        return fn(t, node, x, *[getattr(m, a) for a in attrs])
    return handler


for _cls, _fn, _attrs in (
        ("Hardsigmoid", _hardsigmoid, ()), ("Hardswish", _hardswish, ()),
        ("Mish", _mish, ()), ("Softplus", _softplus, ("beta", "threshold")),
        ("ELU", _elu, ("alpha",)), ("SELU", _selu, ()),
        ("CELU", _celu, ("alpha",)), ("Softsign", _softsign, ()),
        ("Tanhshrink", _tanhshrink, ()), ("LogSigmoid", _log_sigmoid, ()),
        ("RReLU", _rrelu, ("lower", "upper")),
        ("Hardshrink", _hardshrink, ("lambd",)),
        ("Softshrink", _softshrink, ("lambd",)),
        ("Threshold", _threshold, ("threshold", "value")),
        ("GLU", _glu, ("dim",)), ("Softmin", _softmin, ("dim",))):
    _module(_cls)(_module_activation(_fn, *_attrs))


@_module("PReLU")
def _m_prelu(t, node, m, x):
    return _prelu(t, node, x, t.p(node, "weight"))


@_module("Softmax2d")
def _m_softmax2d(t, node, m, x):
    return t.em.op("softmax", x, axis=len(x.shape) - 3)


# Shapes and data movement.

def _shape_args(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return list(args[0])
    return list(args)


@_both("view", "reshape")
def _reshape(t, node, x, *shape, **kwargs):
    if not shape and "shape" in kwargs:
        shape = (kwargs["shape"],)
    if len(shape) == 1 and not isinstance(shape[0], (int, tuple, list)):
        raise UnsupportedError("view as a dtype")
    return t.em.reshape(x, _shape_args(shape))


@_method("view_as", "reshape_as")
def _view_as(t, node, x, other):
    return t.em.reshape(x, other.shape)


@_both("flatten")
def _flatten(t, node, x, start_dim=0, end_dim=-1):
    shape = list(x.shape)
    if not shape:
        return t.em.reshape(x, [1])
    s, e = _norm(start_dim, x), _norm(end_dim, x)
    return t.em.reshape(x, shape[:s] + [int(np.prod(shape[s:e + 1]))] +
                        shape[e + 1:])


@_both("permute")
def _permute(t, node, x, *dims, **kwargs):
    dims = _shape_args(dims) if dims else list(kwargs["dims"])
    return t.em.transpose(x, dims)


@_both("transpose", "swapaxes")
def _transpose(t, node, x, a, b):
    return t.em.swap(x, a, b)


@_both("t")
def _t(t, node, x):
    return t.em.swap(x, 0, 1) if len(x.shape) == 2 else x


@_both("unsqueeze")
def _unsqueeze(t, node, x, dim):
    return t.em.unsqueeze(x, dim)


@_both("squeeze")
def _squeeze(t, node, x, dim=None):
    return t.em.squeeze(x, None if dim is None else _dims(dim, 0))


@_both("expand")
def _expand(t, node, x, *sizes):
    sizes = _shape_args(sizes)
    lead = len(sizes) - len(x.shape)
    shape = [x.shape[i - lead] if s == -1 else s
             for i, s in enumerate(sizes)]
    return t.em.expand(x, shape)


@_method("expand_as")
def _expand_as(t, node, x, other):
    return t.em.expand(x, other.shape)


@_both("repeat_interleave")
def _repeat_interleave(t, node, x, repeats, dim=None, output_size=None):
    if not isinstance(repeats, int) or dim is None:
        raise UnsupportedError("repeat_interleave by a tensor or without "
                               "dim")
    d = _norm(dim, x)
    shape = list(x.shape)
    y = t.em.expand(t.em.unsqueeze(x, d + 1),
                    shape[:d + 1] + [repeats] + shape[d + 1:])
    return t.em.reshape(y, shape[:d] + [shape[d] * repeats] + shape[d + 1:])


@_both("repeat")
def _repeat(t, node, x, *sizes):
    return t.em.tile(x, _shape_args(sizes))


@_function("cat", "concat", "concatenate")
def _cat(t, node, tensors, dim=0):
    dtype = t.dtype(node)
    values = [t.em.value(x, dtype) for x in tensors]
    return t.em.concat(values, dim)


@_function("stack")
def _stack(t, node, tensors, dim=0):
    dtype = t.dtype(node)
    values = [t.em.value(x, dtype) for x in tensors]
    d = dim + len(values[0].shape) + 1 if dim < 0 else dim
    return t.em.concat([t.em.unsqueeze(v, d) for v in values], d)


@_both("split")
def _split(t, node, x, split_size_or_sections, dim=0):
    d = _norm(dim, x)
    n = x.shape[d]
    if isinstance(split_size_or_sections, int):
        sizes = [split_size_or_sections] * (n // split_size_or_sections)
        if n % split_size_or_sections:
            sizes.append(n % split_size_or_sections)
    else:
        sizes = list(split_size_or_sections)
    out, start = [], 0
    for s in sizes:
        out.append(t.em.narrow(x, d, start, s))
        start += s
    return tuple(out)


@_both("chunk")
def _chunk(t, node, x, chunks, dim=0):
    d = _norm(dim, x)
    size = -(-x.shape[d] // chunks)
    return _split(t, node, x, size, d)


@_both("unbind")
def _unbind(t, node, x, dim=0):
    d = _norm(dim, x)
    return tuple(t.em.squeeze(t.em.narrow(x, d, i, 1), [d])
                 for i in range(x.shape[d]))


@_both("narrow")
def _narrow(t, node, x, dim, start, length):
    return t.em.narrow(x, dim, start % x.shape[_norm(dim, x)], length)


@_both("flip")
def _flip(t, node, x, dims):
    return t.em.op("reverse", x, axes=[_norm(d, x) for d in _dims(dims, 0)])


@_both("index_select")
def _index_select(t, node, x, dim, index):
    return t.em.op("gather", x, t.em.cast(index, "i64"), axis=_norm(dim, x))


@_function("getitem")
def _getitem(t, node, x, index):
    if isinstance(x, (tuple, list)):
        return x[index]
    if not isinstance(x, Value):
        raise UnsupportedError("indexing a %s" % type(x).__name__)
    if not isinstance(index, tuple):
        index = (index,)
    # Ellipsis expands to the dims the other indices leave.
    used = sum(1 for i in index if i is not None and i is not Ellipsis)
    if Ellipsis in index:
        e = index.index(Ellipsis)
        index = index[:e] + (slice(None),) * (len(x.shape) - used) + \
            index[e + 1:]
    y, axis = x, 0
    tensor_axes = []
    for i in index:
        if i is None:
            y = t.em.unsqueeze(y, axis)
            axis += 1
        elif isinstance(i, slice):
            y = t.em.slice(y, axis, i.start, i.stop,
                           1 if i.step is None else i.step)
            axis += 1
        elif isinstance(i, int):
            n = y.shape[axis]
            if not -n <= i < n:
                raise UnsupportedError("index %d out of range" % i)
            y = t.em.squeeze(t.em.narrow(y, axis, i % n, 1), [axis])
        elif isinstance(i, Value) and i.dtype != "i1":
            tensor_axes.append(axis)
            if len(tensor_axes) > 1:
                raise UnsupportedError("indexing by more than one tensor")
            y = t.em.op("gather", y, t.em.cast(i, "i64"), axis=axis)
            axis += len(i.shape)
        else:
            raise UnsupportedError("indexing by %r" % (i,))
    return y


# Reductions.

def _reduction(kind):
    def handler(t, node, x, dim=None, keepdim=False, dtype=None, **kw):
        x = t.v(x, node)
        return t.em.reduce(kind, x, None if dim is None else
                           _dims(dim, len(x.shape)), keepdim)
    return handler


for _name, _kind in (("sum", "sum"), ("mean", "mean"), ("amax", "max"),
                     ("amin", "min"), ("prod", "prod")):
    _both(_name)(_reduction(_kind))


def _max_min(kind):
    def handler(t, node, x, dim=None, keepdim=False):
        if isinstance(dim, Value) or (dim is not None and
                                      not isinstance(dim, int)):
            other = dim
            return t.em.binary(kind, t.v(x, node), t.v(other, node))
        if dim is None:
            return t.em.reduce(kind, x, None, False)
        values = t.em.reduce(kind, x, [dim], keepdim)
        indices = t.em.op("arg" + kind, x, axis=_norm(dim, x),
                          keepdim=bool(keepdim))
        return (values, indices)
    return handler


_both("max")(_max_min("max"))
_both("min")(_max_min("min"))


@_both("argmax", "argmin")
def _argmax(t, node, x, dim=None, keepdim=False):
    op = node.target if isinstance(node.target, str) else \
        node.target.__name__
    if dim is None:
        x, dim = t.em.reshape(x, [-1]), 0
    return t.em.op(op, x, axis=_norm(dim, x), keepdim=bool(keepdim))


@_both("var", "std")
def _var(t, node, x, dim=None, unbiased=None, keepdim=False, correction=None):
    axes = None if dim is None else _dims(dim, len(x.shape))
    mean = t.em.reduce("mean", x, axes, True)
    d = t.em.binary("sub", x, mean)
    var = t.em.reduce("mean", t.em.binary("mul", d, d), axes, keepdim)
    n = int(np.prod([x.shape[a] for a in (axes if axes is not None
                                          else range(len(x.shape)))]))
    if correction is None:
        correction = 0 if unbiased is False else 1
    if correction:
        var = t.em.binary("mul", var, n / (n - correction))
    name = node.target if isinstance(node.target, str) else \
        node.target.__name__
    return t.em.op("sqrt", var) if name == "std" else var


@_both("cumsum")
def _cumsum(t, node, x, dim, dtype=None):
    return t.em.op("cumsum", x, axis=_norm(dim, x))


# Casts.

_TORCH_DTYPES = {"float32": "f32", "float": "f32", "float64": "f64",
                 "double": "f64", "float16": "f16", "half": "f16",
                 "bfloat16": "bf16", "int64": "i64", "long": "i64",
                 "int32": "i32", "int": "i32", "bool": "i1"}


@_method("to", "type")
def _to(t, node, x, *args, **kwargs):
    return t.em.cast(x, t.dtype(node))


@_method("float", "double", "half", "bfloat16", "long", "int", "bool")
def _cast_method(t, node, x, *args, **kwargs):
    return t.em.cast(x, t.dtype(node))


@_method("type_as")
def _type_as(t, node, x, other):
    return t.em.cast(x, t.dtype(node))


def _resized(torch, x, shape):
    """x's values repeated (numpy.resize) into `shape`: valid token ids and
    masks for the second import of a dynamic one."""
    array = np.resize(x.detach().cpu().numpy(), shape)
    return torch.from_numpy(np.ascontiguousarray(array))


def _import_dynamic(module, inputs, name, params_as_args, context,
                    dynamic_dims):
    """from_torch with `dynamic_dims`: imported at the example's sizes and
    at others, merged (importers/_dynamic.py)."""
    from . import _dynamic
    torch = _torch()
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    inputs = tuple(inputs)
    first = _TorchImporter(module, inputs, name, params_as_args, context)
    model = first.run()
    shapes = [tuple(x.shape) for x in inputs]
    dynamic = _dynamic.normalize(dynamic_dims, shapes, model.input_names)
    others = _dynamic.other_sizes(dynamic, shapes)
    try:
        second = _TorchImporter(module, tuple(
            _resized(torch, x, s) for x, s in zip(inputs, others)), name,
            params_as_args, first.context).run()
    except Exception as error:  # noqa: BLE001 - PyTorch's, with the node
        raise UnsupportedError(
            "rlx.from_torch: %s does not run with other sizes of the "
            "dynamic dims (inputs of shapes %s): a static size is baked in: "
            "%s: %s" % (type(module).__name__, ", ".join(
                str(tuple(s)) for s in others), type(error).__name__,
                error)) from error
    nodes = {}
    for node in first.gm.graph.nodes:
        where = _source_line(node)
        if where and node.op not in ("placeholder", "output"):
            nodes.setdefault(where[:2], _describe(node))

    return _dynamic.imported(model, second, name, nodes, dynamic)


def from_torch(module, example_inputs, name="forward", params_as_args=False,
               context=None, dynamic_dims=None):
    """Imports a torch.nn.Module into an rlx function of its inputs.

    The module is traced by torch.fx and run once in eval mode on
    `example_inputs` (a tensor or a tuple of tensors), which fixes the
    function's shapes and dtypes. Returns an rlx.ImportedModel: its
    `function` (named `name`), `params` (state_dict key -> NumPy value as
    bound; linear weights transposed to [in, out], listed in
    `transposed`) and a `__call__` that runs it on the CPU with those
    params. With `params_as_args`, the parameters are the function's
    arguments after the inputs (in `param_args` order), for rlx.grad with
    respect to them. Raises rlx.UnsupportedError naming the node and its
    source line where a node has no translation.

    `dynamic_dims` makes dims of the inputs dynamic (`?`): it maps an
    input (its index or name) to the dims that are, as a list (dims of one
    example size are one symbol, which must agree when the program runs:
    `{0: [0, 1]}` for batch and sequence) or a dict of dim -> symbol name
    (`{"x": {0: "batch"}, "mask": {0: "batch"}}`). The shapes computed
    from them stay dynamic; a node that bakes a static size in (a constant
    or slice of the sequence's length, a reshape to several dynamic dims
    that do not pair with its input's) is an UnsupportedError naming it.
    The model's `dynamic_dims` records them as {input: {dim: symbol}}."""
    training = getattr(module, "training", False)
    if training:
        module.eval()
    try:
        if dynamic_dims:
            return _import_dynamic(module, example_inputs, name,
                                   params_as_args, context, dynamic_dims)
        return _TorchImporter(module, example_inputs, name, params_as_args,
                              context).run()
    finally:
        if training:
            module.train(True)
