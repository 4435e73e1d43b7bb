# ===- transforms.py - rlx.grad, rlx.jvp and rlx.vmap from Python -----=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Function transformations: each builds, in the function's module, a new
function whose body is one transform op (rlx.grad, rlx.jvp, rlx.vmap)
calling the original; `--rlx-expand-autodiff` (part of what rlx.compile
and rlx-optimize run) expands it."""

from . import ops
from .builder import Function


def _built(fn):
    if not isinstance(fn, Function) or fn.result_types is None:
        raise TypeError("expected an rlx.Function whose `with` block ended")
    return fn


def _with_dim(t, axis, size):
    shape = list(t.shape)
    axis = axis if axis >= 0 else len(shape) + 1 + axis
    shape.insert(axis, size)
    return t.context.tensor(shape, t.dtype)


def grad(fn, wrt=(0,), name=None):
    """value_and_grad: a function of fn's arguments returning fn's loss (a
    rank-0 float tensor) and its gradient with respect to each argument in
    `wrt`, as `jax.value_and_grad(fn, argnums=wrt)`."""
    fn = _built(fn)
    if len(fn.result_types) != 1:
        raise ValueError("rlx.grad: @%s must return one loss, returns %d "
                         "values" % (fn.name, len(fn.result_types)))
    wrt = [int(i) for i in wrt]
    n = len(fn.arg_types)
    results = [fn.result_types[0]] + [fn.arg_types[i % n] for i in wrt]
    with Function(name or fn.name + "_grad", fn.arg_types,
                  module=fn.module) as g:
        g.returns(ops.grad(g.args, callee=fn, wrt=wrt, result_types=results))
    return g


def jvp(fn, name=None):
    """A function of fn's primals followed by one tangent per primal,
    returning fn's results followed by their tangents, as
    `jax.jvp(fn, primals, tangents)`."""
    fn = _built(fn)
    n = len(fn.arg_types)
    with Function(name or fn.name + "_jvp", fn.arg_types + fn.arg_types,
                  module=fn.module) as g:
        g.returns(ops.jvp(g.args[:n], g.args[n:], callee=fn,
                          result_types=fn.result_types * 2))
    return g


def vmap(fn, batch, in_axes=None, out_axes=None, name=None):
    """fn mapped over a batch of `batch`: argument i gets the batch dim at
    `in_axes[i]` (-1: passed whole; default 0 for every argument), result
    j at `out_axes[j]` (default 0), as `jax.vmap(fn, in_axes, out_axes)`."""
    fn = _built(fn)
    in_axes = list(in_axes if in_axes is not None else [0] * len(fn.arg_types))
    out_axes = list(out_axes if out_axes is not None
                    else [0] * len(fn.result_types))
    args = [t if a == -1 else _with_dim(t, a, batch)
            for t, a in zip(fn.arg_types, in_axes)]
    results = [_with_dim(t, a, batch)
               for t, a in zip(fn.result_types, out_axes)]
    with Function(name or fn.name + "_vmap", args, module=fn.module) as g:
        g.returns(ops.vmap(g.args, callee=fn, in_axes=in_axes,
                           out_axes=out_axes, result_types=results))
    return g
