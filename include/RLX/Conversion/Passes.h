//===- Passes.h - RLX conversion passes -------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_PASSES_H
#define RLX_CONVERSION_PASSES_H

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"
#include "RLX/Conversion/RLXToLinalg/RLXToLinalg.h"
#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

/// On an entry point's argument: the function's result of this index is
/// the argument updated in place (a KV cache, an optimizer state). The
/// argument's buffer is written, the result is not returned
/// (rlx-results-in-place) and the runtime hands the argument back as
/// the result; no copy of the tensor is made where the program computes
/// the result in the argument's buffer.
constexpr llvm::StringLiteral kInPlaceResultAttrName = "rlx.in_place_result";


#define GEN_PASS_DECL
#include "RLX/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Conversion/Passes.h.inc"

} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_PASSES_H
