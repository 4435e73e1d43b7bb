//===- TapStatistics.h - the range statistics of one tap --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What `rlx-run --calibrate` learns about one quantization tap from the
// values it takes over all calibration batches, per channel along the tap's
// axis (a weight) or over the whole tensor (an activation, axis -1).
//
// The batches are seen twice. The first pass finds each channel's extremes
// (exact). The second fills a histogram of kBins equal bins between them;
// the other ranges are read from it:
//
// - percentile(q): per side, NumPy's `percentile` (linear interpolation
//   between the order statistics of ranks floor(r) and ceil(r), r =
//   q/100 (N - 1) for the max, (1 - q/100)(N - 1) for the min). Each order
//   statistic is placed inside the bin that holds it (the extremes
//   exactly), so each side is off by at most one bin width,
//   (max - min) / kBins.
// - mse(): the clipping range of least expected int8 error over the
//   histogram (each bin's values at its center): a value inside the range
//   costs the rounding error of a uniform grid, step^2 / 12, one outside
//   costs its squared distance to the range. Activations (asymmetric,
//   255 steps) search [lo i/256, hi j/256] for i, j in 0..256 with lo =
//   min(min, 0), hi = max(max, 0); weights (symmetric, 254 steps) search
//   [-t, t] for t = max|x| k/2048, k in 1..2048. Every candidate costs O(1)
//   from prefix sums of the bins' counts, sums and sums of squares.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUN_TAPSTATISTICS_H
#define RLX_RUN_TAPSTATISTICS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// A range per channel (one entry for a per-tensor tap).
struct ChannelRanges {
  std::vector<double> min, max;
};

class TapStatistics {
public:
  static constexpr int64_t kBins = 4096;

  /// `axis`: the channel axis of a weight, -1 for an activation.
  explicit TapStatistics(int64_t axis) : axis(axis) {}

  /// Pass 1: widens each channel's extremes to `values` (row-major, of
  /// `shape`). Fails on a non-finite value, an axis beyond the rank or a
  /// channel count other than the first batch's.
  bool observeExtremes(llvm::ArrayRef<double> values,
                       llvm::ArrayRef<int64_t> shape, std::string &error);
  /// Pass 2: counts `values` (the same as pass 1 saw) into the histograms.
  void observeHistogram(llvm::ArrayRef<double> values,
                        llvm::ArrayRef<int64_t> shape);

  int64_t getAxis() const { return axis; }
  bool isPerChannel() const { return axis >= 0; }
  ChannelRanges minMax() const { return {lo, hi}; }
  ChannelRanges percentile(double q) const;
  ChannelRanges mse() const;

private:
  /// Channel of each element: (index / inner) % channels.
  void layout(llvm::ArrayRef<int64_t> shape, int64_t &channels,
              int64_t &inner) const;
  double binWidth(size_t channel) const {
    return (hi[channel] - lo[channel]) / kBins;
  }
  /// The order statistic of 0-based rank `rank` of `channel`, placed
  /// linearly among the values of its bin.
  double orderStatistic(size_t channel, uint64_t rank) const;

  int64_t axis;
  std::vector<double> lo, hi;
  /// kBins counts per channel, and each channel's total.
  std::vector<uint64_t> counts, totals;
};

} // namespace rlx
} // namespace mlir

#endif // RLX_RUN_TAPSTATISTICS_H
