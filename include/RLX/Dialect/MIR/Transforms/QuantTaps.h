//===- QuantTaps.h - where quantization observes and rewrites ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A *tap* is a float operand of a quantizable op: both operands of
// `rlx.matmul`, the input and weight of `rlx.conv`. Calibration records the
// range of each tap, `rlx-quant-insert` puts quantize -> dequantize on it and
// `rlx-insert-fake-quant` puts `rlx.fake_quantize` on it, so all three must
// name the same operand the same way. A tap's name is
// `<function>/<op><k>/<operand>`: `<op>` is the op's name without the
// dialect (`matmul`, `conv`), `<k>` counts the ops of that name in the
// function in pre-order, and `<operand>` is `lhs`/`rhs` or `input`/`weight`.
// Names depend only on the function's quantizable ops, so they survive
// passes that leave those ops alone (fusion is not one: quantize first).
//
// A tap is a *weight* when its value is an `rlx.param` or `rlx.constant`
// (possibly through shape ops): weights are quantized per channel along
// their output-channel axis, activations per tensor.
//
// The calibration record is a JSON file:
//
//   {"format": "rlx-calibration", "version": 1, "batches": 16,
//    "taps": {"main/matmul0/lhs": {
//        "axis": null,                  // or the channel axis of a weight
//        "min": [-1.5], "max": [2.0],   // one per channel (one if axis null)
//        "percentile": {"min": [-1.2], "max": [1.9]},
//        "mse": {"min": [-1.3], "max": [1.8]}}}}
//
// `min`/`max` are the observed extremes over all batches; `percentile`
// (of the values, per side) and `mse` (the clipping range minimizing the
// int8 quantization error over the observed histogram) are the other
// methods a range can be chosen by. Only `min`/`max` are required.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_QUANTTAPS_H
#define RLX_DIALECT_MIR_TRANSFORMS_QUANTTAPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir {
namespace rlx {

/// Whether `v` is a weight: an `rlx.param` or `rlx.constant` seen through
/// ops that only move or convert its elements.
bool isWeight(Value v);

/// One quantizable operand.
struct QuantTap {
  std::string name;
  Operation *op;
  unsigned operandIndex;
  /// The channel axis for a weight (per-channel), none for an activation.
  std::optional<int64_t> axis;

  OpOperand &operand() const { return op->getOpOperand(operandIndex); }
  Value value() const { return op->getOperand(operandIndex); }
};

/// The taps of `fn` in pre-order, named as described above. Only float
/// operands of ranked tensor type are taps.
SmallVector<QuantTap> collectQuantTaps(func::FuncOp fn);

/// The range of one tap under one method: per channel (size of the axis)
/// or a single value.
struct TapRange {
  SmallVector<double> min, max;
};

/// One tap's entry of a calibration record.
struct CalibrationEntry {
  std::optional<int64_t> axis;
  TapRange minMax;
  std::optional<TapRange> percentile, mse;
};

/// A calibration record: entries by tap name.
struct CalibrationRecord {
  int64_t batches = 0;
  llvm::StringMap<CalibrationEntry> taps;
};

/// Reads the record at `path`. On failure, returns the reason (file, JSON
/// position or the key that is wrong).
FailureOr<CalibrationRecord> readCalibrationRecord(StringRef path,
                                                   std::string &error);

/// Writes `record` as JSON to `path`; returns false and sets `error` when
/// the file cannot be written.
bool writeCalibrationRecord(const CalibrationRecord &record, StringRef path,
                            std::string &error);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_TRANSFORMS_QUANTTAPS_H
