//===- HostDescription.cpp - rlx-compile's Metal host descriptions --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/HostDescription.h"

#include "RLX/Config.h"

#if RLX_ENABLE_METAL
#include "RLX/Target/Metal/MSLEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"
#endif

using namespace mlir;
using namespace mlir::rlx;

#if RLX_ENABLE_METAL
void rlx::setHostElementTypes(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    SmallVector<Attribute> types;
    for (Type t :
         llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes()))
      if (auto shaped = dyn_cast<ShapedType>(t))
        types.push_back(TypeAttr::get(shaped.getElementType()));
    fn->setAttr(kMetalElementTypesAttr,
                ArrayAttr::get(module.getContext(), types));
  }
}

namespace {
/// Writes the host description before the first gpu-module-to-binary. With
/// the modules' SPIR-V (rlx-compile --gpu-binaries) through `spirv-cross
/// --msl`, rlx-metal-cpu-run --spirv-cross runs the Vulkan path's kernels
/// as it launches them.
struct HostDescriptionWriter : public PassInstrumentation {
  HostDescriptionWriter(StringRef path,
                        llvm::function_ref<void(const Twine &)> error)
      : path(path), error(error) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (written || pass->getArgument() != "gpu-module-to-binary")
      return;
    written = true;
    std::string message;
    auto file = openOutputFile(path, &message);
    if (!file) {
      error(message);
      failed = true;
      return;
    }
    // Its kernels are SPIRV-Cross's, whose builtins are its own.
    failed = mlir::failed(translateToMetalHostDescription(
        op, file->os(), /*withBuiltins=*/false));
    if (!failed)
      file->keep();
  }

  StringRef path;
  llvm::function_ref<void(const Twine &)> error;
  bool written = false, failed = false;
};
} // namespace

LogicalResult
rlx::runWritingHostDescription(PassManager &pm, ModuleOp module, StringRef path,
                               llvm::function_ref<void(const Twine &)> error) {
  setHostElementTypes(module);
  auto owned = std::make_unique<HostDescriptionWriter>(path, error);
  HostDescriptionWriter *writer = owned.get();
  pm.addInstrumentation(std::move(owned));
  if (failed(pm.run(module)) || writer->failed)
    return failure();
  if (!writer->written) {
    error("the Vulkan pipeline has no gpu-module-to-binary step to describe "
          "the launches before");
    return failure();
  }
  return success();
}
#else
void rlx::setHostElementTypes(ModuleOp) {}

LogicalResult
rlx::runWritingHostDescription(PassManager &, ModuleOp, StringRef,
                               llvm::function_ref<void(const Twine &)> error) {
  error("--host-description writes the metal target's host description, and "
        "this build has no metal target (RLX_ENABLE_METAL=OFF)");
  return failure();
}
#endif
