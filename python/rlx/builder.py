# ===- builder.py - building RLX functions from Python -----------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Values, functions and the one op-creation routine behind the generated
builders (ops.py, hir.py):

    x_t, w_t = ctx.tensor((4, 8)), ctx.tensor((8, 16))
    with rlx.Function("mlp", [x_t, w_t]) as f:
        x, w = f.args
        f.returns(rlx.gelu(rlx.matmul(x, w)))
    print(f.module)
"""

import ctypes
import math
import os
import struct
import sys
import threading

import numpy as np

from . import _capi as C
from .ir import Module, RLXError, Type, default_context

_state = threading.local()


def _builders():
    if not hasattr(_state, "stack"):
        _state.stack = []
    return _state.stack


class Value:
    """An SSA value: a function argument or an op result."""

    def __init__(self, context, handle):
        self.context = context
        self._v = handle

    @property
    def type(self):
        return Type(self.context, C.lib.mlirValueGetType(self._v))

    @property
    def shape(self):
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    def __repr__(self):
        return "rlx.Value(%s)" % self.type

    # Arithmetic spelled as Python operators builds the rlx ops.
    def __add__(self, other):
        from . import ops
        return ops.add(self, other)

    def __sub__(self, other):
        from . import ops
        return ops.sub(self, other)

    def __mul__(self, other):
        from . import ops
        return ops.mul(self, other)

    def __truediv__(self, other):
        from . import ops
        return ops.div(self, other)

    def __matmul__(self, other):
        from . import ops
        return ops.matmul(self, other)

    def __neg__(self):
        from . import ops
        return ops.neg(self)


class _Block:
    """Where built ops go: a block and the context it belongs to."""

    def __init__(self, context, block):
        self.context = context
        self.block = block


class Function:
    """Builds one func.func with rlx ops in a module:

        with rlx.Function("f", [ctx.tensor((4,))]) as f:
            f.returns(rlx.exp(f.args[0]))

    `module` (default: a new one, `f.module`) receives the function. The
    values passed to `returns` (default: the results of the last op built)
    are its results. The module is verified when the block ends; a verifier
    error raises RLXError."""

    def __init__(self, name, arg_types, module=None, context=None,
                 private=False):
        self.name = name
        self.arg_types = [_as_type(t, context) for t in arg_types]
        self.context = (context or (self.arg_types[0].context
                                    if self.arg_types else
                                    (module.context if module else
                                     default_context())))
        self.module = module or Module.create(self.context)
        self.private = private
        types, n = C.array(C.Type, [t._t for t in self.arg_types])
        locs, _ = C.array(C.Location, [self.context.location()] * n)
        self._block = C.lib.mlirBlockCreate(n, types, locs)
        self.args = [Value(self.context,
                           C.lib.mlirBlockGetArgument(self._block, i))
                     for i in range(n)]
        self._results = None
        self._last = None
        self.result_types = None

    def returns(self, *values):
        """The function's results (Values)."""
        if len(values) == 1 and isinstance(values[0], (list, tuple)):
            values = tuple(values[0])
        for v in values:
            if not isinstance(v, Value):
                raise TypeError("Function.returns takes rlx Values, got %r"
                                % (v,))
        self._results = list(values)

    def __enter__(self):
        _builders().append(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        _builders().pop()
        if exc_type is not None:
            C.lib.mlirBlockDestroy(self._block)
            return False
        results = self._results
        if results is None:
            results = list(self._last or [])
        _append(self.context, self._block, "func.return", results, [], [])
        region = C.lib.mlirRegionCreate()
        C.lib.mlirRegionAppendOwnedBlock(region, self._block)
        ins, n_in = C.array(C.Type, [t._t for t in self.arg_types])
        self.result_types = [v.type for v in results]
        outs, n_out = C.array(C.Type, [t._t for t in self.result_types])
        ftype = C.lib.mlirFunctionTypeGet(self.context._ctx, n_in, ins, n_out,
                                          outs)
        attrs = [("sym_name", C.lib.mlirStringAttrGet(
                     self.context._ctx, C.StringRef.of(self.name))),
                 ("function_type", C.lib.mlirTypeAttrGet(ftype))]
        if self.private:
            attrs.append(("sym_visibility", C.lib.mlirStringAttrGet(
                self.context._ctx, C.StringRef.of("private"))))
        _append(self.context, C.lib.mlirModuleGetBody(self.module._m),
                "func.func", [], attrs, [], regions=[region])
        self.module.verify()
        return False

    def _record(self, results):
        self._last = results


def _current():
    stack = _builders()
    if not stack:
        raise RuntimeError("rlx ops are built inside `with rlx.Function(...)`")
    return stack[-1]


def _as_type(t, context):
    if isinstance(t, Type):
        return t
    if isinstance(t, str):
        return (context or default_context()).type(t)
    raise TypeError("expected an rlx.Type or a type string, got %r" % (t,))


def _caller_location(context, loc):
    """The location of the user's code that built an op: file:line of the
    first frame outside this package, unless `loc` is given."""
    if loc is not None:
        return loc if isinstance(loc, C.Location) else context.location(*loc)
    here = os.path.dirname(__file__)
    frame = sys._getframe(1)
    while frame and os.path.dirname(frame.f_code.co_filename) == here:
        frame = frame.f_back
    if frame is None:
        return context.location()
    return context.location(frame.f_code.co_filename, frame.f_lineno, 1)


def _append(context, block, name, operands, attributes, result_types,
            regions=(), infer=False, loc=None):
    """Creates op `name` at the end of `block`; returns the op (or raises
    RLXError with the diagnostics)."""
    # The state points at the name's bytes until the op is created.
    name_ref = C.StringRef.of(name)
    state = C.lib.mlirOperationStateGet(name_ref, loc or context.location())
    values, n = C.array(C.Value, [v._v for v in operands])
    C.lib.mlirOperationStateAddOperands(ctypes.byref(state), n, values)
    named = [C.lib.mlirNamedAttributeGet(
        C.lib.mlirIdentifierGet(context._ctx, C.StringRef.of(k)), a)
        for k, a in attributes]
    attrs, n = C.array(C.NamedAttribute, named)
    C.lib.mlirOperationStateAddAttributes(ctypes.byref(state), n, attrs)
    if regions:
        regs, n = C.array(C.Region, regions)
        C.lib.mlirOperationStateAddOwnedRegions(ctypes.byref(state), n, regs)
    if infer:
        C.lib.mlirOperationStateEnableResultTypeInference(ctypes.byref(state))
    else:
        types, n = C.array(C.Type, [t._t for t in result_types])
        C.lib.mlirOperationStateAddResults(ctypes.byref(state), n, types)
    context.take_diagnostics()
    op = C.lib.mlirOperationCreate(ctypes.byref(state))
    if not op.ptr:
        raise context.error("cannot build '%s'" % name)
    C.lib.mlirBlockAppendOwnedOperation(block, op)
    return op


def _string_literal(text):
    out = []
    for byte in text.encode():
        ch = chr(byte)
        if ch in '"\\' or not 0x20 <= byte < 0x7F:
            out.append("\\%02X" % byte)
        else:
            out.append(ch)
    return '"%s"' % "".join(out)


def _float_literal(x, width):
    x = float(x)
    if math.isfinite(x):
        # MLIR's float literals need a '.' before any exponent.
        mantissa, e, exponent = repr(x).partition("e")
        if "." not in mantissa:
            mantissa += ".0"
        return mantissa + e + exponent
    # Non-finite values only have the hexadecimal form.
    if width == 32:
        return "0x%08X" % struct.unpack("<I", struct.pack("<f", x))[0]
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", x))[0]


_NUMPY_TO_MLIR = {np.dtype("float32"): "f32", np.dtype("float64"): "f64",
                  np.dtype("float16"): "f16", np.dtype("int8"): "i8",
                  np.dtype("int16"): "i16", np.dtype("int32"): "i32",
                  np.dtype("int64"): "i64", np.dtype("uint8"): "ui8",
                  np.dtype("bool"): "i1",
                  np.dtype("complex64"): "complex<f32>",
                  np.dtype("complex128"): "complex<f64>"}


def numpy_to_mlir(dtype):
    """The MLIR element type of a NumPy dtype ("f32" for float32)."""
    if np.dtype(dtype) not in _NUMPY_TO_MLIR:
        raise TypeError("no MLIR element type for NumPy dtype %s" % dtype)
    return _NUMPY_TO_MLIR[np.dtype(dtype)]


def _attribute(context, name, kind, value):
    """The MLIR attribute for `value` given the ODS kind of the attribute
    (gen_ops.py's classify_attribute)."""
    if kind != "attr" and isinstance(value, str) and value.startswith("#"):
        return context.attribute(value)
    if kind == "bool":
        return context.attribute("true" if value else "false")
    if kind.startswith("int:"):
        return context.attribute("%d : i%s" % (int(value), kind[4:]))
    if kind.startswith("float:"):
        width = int(kind[7:])
        return context.attribute("%s : f%d" % (_float_literal(value, width),
                                               width))
    if kind == "str":
        return context.attribute(_string_literal(str(value)))
    if kind.startswith("array:"):
        element = kind[6:]
        items = ", ".join(str(int(v)) if element == "i64" else
                          _float_literal(v, 32) for v in value)
        return context.attribute("array<%s%s>" % (element, ": " + items
                                                  if items else ""))
    if kind == "symbol":
        target = value.name if isinstance(value, Function) else str(value)
        return context.attribute("@" + _string_literal(target))
    if kind == "type":
        return C.lib.mlirTypeAttrGet(_as_type(value, context)._t)
    if kind == "elements":
        # (np.ascontiguousarray would make a 0-d array 1-d.)
        array = np.require(np.asarray(value), requirements="C")
        dtype = numpy_to_mlir(array.dtype)
        if dtype == "i1":
            # Dense i1 attributes are packed one bit per element.
            data = np.packbits(array.astype(np.uint8).reshape(-1),
                               bitorder="little")
        else:
            data = array
        tensor = context.tensor(array.shape, dtype)
        raw = data.tobytes()
        attr = C.lib.mlirDenseElementsAttrRawBufferGet(
            tensor._t, len(raw), ctypes.c_char_p(raw))
        if not attr.ptr:
            raise context.error("%s: cannot make a dense attribute" % name)
        return attr
    if kind == "quant":
        if isinstance(value, (tuple, list)):
            return context.attribute("#rlx.quant<%s, %d>" % tuple(value))
        return context.attribute("#rlx.quant<%s>" % value)
    if isinstance(value, str):
        return context.attribute(value)
    raise TypeError("%s: pass the attribute as MLIR text, got %r" %
                    (name, value))


def _region(context, arg_types, fn, loc):
    """A region of one block with `arg_types` arguments, whose body `fn`
    builds from the block's arguments and whose values it returns are
    yielded (rlx.yield)."""
    types = [_as_type(t, context) for t in arg_types]
    ts, n = C.array(C.Type, [t._t for t in types])
    locs, _ = C.array(C.Location, [loc] * n)
    block = C.lib.mlirBlockCreate(n, ts, locs)
    args = [Value(context, C.lib.mlirBlockGetArgument(block, i))
            for i in range(n)]
    inner = _Region(context, block)
    _builders().append(inner)
    try:
        out = fn(*args)
    finally:
        _builders().pop()
    if isinstance(out, Value):
        out = [out]
    _append(context, block, "rlx.yield", list(out or []), [], [], loc=loc)
    region = C.lib.mlirRegionCreate()
    C.lib.mlirRegionAppendOwnedBlock(region, block)
    return region


class _Region:
    def __init__(self, context, block):
        self.context = context
        self._block = block

    def _record(self, results):
        pass


def create_op(name, operands, arities, attributes, num_results,
              variadic_results, infer, same_type_as, segments, num_regions,
              result_types, regions, loc):
    """Builds op `name` in the current function (generated builders call
    this). Operands come in ODS order with their arity; attributes as
    (name, kind, value) with None for absent; `same_type_as` is the index
    of the operand whose type the one result has, where the op does not
    infer it."""
    builder = _current()
    context = builder.context
    flat, sizes = [], []
    for value, arity in zip(operands, arities):
        if arity == "variadic":
            items = list(value)
        elif arity == "optional":
            items = [] if value is None else [value]
        else:
            items = [value]
        for v in items:
            if not isinstance(v, Value):
                raise TypeError("%s: operands are rlx Values, got %r" %
                                (name, v))
        flat += items
        sizes.append(len(items))
    attrs = [(n, _attribute(context, n, kind, v))
             for n, kind, v in attributes if v is not None]
    if segments:
        attrs.append(("operandSegmentSizes", context.attribute(
            "array<i32: %s>" % ", ".join(str(s) for s in sizes))))
    location = _caller_location(context, loc)
    if len(regions) != num_regions:
        raise TypeError("%s takes %d regions (regions=[(arg_types, fn), "
                        "...]), got %d" % (name, num_regions, len(regions)))
    # None leaves an optional region (rlx.custom_fn's vjp, jvp) empty.
    built_regions = [C.lib.mlirRegionCreate() if spec is None else
                     _region(context, spec[0], spec[1], location)
                     for spec in regions]
    types = None
    if result_types is not None:
        types = [_as_type(t, context) for t in result_types]
    elif not infer:
        if same_type_as is not None:
            types = [operands[same_type_as].type]
        elif num_results == 0:
            types = []
        else:
            raise TypeError("%s does not infer its result types: pass "
                            "result_types=[...]" % name)
    op = _append(context, builder._block, name, flat, attrs, types or [],
                 regions=built_regions, infer=types is None,
                 loc=location)
    results = [Value(context, C.lib.mlirOperationGetResult(op, i))
               for i in range(C.lib.mlirOperationGetNumResults(op))]
    builder._record(results)
    if not results:
        return None
    if len(results) == 1 and not variadic_results:
        return results[0]
    return tuple(results)

