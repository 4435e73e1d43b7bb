//===- HIP.h - the HIP runtime as librlx_rocm_runtime uses it ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime library: the HIP entry points it calls (opened
// with dlopen, C types spelled here as hip_runtime_api.h declares them, so
// that no ROCm header is needed to build), error recording and the stream
// the caller set, shared by the mgpu* functions (ROCmRuntime.cpp's
// GPUDriver), the constants (ROCmConstants.cpp) and the hipBLASLt calls
// (HipBLASLt.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_ROCM_HIP_H
#define RLX_LIB_RUNTIME_ROCM_HIP_H

#include "ErrorRecord.h"
#include "GPUDriver.h"

#include <cstddef>
#include <string>

namespace rlx::rocm {

using hipError_t = int;
using Handle = void *; // hipModule_t, hipFunction_t, hipStream_t, hipEvent_t

/// hipMemcpyKind's hipMemcpyHostToDevice.
constexpr int kHipMemcpyHostToDevice = 1;

/// The HIP entry points, looked up once.
struct HIP {
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipModuleLoadData)(Handle *, const void *);
  hipError_t (*hipModuleUnload)(Handle);
  hipError_t (*hipModuleGetFunction)(Handle *, Handle, const char *);
  hipError_t (*hipModuleLaunchKernel)(Handle, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      Handle, void **, void **);
  hipError_t (*hipStreamCreateWithFlags)(Handle *, unsigned);
  hipError_t (*hipStreamDestroy)(Handle);
  hipError_t (*hipStreamSynchronize)(Handle);
  hipError_t (*hipMallocAsync)(void **, size_t, Handle);
  hipError_t (*hipFreeAsync)(void *, Handle);
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipMemcpy)(void *, const void *, size_t, int);
  const char *(*hipGetErrorName)(hipError_t);
};

/// The runtime's errors (rlxRocmGetLastError).
rlx::runtime::ErrorRecord &errors();

/// The HIP runtime, initialized, or null (with the reason recorded) if it
/// cannot be loaded.
const HIP *hip();

/// Records a failed HIP call with HIP's name for its code.
bool check(hipError_t result, const char *call);

/// The stream set by rlxRocmSetStream, or null.
using rlx::runtime::userStream;

} // namespace rlx::rocm

#endif // RLX_LIB_RUNTIME_ROCM_HIP_H
