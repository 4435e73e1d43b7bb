//===- VulkanKernelABI.cpp - entry point ABI and device limits ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// convert-gpu-to-spirv lowers a kernel only with a `spirv.entry_point_abi`
// (its workgroup size) and a gpu.shuffle only when its width is the target
// environment's subgroup size; spirv-attach-target sets neither (its
// resource limits are the defaults, 32 lanes). Both are known here: the
// front records every kernel's block size, and the pipeline's options the
// device's subgroup.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANKERNELABIPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// Whether `op` is a math function on f64 that GLSL.std.450 has for 16-
/// and 32-bit floats only (the 64-bit ones are sqrt, inverse sqrt, abs,
/// fma and the roundings).
static bool isF64Transcendental(Operation *op) {
  if (!isa<math::MathDialect>(op->getDialect()) ||
      isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp,
          math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
          math::TruncOp, math::CopySignOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    return getElementTypeOrSelf(type).isF64();
  });
}

namespace {
struct VulkanKernelABIPass
    : public rlx::impl::VulkanKernelABIPassBase<VulkanKernelABIPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(setLimits(module)))
      return signalPassFailure();
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
      if (!block || block->size() != 3) {
        kernel.emitOpError("has no known_block_size: a Vulkan compute "
                           "shader fixes its workgroup size");
        return signalPassFailure();
      }
      for (Type type : kernel.getArgumentTypes()) {
        if (!isa<MemRefType>(type)) {
          kernel.emitOpError("takes a ")
              << type
              << " argument: Vulkan kernels take storage buffers only "
                 "(the vulkan target claims static shapes)";
          return signalPassFailure();
        }
      }
      // The front sinks the non-splat constants a kernel reads into its
      // module as memref.globals; upstream lowers those to SPIR-V only for
      // OpenCL (physical addressing).
      WalkResult constants = kernel.walk([](memref::GetGlobalOp get) {
        get.emitOpError("reads the constant array @")
            << get.getName()
            << ", which the vulkan target cannot place in a SPIR-V module "
               "yet";
        return WalkResult::interrupt();
      });
      if (constants.wasInterrupted())
        return signalPassFailure();
      WalkResult f64Math = kernel.walk([](Operation *op) {
        if (!isF64Transcendental(op))
          return WalkResult::advance();
        op->emitOpError("on f64: GLSL.std.450 has this function for 16- "
                        "and 32-bit floats only");
        return WalkResult::interrupt();
      });
      if (f64Math.wasInterrupted())
        return signalPassFailure();
      kernel->setAttr(spirv::getEntryPointABIAttrName(),
                      spirv::getEntryPointABIAttr(context, *block));
    }
  }

  /// The cooperative matrix configurations of `cooperative-matrix` for
  /// `env`'s resource limits (null where it is empty), or a failure where
  /// an entry is unknown or `env` cannot express cooperative matrices.
  FailureOr<ArrayAttr> cooperativeProperties(gpu::GPUModuleOp module,
                                             spirv::TargetEnvAttr env) {
    if (cooperativeMatrix.empty())
      return ArrayAttr();
    for (const std::string &entry : cooperativeMatrix)
      if (entry != "f16" && entry != "bf16" && entry != "bf16-as-f16")
        return module.emitOpError("has an unknown cooperative-matrix entry '")
               << entry << "' (expected f16, bf16 or bf16-as-f16)";
    if (env.getVersion() < spirv::Version::V_1_6 ||
        !llvm::is_contained(env.getCapabilities(),
                            spirv::Capability::CooperativeMatrixKHR))
      return module.emitOpError("uses cooperative matrices, which need "
                                "SPIR-V 1.6 and CooperativeMatrixKHR; its "
                                "target is ")
             << env.getTripleAttr();
    // Every entry runs on the one configuration the kernels use when
    // converted (bf16 is rounded to f16 in the staging, or its fragments
    // are f16-typed until rlx-vulkan-bf16-fragments).
    MLIRContext *context = &getContext();
    Builder b(context);
    Type f16 = b.getF16Type(), f32 = b.getF32Type();
    return b.getArrayAttr({spirv::CooperativeMatrixPropertiesKHRAttr::get(
        context, 16, 16, 16, f16, f16, f32, f32, /*acc_sat=*/false,
        spirv::ScopeAttr::get(context, spirv::Scope::Subgroup))});
  }

  /// Replaces the resource limits of the spirv.target_env that
  /// spirv-attach-target put in the module's targets, and sets it as the
  /// module's spirv.target_env attribute too.
  LogicalResult setLimits(gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets)
      return module.emitOpError("has no target: run spirv-attach-target "
                                "first");
    MLIRContext *context = &getContext();
    Builder b(context);
    SmallVector<Attribute> updated;
    spirv::TargetEnvAttr vulkanEnv;
    for (Attribute attr : targets) {
      auto env = dyn_cast<spirv::TargetEnvAttr>(attr);
      if (!env) {
        updated.push_back(attr);
        continue;
      }
      spirv::ResourceLimitsAttr old = env.getResourceLimits();
      FailureOr<ArrayAttr> cooperative = cooperativeProperties(module, env);
      if (failed(cooperative))
        return failure();
      auto limits = spirv::ResourceLimitsAttr::get(
          context, old.getMaxComputeSharedMemorySize(), maxWorkgroupInvocations,
          b.getI32ArrayAttr({static_cast<int32_t>(maxWorkgroupInvocations),
                             static_cast<int32_t>(maxWorkgroupInvocations),
                             64}),
          subgroupSize, old.getMinSubgroupSize(), old.getMaxSubgroupSize(),
          *cooperative ? *cooperative : old.getCooperativeMatrixPropertiesKhr(),
          old.getCooperativeMatrixPropertiesNv());
      vulkanEnv = spirv::TargetEnvAttr::get(
          env.getTripleAttr(), limits, env.getClientAPI(), env.getVendorID(),
          env.getDeviceType(), env.getDeviceID());
      updated.push_back(vulkanEnv);
    }
    if (!vulkanEnv)
      return module.emitOpError("has no #spirv.target_env target: run "
                                "spirv-attach-target first");
    module.setTargetsAttr(b.getArrayAttr(updated));
    // The conversions other than convert-gpu-to-spirv (convert-math-to-spirv)
    // look the environment up as this attribute; without it they assume
    // the default one (no Int8, Float16...) and emulate those types.
    module->setAttr(spirv::getTargetEnvAttrName(), vulkanEnv);
    return success();
  }
};
} // namespace
