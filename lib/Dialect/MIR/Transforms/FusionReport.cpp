//===- FusionReport.cpp - what fused, what did not, and why ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the fusion patterns (as rlx-fuse) under a rewrite listener: each
// fused op inserted is a fusion made by the pattern being applied, and each
// match failure a pattern reports is a candidate reason. A failure whose
// reason says the root does not end such a chain at all ("reads no",
// "is not a", "not a", "does not read", "left to") is not a near miss;
// every other reason is (the chain was there but an intermediate has other
// users, shapes or types do not fit, ...), unless that root fused in the
// end.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSIONREPORTPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

struct Event {
  std::string pattern, op, location, reason;
};

/// The pattern's class name without its namespaces and template brackets'
/// namespaces (e.g. FuseMatmulBiasAct<mlir::rlx::GeluOp> ->
/// FuseMatmulBiasAct<GeluOp>).
std::string patternName(const Pattern &pattern) {
  std::string name = pattern.getDebugName().str();
  std::string out;
  for (size_t i = 0; i < name.size();) {
    size_t colon = name.find("::", i);
    size_t stop = name.find_first_of("<>, ", i);
    if (colon != std::string::npos &&
        (stop == std::string::npos || colon < stop)) {
      i = colon + 2; // drop the namespace qualifier
      continue;
    }
    size_t end = stop == std::string::npos ? name.size() : stop + 1;
    out += name.substr(i, end - i);
    i = end;
  }
  // "(anonymous namespace)" leaves a stray "(anonymous " prefix.
  StringRef s(out);
  s.consume_front("(anonymous ");
  return s.str();
}

/// file:line:col for file locations, MLIR's printed form otherwise.
std::string locationString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

/// Reasons that mean the pattern's root is not the end of its chain.
bool isNotACandidate(StringRef reason) {
  return reason.contains("reads no") || reason.contains("is not a") ||
         reason.starts_with("not a") || reason.contains("does not read") ||
         reason.contains("left to");
}

struct ReportListener : RewriterBase::Listener {
  void notifyPatternBegin(const Pattern &pattern, Operation *op) override {
    current = patternName(pattern);
    root = op->getName().getStringRef().str();
    rootLoc = locationString(op->getLoc());
  }
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    if (op->getName().getStringRef().starts_with("rlx.fused_"))
      fusions.push_back(
          {current, op->getName().getStringRef().str(), rootLoc, ""});
  }
  void notifyMatchFailure(Location,
                          function_ref<void(Diagnostic &)> reason) override {
    Diagnostic diag(UnknownLoc::get(ctx), DiagnosticSeverity::Remark);
    reason(diag);
    std::string text = diag.str();
    if (!isNotACandidate(text))
      misses.push_back({current, root, rootLoc, text});
  }

  MLIRContext *ctx = nullptr;
  std::string current, root, rootLoc;
  std::vector<Event> fusions, misses;
};

std::map<std::string, int64_t> countOps(Operation *root) {
  std::map<std::string, int64_t> counts;
  root->walk([&](Operation *op) {
    if (isa<RLXDialect>(op->getDialect()))
      ++counts[op->getName().getStringRef().str()];
  });
  return counts;
}

struct FusionReportPass : rlx::impl::FusionReportPassBase<FusionReportPass> {
  using FusionReportPassBase::FusionReportPassBase;

