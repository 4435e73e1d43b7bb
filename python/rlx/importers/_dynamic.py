# ===- _dynamic.py - dynamic dims for the importers -------------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Dynamic dims for rlx.from_torch and rlx.from_onnx.

Both importers compute with the example's shapes. To import some input
dims as `?`, the model is imported twice, at the example's sizes and at
other sizes of the dynamic dims, and the two functions are merged: they
must be the same ops with the same attributes, and a dim that differs
between them becomes `?` in the type that holds it. What a dynamic dim
changes anywhere else (a constant of its size, a slice length, a pooling
window, a reshape that cannot say which dynamic dim is which) is a static
size baked in: an UnsupportedError naming the op and the node that built
it."""

import re

from ..ir import Module, RLXError
from ._emit import ImportedModel, UnsupportedError

# A ranked tensor type: its dims (with the trailing x) and element type.
_TENSOR = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([^<>]+(?:<[^<>]*>)?)>")
_LOC_ALIAS = re.compile(r"^(#loc\d*) = loc\((.*)\)$", re.M)
_OP_LOC = re.compile(r"loc\((#loc\d*|[^()]*)\)\s*$")


def normalize(dynamic_dims, shapes, names=None, what="input"):
    """{input index: {dim: symbol}} from the user's `dynamic_dims`: keys are
    input indices or names; values a list of dims (dims of one example size
    are one symbol: they must agree when the program runs) or a dict dim
    -> symbol name."""
    out = {}
    for key, dims in dict(dynamic_dims).items():
        index = key
        if isinstance(key, str):
            if not names or key not in names:
                raise ValueError("dynamic_dims: no %s named %r (the %ss: %s)"
                                 % (what, key, what, ", ".join(names or [])))
            index = names.index(key)
        if not isinstance(index, int) or not 0 <= index < len(shapes):
            raise ValueError("dynamic_dims: no %s %r (%d %ss)" %
                             (what, key, len(shapes), what))
        rank = len(shapes[index])
        items = dims.items() if isinstance(dims, dict) else \
            [(d, None) for d in ([dims] if isinstance(dims, int) else dims)]
        entry = out.setdefault(index, {})
        for d, symbol in items:
            if not isinstance(d, int) or not -rank <= d < rank:
                raise ValueError("dynamic_dims: %s %r has rank %d, no dim %r"
                                 % (what, key, rank, d))
            d = d + rank if d < 0 else d
            if shapes[index][d] < 2:
                raise ValueError(
                    "dynamic_dims: %s %r dim %d has the example size %d; "
                    "give an example of size 2 or more there (sizes 0 and 1 "
                    "are special: broadcasts, squeezes)" %
                    (what, key, d, shapes[index][d]))
            entry[d] = symbol if symbol is not None else \
                "size%d" % shapes[index][d]
    return out


def other_sizes(dynamic, shapes):
    """The shapes of the second import: each symbol's dims grown by an
    amount of their own (1 for the first symbol, 2 for the next, ...)."""
    symbols = []
    for index in sorted(dynamic):
        for d in sorted(dynamic[index]):
            if dynamic[index][d] not in symbols:
                symbols.append(dynamic[index][d])
    sizes = {}
    for index, dims in dynamic.items():
        for d, s in dims.items():
            size = shapes[index][d] + 1 + symbols.index(s)
            if sizes.setdefault(s, size) != size:
                raise ValueError(
                    "dynamic_dims: the dims of %r have different example "
                    "sizes" % s)
    out = []
    for index, shape in enumerate(shapes):
        shape = list(shape)
        for d, s in dynamic.get(index, {}).items():
            shape[d] = sizes[s]
        out.append(tuple(shape))
    return out


def _locations(text):
    return dict(_LOC_ALIAS.findall(text))


def _where(lines, aliases, i):
    """The op at line i, its location, and (for an op of no source line,
    as a constant) the first op that uses it with one."""
    def loc_of(line):
        m = _OP_LOC.search(line)
        if not m:
            return None
        loc = aliases.get(m.group(1), m.group(1))
        m = re.match(r'"(.*)":(\d+):(\d+)', loc)
        return (m.group(1), int(m.group(2))) if m else None

    def strip(line):
        # (A constant's elements are left out.)
        return re.sub(r"dense<[^>]{40,}>", "dense<...>",
                      _OP_LOC.sub("", line).strip())

    loc = loc_of(lines[i])
    if loc and not loc[0].endswith(("_emit.py", "torch_fx.py", "onnx.py",
                                    "_dynamic.py")):
        return strip(lines[i]), loc, None
    m = re.match(r"\s*(%[\w#]+)", lines[i])
    if m:
        use = re.compile(re.escape(m.group(1)) + r"\b")
        for later in lines[i + 1:]:
            if use.search(later.split("=", 1)[-1]):
                later_loc = loc_of(later)
                return strip(lines[i]), later_loc, strip(later)
    return strip(lines[i]), None, None


def merge(first, second, function, describe=None):
    """The module whose function @function is `first`'s with `?` where
    `second` (the same import at other sizes of the dynamic dims) has other
    sizes. `describe(loc)` names the node that built an op at (file,
    line). Raises UnsupportedError where the two differ otherwise."""
    a = first.to_string(locations=True)
    b = second.to_string(locations=True)
    aliases = _locations(a)
    lines = a.split("\n")

    def fail(offset, why):
        i = a.count("\n", 0, offset)
        op, loc, user = _where(lines, aliases, i)
        text = "rlx: a dynamic dim changes %s of `%s`" % (why, op)
        if user is not None:
            text += ", used by `%s`" % user
        if loc is not None:
            text += " at %s:%d" % loc
            node = describe(loc) if describe else None
            if node:
                text += " (%s)" % node
        raise UnsupportedError(
            text + ": a static size is baked in there, so those dims cannot "
            "be dynamic")

    pieces_a, pieces_b = _TENSOR.split(a), _TENSOR.split(b)
    out, offset = [], 0
    if len(pieces_a) != len(pieces_b):
        # Different ops: the first line where they part.
        for i, (x, y) in enumerate(zip(lines, b.split("\n"))):
            if x != y and not _TENSOR.sub("", x) == _TENSOR.sub("", y):
                fail(sum(len(l) + 1 for l in lines[:i]), "the ops")
        fail(0, "the ops")
    for k in range(0, len(pieces_a), 3):
        text_a, text_b = pieces_a[k], pieces_b[k]
        if text_a != text_b:
            at = next(j for j, (x, y) in enumerate(zip(text_a, text_b))
                      if x != y) if any(x != y for x, y in zip(
                          text_a, text_b)) else min(len(text_a), len(text_b))
            line = a[:offset + at].rsplit("\n", 1)[-1]
            fail(offset + at, "the shape of a constant" if
                 "rlx.constant" in line else "an attribute")
        out.append(text_a)
        offset += len(text_a)
        if k + 1 >= len(pieces_a):
            break
        dims_a, elem_a = pieces_a[k + 1], pieces_a[k + 2]
        dims_b, elem_b = pieces_b[k + 1], pieces_b[k + 2]
        da, db = dims_a.split("x")[:-1], dims_b.split("x")[:-1]
        if len(da) != len(db) or elem_a != elem_b:
            fail(offset, "the rank of a type")
        merged = [x if x == y else "?" for x, y in zip(da, db)]
        if merged != da and re.search(r"dense(_resource)?<[^\n]*>\s*:\s*$",
                                      text_a.rsplit("\n", 1)[-1]):
            fail(offset, "the shape of a constant")
        out.append("tensor<%s%s>" % ("".join(d + "x" for d in merged),
                                     elem_a))
        offset += len("tensor<%s%s>" % (dims_a, elem_a))
    text = "".join(out)
    try:
        module = Module.parse(text, first.context)
    except RLXError as error:
        raise UnsupportedError(
            "rlx: the function with dynamic dims does not verify: %s" %
            error) from None
    check_reshapes(text, a, b, aliases, describe)
    return module


def _dims(text):
    return [None if d == "?" else int(d) for d in text.split("x")[:-1]]


def _reshape_sizes(ins, outs, shape):
    """rlx.reshape's sizes for several dynamic result dims (see its
    description): dynamic dims pair up in order, each with the static
    dims after it as a group that keeps its count; None if they do not."""
    def groups(dims):
        dynamic, products = [], [1]
        for i, d in enumerate(dims):
            if d is None:
                dynamic.append(i)
                products.append(1)
            else:
                products[-1] *= d
        return dynamic, products
    din, gin = groups(ins)
    dout, gout = groups(outs)
    if len(din) != len(dout) or gin[0] != gout[0]:
        return None
    sizes = list(outs)
    for j, (i, o) in enumerate(zip(din, dout)):
        sizes[o] = shape[i] * gin[j + 1] // gout[j + 1]
    return sizes


_RESHAPE = re.compile(r"rlx\.reshape %[\w#]+ : tensor<((?:(?:\d+|\?)x)*)"
                      r"[^>]*> -> tensor<((?:(?:\d+|\?)x)*)")


def check_reshapes(text, first, second, aliases, describe):
    """A reshape to several dynamic dims must give, by rlx.reshape's rule,
    the sizes that both imports (texts `first`, `second`) have: an error
    naming the node otherwise."""
    lines = text.split("\n")
    found_a = [m for m in _RESHAPE.finditer(first)]
    found_b = [m for m in _RESHAPE.finditer(second)]
    merged = [(i, m) for i, line in enumerate(lines)
              for m in [_RESHAPE.search(line)] if m]
    for (i, m), a, b in zip(merged, found_a, found_b):
        ins, outs = _dims(m.group(1)), _dims(m.group(2))
        if None not in outs:
            continue
        if outs.count(None) > 1 and not all(
                _reshape_sizes(ins, outs, _dims(r.group(1))) ==
                _dims(r.group(2)) for r in (a, b)):
            why = "to %d dynamic dims that do not pair with its input's: " \
                "rlx.reshape gives each dynamic dim the size of the input's " \
                "dynamic dim in its place, times the static dims after it " \
                "in the input, divided by those in the result" % \
                outs.count(None)
        else:
            continue
        op, loc, _ = _where(lines, aliases, i)
        message = "rlx: `%s` reshapes %s" % (op, why)
        if loc is not None:
            message += " (at %s:%d" % loc
            node = describe(loc) if describe else None
            message += ", %s)" % node if node else ")"
        raise UnsupportedError(message)


def function_of(module, name):
    """An rlx.Function handle of the (built) function @name of `module`, as
    rlx.compile and rlx.grad take."""
    from .. import _capi as C
    from ..builder import Function, Value
    arg_types, result_types = module.function_type(name)
    f = Function.__new__(Function)
    f.name, f.context, f.module, f.private = name, module.context, module, \
        False
    f.arg_types, f.result_types = arg_types, result_types
    f._results, f._last = None, None
    table = C.lib.mlirSymbolTableCreate(module.operation)
    try:
        op = C.lib.mlirSymbolTableLookup(table, C.StringRef.of(name))
        block = C.lib.mlirRegionGetFirstBlock(
            C.lib.mlirOperationGetFirstRegion(op))
        f._block = block
        f.args = [Value(module.context, C.lib.mlirBlockGetArgument(block, i))
                  for i in range(C.lib.mlirBlockGetNumArguments(block))]
    finally:
        C.lib.mlirSymbolTableDestroy(table)
    return f


def imported(first, second, name, nodes, dynamic):
    """The ImportedModel of `first` (the import at the example's sizes)
    with the dims that differ in `second` (the import at other sizes) made
    dynamic: `nodes` maps a location key to the node it names in errors,
    `dynamic` is the normalized dynamic dims the model records."""
    merged = merge(first.module, second.module, name,
                   lambda loc: nodes.get(loc))
    return ImportedModel(function_of(merged, name), first.params,
                         first.transposed, first.param_args,
                         first.input_names, first.output_names,
                         dynamic_dims=dynamic)
