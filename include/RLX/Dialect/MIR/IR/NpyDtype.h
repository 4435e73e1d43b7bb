//===- NpyDtype.h - the .npy dtype of an rlx element type -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-run's inputs and outputs and rlx-specialize-params' weights are .npy
// files; both map element types to NumPy dtypes the same way.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_NPYDTYPE_H
#define RLX_DIALECT_MIR_IR_NPYDTYPE_H

#include "mlir/IR/Types.h"

#include <string>

namespace mlir {
namespace rlx {

/// The .npy dtype (without byte order: "f4", "i8", "u1", "b1", "c8", ...)
/// that holds elements of `type`; bf16 is exchanged as f4. Empty for a type
/// no .npy dtype holds.
std::string npyDtype(Type type);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_IR_NPYDTYPE_H
