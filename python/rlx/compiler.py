# ===- compiler.py - rlx.compile: programs callable on NumPy arrays ----=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""rlx.compile(module, target="cpu"): a function of the module compiled
once (rlxCpuProgramCreate: --rlx-cpu-pipeline and MLIR's ExecutionEngine)
and called on NumPy arrays."""

import ctypes
import sys
import hashlib

import numpy as np

from . import _capi as C
from .builder import Function
from .ir import Module, RLXError, Type

_NUMPY = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
          "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
          "ui64": np.uint64, "i1": np.bool_,
          "complex<f32>": np.complex64, "complex<f64>": np.complex128}


def numpy_dtype(dtype):
    """The NumPy dtype that holds an MLIR element type; bf16 travels as
    float32 (converted on the way in and out)."""
    if dtype == "bf16":
        return np.dtype(np.float32)
    if dtype not in _NUMPY:
        raise TypeError("no NumPy dtype for element type %s" % dtype)
    return np.dtype(_NUMPY[dtype])


def _to_bf16_bits(array):
    """f32 to bf16 bits as RLX/Runtime/Common/BFloat16.h rounds them: to
    nearest even; a NaN stays a quiet NaN with its sign and top payload."""
    bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, (bits >> 16) | 0x0040, rounded).astype(np.uint16)


def _from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


class Program:
    """A compiled function: call it with one NumPy array per argument (of
    the argument's element type and shape; params last, named by
    `param_names`); it returns the result array, or a tuple of them.

    An argument marked `rlx.in_place_result = J` in the function holds
    result J in place (a KV cache, an optimizer state): the call updates
    the array passed (if it is C-contiguous of the element type; otherwise
    a copy of it) and returns it as result J, with no copy of the tensor.
    `result_arguments[J]` is that argument's index (None for the others).

    Dynamic dims (`?`) take the sizes of the arrays passed, so one program
    runs at every batch size or sequence length. A call whose shapes break
    the program (another rank, a static dim of another size, dynamic dims
    that must agree and do not) raises ValueError naming the argument and
    dim before anything runs (`_check_dims`)."""

    def __init__(self, module, name, options):
        self.name = name
        self.context = module.context
        work = module.clone()  # compiling lowers the module in place
        self.context.take_diagnostics()
        self._p = C.lib.rlxCpuProgramCreate(work._m, C.StringRef.of(name),
                                            C.StringRef.of(options))
        if not self._p.ptr:
            raise self.context.error("cannot compile @%s for the CPU" % name)
        self._module = work
        p = self._p
        self.argument_types = [
            Type(self.context, C.lib.rlxCpuProgramGetArgumentType(p, i))
            for i in range(C.lib.rlxCpuProgramGetNumArguments(p))]
        # With dynamic dims, the module as it was, for checking the sizes
        # given (_check_dims); the sizes checked are remembered.
        self._source = module.clone() if any(
            None in t.shape for t in self.argument_types) else None
        self._checked = {}
        self.result_types = [
            Type(self.context, C.lib.rlxCpuProgramGetResultType(p, i))
            for i in range(C.lib.rlxCpuProgramGetNumResults(p))]
        self.param_names = [
            C.lib.rlxCpuProgramGetParamName(p, i).str()
            for i in range(C.lib.rlxCpuProgramGetNumParams(p))]
        self._argument_specs = None
        self.result_arguments = [
            None if a < 0 else a for a in (
                C.lib.rlxCpuProgramGetResultArgument(p, j)
                for j in range(len(self.result_types)))]

    def __del__(self):
        if getattr(self, "_p", None) is not None and self._p.ptr and \
                not sys.is_finalizing():
            C.lib.rlxCpuProgramDestroy(self._p)
            self._p = None

    def _argument(self, i, value):
        t = self.argument_types[i]
        # (Each call would spell the type's dtype and shape through the C
        # API again: a decode step of 30 arguments spent 0.4 ms there.)
        if self._argument_specs is None:
            self._argument_specs = [(a.dtype, numpy_dtype(a.dtype), a.shape)
                                    for a in self.argument_types]
        dtype, want, shape = self._argument_specs[i]
        if isinstance(value, np.ndarray):
            if value.dtype != want:
                raise TypeError(
                    "@%s: argument #%d expects %s (NumPy %s), got a %s array"
                    % (self.name, i, t, want, value.dtype))
            # (np.ascontiguousarray would make a 0-d array 1-d.)
            array = np.require(value, requirements="C")
        else:
            array = np.asarray(value, dtype=want)
        if len(array.shape) != len(shape):
            raise ValueError("@%s: argument #%d expects %s, of rank %d; got "
                             "an array of shape %s (rank %d)" %
                             (self.name, i, t, len(shape), array.shape,
                              array.ndim))
        for k, (d, a) in enumerate(zip(shape, array.shape)):
            if d is not None and d != a:
                raise ValueError("@%s: argument #%d expects %s: its dim %d is "
                                 "%d, got %d (shape %s)" %
                                 (self.name, i, t, k, d, a, array.shape))
        if dtype == "bf16":
            array = _to_bf16_bits(array)
        return array

    def _check_dims(self, arrays):
        """Arguments with dynamic dims: the sizes given must make the
        program valid (two dims that must agree do; a dim that meets a
        static one has its size), checked by binding them with
        --rlx-specialize-shapes on the module as compiled, once per shape.
        A ValueError names the first argument and dim whose size breaks
        the program, with MLIR's diagnostics."""
        if self._source is None:
            return
        bound = [(i, k, a.shape[k]) for i, (t, a) in enumerate(
            zip(self._argument_specs, arrays))
            for k, d in enumerate(t[2]) if d is None and a.shape[k] > 0]
        if not bound:
            return
        key = tuple(bound)
        if key not in self._checked:
            self._checked[key] = self._first_break(bound)
        broken = self._checked[key]
        if broken is not None:
            (i, k, size), diagnostics = broken
            raise ValueError(
                "@%s: argument #%d (%s, given shape %s) has dim %d of size %d,"
                " which breaks the program with the sizes of the arguments "
                "before it: %s" % (self.name, i, self.argument_types[i],
                                   arrays[i].shape, k, size, diagnostics))

    def _specializes(self, bound):
        module = self._source.clone()
        dims = ",".join("%d:%d=%d" % b for b in bound)
        try:
            module.run_pipeline("rlx-specialize-shapes{function=%s dims=%s}"
                                % (self.name, dims))
        except RLXError as error:
            return str(error)
        return None

    def _first_break(self, bound):
        """None where the sizes fit; else the first bound dim whose size
        breaks the program, with the diagnostics."""
        error = self._specializes(bound)
        if error is None or "is called in the module" in error:
            return None  # (a function others call cannot be checked so)
        for n in range(1, len(bound) + 1):
            error = self._specializes(bound[:n])
            if error is not None:
                return bound[n - 1], error
        return bound[-1], error

    def __call__(self, *args):
        if len(args) != len(self.argument_types):
            raise TypeError("@%s takes %d arguments (%s), %d given" %
                            (self.name, len(self.argument_types),
                             ", ".join(str(t) for t in self.argument_types),
                             len(args)))
        arrays = [self._argument(i, a) for i, a in enumerate(args)]
        self._check_dims(arrays)
        shapes = [(ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
                  for a in arrays]
        tensors, n = C.array(C.Tensor, [
            C.Tensor(a.ctypes.data if a.size else None, a.ndim, s)
            for a, s in zip(arrays, shapes)])
        results = [None] * len(self.result_types)

        def place(index, rank, shape, _):
            held = self.result_arguments[index]
            if held is not None:  # updated in place: the argument itself
                results[index] = arrays[held]
                return arrays[held].ctypes.data if arrays[held].size else None
            t = self.result_types[index]
            dims = tuple(shape[k] for k in range(rank))
            storage = np.uint16 if t.dtype == "bf16" else numpy_dtype(t.dtype)
            results[index] = np.empty(dims, dtype=storage)
            return results[index].ctypes.data if results[index].size else None

        errors = []
        destination = C.ResultDestination(place)
        on_error = C.StringCallback(lambda s, _: errors.append(s.str()))
        if not C.lib.rlxCpuProgramRunWithDestination(
                self._p, tensors, n, destination, on_error, None).value:
            raise RLXError("@%s: %s" % (self.name, "".join(errors)))
        for i, t in enumerate(self.result_types):
            if t.dtype == "bf16":
                results[i] = _from_bf16_bits(results[i])
        return results[0] if len(results) == 1 else tuple(results)


_cache = {}

# The targets rlx.compile runs from Python; the others compile with
# rlx-compile and run through their own runtimes.
_PYTHON_TARGETS = ("cpu", "cuda")


def targets():
    """The names of the compilation targets this build registered (the
    target registry, as `rlx-compile --list-targets` prints them)."""
    return [C.lib.rlxGetTargetName(i).str()
            for i in range(C.lib.rlxGetNumTargets())]


def compile(module, target="cpu", function=None, options="", chip="sm_90",
            out_dir=None):
    """Compiles `function` (default: the function built last with
    rlx.Function, or the module's only public one; a Function is also
    accepted as `module`) for `target` and returns a callable Program.
    Programs are cached by the module's text, function and options:
    compiling the same thing twice returns the same Program.

    target="cpu" returns a Program on NumPy arrays; `options` are
    --rlx-cpu-pipeline's (e.g. "blas=true"). target="cuda" returns an
    rlx.cuda.CudaProgram on PyTorch CUDA tensors, compiled ahead of time
    for `chip` into `out_dir` (default: a cache folder) with
    `rlx-compile --target=cuda` (`options`: --rlx-cuda-pipeline's); static
    shapes only."""
    if isinstance(module, Function):
        function = function or module.name
        module = module.module
    if not isinstance(module, Module):
        raise TypeError("rlx.compile takes an rlx.Module or rlx.Function")
    registered = targets()
    if target not in registered:
        raise ValueError("rlx.compile: unknown target %r (registered: %s)" %
                         (target, ", ".join(registered)))
    if target not in _PYTHON_TARGETS:
        # Those of this build (cuda may be left out of it).
        callable_ = [t for t in _PYTHON_TARGETS if t in registered]
        raise NotImplementedError(
            "rlx.compile: target %r is not callable from Python (%s %s); "
            "compile it with rlx-compile --target=%s" %
            (target, " and ".join(callable_),
             "is" if len(callable_) == 1 else "are", target))
    if function is None:
        function = _only_public_function(module)
    if target == "cuda":
        return _compile_cuda(module, function, chip, options, out_dir)
    text = module.to_string()
    key = (id(module.context), hashlib.sha256(text.encode()).hexdigest(),
           function, options)
    if key not in _cache:
        _cache[key] = Program(module, function, options)
    return _cache[key]


def _compile_cuda(module, function, chip, options, out_dir):
    from . import cuda
    if "shard.grid" in module.to_string():
        # Annotated with shardings: the program takes and returns its
        # device's shards (rlx-partition, as rlx-compile runs it).
        module = module.clone()
        module.run_pipeline("rlx-lower-hir,rlx-expand-autodiff,rlx-partition")
    args, results = module.function_type(function)
    signature = []
    for types in (args, results):
        entries = []
        for t in types:
            if not t.is_tensor or None in t.shape:
                raise ValueError("rlx.compile(target='cuda'): @%s has type "
                                 "%s; CUDA programs take static shapes" %
                                 (function, t))
            entries.append([list(t.shape), t.dtype])
        signature.append(entries)
    library = cuda.build(module.to_string(), function, signature, chip=chip,
                         options=options, out_dir=out_dir,
                         result_arguments=module.result_arguments(function))
    return cuda.load(library)


def _only_public_function(module):
    import re
    names = re.findall(r"^  func\.func @([\w$.-]+)\(", str(module), re.M)
    if len(names) != 1:
        raise ValueError("rlx.compile: the module has %d public functions; "
                         "name one with function=" % len(names))
    return names[0]
