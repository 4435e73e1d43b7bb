//===- TapStatistics.cpp - the range statistics of one tap ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TapStatistics.h"

#include "llvm/ADT/STLExtras.h"

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
  // Percentiles and ranges need a value (per channel).
  if (values.empty()) {
    error = "it has no elements";
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

void TapStatistics::observeValues(llvm::ArrayRef<double> values,
                                  llvm::ArrayRef<int64_t> shape) {
  int64_t channels, inner;
  layout(shape, channels, inner);
  if (isPerChannel()) {
    channelValues.resize(channels);
    for (size_t i = 0; i < values.size(); ++i)
      channelValues[(i / inner) % channels].push_back(values[i]);
    for (std::vector<double> &v : channelValues)
      std::sort(v.begin(), v.end());
    return;
  }
  counts.resize(kBins);
  double w = binWidth();
  for (double v : values) {
    int64_t bin = w > 0 ? int64_t((v - lo[0]) / w) : 0;
    ++counts[std::clamp<int64_t>(bin, 0, kBins - 1)];
    zeros += v == 0;
  }
  total += values.size();
}

double TapStatistics::orderStatistic(uint64_t rank) const {
  if (rank == 0)
    return lo[0];
  if (rank + 1 >= total)
    return hi[0];
  uint64_t below = 0;
  for (int64_t k = 0; k < kBins; ++k) {
    if (rank < below + counts[k]) {
      double inBin = (double(rank - below) + 0.5) / double(counts[k]);
      return std::clamp(lo[0] + binWidth() * (k + inBin), lo[0], hi[0]);
    }
    below += counts[k];
  }
  return hi[0];
}

template <typename OrderStatistic>
double TapStatistics::interpolate(double q, uint64_t n, OrderStatistic at) {
  double rank = q / 100 * double(n - 1);
  double floor = std::floor(rank);
  double a = at(uint64_t(floor)), b = at(uint64_t(std::ceil(rank)));
  return a + (rank - floor) * (b - a);
}

ChannelRanges TapStatistics::percentile(double q) const {
  ChannelRanges r;
  if (!isPerChannel()) {
    auto at = [&](uint64_t rank) { return orderStatistic(rank); };
    r.min.push_back(interpolate(100 - q, total, at));
    r.max.push_back(interpolate(q, total, at));
    return r;
  }
  for (const std::vector<double> &v : channelValues) {
    auto at = [&](uint64_t rank) { return v[rank]; };
    r.min.push_back(interpolate(100 - q, v.size(), at));
    r.max.push_back(interpolate(q, v.size(), at));
  }
  return r;
}

/// The t of least expected error of [-t, t] (254 steps of t / 127) for
/// `values`: with the k largest |x| clipped and t between the k-th and
/// (k+1)-th largest, the cost (n - k) c t^2 + sum of (|x_i| - t)^2 over the
/// clipped, c = 1 / (12 * 127^2), is least at t = S_k / ((n - k) c + k),
/// S_k the sum of the clipped |x_i|, or at the interval's nearer end.
static double bestSymmetricRange(llvm::ArrayRef<double> values) {
  std::vector<double> a;
  for (double v : values)
    a.push_back(std::abs(v));
  std::sort(a.begin(), a.end(), std::greater<double>());
  const double c = 1.0 / (12 * 127 * 127);
  // Zeros (last) are exact, never clipped: they cost nothing.
  double n = a.size() - llvm::count(a, 0.0), sum = 0, sumSquares = 0;
  double best = std::numeric_limits<double>::infinity(), bestT = a[0];
  for (size_t k = 0; k <= a.size(); ++k) {
    double upper = a[k == 0 ? 0 : k - 1];
    double lower = k < a.size() ? a[k] : 0.0;
    double curvature = std::max(n - k, 0.0) * c + k;
    double t = std::clamp(sum / curvature, lower, upper);
    double cost = curvature * t * t - 2 * t * sum + sumSquares;
    if (cost < best) {
      best = cost;
      bestT = t;
    }
    if (k < a.size()) {
      sum += a[k];
      sumSquares += a[k] * a[k];
    }
  }
  return bestT;
}

namespace {
/// Prefix sums over a histogram's bins of the counts, and of the counts
/// times the bin center and its square: the expected int8 error of a
/// clipping range in O(1).
class ErrorModel {
public:
  ErrorModel(const uint64_t *bins, int64_t numBins, double lo, double width)
      : numBins(numBins), lo(lo), width(width), n(numBins + 1), s1(numBins + 1),
        s2(numBins + 1) {
    for (int64_t k = 0; k < numBins; ++k) {
      double x = lo + (k + 0.5) * width, m = double(bins[k]);
      n[k + 1] = n[k] + m;
      s1[k + 1] = s1[k] + m * x;
      s2[k + 1] = s2[k] + m * x * x;
    }
  }

  /// Values (at their bins' centers) inside [a, b] cost step^2 / 12
  /// (rounding), the others their squared distance to the nearer end
  /// (clipping).
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
  if (isPerChannel()) {
    for (const std::vector<double> &v : channelValues) {
      double t = bestSymmetricRange(v);
      r.min.push_back(-t);
      r.max.push_back(t);
    }
    return r;
  }
  double lo0 = std::min(lo[0], 0.0), hi0 = std::max(hi[0], 0.0);
  double bestA = lo0, bestB = hi0;
  // A tensor of one value keeps its min/max range.
  if (binWidth() > 0) {
    std::vector<uint64_t> nonzero = counts;
    nonzero[std::clamp<int64_t>(int64_t(-lo[0] / binWidth()), 0, kBins - 1)] -=
        zeros;
    ErrorModel model(nonzero.data(), kBins, lo[0], binWidth());
    double best = std::numeric_limits<double>::infinity();
    constexpr int kSteps = 256;
    for (int i = 0; i <= kSteps; ++i) {
      for (int j = 0; j <= kSteps; ++j) {
        double a = lo0 * i / kSteps, b = hi0 * j / kSteps;
        if (!(b > a))
          continue;
        double e = model.error(a, b, (b - a) / 255);
        if (e < best) {
          best = e;
          bestA = a;
          bestB = b;
        }
      }
    }
  }
  r.min.push_back(bestA);
  r.max.push_back(bestB);
  return r;
}
