//===- InitAllDialects.h - register every RLX dialect -----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One call for an embedding compiler (or rlx-opt) to make the RLX dialects
// available in its registry, with the ops' differentiation rules.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_INITALLDIALECTS_H
#define RLX_INITALLDIALECTS_H

#include "RLX/Dialect/HIR/IR/RLXHIRDialect.h"
#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"
#include "RLX/Dialect/MIR/Autodiff/Autodiff.h"
#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/Sharding/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace rlx {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<RLXDialect, hir::RLXHIRDialect, lir::RLXLIRDialect,
                  shard::ShardDialect>();
  registerDifferentiableOpModels(registry);
  registerShardingInterfaceModels(registry);
}

} // namespace rlx
} // namespace mlir

#endif // RLX_INITALLDIALECTS_H
