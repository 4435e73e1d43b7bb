//===- FuzzSupport.h - what RLX's MLIR fuzz targets share -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_FUZZ_FUZZSUPPORT_H
#define RLX_FUZZ_FUZZSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>

namespace mlir {
namespace rlx {
namespace fuzz {

/// Every upstream dialect and extension, RLX's three dialects and their
/// autodiff models, and the LLVM IR translations: what rlx-opt registers.
const DialectRegistry &getRegistry();

/// Parses and verifies `size` bytes as a module in `context`, with every
/// diagnostic swallowed (bad input is expected; only crashes and sanitizer
/// findings are bugs). Null if the input is not a valid module, or spells
/// linalg.transpose (whose upstream parser crashes on a bad permutation).
OwningOpRef<ModuleOp> parseQuietly(MLIRContext &context, const uint8_t *data,
                                   size_t size);

} // namespace fuzz
} // namespace rlx
} // namespace mlir

#endif // RLX_FUZZ_FUZZSUPPORT_H
