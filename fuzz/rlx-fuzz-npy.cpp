//===- rlx-fuzz-npy.cpp - fuzz the .npy reader ----------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libFuzzer target: each input is the bytes of a .npy file, read as rlx-run
// and --rlx-specialize-params read theirs. An array that reads must hold
// exactly its shape's elements.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/Npy.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir::rlx::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  NpyArray array;
  std::string error;
  if (!parseNpyBytes(reinterpret_cast<const char *>(data), size, "input",
                     array, error))
    return 0;
  if (int64_t(array.data.size()) !=
      array.numElements() * array.elementSize()) {
    std::fprintf(stderr, "rlx-fuzz-npy: %zu bytes read for %lld elements of "
                         "%lld bytes\n",
                 array.data.size(), (long long)array.numElements(),
                 (long long)array.elementSize());
    std::abort();
  }
  return 0;
}
