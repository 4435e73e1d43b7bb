//===- Calibration.h - rlx-run --calibrate ----------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The calibration data of `rlx-run --calibrate=RECORD.json
// --calibration-data=DIR`, and the record it writes.
//
// DIR holds one subdirectory per batch, taken in name order; each holds
// `arg0.npy`, `arg1.npy`, ... one per ordinary argument of the entry
// function (its rlx.params are bound as in a plain run: --param or random
// from --seed, the same for every batch), and no other `arg<i>.npy`.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUN_CALIBRATION_H
#define RLX_RUN_CALIBRATION_H

#include "TapStatistics.h"

#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"
#include "RLX/Runtime/Common/Npy.h"

#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// The input files of each batch of `dir` (see above), for a function of
/// `numInputs` ordinary arguments. On failure returns false and sets
/// `error`.
bool listCalibrationBatches(const std::string &dir, unsigned numInputs,
                            std::vector<std::vector<std::string>> &batches,
                            std::string &error);

/// The statistics of every tap of a function, by the names and axes that
/// rlx-expose-quant-taps gave them (`rlx.quant_taps`,
/// `rlx.quant_tap_axes`).
class Calibrator {
public:
  Calibrator(ArrayRef<std::string> names, ArrayRef<int64_t> axes);

  /// Observes tap `index`'s value in batch `batch`, in the first pass (the
  /// extremes) or the second (the histograms). A weight holds the same
  /// values in every batch, so only its first is counted. Fails with a
  /// message naming the tap on a value it cannot take.
  bool observe(unsigned pass, unsigned batch, unsigned index,
               const runtime::NpyArray &value, std::string &error);

  /// Whether tap `index` needs its value of batch `batch` at all.
  bool wants(unsigned batch, unsigned index) const {
    return batch == 0 || !taps[index].isPerChannel();
  }

  /// The record of `batches` batches, percentiles at `q`.
  CalibrationRecord record(double q, int64_t batches) const;

private:
  std::vector<std::string> names;
  std::vector<TapStatistics> taps;
  std::vector<double> scratch;
};

} // namespace rlx
} // namespace mlir

#endif // RLX_RUN_CALIBRATION_H
