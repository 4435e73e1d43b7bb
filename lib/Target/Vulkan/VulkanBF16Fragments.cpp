//===- VulkanBF16Fragments.cpp - bf16 cooperative matrix fragments --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Passes.td. The GPU dialect's gpu.mma_matrix has no bf16, so
// rlx-gpu-tile-matmul's `bf16` entry stages bf16 operands as pairs in
// 32-bit words and loads f16-typed fragments from them; SPIR-V's bf16
// (SPV_KHR_bfloat16) is put back here, after the conversion, where the types
// exist.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANBF16FRAGMENTSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// The bf16 type of `load`'s fragment if it is an f16 A or B fragment
/// loaded from 32-bit integer memory (bf16 pairs), else null.
static spirv::CooperativeMatrixType
bf16Fragment(spirv::KHRCooperativeMatrixLoadOp load) {
  auto type = cast<spirv::CooperativeMatrixType>(load.getResult().getType());
  auto pointer = cast<spirv::PointerType>(load.getPointer().getType());
  if (!type.getElementType().isF16() ||
      type.getUse() == spirv::CooperativeMatrixUseKHR::MatrixAcc ||
      !pointer.getPointeeType().isInteger(32))
    return {};
  return spirv::CooperativeMatrixType::get(BFloat16Type::get(load.getContext()),
                                           type.getRows(), type.getColumns(),
                                           type.getScope(), type.getUse());
}

namespace {
struct VulkanBF16FragmentsPass
    : public rlx::impl::VulkanBF16FragmentsPassBase<VulkanBF16FragmentsPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    bool any = false;
    WalkResult walk = module.walk([&](spirv::KHRCooperativeMatrixLoadOp load) {
      spirv::CooperativeMatrixType bf16 = bf16Fragment(load);
      if (!bf16)
        return WalkResult::advance();
      for (Operation *user : load->getUsers())
        if (!isa<spirv::KHRCooperativeMatrixMulAddOp>(user)) {
          user->emitOpError("uses a bf16 fragment (loaded from 32-bit words) "
                            "otherwise than as a factor of "
                            "spirv.KHR.CooperativeMatrixMulAdd");
          return WalkResult::interrupt();
        }
      load.getResult().setType(bf16);
      any = true;
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (!any)
      return;
    // The requirements spirv-update-vce cannot deduce: it saw f16
    // fragments, and deduces no BFloat16CooperativeMatrixKHR from bf16 ones.
    spirv::TargetEnvAttr target = spirv::lookupTargetEnv(module);
    std::optional<spirv::VerCapExtAttr> triple = module.getVceTriple();
    if (!target || !triple ||
        !llvm::is_contained(target.getCapabilities(),
                            spirv::Capability::BFloat16CooperativeMatrixKHR) ||
        !llvm::is_contained(target.getExtensions(),
                            spirv::Extension::SPV_KHR_bfloat16)) {
      module.emitOpError("has bf16 cooperative matrix fragments, which need "
                         "the BFloat16CooperativeMatrixKHR capability and "
                         "SPV_KHR_bfloat16 of its target environment");
      return signalPassFailure();
    }
    llvm::SetVector<spirv::Capability> capabilities;
    capabilities.insert_range(triple->getCapabilities());
    capabilities.insert(spirv::Capability::BFloat16TypeKHR);
    capabilities.insert(spirv::Capability::BFloat16CooperativeMatrixKHR);
    llvm::SetVector<spirv::Extension> extensions;
    extensions.insert_range(triple->getExtensions());
    extensions.insert(spirv::Extension::SPV_KHR_bfloat16);
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        triple->getVersion(), capabilities.getArrayRef(),
        extensions.getArrayRef(), module.getContext()));
  }
};
} // namespace
