//===- QuantInsert.cpp - quantize the taps of a calibration record --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Weights are quantized symmetrically per output channel, so that an int8
// product needs no weight zero point (rlx-quant-propagate's rewrite would
// otherwise need a row-sum correction per activation). Activations are
// quantized per tensor with a zero point: after a ReLU or GELU most of
// their range is positive, and a symmetric range would waste half the
// codes.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_QUANTINSERTPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct AffineParams {
  SmallVector<float> scales;
  SmallVector<int64_t> zeroPoints;
};
} // namespace

/// Symmetric int8 per channel: scale max(|lo|, |hi|) / 127, zero point 0.
/// A channel that is all zero gets scale 1 (any scale represents it).
static AffineParams symmetric(const TapRange &range) {
  AffineParams p;
  for (auto [lo, hi] : llvm::zip(range.min, range.max)) {
    double m = std::max(std::fabs(lo), std::fabs(hi));
    p.scales.push_back(m > 0 ? static_cast<float>(m / 127.0) : 1.0f);
    p.zeroPoints.push_back(0);
  }
  return p;
}

/// Affine int8 over [min(lo, 0), max(hi, 0)], so that 0 is exact.
static AffineParams affine(const TapRange &range) {
  AffineParams p;
  for (auto [l, h] : llvm::zip(range.min, range.max)) {
    double lo = std::min(l, 0.0), hi = std::max(h, 0.0);
    if (hi == lo) {
      p.scales.push_back(1.0f);
      p.zeroPoints.push_back(0);
      continue;
    }
    float scale = static_cast<float>((hi - lo) / 255.0);
    double zp = std::nearbyint(-128.0 - lo / scale);
    p.scales.push_back(scale);
    p.zeroPoints.push_back(static_cast<int64_t>(std::clamp(zp, -128.0, 127.0)));
  }
  return p;
}

namespace {
struct QuantInsertPass : rlx::impl::QuantInsertPassBase<QuantInsertPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (method != "minmax" && method != "percentile" && method != "mse") {
      emitError(UnknownLoc::get(&getContext()),
                "rlx-quant-insert: method must be minmax, percentile "
                "or mse, got '")
          << method << "'";
      return signalPassFailure();
    }
    if (record.empty()) {
      emitError(UnknownLoc::get(&getContext()),
                "rlx-quant-insert needs a calibration record "
                "(record=FILE)");
      return signalPassFailure();
    }
    std::string error;
    FailureOr<CalibrationRecord> calib = readCalibrationRecord(record, error);
    if (failed(calib)) {
      emitError(UnknownLoc::get(&getContext()), "rlx-quant-insert: ") << error;
      return signalPassFailure();
    }
    llvm::StringSet<> seen;
    bool ok = true;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      for (const QuantTap &tap : collectQuantTaps(fn)) {
        auto it = calib->taps.find(tap.name);
        if (it == calib->taps.end())
          continue;
        seen.insert(tap.name);
        if (failed(insert(tap, it->getValue())))
          ok = false;
      }
    }
    for (const auto &entry : calib->taps) {
      if (!seen.contains(entry.getKey())) {
        emitError(UnknownLoc::get(&getContext()), "calibration record '")
            << record << "' names tap \"" << entry.getKey()
            << "\", which no function of the module has";
        ok = false;
      }
    }
    if (!ok)
      signalPassFailure();
  }

  LogicalResult insert(const QuantTap &tap, const CalibrationEntry &entry) {
    const TapRange *range = &entry.minMax;
    if (method == "percentile")
      range = entry.percentile ? &*entry.percentile : nullptr;
    else if (method == "mse")
      range = entry.mse ? &*entry.mse : nullptr;
    if (!range)
      return tap.op->emitError("calibration record has no '")
             << method << "' range for tap \"" << tap.name << "\"";
    if (entry.axis != tap.axis) {
      auto axisStr = [](std::optional<int64_t> a) {
        return a ? std::to_string(*a) : std::string("none (per tensor)");
      };
      return tap.op->emitError("tap \"")
             << tap.name << "\" has channel axis " << axisStr(tap.axis)
             << " but the calibration record gives " << axisStr(entry.axis);
    }
    auto type = cast<RankedTensorType>(tap.value().getType());
    int64_t channels = tap.axis ? type.getDimSize(*tap.axis) : 1;
    if (static_cast<int64_t>(range->min.size()) != channels)
      return tap.op->emitError("tap \"")
             << tap.name << "\" has " << channels
             << " channel(s) but the calibration record gives "
             << range->min.size();
    AffineParams p = tap.axis ? symmetric(*range) : affine(*range);

    OpBuilder b(tap.op);
    Location loc = tap.op->getLoc();
    IntegerAttr axisAttr =
        tap.axis ? b.getI64IntegerAttr(*tap.axis) : IntegerAttr();
    auto q = QuantizeOp::create(b, loc, tap.value(),
                                b.getDenseF32ArrayAttr(p.scales),
                                b.getDenseI64ArrayAttr(p.zeroPoints), axisAttr);
    auto dq =
        DequantizeOp::create(b, loc, type, q, b.getDenseF32ArrayAttr(p.scales),
                             b.getDenseI64ArrayAttr(p.zeroPoints), axisAttr);
    tap.operand().set(dq);
    return success();
  }
};
} // namespace
