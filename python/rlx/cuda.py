# ===- cuda.py - RLX programs on NVIDIA GPUs, on PyTorch tensors -------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""RLX programs compiled for CUDA and called on PyTorch CUDA tensors
without copies.

rlx.compile(f, target="cuda") runs `rlx-compile --target=cuda` (the
--rlx-cuda-pipeline; ptxas from the CUDA toolkit) and links the object with
librlx_cuda_runtime.so into a shared library, beside which it writes the
function's signature (LIBRARY.json). rlx.cuda.load(LIBRARY) calls such a
library. Loading needs no MLIR, so a library compiled on one machine runs
on a GPU machine that has only the NVIDIA driver, PyTorch and this
package.
"""

import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

from . import _config

# MLIR element types and the PyTorch dtypes that hold them.
_TORCH = {"f32": "float32", "f64": "float64", "f16": "float16",
          "bf16": "bfloat16", "i8": "int8", "i16": "int16", "i32": "int32",
          "i64": "int64", "ui8": "uint8", "i1": "bool"}


_CU_STREAM_LEGACY = 1


class CudaError(RuntimeError):
    """A failed CUDA driver or library call of a program
    (rlxCudaGetLastError)."""


class CudaProgram:
    """A compiled function: call it with one contiguous PyTorch CUDA tensor
    per argument (of the argument's dtype and shape); it allocates the
    results on the arguments' device and returns them (one tensor or a
    tuple). It runs on PyTorch's current stream (or `stream=`), so it is
    ordered with PyTorch's work and returns before the GPU finishes, as
    PyTorch's own ops do.

    A result that an argument holds in place (`rlx.in_place_result` in the
    function: a KV cache) is written into that argument's tensor, which
    the call returns as the result: no copy of it is made or allocated.
    `result_arguments[J]` is that argument's index (None for the
    others)."""

    def __init__(self, library):
        with open(library + ".json") as f:
            signature = json.load(f)
        self.name = signature["function"]
        self.argument_types = [(tuple(s), d) for s, d in signature["arguments"]]
        self.result_types = [(tuple(s), d) for s, d in signature["results"]]
        self.result_arguments = (signature.get("result_arguments") or
                                 [None] * len(self.result_types))
        self.library = os.path.abspath(library)
        self._lib = None

    def _load(self):
        """Opens the library at the first call, on the GPU machine: loading
        it loads its kernels into the current CUDA context (upstream's
        gpu.binary constructor), PyTorch's, made current first."""
        import torch
        torch.cuda.init()
        torch.cuda.synchronize()
        # RTLD_LOCAL: two programs' libraries define the same symbols
        # (@bert_layer in f32 and in bf16); neither may see the other's.
        self._lib = ctypes.CDLL(self.library, mode=ctypes.RTLD_LOCAL)
        self._fn = getattr(self._lib, "_mlir_ciface_" + self.name)
        self._fn.restype = None
        self._lib.rlxCudaSetStream.argtypes = [ctypes.c_void_p]
        self._lib.rlxCudaGetLastError.restype = ctypes.c_char_p

    def __repr__(self):
        return "rlx.cuda.CudaProgram(@%s)" % self.name

    def _check(self, i, tensor, shape, dtype, what):
        import torch
        if not isinstance(tensor, torch.Tensor) or not tensor.is_cuda:
            raise TypeError("@%s: %s #%d must be a CUDA torch.Tensor, got %r"
                            % (self.name, what, i, type(tensor).__name__))
        want = getattr(torch, _TORCH[dtype])
        if tensor.dtype != want or tuple(tensor.shape) != shape:
            raise ValueError("@%s: %s #%d expects %s of shape %s, got %s of "
                             "shape %s" % (self.name, what, i, want,
                                           list(shape), tensor.dtype,
                                           list(tensor.shape)))
        if not tensor.is_contiguous():
            raise ValueError("@%s: %s #%d must be contiguous (the program "
                             "reads row-major memory)" % (self.name, what, i))

    def __call__(self, *tensors, stream=None):
        import torch
        if len(tensors) != len(self.argument_types):
            raise TypeError("@%s takes %d tensors, %d given" %
                            (self.name, len(self.argument_types),
                             len(tensors)))
        for i, (t, (shape, dtype)) in enumerate(zip(tensors,
                                                    self.argument_types)):
            self._check(i, t, shape, dtype, "argument")
        if self._lib is None:
            self._load()
        device = tensors[0].device if tensors else torch.device("cuda")
        results = [tensors[held] if held is not None else
                   torch.empty(shape, dtype=getattr(torch, _TORCH[dtype]),
                               device=device)
                   for (shape, dtype), held in zip(self.result_types,
                                                   self.result_arguments)]
        # Results held in place are not out-parameters: the program wrote
        # them into their arguments.
        outs = [r for r, held in zip(results, self.result_arguments)
                if held is None]
        descriptors = [_descriptor(t) for t in list(tensors) + outs]
        if stream is None:
            stream = torch.cuda.current_stream(device).cuda_stream
        # PyTorch's default stream is handle 0, which the runtime reads as
        # "no stream set" (a stream of its own, waited for: 1.5x slower on
        # the BERT layer); CU_STREAM_LEGACY (1) names that same stream.
        stream = stream or _CU_STREAM_LEGACY
        if device.index is None or device.index == torch.cuda.current_device():
            self._lib.rlxCudaSetStream(ctypes.c_void_p(stream))
            self._fn(*[ctypes.byref(d) for d in descriptors])
        else:
            with torch.cuda.device(device):
                self._lib.rlxCudaSetStream(ctypes.c_void_p(stream))
                self._fn(*[ctypes.byref(d) for d in descriptors])
        error = self._lib.rlxCudaGetLastError()
        if error:
            self._lib.rlxCudaClearError()
            raise CudaError("@%s: %s" % (self.name, error.decode()))
        return results[0] if len(results) == 1 else tuple(results)


