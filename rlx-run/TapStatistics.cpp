//===- TapStatistics.cpp - the range statistics of one tap ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TapStatistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::rlx;

void TapStatistics::layout(llvm::ArrayRef<int64_t> shape, int64_t &channels,
                           int64_t &inner) const {
  channels = 1;
  inner = 1;
  if (axis < 0)
    return;
  channels = shape[axis];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
}

bool TapStatistics::observeExtremes(llvm::ArrayRef<double> values,
                                    llvm::ArrayRef<int64_t> shape,
                                    std::string &error) {
  if (axis >= int64_t(shape.size())) {
    error = "its channel axis " + std::to_string(axis) + " exceeds its rank " +
            std::to_string(shape.size());
    return false;
  }
  int64_t channels, inner;
  layout(shape, channels, inner);
  if (lo.empty()) {
    lo.assign(channels, std::numeric_limits<double>::infinity());
    hi.assign(channels, -std::numeric_limits<double>::infinity());
  } else if (int64_t(lo.size()) != channels) {
    error = "it has " + std::to_string(channels) + " channels here but " +
            std::to_string(lo.size()) + " in the first batch";
    return false;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    double v = values[i];
    if (!std::isfinite(v)) {
      error = "it holds a NaN or infinite value";
      return false;
    }
    size_t c = (i / inner) % channels;
    lo[c] = std::min(lo[c], v);
    hi[c] = std::max(hi[c], v);
  }
  return true;
}

void TapStatistics::observeHistogram(llvm::ArrayRef<double> values,
                                     llvm::ArrayRef<int64_t> shape) {
  int64_t channels, inner;
  layout(shape, channels, inner);
  if (counts.empty()) {
    counts.assign(channels * kBins, 0);
    totals.assign(channels, 0);
  }
  for (size_t i = 0; i < values.size(); ++i) {
    size_t c = (i / inner) % channels;
    double w = binWidth(c);
    int64_t bin = w > 0 ? int64_t((values[i] - lo[c]) / w) : 0;
    ++counts[c * kBins + std::clamp<int64_t>(bin, 0, kBins - 1)];
    ++totals[c];
  }
}

double TapStatistics::orderStatistic(size_t channel, uint64_t rank) const {
  if (rank == 0)
    return lo[channel];
  if (rank + 1 >= totals[channel])
    return hi[channel];
  const uint64_t *bins = &counts[channel * kBins];
  uint64_t below = 0;
  for (int64_t k = 0; k < kBins; ++k) {
    if (rank < below + bins[k]) {
      double inBin = (double(rank - below) + 0.5) / double(bins[k]);
      return std::clamp(lo[channel] + binWidth(channel) * (k + inBin),
                        lo[channel], hi[channel]);
    }
    below += bins[k];
  }
  return hi[channel];
}

ChannelRanges TapStatistics::percentile(double q) const {
  ChannelRanges r;
  for (size_t c = 0; c < lo.size(); ++c) {
    double last = double(totals[c] - 1);
    auto at = [&](double rank) {
      double floor = std::floor(rank);
      double a = orderStatistic(c, uint64_t(floor));
      double b = orderStatistic(c, uint64_t(std::ceil(rank)));
      return a + (rank - floor) * (b - a);
    };
    r.min.push_back(at((1 - q / 100) * last));
    r.max.push_back(at(q / 100 * last));
  }
  return r;
}

namespace {
/// Prefix sums over one channel's bins of the counts, and of the counts
/// times the bin center and its square: the expected int8 error of a
/// clipping range in O(1).
class ErrorModel {
public:
  ErrorModel(const uint64_t *bins, int64_t numBins, double lo, double width)
      : numBins(numBins), lo(lo), width(width), n(numBins + 1),
        s1(numBins + 1), s2(numBins + 1) {
    for (int64_t k = 0; k < numBins; ++k) {
      double x = lo + (k + 0.5) * width, m = double(bins[k]);
      n[k + 1] = n[k] + m;
      s1[k + 1] = s1[k] + m * x;
      s2[k + 1] = s2[k] + m * x * x;
    }
  }

  /// Values in [a, b] cost step^2 / 12 (rounding), the others their
  /// squared distance to the nearer end (clipping).
  double error(double a, double b, double step) const {
    // Bins [0, below) have centers under a, bins [above, numBins) over b.
    int64_t below = firstBinAtOrOver(a, false);
    int64_t above = std::max(below, firstBinAtOrOver(b, true));
    double under = s2[below] - 2 * a * s1[below] + a * a * n[below];
    double over = (s2[numBins] - s2[above]) -
                  2 * b * (s1[numBins] - s1[above]) +
                  b * b * (n[numBins] - n[above]);
    return under + over + (n[above] - n[below]) * step * step / 12;
  }

private:
  /// The first bin whose center is >= x (strictly > x when `strict`).
  int64_t firstBinAtOrOver(double x, bool strict) const {
    double k = (x - lo) / width - 0.5;
    double first = strict ? std::floor(k) + 1 : std::ceil(k);
    return int64_t(std::clamp(first, 0.0, double(numBins)));
  }

  int64_t numBins;
  double lo, width;
  std::vector<double> n, s1, s2;
};
} // namespace

ChannelRanges TapStatistics::mse() const {
  ChannelRanges r;
  for (size_t c = 0; c < lo.size(); ++c) {
    double a0 = std::min(lo[c], 0.0), b0 = std::max(hi[c], 0.0);
    double t0 = std::max(-a0, b0);
    // A channel of one value keeps its min/max range (symmetric for a
    // weight).
    double bestA = isPerChannel() ? -t0 : a0, bestB = isPerChannel() ? t0 : b0;
    if (binWidth(c) > 0) {
      ErrorModel model(&counts[c * kBins], kBins, lo[c], binWidth(c));
      double best = std::numeric_limits<double>::infinity();
      auto consider = [&](double a, double b, double step) {
        double e = model.error(a, b, step);
        if (e < best) {
          best = e;
          bestA = a;
          bestB = b;
        }
      };
      if (isPerChannel()) {
        constexpr int kSteps = 2048;
        for (int k = 1; k <= kSteps; ++k) {
          double t = t0 * k / kSteps;
          consider(-t, t, t / 127);
        }
      } else {
        constexpr int kSteps = 256;
        for (int i = 0; i <= kSteps; ++i) {
          for (int j = 0; j <= kSteps; ++j) {
            double a = a0 * i / kSteps, b = b0 * j / kSteps;
            if (b > a)
              consider(a, b, (b - a) / 255);
          }
        }
      }
    }
    r.min.push_back(bestA);
    r.max.push_back(bestB);
  }
  return r;
}
