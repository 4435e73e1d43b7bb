//===- TensorFile.h - safetensors and GGUF weight files ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads the named tensors of a safetensors file or a GGUF (v2, v3) file as
// .npy arrays (Npy.h), so that rlx-run --params and --rlx-specialize-params
// bind them to rlx.param names as they bind .npy files. Every length and
// offset in a file is checked against its size before it is used.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_COMMON_TENSORFILE_H
#define RLX_RUNTIME_COMMON_TENSORFILE_H

#include "RLX/Runtime/Common/Npy.h"

#include <map>
#include <memory>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace mlir {
namespace rlx {
namespace runtime {

/// One tensor of a file, as its header describes it.
struct TensorEntry {
  std::string name;
  /// The type as the file names it: "F32", "BF16", "I64" (safetensors),
  /// "F16", "Q4_0", "Q6_K" (GGUF; an unknown GGUF type is "type N").
  std::string fileType;
  /// The .npy dtype of the array `read` gives ("f4", "u1", ...); empty when
  /// RLX cannot hold the type. BF16 reads as f4 (exactly), as bf16 params
  /// are exchanged in .npy files; quantized GGUF types read as u1.
  std::string dtype;
  /// For GGUF's quantized types, the #rlx.quant scheme ("gguf_q4_k") whose
  /// packed rows the array holds; else empty.
  std::string scheme;
  /// The logical shape, outermost dim first (GGUF's ne reversed).
  std::vector<int64_t> shape;
  /// The shape of the array `read` gives: `shape`, with the last dim in
  /// bytes of packed blocks for quantized types.
  std::vector<int64_t> arrayShape;
  uint64_t offset = 0, size = 0;
};

/// A weight file opened (memory-mapped) with its tensor index.
class TensorFile {
public:
  /// Opens `path`: GGUF when it starts with "GGUF" or its name ends in
  /// `.gguf`, else safetensors. On failure returns null and sets `error`,
  /// which names the file.
  static std::unique_ptr<TensorFile> open(const std::string &path,
                                          std::string &error);
  /// As open, on the bytes of `buffer` named `path` (the fuzz target
  /// rlx-fuzz-weights feeds it).
  static std::unique_ptr<TensorFile>
  open(std::unique_ptr<llvm::MemoryBuffer> buffer, const std::string &path,
       std::string &error);
  ~TensorFile();

  const std::string &getPath() const { return path; }
  /// "safetensors" or "GGUF".
  const char *getFormat() const { return gguf ? "GGUF" : "safetensors"; }
  const TensorEntry *find(const std::string &name) const;
  const std::map<std::string, TensorEntry> &getEntries() const {
    return entries;
  }

  /// The data of `entry` as an array of its dtype and arrayShape; false
  /// (and `error`) for a type RLX cannot hold.
  bool read(const TensorEntry &entry, NpyArray &array,
            std::string &error) const;

private:
  TensorFile() = default;
  bool parseSafetensors(std::string &error);
  bool parseGguf(std::string &error);

  std::string path;
  bool gguf = false;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::map<std::string, TensorEntry> entries;
};

} // namespace runtime
} // namespace rlx
} // namespace mlir

#endif // RLX_RUNTIME_COMMON_TENSORFILE_H
