//===- ConvToLinalg.cpp - rlx.conv and rlx.pool to linalg -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Convolution and pooling pad their input with tensor.pad, then run one
// linalg.generic whose input map carries strides, dilations and groups:
// input[n, (co / (Cout/G)) * (Cin/G) + ci, o * stride + k * dilation].
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

Value rlx::padSpatial(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> padding, Value value) {
  if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0);
  for (size_t i = 0; i * 2 < padding.size(); ++i) {
    low[i + 2] = padding[2 * i];
    high[i + 2] = padding[2 * i + 1];
  }
  auto padded = tensor::PadOp::inferResultType(type, low, high);
  return tensor::PadOp::create(b, loc, padded, input,
                               getAsIndexOpFoldResult(b.getContext(), low),
                               getAsIndexOpFoldResult(b.getContext(), high),
                               value);
}

/// The window of `op`, with defaults, as the verifier accepted it.
template <typename OpTy>
static ConvWindow windowOf(OpTy op, ArrayRef<int64_t> stridesFill) {
  FailureOr<ConvWindow> w = readConvWindow(
      std::nullopt, "", cast<RankedTensorType>(op.getInput().getType()),
      op.getStridesAttr(), op.getPaddingAttr(), nullptr, nullptr,
      stridesFill);
  assert(succeeded(w) && "verified window");
  return *w;
}

/// The gather form of a transposed convolution: output (oy, ox) reads input
/// (iy, ix) = ((oy + lo - ky d) / s, ...) when that divides exactly and is
/// in range, so each output element is one reduction over (ci, ky, kx).
Value rlx::buildConvTranspose2D(OpBuilder &builder, Location loc, Value x,
                                Value weight, RankedTensorType accType,
                                const ConvWindow &w, int64_t groups) {
  MLIRContext *ctx = builder.getContext();
  auto inType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(weight.getType());
  Type acc = accType.getElementType();
  int64_t inPerGroup = wType.getDimSize(0) / groups;
  int64_t outPerGroup = wType.getDimSize(1);
  // Loops: n, co, oy, ox, ci, ky, kx.
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  AffineMap wMap =
      AffineMap::get(7, 0,
                     {d(1).floorDiv(outPerGroup) * inPerGroup + d(4),
                      d(1) % outPerGroup, d(5), d(6)},
                     ctx);
  AffineMap outMap = AffineMap::get(7, 0, {d(0), d(1), d(2), d(3)}, ctx);
  Value init = createFilled(builder, loc, accType, {},
                            createScalarConstant(builder, loc, acc, 0));
  SmallVector<utils::IteratorType> iterators(7, utils::IteratorType::parallel);
  for (int64_t i = 4; i < 7; ++i)
    iterators[i] = utils::IteratorType::reduction;
  // The weight's map mixes loops, so an unread tensor of the reduction's
  // shape (ci, ky, kx) fixes those loops' trip counts.
  Value window = tensor::EmptyOp::create(
      builder, loc,
      ArrayRef<int64_t>{inPerGroup, wType.getDimSize(2), wType.getDimSize(3)},
      acc);
  AffineMap windowMap = AffineMap::get(7, 0, {d(4), d(5), d(6)}, ctx);
  return linalg::GenericOp::create(
             builder, loc, accType, ValueRange{window, weight}, init,
             ArrayRef<AffineMap>{windowMap, wMap, outMap}, iterators,
             [&](OpBuilder &b, Location l, ValueRange args) {
               auto idx = [&](int64_t i) {
                 return linalg::IndexOp::create(b, l, i).getResult();
               };
               auto cst = [&](int64_t v) {
                 return arith::ConstantIndexOp::create(b, l, v).getResult();
               };
               Value valid =
                   arith::ConstantOp::create(b, l, b.getBoolAttr(true));
               Value batch = idx(0);
               Value inChannelInGroup = idx(4);
               Value inPerGroupCst = cst(inPerGroup);
               Value outPerGroupCst = cst(outPerGroup);
               Value outChannel = idx(1);
               Value group =
                   arith::DivUIOp::create(b, l, outChannel, outPerGroupCst);
               Value groupBase =
                   arith::MulIOp::create(b, l, group, inPerGroupCst);
               Value inChannel =
                   arith::AddIOp::create(b, l, groupBase, inChannelInGroup);
               SmallVector<Value> coords = {batch, inChannel};
               for (int64_t s = 0; s < 2; ++s) {
                 // t = o + lo - k * dilation, read at t / stride.
                 Value dilation = cst(w.dilations[s]);
                 Value kernelPos = idx(5 + s);
                 Value kernelOffset =
                     arith::MulIOp::create(b, l, kernelPos, dilation);
                 Value padLow = cst(w.padding[2 * s]);
                 Value outPos = idx(2 + s);
                 Value padded = arith::AddIOp::create(b, l, outPos, padLow);
                 Value t = arith::SubIOp::create(b, l, padded, kernelOffset);
                 Value q = arith::DivSIOp::create(b, l, t, cst(w.strides[s]));
                 Value exact = arith::CmpIOp::create(
                     b, l, arith::CmpIPredicate::eq,
                     arith::MulIOp::create(b, l, q, cst(w.strides[s])), t);
                 Value inSize = cst(inType.getDimSize(2 + s));
                 Value belowEnd = arith::CmpIOp::create(
                     b, l, arith::CmpIPredicate::slt, q, inSize);
                 Value zero = cst(0);
                 Value atOrAfterStart = arith::CmpIOp::create(
                     b, l, arith::CmpIPredicate::sge, t, zero);
                 Value inRange =
                     arith::AndIOp::create(b, l, atOrAfterStart, belowEnd);
                 valid = arith::AndIOp::create(
                     b, l, valid, arith::AndIOp::create(b, l, exact, inRange));
                 coords.push_back(q);
               }
               // Invalid positions read element 0 and contribute nothing.
               for (int64_t s = 2; s < 4; ++s)
                 coords[s] =
                     arith::SelectOp::create(b, l, valid, coords[s], cst(0));
               Value xv = tensor::ExtractOp::create(b, l, x, coords);
               Value sum = multiplyAccumulate(b, l, args[2], xv, args[1]);
               linalg::YieldOp::create(
                   b, l,
                   arith::SelectOp::create(b, l, valid, sum, args[2])
                       .getResult());
             })
      .getResult(0);
}

