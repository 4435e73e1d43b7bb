//===- DynamicLibrary.cpp - libraries a GPU runtime opens at run time -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DynamicLibrary.h"

#include <cstdlib>

using namespace rlx::runtime;

OpenedLibrary
rlx::runtime::openFirst(const char *overrideVariable,
                        std::initializer_list<const char *> defaults) {
  OpenedLibrary opened;
  auto tryOpen = [&](const char *path) {
    opened.tried += (opened.tried.empty() ? "" : ", ") + std::string(path);
    opened.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!opened.handle)
      opened.reason = dlerror();
    return opened.handle != nullptr;
  };
  // A library asked for by name is the only one tried: falling back to
  // another would hide the mistake.
  if (const char *chosen = std::getenv(overrideVariable); chosen && *chosen) {
    tryOpen(chosen);
    return opened;
  }
  for (const char *path : defaults)
    if (tryOpen(path))
      break;
  return opened;
}

void *rlx::runtime::openLibrary(const char *what, const char *overrideVariable,
                                std::initializer_list<const char *> defaults,
                                ErrorRecord &errors) {
  OpenedLibrary opened = openFirst(overrideVariable, defaults);
  if (!opened.handle)
    errors.record(std::string("cannot load ") + what + " (tried " +
                  opened.tried + ")");
  return opened.handle;
}
