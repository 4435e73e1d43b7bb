//===- ShardingInterfaceImpl.h - rlx ops as shardable ops -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// External models of upstream's shard::ShardingInterface for the rlx ops
// that a sharded transformer is made of, so that upstream's
// `sharding-propagation` and `shard-partition` split rlx programs as they
// split linalg ones.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_SHARDING_SHARDINGINTERFACEIMPL_H
#define RLX_DIALECT_MIR_SHARDING_SHARDINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace rlx {

/// Attaches the sharding models to the rlx ops (and upstream's to func's
/// ops), loading the dialects that partitioning creates ops of.
void registerShardingInterfaceModels(DialectRegistry &registry);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_SHARDING_SHARDINGINTERFACEIMPL_H
