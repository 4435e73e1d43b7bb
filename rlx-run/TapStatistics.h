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
// The batches are seen twice. The first pass finds the extremes (exact).
// The second keeps a weight's values (a weight is the same in every batch
// and is seen in one) and counts an activation's into a histogram of kBins
// equal bins between its extremes. The other ranges:
//
// - percentile(q): per side, NumPy's `percentile` (linear interpolation
//   between the order statistics of ranks floor(r) and ceil(r), r =
//   q/100 (N - 1) for the max, (1 - q/100)(N - 1) for the min). Exact for
//   a weight. For an activation each order statistic is placed inside the
//   bin that holds it (the extremes exactly), so each side is off by at
//   most one bin width, (max - min) / kBins.
// - mse(): the clipping range of least expected int8 error: a value inside
//   the range costs the rounding error of a uniform grid, step^2 / 12, one
//   at or beyond an end its squared distance to it (an end is exact), and
//   0 nothing (every range holds 0, and int8 holds it exactly).
//   A weight's range is symmetric, [-t, t] with 254 steps, and exact: with
//   the k largest |x| clipped, the cost is a convex quadratic in t between
//   the k-th and (k+1)-th largest |x|, whose minimum is in closed form;
//   the range is the best over k.
//   An activation's range is affine, [a, b] with 255 steps and a <= 0 <=
//   b, searched over a = lo i/256, b = hi j/256 for i, j in 0..256 (lo =
//   min(min, 0), hi = max(max, 0)) with the histogram's values (but the
//   zeros, counted apart) at their bins' centers; each candidate costs
//   O(1) from prefix sums of the bins' counts, sums and sums of squares.
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
  /// Pass 2: keeps (a weight) or counts (an activation) `values`, the same
  /// that pass 1 saw.
  void observeValues(llvm::ArrayRef<double> values,
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
  double binWidth() const { return (hi[0] - lo[0]) / kBins; }
  /// The activation's order statistic of 0-based rank `rank`, placed
  /// linearly among the values of its bin.
  double orderStatistic(uint64_t rank) const;
  /// NumPy's percentile `q` of N values from their order statistics.
  template <typename OrderStatistic>
  static double interpolate(double q, uint64_t n, OrderStatistic at);

  int64_t axis;
  std::vector<double> lo, hi;
  /// An activation's histogram, its number of values and of zeros.
  std::vector<uint64_t> counts;
  uint64_t total = 0, zeros = 0;
  /// A weight's values per channel, sorted.
  std::vector<std::vector<double>> channelValues;
};

} // namespace rlx
} // namespace mlir

#endif // RLX_RUN_TAPSTATISTICS_H
