//===- ScheduleCollectives.h - order a block for overlap --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_SHARDTORUNTIME_SCHEDULECOLLECTIVES_H
#define LIB_CONVERSION_SHARDTORUNTIME_SCHEDULECOLLECTIVES_H

#include "mlir/IR/Block.h"

namespace mlir {
namespace rlx {

/// Whether `op` is a shard collective that moves data (all_reduce,
/// all_gather, reduce_scatter, all_to_all).
bool isShardCollective(Operation *op);

/// Reorders `block` (dependencies kept) so that each collective starts as
/// soon as its operand is computed and the work independent of it follows:
/// stage by stage (a stage ends at the collectives), within a stage the
/// work that feeds the earliest collective first.
void scheduleForOverlap(Block &block);

} // namespace rlx
} // namespace mlir

#endif // LIB_CONVERSION_SHARDTORUNTIME_SCHEDULECOLLECTIVES_H
