# ===- _emit.py - what the PyTorch and ONNX importers share -----------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""The emitter both importers build rlx ops with, and the model they
return.

`Emitter` wraps the op builders of rlx.ops with the framework semantics
they share (NumPy broadcasting of Python scalars, torch.matmul's ranks,
reshape with -1, dtype promotion by casts) and remembers, for every value
it built, the op and operands that made it. From that record it
recognizes, where a framework spells them out in primitives, the patterns
that have one rlx op: attention (matmul, scale, mask, softmax, matmul)
with grouped-query heads repeated for the matmul, rotary embeddings
written as rotate-half tensor math, RMS norm written as
`x * rsqrt(mean(x^2) + eps) * w`, and three projections of one input
split into heads (one QKV projection, as rlx.fused_attention_block
reads). Values it replaces stay in the function unused; `finish` drops
them (canonicalize)."""

import math

import numpy as np

from .. import ops
from ..builder import Value
from ..compiler import compile as _compile, numpy_dtype


class UnsupportedError(NotImplementedError):
    """A node of the model that the importer cannot translate. The message
    names the node (and, where the framework records it, its source
    line)."""


def _axis(axis, rank):
    axis = int(axis)
    if not -rank <= axis < max(rank, 1):
        raise ValueError("axis %d out of range for rank %d" % (axis, rank))
    return axis + rank if axis < 0 else axis


def broadcast_shapes(*shapes):
    """NumPy's broadcast of static shapes."""
    return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes]))


