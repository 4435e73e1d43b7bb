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

#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANBF16BUFFERSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// bf16, or a vector of bf16, as i16 (a vector of i16); null otherwise.
static Type wordsOf(Type type) {
  auto i16 = IntegerType::get(type.getContext(), 16);
  if (type.isBF16())
    return i16;
  if (auto vector = dyn_cast<VectorType>(type);
      vector && vector.getElementType().isBF16())
    return vector.clone(i16);
  return nullptr;
}

/// `type` with i16 elements if it is a memref of bf16 (or of vectors of
/// bf16: rlx-vulkan-vector-buffers' 8-byte loads), else null.
static MemRefType asWords(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  Type words = memref ? wordsOf(memref.getElementType()) : nullptr;
  if (!words)
    return nullptr;
  return MemRefType::Builder(memref).setElementType(words);
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
      Value word = arith::BitcastOp::create(
          b, store.getLoc(), wordsOf(store.getValueToStore().getType()),
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
  Value falseWord =
      arith::BitcastOp::create(b, loc, i16, select.getFalseValue());
  Value trueWord = arith::BitcastOp::create(b, loc, i16, select.getTrueValue());
  Value word = arith::SelectOp::create(b, loc, select.getCondition(), trueWord,
                                       falseWord);
  select.replaceAllUsesWith(
      arith::BitcastOp::create(b, loc, select.getType(), word).getResult());
  select.erase();
}

namespace {
/// bf16 values (loop-carried, selected, constant) as their 16-bit words.
struct BF16AsWords : TypeConverter {
  BF16AsWords() {
    addConversion([](Type type) { return type; });
    addConversion([](BFloat16Type type) {
      return IntegerType::get(type.getContext(), 16);
    });
    addConversion([](VectorType type) -> Type {
      Type words = wordsOf(type);
      return words ? words : type;
    });
  }
};

// bitcast(x) between bf16 and i16 -> the word x already is
struct BitcastAsWord : OpConversionPattern<arith::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = getTypeConverter()->convertType(op.getType());
    if (to != adaptor.getIn().getType())
      return rewriter.notifyMatchFailure(op, "not a bf16 <-> i16 bitcast");
    rewriter.replaceOp(op, adaptor.getIn());
    return success();
  }
};

// constant c : bf16 -> constant bits(c) : i16, and the same lane by lane
// for a vector of bf16
struct ConstantAsWord : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto lanes = dyn_cast<DenseElementsAttr>(op.getValue());
        lanes && lanes.getElementType().isBF16()) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, lanes.bitcast(rewriter.getI16Type()));
      return success();
    }
    auto value = dyn_cast<FloatAttr>(op.getValue());
    if (!value || !value.getType().isBF16())
      return rewriter.notifyMatchFailure(op, "not a bf16 constant");
    APInt bits = value.getValue().bitcastToAPInt();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getIntegerAttr(rewriter.getI16Type(), bits));
    return success();
  }
};

// select(c, a, b), extract(v, i), from_elements(x...) on bf16 (or vectors
// of it), and vector.bitcast from a vector of it (the cooperative matmul's
// bf16 pairs as 32-bit words) -> the same op on the words: only their
// types change.
struct OnWords : ConversionPattern {
  OnWords(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::SelectOp, vector::ExtractOp, vector::FromElementsOp,
             vector::BitCastOp>(op))
      return rewriter.notifyMatchFailure(op, "not an op that only moves words");
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// Whether `op` has no bf16 operand or result (or vector of bf16).
static bool isFreeOfBF16(Operation *op) {
  auto bf16 = [](Type type) { return bool(wordsOf(type)); };
  return llvm::none_of(op->getOperandTypes(), bf16) &&
         llvm::none_of(op->getResultTypes(), bf16);
}

struct VulkanBF16BuffersPass
    : public rlx::impl::VulkanBF16BuffersPassBase<VulkanBF16BuffersPass> {
  /// The bf16 values left in `kernel` once its buffers hold words (a
  /// running maximum carried through a loop) as words too: the SPIR-V
  /// conversion would take them for f32. Loops, selects, vector lanes,
  /// constants and the bitcasts that now cancel; anything else on bf16 is
  /// an error.
  LogicalResult valuesAsWords(gpu::GPUFuncOp kernel) {
    bool any = false;
    kernel.walk([&](Operation *op) { any |= !isFreeOfBF16(op); });
    if (!any)
      return success();
    BF16AsWords converter;
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal(isFreeOfBF16);
    RewritePatternSet patterns(&getContext());
    patterns.add<BitcastAsWord, ConstantAsWord, OnWords>(converter,
                                                         &getContext());
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    return applyPartialConversion(kernel, target, std::move(patterns));
  }

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
      return succeeded(valuesAsWords(kernel)) ? WalkResult::advance()
                                              : WalkResult::interrupt();
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
