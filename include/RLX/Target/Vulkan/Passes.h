//===- Passes.h - RLX Vulkan target passes ----------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_VULKAN_PASSES_H
#define RLX_TARGET_VULKAN_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

#define GEN_PASS_DECL
#include "RLX/Target/Vulkan/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Target/Vulkan/Passes.h.inc"

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_VULKAN_PASSES_H
