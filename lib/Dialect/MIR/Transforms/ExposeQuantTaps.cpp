//===- ExposeQuantTaps.cpp - return the quantization taps -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Calibration observes the taps by running the program with each tap's
// value as one more result, so the runtime needs no hook inside compiled
// code and every backend can calibrate.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_EXPOSEQUANTTAPSPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct ExposeQuantTapsPass
    : rlx::impl::ExposeQuantTapsPassBase<ExposeQuantTapsPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.isPublic())
        continue;
      SmallVector<QuantTap> taps = collectQuantTaps(fn);
      if (taps.empty())
        continue;
      // Taps inside a nested region (a scan body) have no value at the
      // function's return.
      SmallVector<Value> values;
      SmallVector<Attribute> names;
      SmallVector<int64_t> axes;
      for (const QuantTap &tap : taps) {
        if (tap.op->getParentOp() != fn.getOperation()) {
          tap.op->emitWarning("quantization tap \"")
              << tap.name << "\" lies in a nested region; not calibrated";
          continue;
        }
        values.push_back(tap.value());
        names.push_back(StringAttr::get(&getContext(), tap.name));
        axes.push_back(tap.axis.value_or(-1));
      }
      auto ret = cast<func::ReturnOp>(fn.getBody().back().getTerminator());
      ret->insertOperands(ret->getNumOperands(), values);
      fn.setType(FunctionType::get(&getContext(), fn.getArgumentTypes(),
                                   ret->getOperandTypes()));
      Builder b(&getContext());
      fn->setAttr("rlx.quant_taps", b.getArrayAttr(names));
      fn->setAttr("rlx.quant_tap_axes", b.getDenseI64ArrayAttr(axes));
    }
  }
};
} // namespace
