//===- VulkanBF16Buffers.cpp - bf16 buffers as 16-bit words ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Passes.td. The kernels' arguments change type, so the host's
// launches change with them: gpu.launch_func is verified against the
// kernel's signature. The cast on the host side (an
// unrealized_conversion_cast between two memrefs of the same layout)
// disappears when both become the same LLVM struct.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANBF16BUFFERSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// `type` with i16 elements if it is a memref of bf16, else null.
static MemRefType asWords(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.getElementType().isBF16())
    return nullptr;
  return MemRefType::Builder(memref).setElementType(
      IntegerType::get(type.getContext(), 16));
}

/// Rewrites the loads and stores of `buffer`, which now holds i16 words.
static LogicalResult rewriteUses(Value buffer) {
  for (OpOperand &use : llvm::make_early_inc_range(buffer.getUses())) {
    Operation *user = use.getOwner();
    OpBuilder b(user);
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      Value word = memref::LoadOp::create(b, load.getLoc(), buffer,
                                          load.getIndices());
      Value value = arith::BitcastOp::create(b, load.getLoc(),
                                             load.getType(), word);
      load.replaceAllUsesWith(value);
      load.erase();
    } else if (auto store = dyn_cast<memref::StoreOp>(user);
               store && store.getMemRef() == buffer) {
      Value word = arith::BitcastOp::create(b, store.getLoc(), b.getI16Type(),
                                            store.getValueToStore());
      memref::StoreOp::create(b, store.getLoc(), word, buffer,
                              store.getIndices());
      store.erase();
    } else {
      return user->emitOpError("uses a bf16 kernel buffer, which Vulkan "
                               "kernels read only by loads and stores");
    }
  }
  return success();
}

/// select(c, a, b) on bf16 -> bitcast(select(c, bitcast a, bitcast b)) on
/// i16: SPIR-V's type conversion takes bf16 scalars for f32 ones, which
/// the loaded words' bitcasts contradict; the i16 select's bitcasts cancel
/// against theirs.
static void selectWords(arith::SelectOp select) {
  OpBuilder b(select);
  Location loc = select.getLoc();
  Type i16 = b.getI16Type();
  Value word = arith::SelectOp::create(
      b, loc, select.getCondition(),
      arith::BitcastOp::create(b, loc, i16, select.getTrueValue()),
      arith::BitcastOp::create(b, loc, i16, select.getFalseValue()));
  select.replaceAllUsesWith(
      arith::BitcastOp::create(b, loc, select.getType(), word).getResult());
  select.erase();
}

namespace {
struct VulkanBF16BuffersPass
    : public rlx::impl::VulkanBF16BuffersPassBase<VulkanBF16BuffersPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    // The kernels whose signature changed, by symbol.
    llvm::DenseSet<Operation *> changed;
    WalkResult walk = top.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return WalkResult::advance();
      SmallVector<Type> inputs(kernel.getArgumentTypes());
      bool any = false;
      for (auto [i, type] : llvm::enumerate(inputs)) {
        MemRefType words = asWords(type);
        if (!words)
          continue;
        any = true;
        inputs[i] = words;
        BlockArgument arg = kernel.getArgument(i);
        arg.setType(words);
        if (failed(rewriteUses(arg)))
          return WalkResult::interrupt();
      }
      if (any) {
        kernel.setType(FunctionType::get(&getContext(), inputs, {}));
        changed.insert(kernel);
      }
      // The constant tables built in private memory
      // (rlx-vulkan-constant-arrays) hold words too.
      WalkResult tables = kernel.walk([](memref::AllocaOp alloca) {
        MemRefType words = asWords(alloca.getType());
        if (!words)
          return WalkResult::advance();
        alloca.getResult().setType(words);
        return failed(rewriteUses(alloca.getResult()))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (tables.wasInterrupted())
        return WalkResult::interrupt();
      kernel.walk([](arith::SelectOp select) {
        if (select.getType().isBF16())
          selectWords(select);
      });
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (changed.empty())
      return;
    SymbolTableCollection symbols;
    top.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel || !changed.contains(kernel))
        return;
      OpBuilder b(launch);
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        MemRefType words = asWords(operand.get().getType());
        if (!words)
          continue;
        operand.set(UnrealizedConversionCastOp::create(
                        b, launch.getLoc(), words, operand.get())
                        .getResult(0));
      }
    });
  }
};
} // namespace
