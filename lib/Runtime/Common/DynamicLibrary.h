//===- DynamicLibrary.h - libraries opened at run time ----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the GPU runtime libraries: they link no vendor library but
// dlopen it at the first call (so that RLX builds without the vendor's SDK
// and a program runs against whichever release is installed), then look
// up the entry points they call. An environment variable may name the
// library to use instead (the unit tests' stand-ins).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_DYNAMICLIBRARY_H
#define RLX_LIB_RUNTIME_COMMON_DYNAMICLIBRARY_H

#include "ErrorRecord.h"

#include <dlfcn.h>
#include <initializer_list>
#include <string>

namespace rlx::runtime {

/// What opening a library came to.
struct OpenedLibrary {
  /// dlopen's handle, or null if no candidate loaded.
  void *handle = nullptr;
  /// The candidates tried, in order ("libx.so.2, libx.so.1"); where one
  /// loaded it is the last.
  std::string tried;
  /// dlerror's account of the last candidate that did not load.
  std::string reason;
};

/// Opens $`overrideVariable` if it is set and not empty (and then nothing
/// else: the library asked for, or none), else the first of `defaults`
/// that loads.
OpenedLibrary openFirst(const char *overrideVariable,
                        std::initializer_list<const char *> defaults);

/// openFirst's handle; if nothing loads, null with "cannot load <what>
/// (tried <candidates>)" recorded.
void *openLibrary(const char *what, const char *overrideVariable,
                  std::initializer_list<const char *> defaults,
                  ErrorRecord &errors);

/// Looks up a table of entry points, one call per entry point, and says
/// whether all were found:
///
///   SymbolBinder bind(library, "the HIP runtime", errors());
///   bind(table.hipInit, "hipInit");
///   ...
///   return bind.ok() && ...;
///
/// Every missing symbol is recorded as "<what> lacks <name>".
class SymbolBinder {
public:
  SymbolBinder(void *library, std::string what, ErrorRecord &errors)
      : library(library), what(std::move(what)), errors(errors) {}

  template <typename Fn> void operator()(Fn &fn, const char *name) {
    fn = reinterpret_cast<Fn>(dlsym(library, name));
    if (!fn) {
      errors.record(what + " lacks " + name);
      allFound = false;
    }
  }

  /// Whether every symbol bound so far was found.
  bool ok() const { return allFound; }

private:
  void *library;
  std::string what;
  ErrorRecord &errors;
  bool allFound = true;
};

} // namespace rlx::runtime

#endif // RLX_LIB_RUNTIME_COMMON_DYNAMICLIBRARY_H
