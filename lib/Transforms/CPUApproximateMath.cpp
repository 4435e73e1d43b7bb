//===- CPUApproximateMath.cpp - vectorizable f32 transcendentals ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUAPPROXIMATEMATHPASS
#include "RLX/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {
/// f32 exp(x) = 2^n e^r with n = round(x / ln 2) and r = x - n ln 2 (ln 2
/// in two parts, so r is exact to a few ulp), e^r by Cephes' polynomial, as
/// upstream's expansion, in fewer operations: n is rounded by adding
/// 1.5 * 2^23 + 127 (the low bits of the sum are then n + 127, 2^n's
/// exponent field, shifted into place by one integer shift), where upstream
/// floors, clamps and converts n and adds the bias apart. Softmax spends
/// most of its time in exp. Same range handling: x is clamped to [-87.8,
/// 88.8] (NaN passes), n to at most 127, so large x overflow to inf, and
/// n = -127 gives 2^n = 0 (exp(-inf) = 0).
struct ExpByExponentBits : OpRewritePattern<math::ExpOp> {
  ExpByExponentBits(MLIRContext *ctx)
      : OpRewritePattern<math::ExpOp>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto shaped = dyn_cast<VectorType>(type);
    auto cst = [&](Type t, Attribute element) -> Value {
      if (!shaped)
        return arith::ConstantOp::create(b, cast<TypedAttr>(element));
      auto vt = shaped.clone(t);
      return arith::ConstantOp::create(b, DenseElementsAttr::get(vt, element));
    };
    Type f32 = b.getF32Type(), i32 = b.getI32Type();
    Type intType = shaped ? Type(shaped.clone(i32)) : i32;
    auto f = [&](float v) { return cst(f32, b.getF32FloatAttr(v)); };
    auto fma = [&](Value x, Value y, Value z) -> Value {
      return math::FmaOp::create(b, x, y, z);
    };
    // select(x >= bound or unordered, x, bound): one vmaxps on x86, and a
    // NaN x stays NaN.
    auto clamp = [&](Value x, arith::CmpFPredicate pred, float bound) {
      Value c = f(bound);
      return arith::SelectOp::create(b, arith::CmpFOp::create(b, pred, x, c),
                                     x, c)
          .getResult();
    };
    const float shifter = 0x1.8p23f + 127.0f;
    Value x = clamp(op.getOperand(), arith::CmpFPredicate::UGE, -87.8f);
    x = clamp(x, arith::CmpFPredicate::ULE, 88.8f);
    Value t = fma(x, f(1.44269504088896341f), f(shifter));
    t = clamp(t, arith::CmpFPredicate::ULE, shifter + 127.0f);
    Value n = arith::SubFOp::create(b, t, f(shifter));
    Value bits = arith::ShLIOp::create(
        b, arith::BitcastOp::create(b, intType, t),
        cst(i32, b.getI32IntegerAttr(23)));
    Value scale = arith::BitcastOp::create(b, type, bits);
    Value r = fma(n, f(-0.693359375f), x);
    r = fma(n, f(2.12194440e-4f), r);
    // 1 + r + r^2 P(r), Cephes' coefficients, in Horner form.
    Value p = f(1.9875691500e-4f);
    for (float c : {1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f,
                    1.6666665459e-1f, 5.0000001201e-1f, 1.0f, 1.0f})
      p = fma(p, r, f(c));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, p, scale);
    return success();
  }
};

struct CPUApproximateMathPass
    : rlx::impl::CPUApproximateMathPassBase<CPUApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpByExponentBits>(&getContext());
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
