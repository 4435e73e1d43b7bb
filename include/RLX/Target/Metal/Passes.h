//===- Passes.h - RLX Metal target passes -----------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_METAL_PASSES_H
#define RLX_TARGET_METAL_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

#define GEN_PASS_DECL
#include "RLX/Target/Metal/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Target/Metal/Passes.h.inc"

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_METAL_PASSES_H
