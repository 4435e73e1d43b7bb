//===- GPUDriver.h - the driver behind the mgpu* functions ------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the GPU runtime libraries over a vendor's driver API (CUDA,
// ROCm). The mgpu* functions of GPURuntime.h do the same thing over every
// such API: the order of their checks, what they record, and the caller's
// stream are the same, only the calls differ. MgpuFunctions.cpp defines
// them once over the GPUDriver below; each runtime library compiles it in
// and defines gpuRuntime() with its driver and its error record.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_GPUDRIVER_H
#define RLX_LIB_RUNTIME_COMMON_GPUDRIVER_H

#include "ErrorRecord.h"

#include <cstdint>

namespace rlx::runtime {

/// A vendor's driver API as the mgpu* functions call it. Each call records
/// its own failure, under the vendor's name for the call, and returns
/// false then.
class GPUDriver {
public:
  virtual bool loadModule(void **module, const void *image) const = 0;
  /// Unchecked: it runs from global destructors, possibly after the
  /// process has torn the driver down.
  virtual void unloadModule(void *module) const = 0;
  virtual bool getFunction(void **function, void *module,
                           const char *name) const = 0;
  virtual bool launchKernel(void *function, unsigned gridX, unsigned gridY,
                            unsigned gridZ, unsigned blockX, unsigned blockY,
                            unsigned blockZ, unsigned sharedBytes, void *stream,
                            void **params, void **extra) const = 0;
  /// A stream ordered after the work of the null (legacy default) stream,
  /// where a caller that set no stream most likely wrote the inputs.
  virtual bool createStream(void **stream) const = 0;
  virtual bool destroyStream(void *stream) const = 0;
  virtual bool synchronizeStream(void *stream) const = 0;
  /// Stream-ordered allocation and release of device memory.
  virtual bool allocateAsync(void **ptr, uint64_t bytes,
                             void *stream) const = 0;
  virtual bool freeAsync(void *ptr, void *stream) const = 0;

protected:
  ~GPUDriver() = default;
};

/// One runtime library's driver and errors.
struct GPURuntime {
  ErrorRecord &errors;
  /// The driver, or null with the reason recorded. `loaded` only loads it
  /// (the calls that release things use it); `ready` also readies the
  /// device for work (CUDA makes a context current).
  const GPUDriver *(*loaded)();
  const GPUDriver *(*ready)();
};

/// Defined by each runtime library that compiles in MgpuFunctions.cpp.
const GPURuntime &gpuRuntime();

/// The stream the caller set (rlxCudaSetStream, rlxRocmSetStream), or null:
/// with one, every call runs on it and none waits for it.
void *userStream();
void setUserStream(void *stream);

} // namespace rlx::runtime

#endif // RLX_LIB_RUNTIME_COMMON_GPUDRIVER_H
