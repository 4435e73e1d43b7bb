//===- TargetRegistry.cpp - the compilation targets, registered -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/TargetRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// The registered targets. Entries are never moved once registered, so
/// the pointers lookupTargetInfo hands out stay valid.
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<TargetInfo>> targets;
};
} // namespace

static Registry &registry() {
  static Registry r;
  return r;
}

bool TargetOps::claims(StringRef opName) const {
  return std::binary_search(ops.begin(), ops.end(), opName);
}

void rlx::registerTarget(TargetInfo info) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const std::unique_ptr<TargetInfo> &t : r.targets)
    if (t->ops.name == info.ops.name)
      return;
  llvm::sort(info.ops.ops);
  info.ops.ops.erase(std::unique(info.ops.ops.begin(), info.ops.ops.end()),
                     info.ops.ops.end());
  r.targets.push_back(std::make_unique<TargetInfo>(std::move(info)));
}

void rlx::registerTargetPasses() {
  // (Not under the lock: a pass registration may look a target up.)
  std::vector<std::function<void()>> hooks;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const std::unique_ptr<TargetInfo> &t : r.targets)
      if (t->registerPasses)
        hooks.push_back(t->registerPasses);
  }
  for (const std::function<void()> &hook : hooks)
    hook();
}

const TargetInfo *rlx::lookupTargetInfo(StringRef name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const std::unique_ptr<TargetInfo> &t : r.targets)
    if (t->ops.name == name)
      return t.get();
  return nullptr;
}

std::vector<StringRef> rlx::registeredTargetNames() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<StringRef> names;
  for (const std::unique_ptr<TargetInfo> &t : r.targets)
    names.push_back(t->ops.name);
  return names;
}

std::string rlx::unknownTargetMessage(StringRef name) {
  std::vector<StringRef> names = registeredTargetNames();
  return ("unknown target '" + name + "' (registered: " +
          (names.empty() ? std::string("none") : llvm::join(names, ", ")) +
          ")")
      .str();
}
