//===- VulkanWorkgroupAllocs.cpp - attributions as workgroup allocs -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANWORKGROUPALLOCSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {
struct VulkanWorkgroupAllocsPass
    : public rlx::impl::VulkanWorkgroupAllocsPassBase<
          VulkanWorkgroupAllocsPass> {
  void runOnOperation() override {
    auto workgroup = spirv::StorageClassAttr::get(
        &getContext(), spirv::StorageClass::Workgroup);
    WalkResult result = getOperation().walk([&](gpu::GPUFuncOp kernel) {
      unsigned count = kernel.getNumWorkgroupAttributions();
      if (!count)
        return WalkResult::advance();
      Block &entry = kernel.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      unsigned first = kernel.getFirstWorkgroupAttributionIndex();
      for (BlockArgument arg : kernel.getWorkgroupAttributions()) {
        // The allocation is in the storage class itself (see Passes.td),
        // so its users must not carry the type further.
        for (Operation *user : arg.getUsers())
          if (!isa<memref::LoadOp, memref::StoreOp,
                   gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp>(
                  user)) {
            user->emitOpError("uses a workgroup buffer otherwise than by "
                              "loads and stores");
            return WalkResult::interrupt();
          }
        auto type = MemRefType::Builder(cast<MemRefType>(arg.getType()))
                        .setMemorySpace(workgroup);
        Value alloc = memref::AllocOp::create(b, arg.getLoc(), type);
        arg.replaceAllUsesWith(alloc);
      }
      entry.eraseArguments(first, count);
      kernel->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                      b.getI64IntegerAttr(0));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