_DESCRIPTORS = {}


def _descriptor_type(rank):
    """MLIR's memref descriptor of rank `rank`: {allocated, aligned, offset,
    sizes, strides} (one class per rank, made once)."""
    if rank not in _DESCRIPTORS:
        class Descriptor(ctypes.Structure):
            _fields_ = [("allocated", ctypes.c_void_p),
                        ("aligned", ctypes.c_void_p),
                        ("offset", ctypes.c_int64),
                        ("sizes", ctypes.c_int64 * rank),
                        ("strides", ctypes.c_int64 * rank)]
        _DESCRIPTORS[rank] = Descriptor
    return _DESCRIPTORS[rank]


def _descriptor(tensor):
    """The memref descriptor of a contiguous tensor's device memory."""
    rank = tensor.dim()
    pointer = tensor.data_ptr()
    return _descriptor_type(rank)(pointer, pointer, 0,
                                  (ctypes.c_int64 * rank)(*tensor.shape),
                                  (ctypes.c_int64 * rank)(*tensor.stride()))


def load(library):
    """The CudaProgram of a library that rlx.compile(target="cuda") wrote."""
    return CudaProgram(library)


def build(text, function, signature, chip="sm_90", options="", out_dir=None,
          result_arguments=None):
    """Compiles `function` of the module `text` for `chip` into
    OUT_DIR/librlx_<function>.so (with its .json signature, and which
    argument holds each result in place, `result_arguments`) and returns
    the library's path. OUT_DIR defaults to a cache folder named by the inputs'
    hash, so a second build of the same thing is the first one's."""
    tools = os.environ.get("RLX_TOOLS_DIR") or _config.TOOLS_DIR
    libs = os.environ.get("RLX_LIB_DIR") or _config.LIB_DIR
    key = hashlib.sha256(("%s\0%s\0%s\0%s" % (text, function, chip, options))
                         .encode()).hexdigest()[:16]
    out_dir = out_dir or os.path.join(tempfile.gettempdir(), "rlx-cuda-" + key)
    library = os.path.join(out_dir, "librlx_%s.so" % function)
    if os.path.exists(library) and os.path.exists(library + ".json"):
        return library
    os.makedirs(out_dir, exist_ok=True)
    source = os.path.join(out_dir, "program.mlir")
    with open(source, "w") as f:
        f.write(text)
    obj = os.path.join(out_dir, "program.o")
    command = [os.path.join(tools, "rlx-compile"), "--target=cuda",
               "--chip=" + chip, source, "-o", obj]
    if options:
        command.append("--cuda-options=" + options)
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise CudaError("rlx-compile --target=cuda failed:\n" + run.stderr)
    # The runtime is copied beside the library, which finds it there
    # ($ORIGIN), so the folder can move to the machine with the GPU.
    shutil.copy(os.path.join(libs, "librlx_cuda_runtime.so"), out_dir)
    # -Bsymbolic: the program's calls of its own functions stay in it, even
    # where another library in the process defines the same names.
    link = subprocess.run(["cc", "-shared", "-o", library, obj, "-L" + out_dir,
                           "-lrlx_cuda_runtime", "-Wl,-rpath,$ORIGIN",
                           "-Wl,-Bsymbolic", "-Wl,--no-undefined"],
                          capture_output=True, text=True)
    if link.returncode != 0:
        raise CudaError("linking %s failed:\n%s" % (library, link.stderr))
    os.remove(obj)
    with open(library + ".json", "w") as f:
        json.dump({"function": function, "arguments": signature[0],
                   "results": signature[1],
                   "result_arguments": result_arguments}, f)
    return library
