//===- CPUApproximateMath.cpp - vectorizable f32 transcendentals ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUAPPROXIMATEMATHPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// A constant of `type`'s shape (a scalar, or a vector splat) holding
/// `element`, whose type is the element type.
static Value splat(ImplicitLocOpBuilder &b, Type type, TypedAttr element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, DenseElementsAttr::get(vector.clone(element.getType()), element));
  return arith::ConstantOp::create(b, element);
}

static Value splatF32(ImplicitLocOpBuilder &b, Type type, float value) {
  return splat(b, type, b.getF32FloatAttr(value));
}

/// select(x pred bound or unordered, x, bound) on f32 `x` of `type`: one
/// vmaxps / vminps on x86, and a NaN x stays NaN.
static Value clampKeepingNaN(ImplicitLocOpBuilder &b, Type type, Value x,
                             arith::CmpFPredicate pred, float bound) {
  Value c = splatF32(b, type, bound);
  return arith::SelectOp::create(b, arith::CmpFOp::create(b, pred, x, c), x,
                                 c);
}

/// The polynomial with `coefficients` (highest degree first) at `x`, in
/// Horner form: one FMA per coefficient after the first.
static Value horner(ImplicitLocOpBuilder &b, Type type, Value x,
                    std::initializer_list<float> coefficients) {
  Value acc;
  for (float c : coefficients) {
    Value term = splatF32(b, type, c);
    acc = acc ? math::FmaOp::create(b, acc, x, term).getResult() : term;
  }
  return acc;
}

namespace {
/// f32 exp(x) = 2^n e^r with n = round(x / ln 2) and r = x - n ln 2 (ln 2
/// in two parts, so r is exact to a few ulp), in 14 operations where
/// upstream's expansion takes 20; softmax spends most of its time in exp.
///  - n is rounded by adding 1.5 * 2^23 + 127: the low bits of the sum are
///    then n + 127, 2^n's exponent field, shifted into place by one integer
///    shift (upstream floors, clamps and converts n and adds the bias
///    apart).
///  - x is clamped below at -87.8 (NaN passes), so n >= -127 (2^-127's
///    field is 0: results below 2^-126 flush to 0, as upstream's), and n
///    above at 127. x needs no upper clamp: past the overflow threshold
///    (88.72) n stays 127 and e^r > 2, so the product is inf, as it is for
///    x = inf.
///  - e^r = 1 + r q(r), q of degree 5 in Horner form (6 FMAs; Cephes'
///    degree-7 polynomial, upstream's, takes 7). With n capped at 127, r
///    reaches 0.70 just below overflow, so q is fitted (minimax relative
///    error of 1 + r q(r) against exp in float64, by iteratively reweighted
///    least squares) on [-ln 2 / 2, 0.70]; e^0 is exactly 1.
///    Against float64 over [-87.3, 88.72] (14M points): at most 1.14e-7
///    relative (1.43 ulp), 0.36 ulp on average; Cephes' polynomial in the
///    same scheme: 3.06e-7 (5.1 ulp). Softmax 4096x4096 f32, alternating
///    in one process: 4.3-4.9 ms against 4.6-5.2.
struct ExpByExponentBits : OpRewritePattern<math::ExpOp> {
  ExpByExponentBits(MLIRContext *ctx)
      : OpRewritePattern<math::ExpOp>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto f = [&](float v) { return splatF32(b, type, v); };
    auto fma = [&](Value x, Value y, Value z) -> Value {
      return math::FmaOp::create(b, x, y, z);
    };
    const float shifter = 0x1.8p23f + 127.0f;
    Value x = clampKeepingNaN(b, type, op.getOperand(),
                              arith::CmpFPredicate::UGE, -87.8f);
    Value shift = f(shifter);
    Value log2e = f(1.44269504088896341f);
    Value t = fma(x, log2e, shift);
    t = clampKeepingNaN(b, type, t, arith::CmpFPredicate::ULE,
                        shifter + 127.0f);
    Value n = arith::SubFOp::create(b, t, f(shifter));
    auto vector = dyn_cast<VectorType>(type);
    Type intType = vector ? Type(vector.clone(b.getI32Type())) : b.getI32Type();
    Value mantissaBits = splat(b, type, b.getI32IntegerAttr(23));
    Value bits = arith::ShLIOp::create(
        b, arith::BitcastOp::create(b, intType, t), mantissaBits);
    Value scale = arith::BitcastOp::create(b, type, bits);
    Value r = fma(n, f(-0.693359375f), x);
    r = fma(n, f(2.12194440e-4f), r);
    // e^r = 1 + r q(r): q's coefficients from r^5 down, then 1.
    Value p = horner(b, type, r,
                     {0x1.acdb46p-10f, 0x1.1082f6p-7f, 0x1.54f138p-5f,
                      0x1.555862p-3f, 0x1.00004ep-1f, 0x1.fffffcp-1f, 1.0f});
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, p, scale);
    return success();
  }
};

/// f32 erf(x) = x P(x^2) / Q(x^2) on x clamped to [-4, 4] (erf(4) rounds
/// to 1 in f32), P and Q of degree 5, fitted for minimax relative error in
/// float64 (linearized rational least squares, reweighted): 15 operations
/// where upstream's expansion selects coefficients per interval (about
/// 37, GELU's cost on the CPU). Against float64 over [-6, 6] (550K
/// points): at most 5.3 ulp, 0.62 on average (upstream's: 4.5 and 0.51);
/// erf(+-0) = +-0, NaN passes, +-1 beyond the clamp.
struct ErfByRational : OpRewritePattern<math::ErfOp> {
  ErfByRational(MLIRContext *ctx)
      : OpRewritePattern<math::ErfOp>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value x = clampKeepingNaN(b, type, op.getOperand(),
                              arith::CmpFPredicate::UGE, -4.0f);
    x = clampKeepingNaN(b, type, x, arith::CmpFPredicate::ULE, 4.0f);
    Value t = arith::MulFOp::create(b, x, x);
    // Coefficients from t^5 down to t^0.
    Value p = horner(b, type, t,
                     {0x1.0aa694p-19f, 0x1.2a5f2ep-12f, 0x1.fcf578p-9f,
                      0x1.b30076p-5f, 0x1.8c5e7ap-3f, 0x1.20dd74p+0f});
    Value q = horner(b, type, t,
                     {0x1.39e38ep-15f, 0x1.36c448p-10f, 0x1.f24ac8p-7f,
                      0x1.d876a8p-4f, 0x1.027c08p-1f, 1.0f});
    rewriter.replaceOpWithNewOp<arith::DivFOp>(
        op, arith::MulFOp::create(b, x, p), q);
    return success();
  }
};

struct CPUApproximateMathPass
    : rlx::impl::CPUApproximateMathPassBase<CPUApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpByExponentBits, ErfByRational>(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ExpOp::getOperationName() ||
             name == math::LogOp::getOperationName() ||
             name == math::TanhOp::getOperationName() ||
             name == math::ErfOp::getOperationName();
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
