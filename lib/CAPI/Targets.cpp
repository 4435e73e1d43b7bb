//===- Targets.cpp - C API of RLX's target registry -----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "rlx-c/Targets.h"

#include "RLX/InitAllTargets.h"
#include "RLX/Target/TargetRegistry.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

static std::vector<StringRef> targets() {
  rlx::registerAllTargets();
  return rlx::registeredTargetNames();
}

intptr_t rlxGetNumTargets(void) { return targets().size(); }

MlirStringRef rlxGetTargetName(intptr_t pos) {
  std::vector<StringRef> names = targets();
  if (pos < 0 || pos >= static_cast<intptr_t>(names.size()))
    return mlirStringRefCreate(nullptr, 0);
  return wrap(names[pos]);
}

MlirStringRef rlxGetTargetSummary(MlirStringRef name) {
  rlx::registerAllTargets();
  const rlx::TargetInfo *info = rlx::lookupTargetInfo(unwrap(name));
  return info ? wrap(StringRef(info->summary))
              : mlirStringRefCreate(nullptr, 0);
}

bool rlxTargetClaimsOp(MlirStringRef name, MlirStringRef opName) {
  rlx::registerAllTargets();
  const rlx::TargetInfo *info = rlx::lookupTargetInfo(unwrap(name));
  return info && info->ops.claims(unwrap(opName));
}
