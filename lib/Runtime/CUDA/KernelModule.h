//===- KernelModule.h - a module of the runtime's own kernels -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime library: an embedded image (KernelImages.h)
// loaded once into a module, shared by the flash-attention and fp8
// launches.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_CUDA_KERNELMODULE_H
#define RLX_LIB_RUNTIME_CUDA_KERNELMODULE_H

#include "CUDADriver.h"
#include "KernelImages.h"

#include <string>

namespace rlx::cuda {

/// One image's module, loaded at the first `load` into the current
/// context. An environment variable may name a file (cubin, fatbin or PTX)
/// to load instead (the unit tests' stand-ins). Not thread-safe: callers
/// hold their own lock.
class KernelModule {
public:
  /// `caller` prefixes errors ("rlxFlashAttention"); `what` names the
  /// kernels in them ("the flash-attention kernels").
  KernelModule(Image (*image)(), const char *overrideVariable,
               const char *caller, const char *what)
      : image(image), overrideVariable(overrideVariable), caller(caller),
        what(what) {}

  /// The module, or null (with the reason recorded) if it cannot be
  /// loaded.
  Handle load(const Driver &d);

private:
  Image (*image)();
  const char *overrideVariable, *caller, *what;
  bool tried = false;
  Handle module = nullptr;
  /// A file's bytes, which outlive the module load.
  std::string file;
};

/// Launches `function` (a grid of gridX x gridY x gridZ blocks of
/// `threads` threads, `sharedBytes` of dynamic shared memory, its one
/// parameter block in `args`) on the caller's stream (rlxCudaSetStream),
/// else on the legacy default stream. False, with the error recorded, if
/// the launch fails.
bool launchOnCallerStream(const Driver &d, Handle function, unsigned gridX,
                          unsigned gridY, unsigned gridZ, unsigned threads,
                          unsigned sharedBytes, void **args);

/// After a runtime kernel's launches: without a caller's stream they ran on
/// the legacy default stream, which the entry point's own streams are
/// ordered with; waits for it, so the call returns done (as rlxGpuMatmul
/// does).
void finishWithoutCallerStream(const Driver &d);

} // namespace rlx::cuda

#endif // RLX_LIB_RUNTIME_CUDA_KERNELMODULE_H
