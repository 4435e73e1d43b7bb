//===- ArenaPlanner.cpp - offset assignment in one arena ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both planners place buffers one at a time in decreasing size and differ
// only in which free gap they take: the first that fits (greedy) or the
// smallest that fits (best-fit). They are quadratic in the number of
// buffers, which is a few thousand for a 12-layer model.
//
//===----------------------------------------------------------------------===//

#include "ArenaPlanner.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace mlir::rlx::lir;

std::optional<PlannerKind>
mlir::rlx::lir::parsePlannerKind(const std::string &name) {
  if (name == "greedy")
    return PlannerKind::Greedy;
  if (name == "best-fit")
    return PlannerKind::BestFit;
  if (name == "auto")
    return PlannerKind::Auto;
  return std::nullopt;
}

const char *mlir::rlx::lir::getPlannerName(PlannerKind kind) {
  switch (kind) {
  case PlannerKind::Greedy:
    return "greedy";
  case PlannerKind::BestFit:
    return "best-fit";
  case PlannerKind::Auto:
    return "auto";
  }
  return "?";
}

static int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

namespace {
struct Interval {
  int64_t begin;
  int64_t end;
};
} // namespace

/// Places buffers in `order`; `choose` picks an offset given the sorted byte
/// intervals taken by the placed buffers live with the current one.
template <typename Choose>
static ArenaAssignment place(const std::vector<PlanBuffer> &buffers,
                             const std::vector<size_t> &order,
                             int64_t alignment, Choose choose) {
  ArenaAssignment result;
  result.offsets.assign(buffers.size(), 0);
  std::vector<size_t> placed;
  std::vector<Interval> taken;
  for (size_t index : order) {
    const PlanBuffer &buffer = buffers[index];
    int64_t size = alignUp(buffer.size, alignment);
    taken.clear();
    for (size_t other : placed) {
      const PlanBuffer &o = buffers[other];
      if (o.start <= buffer.end && buffer.start <= o.end && o.size > 0)
        taken.push_back({result.offsets[other],
                         result.offsets[other] + alignUp(o.size, alignment)});
    }
    std::sort(
        taken.begin(), taken.end(),
        [](const Interval &a, const Interval &b) { return a.begin < b.begin; });
    int64_t offset = size == 0 ? 0 : choose(taken, size);
    result.offsets[index] = offset;
    result.arenaSize = std::max(result.arenaSize, offset + buffer.size);
    placed.push_back(index);
  }
  return result;
}

/// Decreasing size; ties by longer lifetime, then earlier start, then input
/// order, so that the result does not depend on the sort's stability.
static std::vector<size_t> sizeOrder(const std::vector<PlanBuffer> &buffers) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const PlanBuffer &x = buffers[a], &y = buffers[b];
    if (x.size != y.size)
      return x.size > y.size;
    if (x.end - x.start != y.end - y.start)
      return x.end - x.start > y.end - y.start;
    if (x.start != y.start)
      return x.start < y.start;
    return a < b;
  });
  return order;
}

ArenaAssignment
mlir::rlx::lir::planGreedyFirstFit(const std::vector<PlanBuffer> &buffers,
                                   int64_t alignment) {
  ArenaAssignment result =
      place(buffers, sizeOrder(buffers), alignment,
            [&](const std::vector<Interval> &taken, int64_t size) {
              int64_t offset = 0;
              for (const Interval &t : taken) {
                if (offset + size <= t.begin)
                  break;
                offset = std::max(offset, alignUp(t.end, alignment));
              }
              return offset;
            });
  result.planner = PlannerKind::Greedy;
  return result;
}

ArenaAssignment
mlir::rlx::lir::planBestFit(const std::vector<PlanBuffer> &buffers,
                            int64_t alignment) {
  ArenaAssignment result =
      place(buffers, sizeOrder(buffers), alignment,
            [&](const std::vector<Interval> &taken, int64_t size) {
              int64_t best = -1, bestGap = 0, cursor = 0;
              for (const Interval &t : taken) {
                int64_t gap = t.begin - cursor;
                if (gap >= size && (best < 0 || gap < bestGap)) {
                  best = cursor;
                  bestGap = gap;
                }
                cursor = std::max(cursor, alignUp(t.end, alignment));
              }
              // No gap holds it: on top of everything live with it.
              return best < 0 ? cursor : best;
            });
  result.planner = PlannerKind::BestFit;
  return result;
}

ArenaAssignment
mlir::rlx::lir::planArena(const std::vector<PlanBuffer> &buffers,
                          int64_t alignment, PlannerKind kind) {
  if (kind == PlannerKind::Greedy)
    return planGreedyFirstFit(buffers, alignment);
  if (kind == PlannerKind::BestFit)
    return planBestFit(buffers, alignment);
  ArenaAssignment greedy = planGreedyFirstFit(buffers, alignment);
  ArenaAssignment bestFit = planBestFit(buffers, alignment);
  return bestFit.arenaSize < greedy.arenaSize ? bestFit : greedy;
}

int64_t mlir::rlx::lir::getLowerBound(const std::vector<PlanBuffer> &buffers) {
  // Bytes entering at each step minus bytes leaving after it.
  std::map<int64_t, int64_t> delta;
  for (const PlanBuffer &b : buffers) {
    delta[b.start] += b.size;
    delta[b.end + 1] -= b.size;
  }
  int64_t live = 0, peak = 0;
  for (auto [step, change] : delta) {
    live += change;
    peak = std::max(peak, live);
  }
  return peak;
}
