//===- VulkanNestSPIRVModules.cpp - spirv.modules into gpu.modules --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// convert-gpu-to-spirv names the spirv.module of `gpu.module @k`
// `@__spv__k` and, for the Shader capability, places it beside it;
// gpu-module-to-binary serializes only a spirv.module inside the
// gpu.module. Upstream has no pass that moves it (the removed
// mlir-vulkan-runner serialized the modules itself).
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANNESTSPIRVMODULESPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// The prefix convert-gpu-to-spirv gives the spirv.module of a gpu.module.
static constexpr StringLiteral kSPIRVModulePrefix = "__spv__";

/// The name of the unused Private variable that records the subgroup size
/// the kernels were built for, as librlx_vulkan_runtime reads it from the
/// module's OpName (RLX_VULKAN_SUBGROUP_SIZE_MARK in VulkanRuntime.cpp).
static constexpr StringLiteral kSubgroupSizeMark = "__rlx_subgroup_size_";

/// Adds the subgroup-size mark of `module`'s target environment if its
/// kernels use subgroup operations (the others run at any size).
static void markSubgroupSize(spirv::ModuleOp module) {
  spirv::TargetEnvAttr target = spirv::lookupTargetEnv(module);
  std::optional<spirv::VerCapExtAttr> triple = module.getVceTriple();
  if (!target || !triple ||
      !llvm::is_contained(triple->getCapabilities(),
                          spirv::Capability::GroupNonUniform))
    return;
  std::optional<int> size = target.getResourceLimits().getSubgroupSize();
  if (!size)
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = spirv::PointerType::get(b.getI32Type(),
                                      spirv::StorageClass::Private);
  spirv::GlobalVariableOp::create(b, module.getLoc(), type,
                                  (kSubgroupSizeMark + Twine(*size)).str());
}

/// Adds GroupNonUniform to `module`'s requirements where it reads a
/// subgroup builtin (gpu.subgroup_id and gpu.lane_id of the cooperative
/// matmul): SPIR-V requires the capability for them, but spirv-update-vce
/// deduces capabilities from ops and types, not from builtin decorations.
static void requireSubgroupBuiltins(spirv::ModuleOp module) {
  std::optional<spirv::VerCapExtAttr> triple = module.getVceTriple();
  if (!triple || llvm::is_contained(triple->getCapabilities(),
                                    spirv::Capability::GroupNonUniform))
    return;
  bool reads = llvm::any_of(
      module.getOps<spirv::GlobalVariableOp>(), [](spirv::GlobalVariableOp v) {
        StringAttr builtIn = v.getBuiltInAttr();
        return builtIn &&
               llvm::is_contained({"SubgroupId", "SubgroupLocalInvocationId",
                                   "NumSubgroups", "SubgroupSize"},
                                  builtIn.getValue());
      });
  if (!reads)
    return;
  SmallVector<spirv::Capability> capabilities(triple->getCapabilities());
  capabilities.push_back(spirv::Capability::GroupNonUniform);
  SmallVector<spirv::Extension> extensions(triple->getExtensions());
  module.setVceTripleAttr(spirv::VerCapExtAttr::get(
      triple->getVersion(), capabilities, extensions, module.getContext()));
}

/// Raises `module`'s version to its target's. spirv-update-vce deduces the
/// least version from the ops alone (1.3 for most kernels), but
/// spirv-lower-abi-attrs lists the storage buffers among the entry points'
/// interfaces, as the target's version (1.4 and later) requires and 1.3
/// forbids (spirv-val: "OpEntryPoint interfaces must be OpVariables with
/// Storage Class of Input or Output").
static void keepTargetVersion(spirv::ModuleOp module) {
  std::optional<spirv::VerCapExtAttr> triple = module.getVceTriple();
  spirv::TargetEnvAttr target = spirv::lookupTargetEnv(module);
  if (!triple || !target || triple->getVersion() >= target.getVersion())
    return;
  Builder b(module.getContext());
  module.setVceTripleAttr(spirv::VerCapExtAttr::get(
      b.getI32IntegerAttr(static_cast<uint32_t>(target.getVersion())),
      triple->getCapabilitiesAttr(), triple->getExtensionsAttr()));
}

namespace {
struct VulkanNestSPIRVModulesPass
    : public rlx::impl::VulkanNestSPIRVModulesPassBase<
          VulkanNestSPIRVModulesPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    llvm::StringMap<spirv::ModuleOp> spirvModules;
    for (auto spirvModule : top.getOps<spirv::ModuleOp>())
      if (std::optional<StringRef> name = spirvModule.getName();
          name && name->starts_with(kSPIRVModulePrefix))
        spirvModules[name->drop_front(kSPIRVModulePrefix.size())] =
            spirvModule;
    for (auto gpuModule :
         llvm::make_early_inc_range(top.getOps<gpu::GPUModuleOp>())) {
      auto it = spirvModules.find(gpuModule.getName());
      if (it == spirvModules.end()) {
        gpuModule.emitOpError("has no SPIR-V module (@")
            << kSPIRVModulePrefix << gpuModule.getName()
            << "): run convert-gpu-to-spirv first";
        return signalPassFailure();
      }
      // The gpu.funcs stay until gpu-module-to-binary replaces the module:
      // the host's gpu.launch_func ops are verified against them.
      keepTargetVersion(it->second);
      requireSubgroupBuiltins(it->second);
      markSubgroupSize(it->second);
      it->second->moveBefore(gpuModule.getBody(), gpuModule.getBody()->end());
    }
  }
};
} // namespace
