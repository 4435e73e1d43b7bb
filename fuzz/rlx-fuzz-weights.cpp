//===- rlx-fuzz-weights.cpp - fuzz the safetensors and GGUF readers -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libFuzzer target: each input is read as the bytes of a GGUF file and of a
// safetensors file, as rlx-run --params and --rlx-specialize-params read
// theirs, and every tensor of a file that opens is read. An array that
// reads must hold exactly its shape's elements.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/TensorFile.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir::rlx::runtime;

static void readAll(const uint8_t *data, size_t size, const char *name) {
  std::string error;
  std::unique_ptr<TensorFile> file = TensorFile::open(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size), name),
      name, error);
  if (!file)
    return;
  for (const auto &[name, entry] : file->getEntries()) {
    NpyArray array;
    if (!file->read(entry, array, error))
      continue;
    if (int64_t(array.data.size()) !=
        array.numElements() * array.elementSize()) {
      std::fprintf(stderr, "rlx-fuzz-weights: %zu bytes read for %lld "
                           "elements of %lld bytes\n",
                   array.data.size(), (long long)array.numElements(),
                   (long long)array.elementSize());
      std::abort();
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  readAll(data, size, "input.gguf");
  readAll(data, size, "input.safetensors");
  return 0;
}
