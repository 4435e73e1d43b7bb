//===- ConstantCache.h - device copies of constant buffers ------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the GPU runtime libraries: rlxGpuConstant (GPURuntime.h). A
// constant that host code hands to a runtime kernel (a library matmul's
// constant weight) lives in host memory, as a global of the compiled
// program; the first call copies it to the device and every later call
// returns that copy. (Constants that generated kernels read need none of
// this: they are globals of the kernels' module.)
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_CONSTANTCACHE_H
#define RLX_LIB_RUNTIME_COMMON_CONSTANTCACHE_H

#include "ErrorRecord.h"

#include <cstdint>

namespace rlx::runtime {

/// Copies `bytes` bytes at `host` into a new device allocation, on the
/// device before it returns; null (with the error recorded) on failure.
using CopyToDevice = void *(*)(const void *host, int64_t bytes);

/// The device copy of the constant host buffer `host` of `bytes` bytes,
/// made by `copy` at the first call for it (or when the size or the first
/// and last 64 bytes at `host` changed: code unloaded, other code loaded at
/// the same address). Null, with the error in `errors`, if it fails.
void *deviceConstant(const void *host, int64_t bytes, CopyToDevice copy,
                     ErrorRecord &errors);

} // namespace rlx::runtime

#endif // RLX_LIB_RUNTIME_COMMON_CONSTANTCACHE_H
