//===- Npy.h - reading and writing NumPy .npy files -------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The subset of the .npy format (version 1.0 and 2.0, little-endian,
// C order) that RLX tensors need. No MLIR dependency: the runtime uses it.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_NPY_H
#define RLX_RUNTIME_NPY_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// The namespace is MLIR's, as for all of RLX; the runtime does not include
// or link MLIR.
namespace mlir {
namespace rlx {
namespace runtime {

/// An array read from or to be written to a .npy file.
struct NpyArray {
  /// The NumPy type string without byte order, e.g. "f4", "i8", "u1", "b1",
  /// "c8", "f2".
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t numElements() const;
  /// Bytes per element of `dtype`.
  int64_t elementSize() const;
};

/// Reads `path`; on failure returns false and sets `error`.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// Parses the `size` bytes at `data` as a .npy file named `name` in
/// messages; as readNpy. Every length in the bytes is checked before
/// anything is allocated for it (the fuzz target rlx-fuzz-npy feeds it).
bool parseNpyBytes(const char *data, size_t size, const std::string &name,
                   NpyArray &array, std::string &error);

/// Writes `array` to `path`; on failure returns false and sets `error`.
bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error);

} // namespace runtime
} // namespace rlx
} // namespace mlir

#endif // RLX_RUNTIME_NPY_H
