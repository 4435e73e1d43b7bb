//===- ErrorRecord.cpp - the errors a GPU runtime library keeps -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ErrorRecord.h"

#include <cstdio>

using namespace rlx::runtime;

void ErrorRecord::record(const std::string &message) {
  std::fprintf(stderr, "%s: %s\n", prefix, message.c_str());
  std::lock_guard<std::mutex> lock(mutex);
  if (kept.empty())
    kept = message;
}

void ErrorRecord::recordFailure(const char *call, int code,
                                const char *codeName) {
  record(std::string(call) +
         " failed: " + (codeName ? codeName : "unknown error") + " (" +
         std::to_string(code) + ")");
}

const char *ErrorRecord::first() {
  std::lock_guard<std::mutex> lock(mutex);
  return kept.empty() ? nullptr : kept.c_str();
}

void ErrorRecord::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  kept.clear();
}
