//===- FlashAttentionImage.h - the embedded flash-attention kernels -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime library: the fatbin of FlashAttention.cu that
// the build embedded (FlashAttentionImage.cpp), which FlashAttention.cpp
// loads.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_FLASHATTENTIONIMAGE_H
#define RLX_LIB_RUNTIME_FLASHATTENTIONIMAGE_H

#include <cstddef>

namespace rlx::cuda {

/// A module image for cuModuleLoadData.
struct Image {
  const void *data;
  size_t size;
};

/// The embedded fatbin; null data where the runtime was built without nvcc.
Image flashAttentionImage();

} // namespace rlx::cuda

#endif // RLX_LIB_RUNTIME_FLASHATTENTIONIMAGE_H
