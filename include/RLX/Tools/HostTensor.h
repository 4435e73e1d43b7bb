//===- HostTensor.h - a tool's tensors and their .npy form ------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arguments and results of a program that rlx-run runs (rlx::CPUProgram)
// in host memory, and their conversion to and from the .npy arrays of the
// tool's files (RLX/Runtime/Common/Npy.h): bf16 elements travel as float32
// (RLX/Runtime/Common/BFloat16.h), every other type as its bytes.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_HOSTTENSOR_H
#define RLX_TOOLS_HOSTTENSOR_H

#include "RLX/ExecutionEngine/CPUProgram.h"
#include "RLX/Runtime/Common/Npy.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// `bytes` (at least one) of storage on a 64-byte boundary; a fatal error
/// when out of memory.
void *allocateTensorStorage(size_t bytes);

/// Storage on 64-byte boundaries, as a framework's tensors are (PyTorch
/// aligns to 64 bytes): the compiled kernels load 64-byte vectors, and from
/// malloc's 16-byte alignment every such load straddles two cache lines,
/// which made memory-bound kernels about 1.5x slower. Large tensors are on
/// huge pages, as the compiled code's buffers (allocateHostMemory).
template <typename T> struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(allocateTensorStorage(n * sizeof(T)));
  }
  void deallocate(T *p, size_t) { std::free(p); }
  bool operator==(const CacheLineAllocator &) const { return true; }
};

/// A tensor argument or result in memory, row-major.
struct HostTensor {
  Type elementType;
  std::vector<int64_t> shape;
  std::vector<uint8_t, CacheLineAllocator<uint8_t>> bytes;

  /// Makes this a row-major tensor of `shape` and returns its storage
  /// (where a program copies a result).
  void *reshape(Type elementType, ArrayRef<int64_t> shape);
};

/// The views of `tensors` that a program runs on.
std::vector<TensorView> viewTensors(MutableArrayRef<HostTensor> tensors);

/// "[2, 3]".
std::string formatShape(ArrayRef<int64_t> shape);

/// Makes `tensor` the value of `array`, read from `path`, for an argument
/// of `type`. `what` names the argument in the message that `error` gets
/// when the array's dtype or shape does not fit ("argument #0 expects
/// tensor<...> (npy dtype 'f4'), but 'PATH' holds ...").
LogicalResult fromNpy(const runtime::NpyArray &array, RankedTensorType type,
                      const Twine &what, const Twine &path, HostTensor &tensor,
                      llvm::function_ref<void(const Twine &)> error);

/// The .npy array of `tensor`.
runtime::NpyArray toNpy(const HostTensor &tensor);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_HOSTTENSOR_H
