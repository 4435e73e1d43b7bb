//===- Passes.h - rlx_lir passes --------------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_TRANSFORMS_PASSES_H
#define RLX_DIALECT_LIR_TRANSFORMS_PASSES_H

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

#define GEN_PASS_DECL
#include "RLX/Dialect/LIR/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Dialect/LIR/Transforms/Passes.h.inc"

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_LIR_TRANSFORMS_PASSES_H
