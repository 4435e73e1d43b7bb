//===- HostDescription.h - rlx-compile's Metal host description -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The JSON host description of the metal target (docs/Metal.md), as
// rlx-compile writes it: beside --target=metal's MSL, and with
// --target=vulkan --host-description for the Vulkan pipeline's launches.
// The metal target writes it, so in a build without that target
// (RLX_ENABLE_METAL=OFF) there is none.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_HOSTDESCRIPTION_H
#define RLX_TOOLS_HOSTDESCRIPTION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir {
namespace rlx {

/// Names each function's element types (args, then results) for the host
/// description, before bufferization makes unsigned element types
/// signless. Nothing without the metal target.
void setHostElementTypes(ModuleOp module);

/// Runs `pm`, a Vulkan pipeline, on `module`, writing the host description
/// of its launches to `path` on the way: just before gpu-module-to-binary,
/// the last point where the host functions launch the gpu.funcs of
/// gpu.modules (then they are lowered to LLVM). Fails after reporting
/// through `error` (without the metal target, at once).
LogicalResult
runWritingHostDescription(PassManager &pm, ModuleOp module, StringRef path,
                          llvm::function_ref<void(const Twine &)> error);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_HOSTDESCRIPTION_H
