//===- QuantPropagate.cpp - int8 products from dequantized operands -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With a = sa (qa - za) and b = sb (qb - zb), a product sums
//   sa sb (qa qb - za qb - zb qa + za zb)
// over K, so the matmul of the dequantized operands is the exact int8
// product rlx.int8_matmul(qa, qb) corrected by the zero points' terms
// (column sums of qb, row sums of qa, K za zb; all exact in i32) and scaled
// once at the end. Per-channel scales factor out when they run along the
// output's rows (M, for qa) or columns (N, for qb); zero points must then
// be zero, which is what rlx-quant-insert gives weights.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_QUANTPROPAGATEPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

static bool sameParams(DequantizeOp dq, QuantizeOp q) {
  return dq.getScales() == q.getScales() &&
         dq.getZeroPoints() == q.getZeroPoints() && dq.getAxis() == q.getAxis();
}

namespace {

/// quantize(dequantize(q)) with the same parameters is q.
struct FoldQuantizeOfDequantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto dq = op.getInput().getDefiningOp<DequantizeOp>();
    if (!dq || !sameParams(dq, op))
      return failure();
    rewriter.replaceOp(op, dq.getInput());
    return success();
  }
};

/// reshape / transpose / expand of a per-tensor dequantize moves the int8
/// values instead: the result is the same and a quarter of the bytes move.
template <typename ShapeOp>
struct DequantizeAfterShapeOp : OpRewritePattern<ShapeOp> {
  using OpRewritePattern<ShapeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto dq = op.getInput().template getDefiningOp<DequantizeOp>();
    if (!dq || dq.getAxis())
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    IRMapping map;
    map.map(op.getInput(), dq.getInput());
    Operation *moved = rewriter.clone(*op, map);
    moved->getResult(0).setType(type.clone(rewriter.getI8Type()));
    rewriter.replaceOpWithNewOp<DequantizeOp>(
        op, type, moved->getResult(0), dq.getScalesAttr(),
        dq.getZeroPointsAttr(), dq.getAxisAttr());
    return success();
  }
};

/// What one operand of a matmul contributes: the int8 values, a scale per
/// output row or column (or one), and a zero point.
struct Quantized {
  Value q;
  SmallVector<float> scales;
  int64_t zeroPoint = 0;
  bool perChannel = false;
};

/// The quantized form of a matmul operand, if it is a dequantize whose
/// channel axis (if any) is `outputAxis` and, per channel, whose zero
/// points are zero.
static std::optional<Quantized> matchOperand(Value v, int64_t outputAxis) {
  auto dq = v.getDefiningOp<DequantizeOp>();
  if (!dq)
    return std::nullopt;
  Quantized r;
  r.q = dq.getInput();
  r.scales.assign(dq.getScales().begin(), dq.getScales().end());
  if (std::optional<uint64_t> axis = dq.getAxis()) {
    if (static_cast<int64_t>(*axis) != outputAxis ||
        llvm::any_of(dq.getZeroPoints(), [](int64_t z) { return z != 0; }))
      return std::nullopt;
    r.perChannel = true;
  } else {
    r.zeroPoint = dq.getZeroPoints().front();
  }
  return r;
}

