//===- GPUMatmulMMA.h - bf16/f16 matmuls on tensor cores --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TRANSFORMS_GPUMATMULMMA_H
#define LIB_TRANSFORMS_GPUMATMULMMA_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace rlx {

/// If `op` is a row-major bf16/f16 matmul accumulating into f32 buffers
/// whose sizes the tiles divide, emits a gpu.launch before it computing it
/// with mma.sync (the caller erases `op`); fails, emitting nothing,
/// otherwise.
LogicalResult emitMmaMatmul(ImplicitLocOpBuilder &b, linalg::GenericOp op);

} // namespace rlx
} // namespace mlir

#endif // LIB_TRANSFORMS_GPUMATMULMMA_H
