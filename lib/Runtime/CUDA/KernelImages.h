//===- KernelImages.h - the runtime's own embedded kernels ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime library: the fatbins that nvcc made of the
// runtime's own kernels (FlashAttention.cu, Fp8Quantize.cu), embedded by
// KernelImages.cpp (KernelModule.h loads them).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_CUDA_KERNELIMAGES_H
#define RLX_LIB_RUNTIME_CUDA_KERNELIMAGES_H

#include <cstddef>

namespace rlx::cuda {

/// A module image for cuModuleLoadData.
struct Image {
  const void *data;
  size_t size;
};

/// The embedded fatbins; null data where the runtime was built without
/// nvcc.
Image flashAttentionImage();
Image fp8QuantizeImage();
Image decodeAttentionImage();
Image gemvImage();

} // namespace rlx::cuda

#endif // RLX_LIB_RUNTIME_CUDA_KERNELIMAGES_H
