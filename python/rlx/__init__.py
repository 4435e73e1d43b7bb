# ===- __init__.py - the rlx package -----------------------------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""RLX-MLIR from Python: build, optimize, differentiate and run RLX
programs on NumPy arrays.

    import numpy as np, rlx
    ctx = rlx.Context()
    with rlx.Function("mlp", [ctx.tensor((4, 8)), ctx.tensor((8, 16))]) as f:
        x, w = f.args
        f.returns(rlx.gelu(rlx.matmul(x, w)))
    f.module.run_pipeline("rlx-optimize{target=cpu}")
    y = rlx.compile(f)(np.ones((4, 8), np.float32), np.ones((8, 16), np.float32))

Every rlx op has a builder here (`rlx.matmul`, `rlx.softmax`, ...;
generated from the op definitions) and every rlx_hir op in `rlx.hir`.
`rlx.grad`, `rlx.jvp` and `rlx.vmap` transform whole functions; the op
builders of the same names are `rlx.ops.grad`, ... Errors (bad shapes,
dtypes, unknown passes) raise `rlx.RLXError` with MLIR's diagnostics.
`rlx.compile(f, target="cuda")` gives a program on PyTorch CUDA tensors
(`rlx.cuda`). `rlx.from_torch(module, example_inputs)` and
`rlx.from_onnx(path)` import PyTorch and ONNX models (`rlx.importers`).
"""

# Programs compiled for CUDA load without MLIR (on a GPU machine that has
# only the driver and PyTorch); everything else needs librlx_c.so.
from . import cuda

try:
    from . import _capi
except ImportError as error:
    _MISSING = str(error)

    def __getattr__(name):
        raise ImportError("rlx.%s needs RLX's C API: %s" % (name, _MISSING))
else:
    from .ir import SVG, Context, Module, RLXError, Type, default_context
    from .builder import Function, Value, numpy_to_mlir
    from . import ops, hir
    from .ops import *  # noqa: F401,F403 - the op builders, rlx.<op>
    from .compiler import Program, compile, numpy_dtype, targets
    from .transforms import grad, jvp, vmap
    from .importers import (ImportedModel, UnsupportedError, from_onnx,
                            from_torch)

if "ops" in globals():
    __all__ = (["Context", "Module", "RLXError", "SVG", "Type", "Function",
                "Value",
                "Program", "compile", "numpy_dtype", "targets", "numpy_to_mlir", "grad",
                "jvp", "vmap", "default_context", "ops", "hir", "cuda",
                "from_torch", "from_onnx", "ImportedModel",
                "UnsupportedError"] +
               [n for n in ops.__all__ if n not in ("grad", "jvp", "vmap")])
else:
    __all__ = ["cuda"]
