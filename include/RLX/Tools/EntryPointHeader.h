//===- EntryPointHeader.h - the C header of entry points --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-compile --header: the C declarations of the entry points
// (`_mlir_ciface_NAME`, MLIR's C interface on memref descriptors) that an
// object of a compiled program holds, one per public function.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_ENTRYPOINTHEADER_H
#define RLX_TOOLS_ENTRYPOINTHEADER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir {
namespace rlx {

/// Writes to `path` a C header with one descriptor struct per (element
/// type, rank) and one declaration per public function of `module`, read
/// before lowering replaces its tensor signatures: its results returned,
/// or with `outParams` (a target's device entry points) passed as trailing
/// arguments. Fails on a type C cannot spell, with an error at the
/// function, or on a file it cannot open, through `error`.
LogicalResult
writeEntryPointHeader(ModuleOp module, StringRef path, bool outParams,
                      llvm::function_ref<void(const Twine &)> error);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_ENTRYPOINTHEADER_H
