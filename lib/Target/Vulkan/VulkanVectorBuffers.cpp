//===- VulkanVectorBuffers.cpp - buffers of vectors -----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Passes.td. 32- and 16-bit elements: SPIR-V vectors have 2 to 4
// lanes (8 and 16 need the Vector16 capability), so a buffer of 16-bit
// elements the front accesses 16 bytes (8 lanes) at a time becomes one of
// 4-lane vectors, each access two of them.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANVECTORBUFFERSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// The lanes of every access of `buffer` if all are whole vectors of one
/// lane count that `type` can be retyped for, else 0: 2 or 4 lanes, or 8
/// of 16-bit elements (the front's 16-byte accesses), which become two
/// 4-lane ones.
static int64_t commonLanes(Value buffer, MemRefType type) {
  if (!type.hasStaticShape() || type.getRank() == 0 ||
      !type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat() ||
      (type.getElementTypeBitWidth() != 32 &&
       type.getElementTypeBitWidth() != 16) ||
      buffer.use_empty())
    return 0;
  bool halves = type.getElementTypeBitWidth() == 16;
  int64_t lanes = 0;
  for (Operation *user : buffer.getUsers()) {
    VectorType vector;
    if (auto load = dyn_cast<vector::LoadOp>(user))
      vector = load.getVectorType();
    else if (auto store = dyn_cast<vector::StoreOp>(user);
             store && store.getBase() == buffer)
      vector = store.getVectorType();
    else
      return 0;
    int64_t n = vector.getRank() == 1 ? vector.getNumElements() : 0;
    if ((n != 2 && n != 4 && !(halves && n == 8)) || (lanes && n != lanes))
      return 0;
    lanes = n;
  }
  return type.getShape().back() % lanes == 0 ? lanes : 0;
}

/// The lanes of the vectors a buffer accessed in `lanes`-lane vectors
/// holds: SPIR-V vectors have at most 4.
static int64_t elementLanes(int64_t lanes) {
  return std::min<int64_t>(lanes, 4);
}

/// Rewrites the vector accesses of `buffer`, now of `elementLanes(lanes)`
/// lane vectors: each access is one element, or two consecutive ones whose
/// lanes are gathered (stored) one by one, which canonicalization folds
/// into the lanes' uses (definitions).
static void rewriteUses(Value buffer, int64_t lanes) {
  int64_t width = elementLanes(lanes), parts = lanes / width;
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    auto partIndices = [&](ValueRange indices, int64_t part) {
      SmallVector<Value> result(indices);
      Value n = arith::ConstantIndexOp::create(b, loc, width);
      result.back() = arith::DivUIOp::create(b, loc, result.back(), n);
      if (part)
        result.back() =
            arith::AddIOp::create(b, loc, result.back(),
                                  arith::ConstantIndexOp::create(b, loc, part));
      return result;
    };
    if (auto load = dyn_cast<vector::LoadOp>(user)) {
      Value v;
      if (parts == 1) {
        v = memref::LoadOp::create(b, loc, buffer,
                                   partIndices(load.getIndices(), 0));
      } else {
        SmallVector<Value> elements;
        for (int64_t part = 0; part < parts; ++part) {
          Value piece = memref::LoadOp::create(
              b, loc, buffer, partIndices(load.getIndices(), part));
          for (int64_t lane = 0; lane < width; ++lane)
            elements.push_back(vector::ExtractOp::create(b, loc, piece, lane));
        }
        v = vector::FromElementsOp::create(b, loc, load.getVectorType(),
                                           elements);
      }
      load.replaceAllUsesWith(v);
      load.erase();
      continue;
    }
    auto store = cast<vector::StoreOp>(user);
    Value value = store.getValueToStore();
    auto pieceType =
        VectorType::get({width}, store.getVectorType().getElementType());
    for (int64_t part = 0; part < parts; ++part) {
      Value piece = value;
      if (parts > 1) {
        SmallVector<Value> elements;
        for (int64_t lane = 0; lane < width; ++lane)
          elements.push_back(
              vector::ExtractOp::create(b, loc, value, part * width + lane));
        piece = vector::FromElementsOp::create(b, loc, pieceType, elements);
      }
      memref::StoreOp::create(b, loc, piece, buffer,
                              partIndices(store.getIndices(), part));
    }
    store.erase();
  }
}

namespace {
struct VulkanVectorBuffersPass
    : public rlx::impl::VulkanVectorBuffersPassBase<VulkanVectorBuffersPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    // For each retyped kernel, the new type of each argument (or null).
    llvm::DenseMap<Operation *, SmallVector<Type>> retyped;
    top.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      SmallVector<Type> inputs(kernel.getArgumentTypes());
      SmallVector<Type> changed(inputs.size());
      bool any = false;
      for (auto [i, type] : llvm::enumerate(inputs)) {
        auto memref = dyn_cast<MemRefType>(type);
        BlockArgument arg = kernel.getArgument(i);
        int64_t lanes = memref ? commonLanes(arg, memref) : 0;
        if (!lanes)
          continue;
        SmallVector<int64_t> shape(memref.getShape());
        shape.back() /= elementLanes(lanes);
        auto vectors = MemRefType::get(
            shape,
            VectorType::get({elementLanes(lanes)}, memref.getElementType()),
            MemRefLayoutAttrInterface(), memref.getMemorySpace());
        arg.setType(vectors);
        rewriteUses(arg, lanes);
        inputs[i] = changed[i] = vectors;
        any = true;
      }
      if (!any)
        return;
      kernel.setType(FunctionType::get(&getContext(), inputs, {}));
      retyped[kernel] = std::move(changed);
    });
    if (retyped.empty())
      return;
    SymbolTableCollection symbols;
    top.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      auto it = kernel ? retyped.find(kernel) : retyped.end();
      if (it == retyped.end())
        return;
      OpBuilder b(launch);
      for (auto [operand, type] :
           llvm::zip(launch.getKernelOperandsMutable(), it->second))
        if (type)
          operand.set(UnrealizedConversionCastOp::create(
                          b, launch.getLoc(), type, operand.get())
                          .getResult(0));
    });
  }
};
} // namespace
