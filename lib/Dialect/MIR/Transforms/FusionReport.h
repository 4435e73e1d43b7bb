//===- FusionReport.h - what fused, what did not, and why ------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What --rlx-fusion-report collects while it fuses (private to
// RLXMIRTransforms): the fusions made and the near misses, which every
// format prints, and the op graph of each function before and after, with
// the ops each fused op replaced, which the pictures (FusionReportDot.h)
// draw.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_MIR_TRANSFORMS_FUSIONREPORT_H
#define RLX_LIB_DIALECT_MIR_TRANSFORMS_FUSIONREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include <map>
#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// A fusion made (`op` the fused op) or a near miss (`op` the root the
/// pattern tried, `reason` why it did not fuse).
struct FusionEvent {
  std::string pattern, op, location, reason;
  /// The node of the fused op, or of the near miss's root (-1: none).
  int64_t node = -1;
};

/// One op of a drawn graph.
struct FusionGraphNode {
  std::string name;
  Location loc;
  /// For a fused op, its index in FusionReport::fusions; else -1.
  int64_t fusion = -1;
};

/// One function's top-level ops in program order and the values between
/// them. An edge's source is a node, or the function's argument n written
/// as -1 - n.
struct FusionGraphFunction {
  std::string name;
  unsigned numArguments = 0;
  std::vector<int64_t> ops;
  std::vector<std::pair<int64_t, int64_t>> edges;
};

struct FusionReport {
  /// The count of each rlx op before and after fusion.
  std::map<std::string, int64_t> before, after;
  std::vector<FusionEvent> fusions, misses;

  /// Every op seen: those of the input first (the `numOriginal` ops the
  /// before graphs draw), then each op a pattern or the driver created.
  std::vector<FusionGraphNode> nodes;
  int64_t numOriginal = 0;
  std::vector<FusionGraphFunction> beforeGraph, afterGraph;
  /// Per fusion: the ops of the input it replaced (node ids), and the
  /// fusion whose fused op later replaced its own (-1: none).
  std::vector<std::vector<int64_t>> replaced;
  std::vector<int64_t> absorbedInto;
  /// Per fusion: the function its fused op was made in.
  std::vector<int64_t> function;
};

/// Applies `patterns` greedily to `module` (fusing it) and fills `report`.
LogicalResult collectFusionReport(ModuleOp module,
                                  const FrozenRewritePatternSet &patterns,
                                  FusionReport &report);

} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_MIR_TRANSFORMS_FUSIONREPORT_H
