//===- VulkanConstantArrays.cpp - constant arrays in private memory -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Passes.td. A SPIR-V module could hold the constant as an initialized
// Private variable instead, but MLIR's SPIR-V dialect has no module-level
// composite constant to initialize it with; the stores cost a few
// instructions per thread for the small tables this takes.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANCONSTANTARRAYSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// The elements of the constant global `global` if this pass builds it.
static DenseElementsAttr buildableValue(memref::GlobalOp global,
                                        int64_t maxElements) {
  if (!global || !global.getConstant())
    return nullptr;
  auto value = dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
  // Complex elements have no scalar arith.constant: such a table is left
  // to the SPIR-V conversion, which reports it.
  if (!value || value.getNumElements() > maxElements ||
      !isa<IntegerType, FloatType>(value.getElementType()) ||
      !global.getType().getLayout().isIdentity())
    return nullptr;
  return value;
}

namespace {
struct VulkanConstantArraysPass
    : public rlx::impl::VulkanConstantArraysPassBase<
          VulkanConstantArraysPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto function = spirv::StorageClassAttr::get(
        &getContext(), spirv::StorageClass::Function);
    SmallVector<memref::GetGlobalOp> reads;
    module.walk([&](memref::GetGlobalOp get) { reads.push_back(get); });
    for (memref::GetGlobalOp get : reads) {
      auto global = symbols.lookup<memref::GlobalOp>(get.getName());
      DenseElementsAttr value = buildableValue(global, maxElements);
      if (!value || !llvm::all_of(get->getUsers(), [](Operation *user) {
            return isa<memref::LoadOp>(user);
          }))
        continue;
      auto kernel = get->getParentOfType<gpu::GPUFuncOp>();
      if (!kernel)
        continue;
      OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
      Location loc = get.getLoc();
      MemRefType type = get.getType();
      auto alloca = memref::AllocaOp::create(
          b, loc, MemRefType::Builder(type).setMemorySpace(function));
      SmallVector<int64_t> strides = type.getStridesAndOffset().first;
      for (auto [linear, element] :
           llvm::enumerate(value.getValues<Attribute>())) {
        SmallVector<Value> indices;
        int64_t rest = static_cast<int64_t>(linear);
        for (int64_t stride : strides) {
          indices.push_back(
              arith::ConstantIndexOp::create(b, loc, rest / stride));
          rest %= stride;
        }
        Value scalar = arith::ConstantOp::create(b, loc, cast<TypedAttr>(element));
        memref::StoreOp::create(b, loc, scalar, alloca, indices);
      }
      get.replaceAllUsesWith(alloca.getResult());
      get.erase();
    }
    // The globals nothing reads any more.
    for (auto global :
         llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
      if (SymbolTable::symbolKnownUseEmpty(global, module))
        global.erase();
  }
};
} // namespace
