//===- GemmLoops.h - a contraction seen as a loop nest around a gemm ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TRANSFORMS_GEMMLOOPS_H
#define LIB_TRANSFORMS_GEMMLOOPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir {
namespace rlx {

/// The loops of a contraction as a gemm sees them: one m, one n and one k
/// loop; every other loop (batch dims, and m or n dims beyond the
/// innermost) is iterated around the gemm.
struct GemmLoops {
  unsigned m, n, k;
  SmallVector<unsigned> outer;
};

/// Matches a float (f32 or f64) contraction `linalg.generic` with two
/// inputs of the result's element type, one reduction loop, and indexing
/// maps whose results are loop dims or the constant 0 (broadcasts).
std::optional<GemmLoops> matchGemmLoops(linalg::GenericOp op);

} // namespace rlx
} // namespace mlir

#endif // LIB_TRANSFORMS_GEMMLOOPS_H
