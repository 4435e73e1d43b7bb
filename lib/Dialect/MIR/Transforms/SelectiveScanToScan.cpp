//===- SelectiveScanToScan.cpp - rlx.selective_scan as an rlx.scan --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Mamba's recurrence written with rlx ops: an rlx.scan over the sequence
// axis carrying the state h [B, D, N]; each step is
//   h = exp(dt * A) * h + (dt * u) * B_t,   y_t = sum_n(h * C_t) + D * u_t.
// The conversion then lowers the scan and its body like any other rlx code;
// --rlx-expand-autodiff unrolls it and differentiates the steps.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {

struct SelectiveScanToScan : OpRewritePattern<SelectiveScanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SelectiveScanOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType u = op.getU().getType();
    RankedTensorType a = op.getA().getType();
    if (!u.hasStaticShape() || !a.hasStaticShape())
      return b.notifyMatchFailure(op, "needs static shapes");
    int64_t batch = u.getDimSize(0), channels = u.getDimSize(1),
            length = u.getDimSize(2), state = a.getDimSize(1);
    Type element = u.getElementType();
    auto type = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, element);
    };
    // Time-major views: [L, B, D] and [L, B, N].
    auto timeMajor = [&](Value v) {
      return TransposeOp::create(b, loc, v, ArrayRef<int64_t>{2, 0, 1})
          .getResult();
    };
    Value h0 = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type({batch, channels, state}),
                               b.getZeroAttr(element)));
    auto stateType = type({batch, channels, state});
    auto scan = ScanOp::create(
        b, loc, TypeRange{stateType, type({length, batch, channels})},
        ValueRange{h0},
        ValueRange{timeMajor(op.getU()), timeMajor(op.getDelta()),
                   timeMajor(op.getB()), timeMajor(op.getC())},
        /*length=*/nullptr, /*reverse=*/false);
    Block *body = b.createBlock(
        &scan.getBody(), {},
        {stateType, type({batch, channels}), type({batch, channels}),
         type({batch, state}), type({batch, state})},
        SmallVector<Location>(5, loc));
    b.setInsertionPointToStart(body);
    Value h = body->getArgument(0), ut = body->getArgument(1),
          dt = body->getArgument(2), bt = body->getArgument(3),
          ct = body->getArgument(4);
    if (op.getDeltaSoftplus()) {
      // softplus(x) = log(1 + exp(x))
      Value one = ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(type({}), b.getFloatAttr(element, 1.0)));
      dt = LogOp::create(b, loc,
                         AddOp::create(b, loc, one, ExpOp::create(b, loc, dt)));
    }
    auto column = [&](Value v) { // [B, X] -> [B, X, 1]
      auto t = cast<RankedTensorType>(v.getType());
      return ReshapeOp::create(
                 b, loc, type({t.getDimSize(0), t.getDimSize(1), 1}), v)
          .getResult();
    };
    auto row = [&](Value v) { // [B, X] -> [B, 1, X]
      auto t = cast<RankedTensorType>(v.getType());
      return ReshapeOp::create(
                 b, loc, type({t.getDimSize(0), 1, t.getDimSize(1)}), v)
          .getResult();
    };
    Value decay = ExpOp::create(b, loc,
                                MulOp::create(b, loc, column(dt), op.getA()));
    Value bRow = row(bt);
    Value dtU = MulOp::create(b, loc, dt, ut);
    Value input = MulOp::create(b, loc, column(dtU), bRow);
    Value next = AddOp::create(b, loc, MulOp::create(b, loc, decay, h), input);
    Value readout = ReduceOp::create(
        b, loc, ReduceKind::Sum,
        MulOp::create(b, loc, next, row(ct)), ArrayRef<int64_t>{2},
        /*keepdim=*/false);
    Value y = AddOp::create(b, loc, readout,
                            MulOp::create(b, loc, op.getD(), ut));
    YieldOp::create(b, loc, ValueRange{next, y});
    b.setInsertionPointAfter(scan);
    b.replaceOpWithNewOp<TransposeOp>(op, scan.getResult(1),
                                      ArrayRef<int64_t>{1, 2, 0});
    return success();
  }
};

} // namespace

void rlx::populateSelectiveScanToScanPatterns(RewritePatternSet &patterns) {
  patterns.add<SelectiveScanToScan>(patterns.getContext());
}
