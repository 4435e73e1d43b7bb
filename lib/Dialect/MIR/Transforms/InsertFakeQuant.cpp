//===- InsertFakeQuant.cpp - fake quantization at the taps (QAT) ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ranges are the tensors' own, recomputed on every call, rather than
// observed and stored: a training step then needs no state besides the
// weights, and the int8 program that follows training gets its ranges from
// calibration of the trained weights, as PTQ does.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_INSERTFAKEQUANTPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct InsertFakeQuantPass
    : rlx::impl::InsertFakeQuantPassBase<InsertFakeQuantPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (bits < 2 || bits > 16) {
      emitError(UnknownLoc::get(&getContext()),
                "rlx-insert-fake-quant: bits must be in [2, 16], got ")
          << static_cast<int64_t>(bits);
      return signalPassFailure();
    }
    if (!symbolizeSteKind(ste)) {
      emitError(UnknownLoc::get(&getContext()),
                "rlx-insert-fake-quant: ste must be identity, "
                "clipped_identity, tanh or hard_tanh, got '")
          << ste << "'";
      return signalPassFailure();
    }
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal())
        for (const QuantTap &tap : collectQuantTaps(fn))
          insert(tap);
  }

  /// x -> fake_quantize(x, stop_gradient(max(max|x|, tiny) / qmax), 0).
  void insert(const QuantTap &tap) {
    OpBuilder b(tap.op);
    Location loc = tap.op->getLoc();
    Value x = tap.value();
    auto type = cast<RankedTensorType>(x.getType());
    Type element = type.getElementType();
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!tap.axis || d != *tap.axis)
        axes.push_back(d);
    Value absMax = ReduceOp::create(
        b, loc, b.getStringAttr("max"), AbsOp::create(b, loc, x),
        b.getDenseI64ArrayAttr(axes), b.getBoolAttr(false));
    auto scalar = [&](double v) {
      return ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, element),
                                 b.getFloatAttr(element, v)));
    };
    // An all-zero tensor (or channel) would give scale 0; any positive
    // scale represents it exactly.
    Value range = MaxOp::create(b, loc, absMax, scalar(1e-12));
    double qmax = std::ldexp(1.0, bits - 1) - 1.0;
    Value scale = StopGradientOp::create(
        b, loc, DivOp::create(b, loc, range, scalar(qmax)));
    auto scaleType = cast<RankedTensorType>(scale.getType());
    Value zero = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(scaleType.clone(b.getI32Type()),
                               b.getI32IntegerAttr(0)));
    Value fq = FakeQuantizeOp::create(
        b, loc, x, scale, zero, b.getI64IntegerAttr(bits),
        tap.axis ? b.getI64IntegerAttr(*tap.axis) : IntegerAttr(),
        b.getStringAttr(ste));
    tap.operand().set(fq);
  }
};
} // namespace
