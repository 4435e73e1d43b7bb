//===- MemoryReportSVG.h - the memory plan as a picture ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-memory-report=format=svg|html: each function's arena drawn as a
// timeline. Program order (kernels) runs along x, the offset in the arena
// up y; each planned buffer is one <rect> over its live kernels at its
// planned offset and size, views and in-place results inside their root.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_LIR_TRANSFORMS_MEMORYREPORTSVG_H
#define RLX_LIB_DIALECT_LIR_TRANSFORMS_MEMORYREPORTSVG_H

#include "MemoryPlanning.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {
namespace lir {

/// One function's plan, as the report computed it.
struct PlannedFunction {
  func::FuncOp func;
  const FunctionMemoryPlan *plan;
};

/// Writes one SVG document with one panel per function, stacked.
void printMemoryReportSVG(llvm::raw_ostream &os,
                          ArrayRef<PlannedFunction> functions);

/// Writes a minimal HTML page: per function its figures and the SVG, and a
/// legend.
void printMemoryReportHTML(llvm::raw_ostream &os,
                           ArrayRef<PlannedFunction> functions);

} // namespace lir
} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_LIR_TRANSFORMS_MEMORYREPORTSVG_H
