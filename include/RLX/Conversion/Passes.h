//===- Passes.h - RLX conversion passes -------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_PASSES_H
#define RLX_CONVERSION_PASSES_H

#include "RLX/Conversion/RLXToLinalg/RLXToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

#define GEN_PASS_DECL
#include "RLX/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Conversion/Passes.h.inc"

} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_PASSES_H
