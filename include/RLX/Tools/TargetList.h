//===- TargetList.h - rlx-compile --list-targets ----------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_TARGETLIST_H
#define RLX_TOOLS_TARGETLIST_H

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {

/// Prints one paragraph per registered target (RLX/Target/TargetRegistry.h):
/// what it compiles for, its output and entry points, the shapes it takes,
/// its GPU description, and how many ops it claims.
void printTargets(llvm::raw_ostream &os);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_TARGETLIST_H
