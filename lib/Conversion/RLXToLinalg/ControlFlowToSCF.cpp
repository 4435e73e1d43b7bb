//===- ControlFlowToSCF.cpp - rlx region ops to scf -----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.if -> scf.if, rlx.while -> scf.while (with a trip counter when
// max_iterations bounds it), rlx.scan -> scf.for over the leading axis with
// the stacked outputs as loop-carried tensors, rlx.custom_fn -> its inlined
// fwd region. The region bodies move into the scf ops unchanged; the
// conversion then lowers the rlx ops inside them.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// Moves the single block of `region` to the end of `dest` with its
/// arguments replaced by `args`, and returns the moved rlx.yield.
static YieldOp inlineRegion(ConversionPatternRewriter &rewriter,
                            Region &region, Block *dest, ValueRange args) {
  Block &source = region.front();
  auto yield = cast<YieldOp>(source.getTerminator());
  rewriter.mergeBlocks(&source, dest, args);
  return yield;
}

static Value extractScalar(OpBuilder &b, Location loc, Value tensor) {
  return tensor::ExtractOp::create(b, loc, tensor, ValueRange{});
}

/// A slice of `t` at index `at` of its leading dim, without that dim.
static Value sliceLeading(OpBuilder &b, Location loc, Value t, Value at) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
      sizes, strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = at;
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t i = 1; i < type.getRank(); ++i)
    sizes.push_back(getAsOpFoldResult(getDimSize(b, loc, t, i)));
  auto sliceType = RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliceType, t, offsets, sizes,
                                        strides);
}

/// `slice` written into `t` at index `at` of its leading dim.
static Value insertLeading(OpBuilder &b, Location loc, Value slice, Value t,
                           Value at) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
      sizes, strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = at;
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t i = 1; i < type.getRank(); ++i)
    sizes.push_back(getAsOpFoldResult(getDimSize(b, loc, t, i)));
  return tensor::InsertSliceOp::create(b, loc, slice, t, offsets, sizes,
                                       strides);
}

namespace {

struct IfPattern : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    Value cond = extractScalar(rewriter, loc, adaptor.getCondition());
    auto ifOp = scf::IfOp::create(rewriter, loc, types, cond,
                                  /*withElseRegion=*/true);
    for (auto [from, to] : {std::pair<Region *, Region *>{
                                &op.getThenRegion(), &ifOp.getThenRegion()},
                            {&op.getElseRegion(), &ifOp.getElseRegion()}}) {
      Block *dest = &to->front();
      // Without results the builder ends the block in an empty scf.yield;
      // the region's own yield replaces it.
      if (!dest->empty() && isa<scf::YieldOp>(dest->back()))
        rewriter.eraseOp(&dest->back());
      YieldOp yield = inlineRegion(rewriter, *from, dest, {});
      rewriter.setInsertionPoint(yield);
      rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yield.getOperands());
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// rlx.while -> scf.while; with max_iterations, a trip counter is carried
/// too and the loop also stops when it reaches the bound.
struct WhilePattern : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<uint64_t> bound = op.getMaxIterations();
    SmallVector<Value> inits(adaptor.getInits());
    if (bound)
      inits.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
    SmallVector<Type> types;
    for (Value v : inits)
      types.push_back(v.getType());
    auto whileOp = scf::WhileOp::create(rewriter, loc, types, inits, nullptr,
                                        nullptr);
    // The builder gives both regions a block taking the carried values.
    Block *before = &whileOp.getBefore().front();
    Block *after = &whileOp.getAfter().front();
    size_t numCarried = op.getInits().size();

