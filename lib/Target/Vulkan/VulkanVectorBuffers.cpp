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
// 4-word vectors, each access one of them with its lanes packed into or
// unpacked from the words by integer ops.
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
/// of 16-bit elements (the front's 16-byte accesses), which become 4-word
/// ones.
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

/// The element type of a buffer of `type` accessed in `lanes`-lane
/// vectors: `vector<lanes x T>`, or for 8 lanes of 16 bits 4 words
/// (SPIR-V vectors have at most 4 lanes).
static VectorType elementType(MemRefType type, int64_t lanes) {
  if (lanes == 8)
    return VectorType::get({4}, IntegerType::get(type.getContext(), 32));
  return VectorType::get({lanes}, type.getElementType());
}

/// The 8 16-bit lanes of `type` in the 4 words `words` (lane 2i in the low
/// half of word i, as in memory), gathered with vector.from_elements,
/// which canonicalization folds into the lanes' uses.
static Value unpackHalves(OpBuilder &b, Location loc, VectorType type,
                          Value words) {
  Type i16 = b.getI16Type();
  Value sixteen = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 16);
  SmallVector<Value> lanes;
  for (int64_t i = 0; i < 4; ++i) {
    Value word = vector::ExtractOp::create(b, loc, words, i);
    for (Value half :
         {word, Value(arith::ShRUIOp::create(b, loc, word, sixteen))})
      lanes.push_back(
          arith::BitcastOp::create(b, loc, type.getElementType(),
                                   arith::TruncIOp::create(b, loc, i16, half)));
  }
  return vector::FromElementsOp::create(b, loc, type, lanes);
}

/// The 4 words holding the 8 16-bit lanes of `value` (unpackHalves'
/// inverse).
static Value packHalves(OpBuilder &b, Location loc, Value value) {
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  Value sixteen = arith::ConstantIntOp::create(b, loc, i32, 16);
  auto lane = [&](int64_t i) -> Value {
    Value half = arith::BitcastOp::create(
        b, loc, i16, vector::ExtractOp::create(b, loc, value, i));
    return arith::ExtUIOp::create(b, loc, i32, half);
  };
  SmallVector<Value> words;
  for (int64_t i = 0; i < 4; ++i) {
    Value high = arith::ShLIOp::create(b, loc, lane(2 * i + 1), sixteen);
    Value low = lane(2 * i);
    words.push_back(arith::OrIOp::create(b, loc, low, high));
  }
  return vector::FromElementsOp::create(b, loc, VectorType::get({4}, i32),
                                        words);
}

/// Rewrites the vector accesses of `buffer`, now of `elementType(.., lanes)`
/// elements: each access is one element, unpacked into (packed from) the
/// 16-bit lanes where it holds words.
static void rewriteUses(Value buffer, int64_t lanes) {
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    auto indices = [&](ValueRange at) {
      SmallVector<Value> result(at);
      result.back() = arith::DivUIOp::create(
          b, loc, result.back(), arith::ConstantIndexOp::create(b, loc, lanes));
      return result;
    };
    if (auto load = dyn_cast<vector::LoadOp>(user)) {
      Value v =
          memref::LoadOp::create(b, loc, buffer, indices(load.getIndices()));
      if (lanes == 8)
        v = unpackHalves(b, loc, load.getVectorType(), v);
      load.replaceAllUsesWith(v);
      load.erase();
      continue;
    }
    auto store = cast<vector::StoreOp>(user);
    Value value = store.getValueToStore();
    if (lanes == 8)
      value = packHalves(b, loc, value);
    memref::StoreOp::create(b, loc, value, buffer, indices(store.getIndices()));
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
        shape.back() /= lanes;
        auto vectors = MemRefType::get(shape, elementType(memref, lanes),
                                       MemRefLayoutAttrInterface(),
                                       memref.getMemorySpace());
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
