//===- RegionUtils.h - inlining copies of rlx op regions --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The region ops of rlx (if, while, scan, custom_fn) hold single blocks
// ending in rlx.yield. Legalization and autodiff both splice copies of
// such a block into the surrounding code.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_REGIONUTILS_H
#define RLX_DIALECT_MIR_IR_REGIONUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Region.h"

namespace mlir {
namespace rlx {

/// Clones the ops of the single-block `region` at `builder`'s insertion
/// point with the block's arguments bound to `args`; returns the values
/// its terminator yields, as computed by the clones.
SmallVector<Value> cloneRegionBody(OpBuilder &builder, Region &region,
                                   ValueRange args);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_IR_REGIONUTILS_H