    YieldOp condYield = inlineRegion(
        rewriter, op.getCond(), before,
        before->getArguments().take_front(numCarried));
    rewriter.setInsertionPoint(condYield);
    Value cond = extractScalar(rewriter, loc, condYield.getOperand(0));
    if (bound) {
      Value below = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, before->getArguments().back(),
          arith::ConstantIndexOp::create(rewriter, loc, *bound));
      cond = arith::AndIOp::create(rewriter, loc, cond, below);
    }
    rewriter.replaceOpWithNewOp<scf::ConditionOp>(condYield, cond,
                                                  before->getArguments());

    YieldOp bodyYield = inlineRegion(
        rewriter, op.getBody(), after,
        after->getArguments().take_front(numCarried));
    rewriter.setInsertionPoint(bodyYield);
    SmallVector<Value> next(bodyYield.getOperands());
    if (bound)
      next.push_back(arith::AddIOp::create(
          rewriter, loc, after->getArguments().back(),
          arith::ConstantIndexOp::create(rewriter, loc, 1)));
    rewriter.replaceOpWithNewOp<scf::YieldOp>(bodyYield, next);
    rewriter.replaceOp(op, whileOp.getResults().take_front(numCarried));
    return success();
  }
};

/// rlx.scan -> scf.for over t, carrying the state and the stacked outputs.
struct ScanPattern : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange xs = adaptor.getXs();
    Value length =
        xs.empty()
            ? arith::ConstantIndexOp::create(
                  rewriter, loc, static_cast<int64_t>(*op.getLength()))
                  .getResult()
            : getDimSize(rewriter, loc, xs.front(), 0);
    size_t numCarry = op.getInits().size();
    SmallVector<Value> iterInits(adaptor.getInits());
    for (Type t : TypeRange(op.getResultTypes()).drop_front(numCarry)) {
      auto type = cast<RankedTensorType>(getTypeConverter()->convertType(t));
      SmallVector<Value> dyn;
      for (int64_t i = 0; i < type.getRank(); ++i) {
        if (!type.isDynamicDim(i))
          continue;
        if (i == 0) {
          dyn.push_back(length);
          continue;
        }
        return rewriter.notifyMatchFailure(
            op, "stacked outputs need static dims past the leading one");
      }
      iterInits.push_back(tensor::EmptyOp::create(
          rewriter, loc, type.getShape(), type.getElementType(), dyn));
    }
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto forOp = scf::ForOp::create(rewriter, loc, zero, length, one,
                                    iterInits);
    Block *body = forOp.getBody();
    rewriter.setInsertionPointToStart(body);
    // Step t reads index t, or length - 1 - t when reversed.
    Value t = forOp.getInductionVar();
    if (op.getReverse())
      t = arith::SubIOp::create(rewriter, loc,
                                arith::SubIOp::create(rewriter, loc, length,
                                                      one),
                                t);
    SmallVector<Value> args(forOp.getRegionIterArgs().take_front(numCarry));
    for (Value x : xs)
      args.push_back(sliceLeading(rewriter, loc, x, t));
    // The builder's default terminator goes; the body's yield replaces it.
    if (!body->empty() && isa<scf::YieldOp>(body->back()))
      rewriter.eraseOp(&body->back());
    YieldOp yield = inlineRegion(rewriter, op.getBody(), body, args);
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> next(yield.getOperands().take_front(numCarry));
    for (auto [y, stacked] :
         llvm::zip(yield.getOperands().drop_front(numCarry),
                   forOp.getRegionIterArgs().drop_front(numCarry)))
      next.push_back(insertLeading(rewriter, loc, y, stacked, t));
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, next);
    rewriter.replaceOp(op, forOp.getResults());
    return success();
  }
};

/// rlx.custom_fn computes its fwd region; vjp/jvp only matter to autodiff.
struct CustomFnPattern : OpConversionPattern<CustomFnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CustomFnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block *block = op->getBlock();
    Block *rest = rewriter.splitBlock(block, op->getIterator());
    YieldOp yield =
        inlineRegion(rewriter, op.getFwd(), block, adaptor.getInputs());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.mergeBlocks(rest, block, {});
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void rlx::populateControlFlowToSCFPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<IfPattern, WhilePattern, ScanPattern, CustomFnPattern>(
      converter, patterns.getContext());
}
