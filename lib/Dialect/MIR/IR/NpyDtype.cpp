//===- NpyDtype.cpp - the .npy dtype of an rlx element type ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/NpyDtype.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

std::string rlx::npyDtype(Type type) {
  if (type.isF32() || type.isBF16())
    return "f4";
  if (type.isF64())
    return "f8";
  if (type.isF16())
    return "f2";
  if (type.isInteger(1))
    return "b1";
  if (auto c = dyn_cast<ComplexType>(type))
    return c.getElementType().isF64() ? "c16" : "c8";
  if (auto i = dyn_cast<IntegerType>(type);
      i && llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth()))
    return std::string(i.isUnsigned() ? "u" : "i") +
           std::to_string(i.getWidth() / 8);
  return "";
}
