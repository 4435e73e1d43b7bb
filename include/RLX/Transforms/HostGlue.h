//===- HostGlue.h - host functions that LLVM need not optimize --*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After kernel outlining a model's host function is glue (allocations,
// views, kernel calls or launches), one block of thousands of ops for a
// deep model. LLVM's optimizer and instruction selection take time
// quadratic in such a block for code whose speed does not matter; the CPU
// and GPU pipelines mark those functions to be compiled unoptimized.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TRANSFORMS_HOSTGLUE_H
#define RLX_TRANSFORMS_HOSTGLUE_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace rlx {

/// Marks the function `fn` (func.func or llvm.func) noinline and optnone:
/// func-to-llvm carries the `passthrough` attribute over to the
/// llvm.func, and LLVM then neither optimizes it nor inlines it.
void compileUnoptimized(Operation *fn);

} // namespace rlx
} // namespace mlir

#endif // RLX_TRANSFORMS_HOSTGLUE_H
