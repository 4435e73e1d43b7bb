//===- KernelBuilder.h - the GPU front's kernel building blocks -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the GPU front's schedules (rlx-gpu-map-linalg's row groups, column
// reductions and pointwise kernels; rlx-gpu-tile-matmul's tiled and
// cooperative matmuls) build their kernels from: index constants, a
// gpu.launch with its body open, linear indices split into loop indices,
// bounds guards and workgroup buffers.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_RLXTOGPU_KERNELBUILDER_H
#define RLX_CONVERSION_RLXTOGPU_KERNELBUILDER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace rlx {
namespace kernels {

/// The index constant `v`.
Value indexConstant(ImplicitLocOpBuilder &b, int64_t v);

/// The product of `values` (1 for none).
int64_t product(ArrayRef<int64_t> values);

/// Splits the linear index `linear` into indices of `ranges` (row-major).
SmallVector<Value> delinearize(ImplicitLocOpBuilder &b, Value linear,
                               ArrayRef<int64_t> ranges);

/// Whether the index `v` is below `bound` (unsigned).
Value inRange(ImplicitLocOpBuilder &b, Value v, int64_t bound);

/// Zero of a float type or a vector of it.
Value zeroOf(ImplicitLocOpBuilder &b, Type type);

/// A buffer type of `shape` x `element` in workgroup memory, for a launch's
/// workgroup attributions.
MemRefType workgroupMemRefType(ArrayRef<int64_t> shape, Type element);

/// Creates a gpu.launch before `op` of `grid` blocks (x, then y and z where
/// given, else 1) of `threads` threads along x, with `workgroup`
/// attributions, and leaves `b` at the start of its body (terminated).
gpu::LaunchOp createLaunch(ImplicitLocOpBuilder &b, Operation *op,
                           ArrayRef<int64_t> grid, int64_t threads,
                           TypeRange workgroup = {});

/// Creates a gpu.launch before `op` with one thread per element of a
/// buffer of `shape` (blocks of at most `blockSize` threads) and leaves `b`
/// inside it where the thread has an element: returns that element's
/// indices. Returns nullopt, creating nothing, for a shape of no elements.
std::optional<SmallVector<Value>> launchPerElement(ImplicitLocOpBuilder &b,
                                                   Operation *op,
                                                   ArrayRef<int64_t> shape,
                                                   int64_t blockSize);

} // namespace kernels
} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_RLXTOGPU_KERNELBUILDER_H
