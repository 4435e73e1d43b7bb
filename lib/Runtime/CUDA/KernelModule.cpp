//===- KernelModule.cpp - a module of the runtime's own kernels -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelModule.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

rlx::cuda::Handle rlx::cuda::KernelModule::load(const Driver &d) {
  if (tried) {
    if (!module)
      recordError(std::string(caller) + ": " + what + "' module did not load");
    return module;
  }
  tried = true;
  Image bytes = image();
  if (const char *path = std::getenv(overrideVariable); path && *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      recordError(std::string(caller) + ": cannot read " + path);
      return nullptr;
    }
    file.assign(std::istreambuf_iterator<char>(in), {});
    // PTX is read as a C string.
    file.push_back('\0');
    bytes = {file.data(), file.size()};
  }
  if (!bytes.data) {
    recordError(std::string(caller) +
                ": librlx_cuda_runtime was built without nvcc, hence "
                "without " +
                what);
    return nullptr;
  }
  check(d.cuModuleLoadData(&module, bytes.data), "cuModuleLoadData");
  return module;
}

bool rlx::cuda::launchOnCallerStream(const Driver &d, Handle function,
                                     unsigned gridX, unsigned gridY,
                                     unsigned gridZ, unsigned threads,
                                     unsigned sharedBytes, void **args) {
  return check(d.cuLaunchKernel(function, gridX, gridY, gridZ, threads, 1, 1,
                                sharedBytes, userStream(), args, nullptr),
               "cuLaunchKernel");
}

void rlx::cuda::finishWithoutCallerStream(const Driver &d) {
  if (!userStream())
    check(d.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}
