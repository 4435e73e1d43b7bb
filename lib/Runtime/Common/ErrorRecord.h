//===- ErrorRecord.h - the errors a GPU runtime library keeps ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the GPU runtime libraries: they record errors rather than
// abort (GPURuntime.h), each reporting on stderr and keeping the first
// error until the caller clears it (rlxCudaGetLastError,
// rlxRocmGetLastError).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_ERRORRECORD_H
#define RLX_LIB_RUNTIME_COMMON_ERRORRECORD_H

#include <mutex>
#include <string>

namespace rlx::runtime {

/// The errors of one runtime library, safe to use from any thread.
class ErrorRecord {
public:
  /// Messages go to stderr as "<prefix>: <message>".
  explicit ErrorRecord(const char *prefix) : prefix(prefix) {}

  /// Reports `message` on stderr and keeps it if no error is kept yet.
  void record(const std::string &message);

  /// Records "<call> failed: <codeName> (<code>)" for a vendor call that
  /// returned the error `code` (named "unknown error" if `codeName` is
  /// null).
  void recordFailure(const char *call, int code, const char *codeName);

  /// The kept error, or null. Valid until the next clear().
  const char *first();

  /// Forgets the kept error.
  void clear();

private:
  const char *prefix;
  std::mutex mutex;
  std::string kept;
};

} // namespace rlx::runtime

#endif // RLX_LIB_RUNTIME_COMMON_ERRORRECORD_H
