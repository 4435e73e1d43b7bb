//===- AccumulatorType.h - the type rlx arithmetic accumulates in -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Sums, norms' statistics and attention scores of f16/bf16 tensors are
// kept in f32, by the linalg lowering and by rewrites that build the same
// computation from rlx ops (rlx-decompose-attention); both ask here.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_ACCUMULATORTYPE_H
#define RLX_DIALECT_MIR_IR_ACCUMULATORTYPE_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace rlx {

/// f32 for f16/bf16 element types (the accumulation type), else `type`.
inline Type getAccumulatorType(Type type) {
  if (type.isF16() || type.isBF16())
    return Float32Type::get(type.getContext());
  return type;
}

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_IR_ACCUMULATORTYPE_H