class Emitter:
    """Builds rlx ops in the function being imported. `params` maps each
    param name to (value as bound, transposed): a transposed one is a
    linear layer's weight bound as [in, out], the layout rlx.matmul reads.
    With `param_args`, params are the function's arguments after the
    inputs (`param_args` lists their names in order); otherwise each is an
    rlx.param built where first used."""

    def __init__(self, function, params, param_args=None):
        self.f = function
        self.context = function.context
        self.params = params
        self.param_args = list(param_args or [])
        self.loc = None
        self.meta = {}     # Value -> (kind, operands, attrs)
        self.consts = {}   # Value -> the NumPy array of an rlx.constant
        self._param_values = {}
        self._keep = []
        self._rope_cache = {}

    # ---- Building ---------------------------------------------------- #

    def op(self, op_name, *operands, **attrs):
        """rlx.<op_name>(*operands, **attrs) at the current location,
        remembered as made by `op_name` from `operands`."""
        location = self.loc
        result = getattr(ops, op_name)(*operands, loc=location, **attrs)
        if isinstance(result, Value):
            self.meta[result] = (op_name, operands, attrs)
            self._keep.append(result)
        return result

    def param(self, name):
        """The value of param `name` (as bound)."""
        if name not in self._param_values:
            array, _ = self.params[name]
            if name in self.param_args:
                n_inputs = len(self.f.args) - len(self.param_args)
                v = self.f.args[n_inputs + self.param_args.index(name)]
            else:
                t = self.context.tensor(array.shape, _mlir(array.dtype))
                v = self.op("param", name=name, result_types=[t])
            self.meta[v] = ("param", (), {"name": name})
            self._param_values[name] = v
        return self._param_values[name]

    def weight_in_out(self, name):
        """A linear weight as [in, out]: the param itself if it is bound
        transposed, else its transpose."""
        v = self.param(name)
        if self.params[name][1]:
            return v
        return self.transpose(v, [1, 0])

    def const(self, array, dtype=None):
        """An rlx.constant of `array` (cast to the MLIR element type
        `dtype` if given)."""
        array = np.asarray(array)
        if dtype is not None:
            array = array.astype(numpy_dtype(dtype))
        v = self.op("constant", value=np.ascontiguousarray(array))
        self.consts[v] = array
        return v

    def value(self, x, dtype):
        """`x` (a Value, NumPy array or Python number) as a value of
        element type `dtype`."""
        if isinstance(x, Value):
            return self.cast(x, dtype)
        return self.const(np.asarray(x), dtype)

    def const_of(self, v):
        """The NumPy value of `v` if it is known when importing (an
        rlx.constant, or a reshape, expand or cast of one), else None."""
        if not isinstance(v, Value):
            return np.asarray(v)
        if v in self.consts:
            return self.consts[v]
        kind, operands, _ = self.meta.get(v, (None, (), {}))
        if kind in ("reshape", "expand", "cast") and operands:
            inner = self.const_of(operands[0])
            if inner is not None:
                shape = v.shape
                if kind == "reshape":
                    return inner.reshape(shape)
                if kind == "expand":
                    return np.broadcast_to(inner, shape)
                return inner.astype(numpy_dtype(v.dtype))
        return None

    def cast(self, x, dtype):
        if x.dtype == dtype:
            return x
        return self.op("cast", x,
                       result_types=[self.context.tensor(x.shape, dtype)])

    def reshape(self, x, shape):
        shape = [int(s) for s in shape]
        if -1 in shape:
            known = int(np.prod([s for s in shape if s != -1]))
            shape[shape.index(-1)] = int(np.prod(x.shape)) // max(known, 1)
        if tuple(shape) == tuple(x.shape):
            return x
        unflattened = self._unflatten_linear(x, shape)
        if unflattened is not None:
            return unflattened
        return self.op("reshape", x, result_types=[
            self.context.tensor(shape, x.dtype)])

    def expand(self, x, shape):
        shape = tuple(int(s) for s in shape)
        if shape == tuple(x.shape):
            return x
        if len(shape) > len(x.shape):
            x = self.reshape(x, (1,) * (len(shape) - len(x.shape)) +
                             tuple(x.shape))
        return self.op("expand", x, result_types=[
            self.context.tensor(shape, x.dtype)])

    def transpose(self, x, perm):
        perm = [_axis(p, len(x.shape)) for p in perm]
        if perm == list(range(len(perm))):
            return x
        return self.op("transpose", x, permutation=perm)

    def swap(self, x, a, b):
        rank = len(x.shape)
        perm = list(range(rank))
        a, b = _axis(a, rank), _axis(b, rank)
        perm[a], perm[b] = perm[b], perm[a]
        return self.transpose(x, perm)

    def narrow(self, x, axis, start, length):
        axis = _axis(axis, len(x.shape))
        if start == 0 and length == x.shape[axis]:
            return x
        return self.op("narrow", x, axis=axis, start=int(start),
                       length=int(length))

    def slice(self, x, axis, start, stop, step=1):
        """x[start:stop:step] on `axis` (Python's slice rules)."""
        axis = _axis(axis, len(x.shape))
        n = x.shape[axis]
        start, stop, step = slice(start, stop, step).indices(n)
        if step < 0:
            # x[start:stop:step] = reverse(x)[n-1-start : n-1-stop : -step]
            if start <= stop:
                return self.narrow(x, axis, 0, 0)
            r = self.op("reverse", x, axes=[axis])
            return self.slice(r, axis, n - 1 - start, n - 1 - stop, -step)
        count = max(0, (stop - start + step - 1) // step)
        if step == 1:
            return self.narrow(x, axis, start, count)
        # A strided slice as narrow, split of the axis, narrow, merge.
        span = count * step
        if start + span > n:
            padded = count - 1
            x1 = self.slice(x, axis, start, start + padded * step, step) \
                if padded else None
            last = self.narrow(x, axis, start + padded * step, 1)
            return last if x1 is None else self.concat([x1, last], axis)
        y = self.narrow(x, axis, start, span)
        shape = list(y.shape)
        split = shape[:axis] + [count, step] + shape[axis + 1:]
        y = self.narrow(self.reshape(y, split), axis + 1, 0, 1)
        return self.reshape(y, shape[:axis] + [count] + shape[axis + 1:])

    def tile(self, x, reps):
        """torch.Tensor.repeat / numpy.tile: each axis `reps` times."""
        reps = [int(r) for r in reps]
        shape = [1] * (len(reps) - len(x.shape)) + list(x.shape)
        reps = [1] * (len(shape) - len(reps)) + reps
        x = self.reshape(x, [d for s in shape for d in (1, s)])
        x = self.expand(x, [d for s, r in zip(shape, reps) for d in (r, s)])
        return self.reshape(x, [s * r for s, r in zip(shape, reps)])

    def concat(self, values, axis):
        if len(values) == 1:
            return values[0]
        return self.op("concat", list(values),
                       axis=_axis(axis, len(values[0].shape)))

    def unsqueeze(self, x, axis):
        shape = list(x.shape)
        axis = axis + len(shape) + 1 if axis < 0 else axis
        shape.insert(axis, 1)
        return self.reshape(x, shape)

    def squeeze(self, x, axes=None):
        shape = list(x.shape)
        if axes is None:
            axes = [i for i, s in enumerate(shape) if s == 1]
        axes = {_axis(a, len(shape)) for a in axes}
        return self.reshape(x, [s for i, s in enumerate(shape)
                                if not (i in axes and s == 1)])

    def binary(self, name, a, b, dtype=None):
        """rlx.<name>(a, b) with NumPy broadcasting; Python numbers and
        arrays become constants; both sides are cast to `dtype` (default:
        the dtype of the Value operand)."""
        if dtype is None:
            dtype = (a if isinstance(a, Value) else b).dtype
        if name == "add":
            rope = self._match_rope(a, b)
            if rope is not None:
                return rope
            # bias + x -> x + bias (exact in floating point), the operand
            # order the fusion patterns read.
            if isinstance(b, Value) and (not isinstance(a, Value) or
                                         len(np.shape(a) if not isinstance(
                                             a, Value) else a.shape) <
                                         len(b.shape)):
                a, b = b, a
        if name == "mul":
            norm = self._match_rms_norm(a, b)
            if norm is not None:
                return norm
            # x * sigmoid(x) -> silu(x)
            for x, s in ((a, b), (b, a)):
                if self._is(s, "sigmoid") and self.meta[s][1][0] is x:
                    return self.op("silu", x)
        return self.op(name, self.value(a, dtype), self.value(b, dtype))

    def pow(self, x, exponent):
        e = self.const_of(exponent)
        if e is not None and e.size == 1:
            e = float(e.reshape(()))
            if e == 1:
                return x
            if e == 2:
                return self.binary("mul", x, x)
            if e == 3:
                return self.binary("mul", self.binary("mul", x, x), x)
            if e == 0.5:
                return self.op("sqrt", x)
            if e == -0.5:
                return self.op("rsqrt", x)
            if e == -1:
                return self.binary("div", 1.0, x)
        return self.binary("pow", x, exponent)

    def cmp(self, predicate, a, b, dtype):
        return self.op("cmp", self.value(a, dtype), self.value(b, dtype),
                       predicate=predicate)

    def where(self, cond, a, b, dtype):
        cond = self.value(cond, "i1")
        a, b = self.value(a, dtype), self.value(b, dtype)
        shape = broadcast_shapes(cond.shape, a.shape, b.shape)
        return self.op("where", self.expand(cond, shape) if
                       len(cond.shape) < len(shape) else cond, a, b)

    def reduce(self, kind, x, axes, keepdim):
        rank = len(x.shape)
        if axes is None:
            axes = list(range(rank))
        axes = sorted({_axis(a, rank) for a in axes})
        if not axes:
            return x
        return self.op("reduce", x, kind=kind, axes=axes,
                       keepdim=bool(keepdim))

    def matmul(self, a, b):
        """torch.matmul / numpy.matmul, vectors included."""
        if len(a.shape) == 1 and len(b.shape) == 1:
            return self.reduce("sum", self.binary("mul", a, b), [0], False)
        if len(a.shape) == 1:
            y = self.matmul(self.reshape(a, [1, a.shape[0]]), b)
            return self.squeeze(y, [-2])
        if len(b.shape) == 1:
            y = self.matmul(a, self.reshape(b, [b.shape[0], 1]))
            return self.squeeze(y, [-1])
        attention = self._match_attention(a, b)
        if attention is not None:
            return attention
        return self.op("matmul", a, b)

    def linear(self, x, w, b=None):
        """x @ w (+ b) with w [in, out]."""
        y = self.matmul(x, w)
        return y if b is None else self.binary("add", y, b)

    def layer_norm(self, x, n_axes, gamma, beta, eps):
        """Normalizes the last `n_axes` axes of x."""
        shape = list(x.shape)
        inner = int(np.prod(shape[len(shape) - n_axes:]))
        dtype = x.dtype
        gamma = self.value(gamma if gamma is not None else
                           np.ones(inner), dtype)
        beta = self.value(beta if beta is not None else
                          np.zeros(inner), dtype)
        if n_axes != 1:
            x = self.reshape(x, shape[:len(shape) - n_axes] + [inner])
            gamma, beta = self.reshape(gamma, [inner]), self.reshape(
                beta, [inner])
        y = self.op("layer_norm", x, gamma, beta, epsilon=float(eps))
        return self.reshape(y, shape)

    def pool(self, x, kind, kernel, strides, padding, ceil_mode=False,
             count_include_pad=True, divisor_override=None):
        """Max or average pooling as PyTorch defines it (F.max_pool2d,
        F.avg_pool2d; ONNX's MaxPool and AveragePool agree): `padding`
        is lo/hi per spatial axis. With ceil_mode the output size rounds
        up, dropping a last window that would start in the padding after
        the input, and the last window reads past the input's end: there
        the input is padded further (-inf for max, 0 for average).
        Average pooling divides each window by PyTorch's count (the
        window clipped to the padded input, clipped to the input without
        count_include_pad, or divisor_override): rlx.pool divides by the
        kernel's size, a constant table corrects it where they differ."""
        sizes = list(x.shape[2:])
        los, his = list(padding[0::2]), list(padding[1::2])
        outs = []
        for n, k, s, lo, hi in zip(sizes, kernel, strides, los, his):
            span = n + lo + hi - k
            if span < 0:
                raise UnsupportedError(
                    "a pooling window of %d larger than the padded input "
                    "%d" % (k, n + lo + hi))
            o = (-(-span // s) if ceil_mode else span // s) + 1
            if ceil_mode and (o - 1) * s >= n + lo:
                o -= 1
            outs.append(o)
        # The padding after the input that the last window reads.
        reads = [max(hi, (o - 1) * s + k - n - lo) for n, k, s, lo, hi, o
                 in zip(sizes, kernel, strides, los, his, outs)]
        fill = float("-inf") if kind == "max" else 0.0
        pads = []
        for i, (k, lo, hi) in enumerate(zip(kernel, los, reads)):
            if 2 * max(lo, hi) > k:
                # More than rlx.pool pads (half the kernel): padded here.
                parts = []
                for count in (lo, hi):
                    shape = list(x.shape)
                    shape[2 + i] = count
                    parts.append(self.const(np.full(shape, fill), x.dtype)
                                 if count else None)
                x = self.concat([v for v in (parts[0], x, parts[1])
                                 if v is not None], 2 + i)
                lo = hi = 0
            pads += [lo, hi]
        y = self.op("pool", x, kind=kind, kernel=list(kernel),
                    strides=list(strides), padding=pads)
        if kind == "max":
            return y
        # Each output position's divisor, as PyTorch's CPU kernel counts.
        table = np.ones((), np.float64)
        for n, k, s, lo, hi, o in zip(sizes, kernel, strides, los, his,
                                      outs):
            start = np.arange(o) * s - lo
            end = np.minimum(start + k, n + hi)
            if not count_include_pad:
                start, end = np.maximum(start, 0), np.minimum(end, n)
            table = np.multiply.outer(table, end - start)
        if divisor_override:
            table = np.full(table.shape, float(divisor_override))
        size = float(np.prod(kernel))
        if np.all(table == size):
            return y
        return self.binary("mul", y, self.const(size / table, y.dtype))

    def attention(self, q, k, v, mask_kind="none", mask=None, scale=None,
                  window=None):
        """rlx.attention, with the scale left to the op's default where it
        is 1/sqrt(D); k and v of heads repeated for grouped-query attention
        read as the kv heads."""
        k, v = self._unrepeat_kv(q, k, v)
        merged = self._merge_qkv(q, k, v)
        if merged is not None:
            q, k, v = merged
        d = q.shape[-1]
        if scale is not None and abs(scale * math.sqrt(d) - 1) < 1e-12:
            scale = None
        if scale is not None and q.dtype == "f64" and \
                float(np.float32(scale)) != scale:
            # The scale attribute is f32: a float64 scale goes into q.
            q = self.binary("mul", q, scale)
            scale = 1.0
        kwargs = {"mask": mask_kind}
        if scale is not None:
            kwargs["scale"] = float(scale)
        if window is not None:
            kwargs["window"] = int(window)
        return self.op("attention", q, k, v, mask, **kwargs)

    # ---- Patterns ------------------------------------------------------ #

    def _unflatten_linear(self, y, shape):
        """reshape(reshape(x, [n, k]) @ w (+ b), rows + [m]) ->
        reshape(x, rows + [k]) @ w (+ b): a linear layer on rows flattened
        for it (PyTorch's MultiheadAttention out projection) applied to
        the rows in their final shape, so that their dims stay apart
        (dynamic batch and sequence dims cannot be told apart again after
        the flatten)."""
        bias = None
        if self._is(y, "add") and len(self.meta[y][1][1].shape) <= 1:
            y, bias = self.meta[y][1]
        if not self._is(y, "matmul"):
            return None
        r, w = self.meta[y][1]
        if not self._is(r, "reshape") or len(r.shape) != 2 or \
                len(w.shape) != 2:
            return None
        x = self.meta[r][1][0]
        rows = list(shape[:-1])
        if len(rows) < 2 or shape[-1] != w.shape[1] or \
                int(np.prod(rows)) != r.shape[0]:
            return None
        out = self.op("matmul", self.reshape(x, rows + [r.shape[1]]), w)
        return out if bias is None else self.op("add", out, bias)


    def _is(self, v, *kinds):
        return isinstance(v, Value) and self.meta.get(v, (None,))[0] in kinds

    def _scalar(self, v):
        c = self.const_of(v)
        if c is None or c.size != 1:
            return None
        return float(c.reshape(-1)[0])

    def _match_attention(self, p, v):
        """matmul(softmax(scale * (q @ k^T) [+ mask]), v) -> attention."""
        if not self._is(p, "softmax") or len(p.shape) != 4 or \
                len(v.shape) != 4:
            return None
        s = self.meta[p][1][0]
        if self.meta[p][2]["axis"] != 3:
            return None
        mask_kind, mask = "none", None
        if self._is(s, "add"):
            lhs, rhs = self.meta[s][1]
            scores, bias = (lhs, rhs) if self._scores(lhs) else (rhs, lhs)
            if not self._scores(scores):
                return None
            mask_kind, mask = self._additive_mask(bias, s.shape, s.dtype)
        elif self._is(s, "where"):
            cond, on_true, on_false = self.meta[s][1]
            if self._scores(on_true) and self._masked_fill(on_false):
                scores, allowed = on_true, cond
            elif self._scores(on_false) and self._masked_fill(on_true):
                scores, allowed = on_false, self._not(cond)
            else:
                return None
            mask_kind, mask = self._bool_mask(allowed, s.shape)
        else:
            scores = s
        parts = self._scores(scores)
        if not parts:
            return None
        q, k, scale = parts
        if k.shape[-2] != v.shape[-2] or k.shape[0] != v.shape[0]:
            return None
        return self.attention(q, k, v, mask_kind, mask, scale)

    def _masked_fill(self, v):
        c = self._scalar(v)
        return c is not None and c <= -1e4

    def _not(self, cond):
        c = self.const_of(cond)
        if c is not None:
            return self.const(np.logical_not(c))
        return self.op("cmp", cond, self.const(np.zeros((), np.bool_)),
                       predicate="eq")

    def _scores(self, s):
        """(q, k, scale) if s = [scale *] q @ k^T of 4-D q and k."""
        scale = 1.0
        if self._is(s, "mul", "div"):
            kind, (a, b), _ = self.meta[s]
            c = self._scalar(b)
            if c is None and kind == "mul":
                c, a = self._scalar(a), b
            if c is None or c == 0:
                return None
            scale = c if kind == "mul" else 1.0 / c
            s = a
        if not self._is(s, "matmul"):
            return None
        q, kt = self.meta[s][1]
        attrs = self.meta[s][2]
        if attrs.get("transpose_a") or len(q.shape) != 4 or \
                len(kt.shape) != 4:
            return None
        if attrs.get("transpose_b"):
            return q, kt, scale
        if not self._is(kt, "transpose"):
            return None
        perm = self.meta[kt][2]["permutation"]
        if perm == [0, 1, 3, 2]:
            return q, self.meta[kt][1][0], scale
        # Exporters fold the head split's transpose into this one:
        # transpose(y, p) = swap_last(transpose(y, p with the last two
        # swapped)).
        y = self.meta[kt][1][0]
        return q, self.transpose(y, perm[:2] + [perm[3], perm[2]]), scale

    def _causal(self, allowed):
        """Whether the boolean [S, Skv] table is the causal mask aligned
        at the end (query i sees keys j <= i + Skv - S)."""
        s, skv = allowed.shape
        want = np.tril(np.ones((s, skv), np.bool_), skv - s)
        return np.array_equal(allowed, want) and s <= skv

    def _squeeze_table(self, c, shape):
        c = np.broadcast_to(c, shape) if c.ndim < 2 else c
        lead = c.shape[:-2]
        if any(d != 1 for d in lead):
            # One table for all batches and heads, or none.
            first = c.reshape((-1,) + c.shape[-2:])[0]
            if not np.all(c == first):
                return None
            return np.broadcast_to(first, shape[-2:])
        return np.broadcast_to(c.reshape(c.shape[-2:]), shape[-2:])

    def _additive_mask(self, bias, shape, dtype):
        c = self.const_of(bias)
        if c is not None:
            table = self._squeeze_table(c, shape)
            if table is not None:
                allowed = table == 0
                if np.all(table[~allowed] <= -1e4) and self._causal(allowed):
                    return "causal", None
        return "bias", self.value(bias, dtype)

    def _bool_mask(self, allowed, shape):
        c = self.const_of(allowed)
        if c is not None:
            table = self._squeeze_table(c.astype(np.bool_), shape)
            if table is not None and self._causal(table):
                return "causal", None
        return "custom", self.value(allowed, "i1")

    def _repeated(self, k):
        """The kv heads if k is reshape(expand(unsqueeze(kv, 2))) to
        [B, H * n, S, D] (HF's repeat_kv, torch.repeat_interleave on the
        head axis), else None."""
        if not self._is(k, "reshape") or len(k.shape) != 4:
            return None
        e = self.meta[k][1][0]
        if not self._is(e, "expand") or len(e.shape) != 5:
            return None
        u = self.meta[e][1][0]
        b, h, n, s, d = e.shape
        if tuple(u.shape) != (b, h, 1, s, d) or \
                tuple(k.shape) != (b, h * n, s, d):
            return None
        if self._is(u, "reshape") and \
                tuple(self.meta[u][1][0].shape) == (b, h, s, d):
            return self.meta[u][1][0]
        return self.reshape(u, (b, h, s, d))

    def _unrepeat_kv(self, q, k, v):
        rk, rv = self._repeated(k), self._repeated(v)
        if rk is not None and rv is not None and rk.shape[1] == rv.shape[1] \
                and q.shape[1] % rk.shape[1] == 0:
            return rk, rv
        return k, v

    def _head_split(self, x):
        """(projection, heads, d) if x = transpose(reshape(projection to
        [B, S, heads, d]), [0, 2, 1, 3]) with a 3-D projection."""
        if not self._is(x, "transpose") or \
                self.meta[x][2]["permutation"] != [0, 2, 1, 3]:
            return None
        r = self.meta[x][1][0]
        if not self._is(r, "reshape"):
            return None
        p = self.meta[r][1][0]
        b, s, h, d = r.shape
        if tuple(p.shape) != (b, s, h * d):
            return None
        return p, h, d

    def _projection(self, p):
        """(input, weight, bias) if p = input @ weight (+ bias) with a 2-D
        weight and a 1-D bias."""
        bias = None
        if self._is(p, "add"):
            a, b = self.meta[p][1]
            if self._is(a, "matmul") and len(b.shape) == 1:
                p, bias = a, b
            elif self._is(b, "matmul") and len(a.shape) == 1:
                p, bias = b, a
            else:
                return None
        if not self._is(p, "matmul") or self.meta[p][2]:
            return None
        x, w = self.meta[p][1]
        if len(w.shape) != 2:
            return None
        return x, w, bias

    def _unrope(self, x):
        if self._is(x, "rope"):
            inp, cos, sin = self.meta[x][1]
            return inp, (cos, sin, self.meta[x][2].get("style"))
        return x, None

    def _merge_qkv(self, q, k, v):
        """Three head splits of projections of one input become one
        projection by the concatenated weights, split by narrows: the
        chain rlx.fused_attention_block reads. Returns the new (q, k, v), or
        None where they are not such head splits."""
        q0, q_rope = self._unrope(q)
        k0, k_rope = self._unrope(k)
        splits = [self._head_split(t) for t in (q0, k0, v)]
        if None in splits or (q_rope is None) != (k_rope is None):
            return None
        projections = [self._projection(p) for p, _, _ in splits]
        if None in projections:
            return None
        x = projections[0][0]
        biases = [pr[2] for pr in projections]
        if any(pr[0] is not x for pr in projections) or len(x.shape) != 3 \
                or len({splits[0][2], splits[1][2], splits[2][2]}) != 1 or \
                (None in biases and any(b is not None for b in biases)):
            return None
        w = self.concat([pr[1] for pr in projections], 1)
        qkv = self.matmul(x, w)
        if biases[0] is not None:
            qkv = self.binary("add", qkv, self.concat(biases, 0))
        b, s = x.shape[0], x.shape[1]
        out, start = [], 0
        for _, heads, d in splits:
            part = self.narrow(qkv, 2, start, heads * d)
            part = self.reshape(part, [b, s, heads, d])
            out.append(self.transpose(part, [0, 2, 1, 3]))
            start += heads * d
        if q_rope is not None:
            cos, sin, style = q_rope
            kcos, ksin, kstyle = k_rope
            if cos is not kcos or sin is not ksin or style != kstyle:
                return None
            kw = {"style": style} if style else {}
            out[0] = self.op("rope", out[0], cos, sin, **kw)
            out[1] = self.op("rope", out[1], cos, sin, **kw)
        return tuple(out)

    def _match_rope(self, a, b):
        """x * cos + rotate_half(x) * sin -> rope(x) (neox style) where
        cos and sin are constant tables [S, D] whose two halves agree."""
        if not (self._is(a, "mul") and self._is(b, "mul")):
            return None
        for first, second in ((a, b), (b, a)):
            m = self._rope_parts(first, second)
            if m is not None:
                return m
        return None

    def _rope_parts(self, cos_term, sin_term):
        for x, cos in (self.meta[cos_term][1], self.meta[cos_term][1][::-1]):
            if not isinstance(x, Value) or len(x.shape) != 4:
                continue
            for rot, sin in (self.meta[sin_term][1],
                             self.meta[sin_term][1][::-1]):
                if self._rotate_half(rot) is x:
                    tables = self._rope_tables(cos, sin, x.shape)
                    if tables is None:
                        continue
                    # q and k share one pair of tables (as the fused
                    # attention block wants).
                    key = tuple((t.shape, t.dtype.str, t.tobytes())
                                for t in tables)
                    if key not in self._rope_cache:
                        self._rope_cache[key] = (self.const(tables[0]),
                                                 self.const(tables[1]))
                    return self.op("rope", x, *self._rope_cache[key])
        return None

    def _rotate_half(self, r):
        """x if r = concat([-x[..., D/2:], x[..., :D/2]], -1)."""
        if not self._is(r, "concat") or len(self.meta[r][1][0]) != 2:
            return None
        first, second = self.meta[r][1][0]
        rank = len(r.shape)
        if self.meta[r][2]["axis"] != rank - 1 or not self._is(first, "neg"):
            return None
        hi = self.meta[first][1][0]
        if not (self._is(hi, "narrow") and self._is(second, "narrow")):
            return None
        x = self.meta[hi][1][0]
        d = r.shape[-1]
        h_attrs, l_attrs = self.meta[hi][2], self.meta[second][2]
        if self.meta[second][1][0] is not x or d % 2 or \
                h_attrs != {"axis": rank - 1, "start": d // 2,
                            "length": d // 2} or \
                l_attrs != {"axis": rank - 1, "start": 0, "length": d // 2}:
            return None
        return x

    def _rope_tables(self, cos, sin, shape):
        c, s = self.const_of(cos), self.const_of(sin)
        if c is None or s is None:
            return None
        _, _, n, d = shape
        tables = []
        for t in (c, s):
            if t.ndim > 4 or t.size != n * d or t.shape[-2:] != (n, d):
                return None
            t = t.reshape(n, d)
            if not np.array_equal(t[:, :d // 2], t[:, d // 2:]):
                return None
            dtype = numpy_dtype(cos.dtype if isinstance(cos, Value)
                                else "f32")
            tables.append(np.ascontiguousarray(t[:, :d // 2]).astype(dtype))
        return tables

    def _match_rms_norm(self, a, b):
        """w * (x * rsqrt(mean(x * x, -1, keepdim) + eps)) -> rms_norm."""
        for w, n in ((a, b), (b, a)):
            if not isinstance(w, Value) or len(w.shape) != 1 or \
                    not self._is(n, "mul"):
                continue
            for x, r in (self.meta[n][1], self.meta[n][1][::-1]):
                eps = self._rms_of(x, r)
                if eps is not None and w.shape[0] == x.shape[-1]:
                    return self.op("rms_norm", x, w, epsilon=eps)
        return None

    def _rms_of(self, x, r):
        if not isinstance(x, Value) or not self._is(r, "rsqrt"):
            return None
        s = self.meta[r][1][0]
        if not self._is(s, "add"):
            return None
        m, e = self.meta[s][1]
        eps = self._scalar(e)
        if eps is None:
            m, e = e, m
            eps = self._scalar(e)
        if eps is None or not self._is(m, "reduce"):
            return None
        sq = self.meta[m][1][0]
        attrs = self.meta[m][2]
        if attrs["kind"] != "mean" or attrs["axes"] != [len(x.shape) - 1] \
                or not attrs["keepdim"] or not self._is(sq, "mul") or \
                any(o is not x for o in self.meta[sq][1]):
            return None
        return eps


def _mlir(dtype):
    from ..builder import numpy_to_mlir
    return numpy_to_mlir(dtype)


class ImportedModel:
    """A model imported into an rlx function (rlx.from_torch,
    rlx.from_onnx).

    `function` is the rlx.Function (`module` its module) of the model's
    inputs, and of its params too where they were imported as arguments.
    `params` maps each param name (the framework's: state_dict keys,
    ONNX initializer names) to its value as bound: a name in `transposed`
    is a linear layer's weight bound as [in, out] (the framework's
    transposed), the layout rlx.matmul reads. `param_args` lists the
    params that are arguments, in argument order (empty when they are
    rlx.params). Calling the model compiles it for the CPU once and runs
    it on NumPy arrays, one per input, with the params passed for it."""

    def __init__(self, function, params, transposed, param_args,
                 input_names, output_names, dynamic_dims=None):
        self.function = function
        self.dynamic_dims = dict(dynamic_dims or {})
        self.module = function.module
        self.params = {n: (p[0] if isinstance(p, tuple) else p)
                       for n, p in params.items()}
        self.transposed = set(transposed)
        self.param_args = list(param_args)
        self.input_names = list(input_names)
        self.output_names = list(output_names)

    def __repr__(self):
        return "rlx.ImportedModel(@%s, %d inputs, %d params)" % (
            self.function.name, len(self.input_names), len(self.params))

    def compile(self, target="cpu", **options):
        """rlx.compile of the model's function."""
        return _compile(self.function, target=target, **options)

    def param_list(self, program=None):
        """The param values a program of this model takes after its inputs:
        the arguments in `param_args`, else the rlx.params in the
        program's `param_names` order (`program` defaults to the model's
        CPU program)."""
        if not self.param_args and program is None:
            program = self.compile()
        names = self.param_args or program.param_names
        return [self.params[n] for n in names]

    def check_dims(self, *inputs):
        """Raises ValueError where inputs' dims of one symbol of
        `dynamic_dims` have different sizes (naming both)."""
        seen = {}
        for index, dims in sorted(self.dynamic_dims.items()):
            if index >= len(inputs):
                continue
            shape = np.shape(inputs[index])
            for d, symbol in sorted(dims.items()):
                if d >= len(shape):
                    continue
                first = seen.setdefault(symbol, (index, d, shape[d]))
                if first[2] != shape[d]:
                    raise ValueError(
                        "@%s: input #%d (%s) dim %d is %d, but input #%d (%s)"
                        " dim %d is %d: both are the dynamic dim %r" % (
                            self.function.name, index,
                            self.input_names[index], d, shape[d], first[0],
                            self.input_names[first[0]], first[1], first[2],
                            symbol))

    def __call__(self, *inputs):
        program = self.compile()
        arrays = [np.asarray(x) for x in inputs]
        self.check_dims(*arrays)
        return program(*arrays, *self.param_list(program))

    def fusion_report(self, target=""):
        """The module's fusion report (Module.fusion_report)."""
        return self.module.fusion_report(target)


def finish(function):
    """Drops the values that patterns replaced (dead ops) from the
    function's module."""
    function.module.run_pipeline("func.func(canonicalize)")
    return function


__all__ = ["Emitter", "ImportedModel", "UnsupportedError", "finish",
           "broadcast_shapes"]
