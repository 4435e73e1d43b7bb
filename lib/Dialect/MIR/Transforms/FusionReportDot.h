//===- FusionReportDot.h - fusion as a picture ------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-fusion-report=format=dot|svg: the op graph of each function before
// and after fusion as one Graphviz graph, each fused op inside a cluster
// labelled with the pattern that made it together with the ops it
// replaced, each near miss a dashed edge to its root labelled with the
// reason. format=svg runs Graphviz's `dot` to lay it out.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_MIR_TRANSFORMS_FUSIONREPORTDOT_H
#define RLX_LIB_DIALECT_MIR_TRANSFORMS_FUSIONREPORTDOT_H

#include "FusionReport.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {

/// Writes the report as one DOT digraph: a cluster "before" and a cluster
/// "after", each with one cluster per function.
void printFusionReportDot(llvm::raw_ostream &os, const FusionReport &report);

/// The path of Graphviz's `dot` on PATH, or an error at `loc` saying to
/// install graphviz or use format=dot.
FailureOr<std::string> findGraphvizDot(Location loc);

/// Lays out the DOT text `dot` with the program `dotProgram` and writes the
/// SVG to `os`; a failure of `dot` is an error at `loc` with its message.
LogicalResult renderDotAsSVG(StringRef dotProgram, StringRef dot,
                             llvm::raw_ostream &os, Location loc);

} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_MIR_TRANSFORMS_FUSIONREPORTDOT_H
