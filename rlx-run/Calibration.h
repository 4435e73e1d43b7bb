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
// exposeQuantTaps and runCalibration are the steps of --calibrate around
// compiling the program; listCalibrationBatches and Calibrator the parts
// of runCalibration.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUN_CALIBRATION_H
#define RLX_RUN_CALIBRATION_H

#include "TapStatistics.h"

#include "RLX/Dialect/MIR/Transforms/QuantTaps.h"
#include "RLX/Runtime/Common/Npy.h"
#include "RLX/Tools/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// The quantization taps of a function, in the order it returns them:
/// their names and channel axes (rlx-expose-quant-taps' `rlx.quant_taps`,
/// `rlx.quant_tap_axes`).
struct ExposedTaps {
  std::vector<std::string> names;
  std::vector<int64_t> axes;
};

/// Makes `entry` return its quantization taps after its own results
/// (rlx-expose-quant-taps). Fails after reporting where it has none.
FailureOr<ExposedTaps>
exposeQuantTaps(ModuleOp module, func::FuncOp entry,
                llvm::function_ref<void(const Twine &)> error);

/// Runs `program`, whose last results are `taps`, on every batch of
/// `dataDir`, twice (the extremes, then the distributions:
/// TapStatistics.h), and writes the record of percentile `q` to
/// `recordPath`. `args` hold the params; the ordinary arguments are read
/// from each batch.
LogicalResult runCalibration(CPUProgram &program,
                             MutableArrayRef<HostTensor> args,
                             const ExposedTaps &taps, StringRef dataDir,
                             double q, StringRef recordPath,
                             llvm::function_ref<void(const Twine &)> error);

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
