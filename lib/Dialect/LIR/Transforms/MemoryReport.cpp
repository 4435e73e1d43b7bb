//===- MemoryReport.cpp - the rlx-memory-report pass ----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MemoryPlanning.h"
#include "MemoryReportSVG.h"

#include "RLX/Dialect/LIR/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_MEMORYREPORTPASS
#include "RLX/Dialect/LIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::lir;

static double ratio(int64_t a, int64_t b) {
  return b == 0 ? 1.0 : static_cast<double>(a) / static_cast<double>(b);
}

static void printText(llvm::raw_ostream &os, func::FuncOp func,
                      const FunctionMemoryPlan &plan) {
  os << "rlx memory report: @" << func.getSymName() << " (alignment "
     << plan.alignment << ", planner " << getPlannerName(plan.planner) << ")\n";
  int64_t aliases = plan.getNumAliases();
  os << "  kernels " << plan.kernels.size() << ", buffers "
     << plan.buffers.size() - aliases << ", aliases " << aliases << "\n";
  auto line = [&](StringRef name, int64_t bytes) {
    os << "  " << llvm::left_justify(name, 20)
       << llvm::format_decimal(bytes, 14) << " bytes\n";
  };
  line("arena", plan.arenaSize);
  line("lower bound", plan.lowerBound);
  line("greedy", plan.greedySize);
  line("best-fit", plan.bestFitSize);
  line("naive", plan.naiveSize);
  os << "  " << llvm::left_justify("arena / lower bound", 20)
     << llvm::format("%14.4f", ratio(plan.arenaSize, plan.lowerBound)) << "\n";
}

static void printJson(llvm::raw_ostream &os, func::FuncOp func,
                      const FunctionMemoryPlan &plan) {
  int64_t aliases = plan.getNumAliases();
  llvm::json::Object object{
      {"function", func.getSymName()},
      {"alignment", plan.alignment},
      {"planner", getPlannerName(plan.planner)},
      {"kernels", static_cast<int64_t>(plan.kernels.size())},
      {"buffers", static_cast<int64_t>(plan.buffers.size()) - aliases},
      {"aliases", aliases},
      {"arena", plan.arenaSize},
      {"lower_bound", plan.lowerBound},
      {"greedy", plan.greedySize},
      {"best_fit", plan.bestFitSize},
      {"naive", plan.naiveSize},
      {"ratio", ratio(plan.arenaSize, plan.lowerBound)}};
  os << llvm::json::Value(std::move(object)) << "\n";
}

namespace {
struct MemoryReportPass
    : public rlx::impl::MemoryReportPassBase<MemoryReportPass> {
  using MemoryReportPassBase::MemoryReportPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<PlannerKind> kind = getPlannerOption(module, planner, alignment);
    if (failed(kind))
      return signalPassFailure();
    if (!llvm::is_contained({"text", "json", "svg", "html"}, format)) {
      module.emitError() << "unknown format '" << format
                         << "'; expected text, json, svg or html";
      return signalPassFailure();
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &error);
    if (!file) {
      module.emitError() << "cannot write the report to '" << output
                         << "': " << error;
      return signalPassFailure();
    }
    // The pictures are one document for all functions: plan them all first.
    SmallVector<func::FuncOp> funcs;
    std::vector<FunctionMemoryPlan> plans;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FailureOr<FunctionMemoryPlan> plan =
          planFunctionMemory(func, alignment, *kind);
      if (failed(plan))
        return signalPassFailure();
      if (format == "json")
        printJson(file->os(), func, *plan);
      else if (format == "text")
        printText(file->os(), func, *plan);
      funcs.push_back(func);
      plans.push_back(std::move(*plan));
    }
    if (format == "svg" || format == "html") {
      SmallVector<PlannedFunction> planned;
      for (auto [func, plan] : llvm::zip(funcs, plans))
        planned.push_back({func, &plan});
      if (format == "svg")
        printMemoryReportSVG(file->os(), planned);
      else
        printMemoryReportHTML(file->os(), planned);
    }
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
