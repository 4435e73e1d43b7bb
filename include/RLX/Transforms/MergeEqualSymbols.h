//===- MergeEqualSymbols.h - one of each set of equal symbols ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A model written as N equal layers lowers into N copies of each layer's
// kernels: outlined CPU functions, GPU kernel modules. The passes after
// outlining, LLVM and the device assemblers would compile every copy.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TRANSFORMS_MERGEEQUALSYMBOLS_H
#define RLX_TRANSFORMS_MERGEEQUALSYMBOLS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace rlx {

/// Of the symbol ops directly in `module` for which `mergeable` holds,
/// keeps the first of each set that are equal but for their names (the
/// same op, attributes and regions, locations aside), points every
/// reference to the others (a root or nested symbol reference anywhere in
/// the module) at it, and erases them. Returns how many it erased.
unsigned mergeEqualSymbols(ModuleOp module,
                           function_ref<bool(Operation *)> mergeable);

} // namespace rlx
} // namespace mlir

#endif // RLX_TRANSFORMS_MERGEEQUALSYMBOLS_H
