# ===- __init__.py - importers of PyTorch and ONNX models --------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Models from other frameworks as rlx functions: `rlx.from_torch` (a
torch.nn.Module, through torch.fx) and `rlx.from_onnx` (an ONNX model).
Each returns an `rlx.ImportedModel`. PyTorch and ONNX are imported only
when these are called."""

from ._emit import ImportedModel, UnsupportedError
from .torch_fx import from_torch
from .onnx import from_onnx

__all__ = ["ImportedModel", "UnsupportedError", "from_torch", "from_onnx"]