  void runOnOperation() override {
    if (format != "text" && format != "json") {
      emitError(getOperation()->getLoc(),
                "'format' must be text or json, got '")
          << format << "'";
      return signalPassFailure();
    }
    // With a target, the families whose fused ops it lacks do not run; the
    // report names each with the op it lacks.
    SmallVector<std::string> families;
    SmallVector<std::pair<std::string, StringRef>> off;
    if (!target.empty()) {
      FailureOr<const TargetOps *> claims =
          lookupTarget(target, getOperation()->getLoc());
      if (failed(claims))
        return signalPassFailure();
      families = familiesForTarget(**claims, {}, &off);
    }
    RewritePatternSet patterns(&getContext());
    if ((target.empty() || !families.empty()) &&
        failed(populateFusionPatterns(patterns, families)))
      return signalPassFailure();
    std::map<std::string, int64_t> before = countOps(getOperation());
    ReportListener listener;
    listener.ctx = &getContext();
    GreedyRewriteConfig config;
    config.setListener(&listener);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    std::map<std::string, int64_t> after = countOps(getOperation());

    // A root may fail a pattern once and fuse later (or be tried again):
    // keep one miss per (pattern, location, reason), none where a fusion
    // was made at that location.
    std::set<std::string> fusedAt;
    for (const Event &f : listener.fusions)
      fusedAt.insert(f.location);
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    std::vector<Event> misses;
    for (const Event &m : listener.misses)
      if (!fusedAt.count(m.location) &&
          seen.insert({m.pattern, m.location, m.reason}).second)
        misses.push_back(m);

    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &error);
    if (!file) {
      emitError(getOperation()->getLoc(), "cannot write the report to '")
          << output << "': " << error;
      return signalPassFailure();
    }
    if (format == "json")
      printJson(file->os(), before, after, listener.fusions, misses, off);
    else
      printText(file->os(), before, after, listener.fusions, misses, off);
    file->keep();
  }

  static void
  printText(llvm::raw_ostream &os,
            const std::map<std::string, int64_t> &before,
            const std::map<std::string, int64_t> &after,
            ArrayRef<Event> fusions, ArrayRef<Event> misses,
            ArrayRef<std::pair<std::string, StringRef>> off) {
    int64_t total[2] = {0, 0};
    std::set<std::string> names;
    for (auto &[name, n] : before)
      names.insert(name), total[0] += n;
    for (auto &[name, n] : after)
      names.insert(name), total[1] += n;
    os << "rlx fusion report\n\nop counts (before -> after):\n";
    for (const std::string &name : names) {
      auto b = before.find(name), a = after.find(name);
      os << llvm::formatv("  {0,-36} {1,5} -> {2}\n", name,
                          b == before.end() ? 0 : b->second,
                          a == after.end() ? 0 : a->second);
    }
    os << llvm::formatv("  {0,-36} {1,5} -> {2}\n", "total", total[0],
                        total[1]);
    os << "\nfusions made (" << fusions.size() << "):\n";
    for (const Event &f : fusions)
      os << "  " << f.op << " by " << f.pattern << " at " << f.location << "\n";
    os << "\nnear misses (" << misses.size() << "):\n";
    for (const Event &m : misses)
      os << "  " << m.pattern << " at " << m.location << " (" << m.op
         << "): " << m.reason << "\n";
    if (off.empty())
      return;
    os << "\nfamilies off for the target (" << off.size() << "):\n";
    for (auto &[family, op] : off)
      os << "  " << family << ": the target lacks " << op << "\n";
  }

  static void
  printJson(llvm::raw_ostream &os,
            const std::map<std::string, int64_t> &before,
            const std::map<std::string, int64_t> &after,
            ArrayRef<Event> fusions, ArrayRef<Event> misses,
            ArrayRef<std::pair<std::string, StringRef>> off) {
    llvm::json::Object counts[2];
    for (auto &[name, n] : before)
      counts[0][name] = n;
    for (auto &[name, n] : after)
      counts[1][name] = n;
    llvm::json::Array fused, missed;
    for (const Event &f : fusions)
      fused.push_back(llvm::json::Object{
          {"pattern", f.pattern}, {"op", f.op}, {"location", f.location}});
    for (const Event &m : misses)
      missed.push_back(llvm::json::Object{{"pattern", m.pattern},
                                          {"root", m.op},
                                          {"location", m.location},
                                          {"reason", m.reason}});
    llvm::json::Array familiesOff;
    for (auto &[family, op] : off)
      familiesOff.push_back(
          llvm::json::Object{{"family", family}, {"lacks", op}});
    llvm::json::Value report =
        llvm::json::Object{{"ops_before", std::move(counts[0])},
                           {"ops_after", std::move(counts[1])},
                           {"fusions", std::move(fused)},
                           {"near_misses", std::move(missed)},
                           {"families_off", std::move(familiesOff)}};
    os << llvm::formatv("{0:2}", report) << "\n";
  }
};

} // namespace
