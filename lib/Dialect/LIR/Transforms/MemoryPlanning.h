//===- MemoryPlanning.h - liveness and buffer plan of a function -*- C++
//-*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The analysis shared by --rlx-plan-memory (which rewrites the function into
// rlx_lir) and --rlx-memory-report (which only prints): the schedule, which
// values live in the arena, which of them alias another, their lifetimes,
// and the offsets the planner gives them.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_LIR_TRANSFORMS_MEMORYPLANNING_H
#define RLX_LIB_DIALECT_LIR_TRANSFORMS_MEMORYPLANNING_H

#include "ArenaPlanner.h"
#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace rlx {
namespace lir {

/// A value that lives in the arena: a root buffer or an alias of one.
struct ArenaValue {
  Value value;
  std::optional<int64_t> root; // the root's id, for aliases
  int64_t offsetInRoot = 0;    // bytes
  int64_t size = 0;            // bytes
  int64_t start = 0, end = 0;  // kernels, inclusive
  int64_t offset = 0;          // bytes in the arena, once planned
};

struct FunctionMemoryPlan {
  /// The schedule: one kernel per op, in program order.
  SmallVector<Operation *> kernels;
  /// Arena values by id (ids in order of definition).
  SmallVector<ArenaValue> buffers;
  llvm::DenseMap<Value, int64_t> idOf;
  /// Constants and views of values outside the arena: cloned into the
  /// kernels that read them.
  llvm::DenseSet<Operation *> inlined;
  /// Ops without side effects whose results nothing returned or
  /// side-effecting reads, directly or through other ops: not run, given no
  /// buffer (the unplanned path's canonicalization drops them as well).
  llvm::DenseSet<Operation *> dead;

  int64_t alignment = 0;
  int64_t arenaSize = 0;
  int64_t lowerBound = 0;
  /// Every intermediate (roots and aliases) in an allocation of its own.
  int64_t naiveSize = 0;
  int64_t greedySize = 0;
  int64_t bestFitSize = 0;
  PlannerKind planner = PlannerKind::Greedy;

  int64_t getNumAliases() const;
  PlanAttr getPlanAttr(MLIRContext *context) const;
};

/// Schedules, analyses and plans `func`, which must have one block of
/// statically shaped ops; emits a diagnostic and fails otherwise.
FailureOr<FunctionMemoryPlan>
planFunctionMemory(func::FuncOp func, int64_t alignment, PlannerKind kind);

/// One slot per distinct `rlx.param` name of the module's functions, in
/// order of first appearance; fails (with a diagnostic) where one name has
/// two sizes.
FailureOr<WeightLayoutAttr> planWeights(ModuleOp module, int64_t alignment);

/// Parses and checks the options shared by the planning passes.
FailureOr<PlannerKind>
getPlannerOption(Operation *op, const std::string &planner, int64_t alignment);

} // namespace lir
} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_LIR_TRANSFORMS_MEMORYPLANNING_H
