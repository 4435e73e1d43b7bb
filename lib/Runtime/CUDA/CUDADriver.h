//===- CUDADriver.h - the CUDA driver as librlx_cuda_runtime uses it ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime library: the driver entry points (opened with
// dlopen, C types spelled here), error recording and the stream the caller
// set, shared by the mgpu* functions (CUDARuntime.cpp's GPUDriver), the
// cuBLASLt calls (CUBLASLt.cpp) and the launches of the runtime's own
// kernels (FlashAttention.cpp, Fp8Matmul.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_CUDADRIVER_H
#define RLX_LIB_RUNTIME_CUDADRIVER_H

#include "ErrorRecord.h"
#include "GPUDriver.h"

#include <cstddef>
#include <string>

namespace rlx::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using Handle = void *; // CUcontext, CUmodule, CUfunction, CUstream, CUevent

/// The driver entry points, looked up once.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(Handle *, CUdevice);
  CUresult (*cuCtxGetCurrent)(Handle *);
  CUresult (*cuCtxSetCurrent)(Handle);
  CUresult (*cuModuleLoadData)(Handle *, const void *);
  CUresult (*cuModuleUnload)(Handle);
  CUresult (*cuModuleGetFunction)(Handle *, Handle, const char *);
  CUresult (*cuFuncSetAttribute)(Handle, int, int);
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, Handle, void **,
                             void **);
  CUresult (*cuStreamCreate)(Handle *, unsigned);
  CUresult (*cuStreamDestroy)(Handle);
  CUresult (*cuStreamSynchronize)(Handle);
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, Handle);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, Handle);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, Handle);
  CUresult (*cuEventCreate)(Handle *, unsigned);
  CUresult (*cuEventDestroy)(Handle);
  CUresult (*cuEventRecord)(Handle, Handle);
  CUresult (*cuEventSynchronize)(Handle);
  CUresult (*cuEventElapsedTime)(float *, Handle, Handle);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  // Only the collectives (NCCLCollectives.cpp) use these five, and they
  // check for null: looked up apart from the others so that a driver
  // without them (the unit tests' fake has only the last) still loads.
  CUresult (*cuStreamQuery)(Handle);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, Handle);
  CUresult (*cuStreamWaitEvent)(Handle, Handle, unsigned);
  CUresult (*cuStreamCreateWithPriority)(Handle *, unsigned, int);
  CUresult (*cuCtxGetStreamPriorityRange)(int *, int *);
};

/// CUDA_ERROR_NOT_READY: cuStreamQuery's "still running".
constexpr CUresult kErrorNotReady = 600;

/// The runtime's errors (rlxCudaGetLastError).
rlx::runtime::ErrorRecord &errors();

/// Reports `message` on stderr and keeps it if no error is recorded yet.
void recordError(const std::string &message);

/// The driver, or null (with the reason recorded) if it cannot be loaded.
const Driver *driver();

/// Records a failed driver call with the driver's name for its code.
bool check(CUresult result, const char *call);

/// The driver with a current context (the device's primary context, which
/// PyTorch and the CUDA runtime share; without one current, that of the
/// process's device, CUDARuntime.h), or null.
const Driver *ready();

/// The stream set by rlxCudaSetStream, or null.
using rlx::runtime::userStream;

} // namespace rlx::cuda

#endif // RLX_LIB_RUNTIME_CUDADRIVER_H