namespace {

struct ConvPattern : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto wType = cast<RankedTensorType>(adaptor.getWeight().getType());
    if (!wType.hasStaticShape() || inType.isDynamicDim(1))
      return rewriter.notifyMatchFailure(op, "channels and kernel must be "
                                             "static");
    FailureOr<ConvWindow> w = readConvWindow(
        std::nullopt, "", inType, op.getStridesAttr(), op.getPaddingAttr(),
        op.getDilationsAttr(), nullptr, {});
    if (failed(w))
      return failure();
    int64_t spatial = inType.getRank() - 2;
    int64_t groups = op.getGroups();
    int64_t cout = wType.getDimSize(0), cinPerGroup = wType.getDimSize(1);
    int64_t coutPerGroup = cout / groups;
    Type element = inType.getElementType();
    Type acc = getAccumulatorType(element);
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), w->padding,
                             createScalarConstant(rewriter, loc, element, 0));
    // Loops: n, co, o_1..o_s, ci, k_1..k_s.
    int64_t numLoops = 3 + 2 * spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    int64_t ci = 2 + spatial;
    AffineExpr channel =
        groups == 1 ? d(ci)
                    : d(1).floorDiv(coutPerGroup) * cinPerGroup + d(ci);
    SmallVector<AffineExpr> inExprs = {d(0), channel}, wExprs = {d(1), d(ci)},
                            outExprs = {d(0), d(1)};
    for (int64_t i = 0; i < spatial; ++i) {
      inExprs.push_back(d(2 + i) * w->strides[i] +
                        d(ci + 1 + i) * w->dilations[i]);
      wExprs.push_back(d(ci + 1 + i));
      outExprs.push_back(d(2 + i));
    }
    auto resultType = op.getType();
    auto accType = resultType.clone(acc);
    SmallVector<Value> dyn;
    if (resultType.isDynamicDim(0))
      dyn.push_back(getDimSize(rewriter, loc, adaptor.getInput(), 0));
    if (llvm::any_of(resultType.getShape().drop_front(2),
                     ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "spatial dims must be static");
    Value init = createFilled(rewriter, loc, accType, dyn,
                              createScalarConstant(rewriter, loc, acc, 0));
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t i = ci; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;
    Value result = buildContraction(
        rewriter, loc, input, adaptor.getWeight(), init,
        {AffineMap::get(numLoops, 0, inExprs, ctx),
         AffineMap::get(numLoops, 0, wExprs, ctx),
         AffineMap::get(numLoops, 0, outExprs, ctx)},
        iterators);
    // Bias per output channel, then back to the element type.
    SmallVector<Value> inputs = {result};
    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(resultType.getRank())};
    if (Value bias = adaptor.getBias()) {
      inputs.push_back(bias);
      maps.push_back(AffineMap::get(resultType.getRank(), 0, d(1), ctx));
    }
    result = buildMappedGeneric(
        rewriter, loc, resultType, dyn, inputs, maps,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = args[0];
          if (args.size() > 1)
            v = arith::AddFOp::create(
                b, l, v, castScalar(b, l, args[1], acc, false, false));
          return castScalar(b, l, v, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Max pooling pads with -inf, average pooling with 0 and divides by the
/// window size (PyTorch's count_include_pad=True).
struct PoolPattern : OpConversionPattern<PoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = op.getType();
    if (llvm::any_of(resultType.getShape().drop_front(2),
                     ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "spatial dims must be static");
    ArrayRef<int64_t> kernel = op.getKernel();
    ConvWindow w = windowOf(op, kernel);
    bool isMax = op.getKind() == PoolKind::Max;
    Type element = resultType.getElementType();
    Type acc = getAccumulatorType(element);
    Value padValue = createScalarConstant(rewriter, loc, element,
                                          isMax ? -INFINITY : 0.0);
    Value input =
        padSpatial(rewriter, loc, adaptor.getInput(), w.padding, padValue);
    int64_t spatial = kernel.size();
    int64_t numLoops = 2 + 2 * spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> inExprs = {d(0), d(1)}, outExprs = {d(0), d(1)};
    for (int64_t i = 0; i < spatial; ++i) {
      inExprs.push_back(d(2 + i) * w.strides[i] + d(2 + spatial + i));
      outExprs.push_back(d(2 + i));
    }
    // A loop over the window needs a tensor of the window's shape to fix
    // its trip counts; it is never read.
    SmallVector<AffineExpr> windowExprs;
    for (int64_t i = 0; i < spatial; ++i)
      windowExprs.push_back(d(2 + spatial + i));
    Value window = tensor::EmptyOp::create(rewriter, loc, kernel, acc);
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < 2; ++i)
      if (resultType.isDynamicDim(i))
        dyn.push_back(getDimSize(rewriter, loc, adaptor.getInput(), i));
    auto accType = resultType.clone(acc);
    Value init = createFilled(
        rewriter, loc, accType, dyn,
        createScalarConstant(rewriter, loc, acc, isMax ? -INFINITY : 0.0));
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t i = 2 + spatial; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, accType, ValueRange{input, window}, init,
            ArrayRef<AffineMap>{AffineMap::get(numLoops, 0, inExprs, ctx),
                                AffineMap::get(numLoops, 0, windowExprs, ctx),
                                AffineMap::get(numLoops, 0, outExprs, ctx)},
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = castScalar(b, l, args[0], acc, false, false);
              Value v = isMax
                            ? arith::MaximumFOp::create(b, l, args[2], x)
                                  .getResult()
                            : arith::AddFOp::create(b, l, args[2], x)
                                  .getResult();
              linalg::YieldOp::create(b, l, v);
            })
            .getResult(0);
    int64_t count = 1;
    for (int64_t k : kernel)
      count *= k;
    result = buildElementwiseGeneric(
        rewriter, loc, resultType, result,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = args[0];
          if (!isMax)
            v = arith::DivFOp::create(
                b, l, v, createScalarConstant(b, l, acc, double(count)));
          return castScalar(b, l, v, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// rlx.conv_transpose2d: the gather form, then the bias.
struct ConvTranspose2DPattern : OpConversionPattern<ConvTranspose2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvTranspose2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getInput();
    auto inType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(adaptor.getWeight().getType());
    auto resultType = op.getType();
    if (!wType.hasStaticShape() || !resultType.hasStaticShape() ||
        !inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    FailureOr<ConvWindow> w = readConvWindow(
        std::nullopt, "", inType, op.getStridesAttr(), op.getPaddingAttr(),
        op.getDilationsAttr(), op.getOutputPaddingAttr(), {});
    if (failed(w))
      return failure();
    Type element = inType.getElementType();
    Type acc = getAccumulatorType(element);
    Value result =
        buildConvTranspose2D(rewriter, loc, x, adaptor.getWeight(),
                             resultType.clone(acc), *w, op.getGroups());
    SmallVector<Value> inputs = {result};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(4)};
    if (Value bias = adaptor.getBias()) {
      inputs.push_back(bias);
      maps.push_back(AffineMap::get(4, 0, getAffineDimExpr(1, ctx), ctx));
    }
    result = buildMappedGeneric(
        rewriter, loc, resultType, {}, inputs, maps,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = args[0];
          if (args.size() > 1)
            v = arith::AddFOp::create(
                b, l, v, castScalar(b, l, args[1], acc, false, false));
          return castScalar(b, l, v, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void rlx::populateConvToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<ConvPattern, ConvTranspose2DPattern, PoolPattern>(
      converter, patterns.getContext());
}
