//===- ArenaPlanner.h - offset assignment in one arena ----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The planner's core, in plain C++ with no MLIR dependency so that it can be
// reused (and tested) on its own: given root buffers with a byte size and a
// lifetime over the schedule, give each an offset so that buffers live at
// the same time never share a byte. Aliases (views, in-place results) are
// resolved by the caller: they extend their root's lifetime and cost
// nothing here.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_LIR_TRANSFORMS_ARENAPLANNER_H
#define RLX_LIB_DIALECT_LIR_TRANSFORMS_ARENAPLANNER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace rlx {
namespace lir {

/// A root buffer: `size` bytes, live from step `start` to step `end`
/// inclusive.
struct PlanBuffer {
  int64_t size;
  int64_t start;
  int64_t end;
};

enum class PlannerKind { Greedy, BestFit, Auto };

/// Parses "greedy", "best-fit" or "auto".
std::optional<PlannerKind> parsePlannerKind(const std::string &name);
const char *getPlannerName(PlannerKind kind);

struct ArenaAssignment {
  std::vector<int64_t> offsets; // one per buffer, in input order
  int64_t arenaSize = 0;
  PlannerKind planner = PlannerKind::Greedy; // the one that made it
};

/// The seeds' planner: buffers by decreasing size, each at the lowest
/// aligned offset where it overlaps no placed buffer live with it.
ArenaAssignment planGreedyFirstFit(const std::vector<PlanBuffer> &buffers,
                                   int64_t alignment);

/// Global decreasing-size best-fit (XLA's GlobalDecreasingSizeBestFitHeap):
/// buffers by decreasing size (longer lifetime first on ties), each in the
/// smallest free gap, among the buffers live with it, that holds it; on top
/// of them where no gap does.
ArenaAssignment planBestFit(const std::vector<PlanBuffer> &buffers,
                            int64_t alignment);

/// `kind`'s assignment; Auto runs both and keeps the smaller arena (greedy
/// on ties).
ArenaAssignment planArena(const std::vector<PlanBuffer> &buffers,
                          int64_t alignment, PlannerKind kind);

/// The most bytes live at any one step: no valid assignment is smaller.
int64_t getLowerBound(const std::vector<PlanBuffer> &buffers);

} // namespace lir
} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_LIR_TRANSFORMS_ARENAPLANNER_H