struct MatmulOfDequantized : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto lt = op.getLhs().getType(), rt = op.getRhs().getType();
    auto resultType = op.getType();
    bool ta = op.getTransposeA(), tb = op.getTransposeB();
    int64_t ra = lt.getRank(), rb = rt.getRank();
    std::optional<Quantized> a =
        matchOperand(op.getLhs(), ta ? ra - 1 : ra - 2);
    std::optional<Quantized> b =
        matchOperand(op.getRhs(), tb ? rb - 2 : rb - 1);
    if (!a || !b)
      return rewriter.notifyMatchFailure(
          op, "an operand is not a dequantize with scales along M or N");

    Location loc = op.getLoc();
    int64_t rank = resultType.getRank();
    int64_t m = resultType.getDimSize(rank - 2);
    int64_t n = resultType.getDimSize(rank - 1);
    int64_t k = lt.getDimSize(ta ? ra - 2 : ra - 1);
    // Dynamic dims are fine but where a constant needs their size: the
    // per-channel scales (M, N) and K za zb.
    if ((a->perChannel && ShapedType::isDynamic(m)) ||
        (b->perChannel && ShapedType::isDynamic(n)) ||
        (a->zeroPoint && b->zeroPoint && ShapedType::isDynamic(k)))
      return rewriter.notifyMatchFailure(
          op, "a per-channel scale or K za zb needs a dynamic size");
    Type i32 = rewriter.getI32Type();
    auto i32Scalar = [&](int64_t v) {
      return ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, i32),
                                 rewriter.getI32IntegerAttr(v)));
    };

    Value acc = Int8MatmulOp::create(rewriter, loc, a->q, b->q, ta, tb);
    // Sums of one operand over K, shaped to broadcast against [..., M, N]:
    // [..., 1, N] for qb's columns, [..., M, 1] for qa's rows.
    auto sumOverK = [&](Value q, int64_t kAxis, bool kIsLast,
                        bool forColumns) -> Value {
      auto type = cast<RankedTensorType>(q.getType());
      Value wide = CastOp::create(rewriter, loc, type.clone(i32), q);
      Value sum = ReduceOp::create(rewriter, loc, rewriter.getStringAttr("sum"),
                                   wide, rewriter.getDenseI64ArrayAttr({kAxis}),
                                   rewriter.getBoolAttr(true));
      bool needsSwap = forColumns ? kIsLast : !kIsLast;
      if (!needsSwap)
        return sum;
      // A size-1 dim next to the other: moving it is a reshape.
      auto st = cast<RankedTensorType>(sum.getType());
      SmallVector<int64_t> shape(st.getShape());
      std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
      return ReshapeOp::create(rewriter, loc, st.clone(shape), sum);
    };
    if (a->zeroPoint != 0) {
      // qb's K axis: rank-2 for [K, N], rank-1 for [N, K].
      Value cols = sumOverK(b->q, tb ? rb - 1 : rb - 2, tb, true);
      Value term = MulOp::create(rewriter, loc, cols, i32Scalar(a->zeroPoint));
      acc = SubOp::create(rewriter, loc, acc, term);
    }
    if (b->zeroPoint != 0) {
      Value rows = sumOverK(a->q, ta ? ra - 2 : ra - 1, !ta, false);
      Value term = MulOp::create(rewriter, loc, rows, i32Scalar(b->zeroPoint));
      acc = SubOp::create(rewriter, loc, acc, term);
    }
    if (a->zeroPoint != 0 && b->zeroPoint != 0)
      acc = AddOp::create(rewriter, loc, acc,
                          i32Scalar(k * a->zeroPoint * b->zeroPoint));

    // The combined scale: sa[m] * sb[n] as [M, N], [M, 1], [N] or [].
    Type element = resultType.getElementType();
    SmallVector<int64_t> scaleShape;
    if (a->perChannel)
      scaleShape = {m, b->perChannel ? n : 1};
    else if (b->perChannel)
      scaleShape = {n};
    int64_t rows = a->perChannel ? m : 1, cols = b->perChannel ? n : 1;
    SmallVector<Attribute> scale;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        scale.push_back(rewriter.getFloatAttr(
            element, double(a->scales[a->perChannel ? i : 0]) *
                         double(b->scales[b->perChannel ? j : 0])));
    Value scaleValue = ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(RankedTensorType::get(scaleShape, element),
                               scale));
    Value real = CastOp::create(rewriter, loc, resultType, acc);
    rewriter.replaceOpWithNewOp<MulOp>(op, real, scaleValue);
    return success();
  }
};

struct QuantPropagatePass
    : rlx::impl::QuantPropagatePassBase<QuantPropagatePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateQuantPropagatePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::rlx::populateQuantPropagatePatterns(RewritePatternSet &patterns) {
  patterns.add<FoldQuantizeOfDequantize, DequantizeAfterShapeOp<ReshapeOp>,
               DequantizeAfterShapeOp<TransposeOp>,
               DequantizeAfterShapeOp<ExpandOp>, MatmulOfDequantized>(
      patterns.getContext());
}
