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
// For the pictures the listener also follows each op: an op erased while
// a pattern that made a fused op runs was replaced by it (its root, or what
// the pattern erased), and an op the driver erases afterwards as dead goes
// where the op that read it went (the matmul under a fused bias add). A
// fused op that a later fusion replaces is drawn inside that one.
//
//===----------------------------------------------------------------------===//

#include "FusionReport.h"
#include "FusionReportDot.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <set>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSIONREPORTPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

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

/// The fused ops the report counts as fusions.
bool isFusedOp(Operation *op) {
  return op->getName().getStringRef().starts_with("rlx.fused_");
}

/// An op the listener saw erased.
struct Erasure {
  int64_t node;
  /// The erasure of an op that read this one's results (-1: none).
  int64_t consumer;
  /// The fusion made by the pattern it was erased under (-1: none).
  int64_t fusion = -1;
};

struct ReportListener : RewriterBase::Listener {
  ReportListener(MLIRContext *ctx, FusionReport &report,
                 DenseMap<Operation *, int64_t> &nodeOf,
                 const DenseMap<Operation *, int64_t> &functionOf)
      : ctx(ctx), report(report), nodeOf(nodeOf), functionOf(functionOf) {}

  /// The node of `op`: the one it has, or a new one.
  int64_t nodeFor(Operation *op) {
    auto [it, inserted] = nodeOf.try_emplace(op, report.nodes.size());
    if (inserted)
      report.nodes.push_back(
          {op->getName().getStringRef().str(), op->getLoc()});
    return it->second;
  }

  void notifyPatternBegin(const Pattern &pattern, Operation *op) override {
    current = patternName(pattern);
    root = op->getName().getStringRef().str();
    rootLoc = locationString(op->getLoc());
    rootNode = nodeFor(op);
    madeInPattern = -1;
    inPattern = true;
  }
  void notifyPatternEnd(const Pattern &, LogicalResult) override {
    for (int64_t e : erasedInPattern)
      erasures[e].fusion = madeInPattern;
    erasedInPattern.clear();
    inPattern = false;
  }
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    // An op moved is not a new one.
    if (previous.isSet() && nodeOf.count(op))
      return;
    int64_t node = nodeFor(op);
    if (!isFusedOp(op))
      return;
    int64_t fusion = report.fusions.size();
    report.fusions.push_back(
        {current, op->getName().getStringRef().str(), rootLoc, "", node});
    report.nodes[node].fusion = fusion;
    report.function.push_back(
        functionOf.lookup(op->getParentOfType<func::FuncOp>()));
    if (madeInPattern < 0)
      madeInPattern = fusion;
  }
  void notifyOperationErased(Operation *op) override {
    // The op's operands are still there: each producer is read by this
    // erasure, until the producer itself goes.
    int64_t index = erasures.size();
    auto consumer = consumerOf.find(op);
    erasures.push_back(
        {nodeFor(op), consumer == consumerOf.end() ? -1 : consumer->second});
    if (inPattern)
      erasedInPattern.push_back(index);
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        consumerOf[producer] = index;
    // A later op may take this address.
    nodeOf.erase(op);
    consumerOf.erase(op);
  }
  void notifyMatchFailure(Location,
                          function_ref<void(Diagnostic &)> reason) override {
    Diagnostic diag(UnknownLoc::get(ctx), DiagnosticSeverity::Remark);
    reason(diag);
    std::string text = diag.str();
    if (!isNotACandidate(text))
      misses.push_back({current, root, rootLoc, text, rootNode});
  }

  /// Which fusion replaced each op of the input, and each fused op that a
  /// later fusion replaced.
  void assignReplacedOps() {
    size_t numFusions = report.fusions.size();
    report.replaced.assign(numFusions, {});
    report.absorbedInto.assign(numFusions, -1);
    // An erasure's consumer was erased before it.
    std::vector<int64_t> owner(erasures.size(), -1);
    for (auto [index, e] : llvm::enumerate(erasures)) {
      if (e.fusion >= 0)
        owner[index] = e.fusion;
      else if (e.consumer >= 0)
        owner[index] = owner[e.consumer];
      if (owner[index] < 0)
        continue;
      int64_t fused = report.nodes[e.node].fusion;
      if (e.node < report.numOriginal)
        report.replaced[owner[index]].push_back(e.node);
      else if (fused >= 0 && owner[index] > fused)
        report.absorbedInto[fused] = owner[index];
    }
  }

  MLIRContext *ctx;
  FusionReport &report;
  DenseMap<Operation *, int64_t> &nodeOf;
  const DenseMap<Operation *, int64_t> &functionOf;
  std::string current, root, rootLoc;
  int64_t rootNode = -1, madeInPattern = -1;
  bool inPattern = false;
  std::vector<FusionEvent> misses;
  std::vector<Erasure> erasures;
  std::vector<int64_t> erasedInPattern;
  DenseMap<Operation *, int64_t> consumerOf;
};

std::map<std::string, int64_t> countOps(Operation *root) {
  std::map<std::string, int64_t> counts;
  root->walk([&](Operation *op) {
    if (isa<RLXDialect>(op->getDialect()))
      ++counts[op->getName().getStringRef().str()];
  });
  return counts;
}

/// The top-level ops of `func` in program order and the values between
/// them (one edge per producer and reader).
FusionGraphFunction graphOf(func::FuncOp func,
                            function_ref<int64_t(Operation *)> nodeFor) {
  FusionGraphFunction graph;
  graph.name = func.getSymName().str();
  if (func.isExternal())
    return graph;
  Block *entry = &func.getBody().front();
  graph.numArguments = entry->getNumArguments();
  for (Operation &op : func.getBody().getOps()) {
    int64_t node = nodeFor(&op);
    graph.ops.push_back(node);
    std::set<int64_t> sources;
    for (Value operand : op.getOperands()) {
      int64_t source;
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() != entry)
          continue;
        source = -1 - static_cast<int64_t>(arg.getArgNumber());
      } else {
        source = nodeFor(operand.getDefiningOp());
      }
      if (sources.insert(source).second)
        graph.edges.push_back({source, node});
    }
  }
  return graph;
}

} // namespace

LogicalResult rlx::collectFusionReport(ModuleOp module,
                                       const FrozenRewritePatternSet &patterns,
                                       FusionReport &report) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  DenseMap<Operation *, int64_t> functionOf;
  for (auto [index, func] : llvm::enumerate(funcs))
    functionOf[func] = index;
  DenseMap<Operation *, int64_t> nodeOf;
  ReportListener listener(module.getContext(), report, nodeOf, functionOf);
  auto nodeFor = [&](Operation *op) { return listener.nodeFor(op); };
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module && !isa<func::FuncOp>(op))
      nodeFor(op);
  });
  report.numOriginal = report.nodes.size();
  for (func::FuncOp func : funcs)
    report.beforeGraph.push_back(graphOf(func, nodeFor));

  report.before = countOps(module);
  GreedyRewriteConfig config;
  config.setListener(&listener);
  if (failed(applyPatternsGreedily(module, patterns, config)))
    return failure();
  report.after = countOps(module);

  listener.assignReplacedOps();
  for (func::FuncOp func : funcs) {
    report.afterGraph.push_back(graphOf(func, nodeFor));
    // Ops a fused op took into its regions, as elementwise regions do,
    // are replaced too.
    for (Operation &op : func.getBody().getOps()) {
      int64_t fusion = report.nodes[nodeFor(&op)].fusion;
      if (fusion < 0)
        continue;
      op.walk([&](Operation *nested) {
        int64_t node = nodeFor(nested);
        if (nested != &op && node < report.numOriginal)
          report.replaced[fusion].push_back(node);
      });
    }
  }

  // A root may fail a pattern once and fuse later (or be tried again):
  // keep one miss per (pattern, location, reason), none where a fusion
  // was made at that location.
  std::set<std::string> fusedAt;
  for (const FusionEvent &f : report.fusions)
    fusedAt.insert(f.location);
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const FusionEvent &m : listener.misses)
    if (!fusedAt.count(m.location) &&
        seen.insert({m.pattern, m.location, m.reason}).second)
      report.misses.push_back(m);
  return success();
}

namespace {

struct FusionReportPass : rlx::impl::FusionReportPassBase<FusionReportPass> {
  using FusionReportPassBase::FusionReportPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!llvm::is_contained({"text", "json", "dot", "svg"}, format)) {
      module.emitError() << "unknown format '" << format
                         << "'; expected text, json, dot or svg";
      return signalPassFailure();
    }
    // Before anything is fused: the SVG needs Graphviz.
    std::string dotProgram;
    if (format == "svg") {
      FailureOr<std::string> found = findGraphvizDot(module.getLoc());
      if (failed(found))
        return signalPassFailure();
      dotProgram = *found;
    }
    // With a target, the families whose fused ops it lacks do not run; the
    // report names each with the op it lacks.
    SmallVector<std::string> families;
    SmallVector<std::pair<std::string, StringRef>> off;
    if (!target.empty()) {
      FailureOr<const TargetOps *> claims =
          lookupTarget(target, module.getLoc());
      if (failed(claims))
        return signalPassFailure();
      families = familiesForTarget(**claims, {}, &off);
    }
    RewritePatternSet patterns(&getContext());
    if ((target.empty() || !families.empty()) &&
        failed(populateFusionPatterns(patterns, families)))
      return signalPassFailure();
    FusionReport report;
    if (failed(collectFusionReport(
            module, FrozenRewritePatternSet(std::move(patterns)), report)))
      return signalPassFailure();

    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &error);
    if (!file) {
      module.emitError() << "cannot write the report to '" << output
                         << "': " << error;
      return signalPassFailure();
    }
    if (format == "json") {
      printJson(file->os(), report, off);
    } else if (format == "text") {
      printText(file->os(), report, off);
    } else if (format == "dot") {
      printFusionReportDot(file->os(), report);
    } else {
      std::string dot;
      llvm::raw_string_ostream os(dot);
      printFusionReportDot(os, report);
      if (failed(renderDotAsSVG(dotProgram, dot, file->os(), module.getLoc())))
        return signalPassFailure();
    }
    file->keep();
  }

  static void
  printText(llvm::raw_ostream &os, const FusionReport &report,
            ArrayRef<std::pair<std::string, StringRef>> off) {
    const std::map<std::string, int64_t> &before = report.before,
                                         &after = report.after;
    ArrayRef<FusionEvent> fusions = report.fusions, misses = report.misses;
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
    for (const FusionEvent &f : fusions)
      os << "  " << f.op << " by " << f.pattern << " at " << f.location << "\n";
    os << "\nnear misses (" << misses.size() << "):\n";
    for (const FusionEvent &m : misses)
      os << "  " << m.pattern << " at " << m.location << " (" << m.op
         << "): " << m.reason << "\n";
    if (off.empty())
      return;
    os << "\nfamilies off for the target (" << off.size() << "):\n";
    for (auto &[family, op] : off)
      os << "  " << family << ": the target lacks " << op << "\n";
  }

  static void
  printJson(llvm::raw_ostream &os, const FusionReport &report,
            ArrayRef<std::pair<std::string, StringRef>> off) {
    const std::map<std::string, int64_t> &before = report.before,
                                         &after = report.after;
    ArrayRef<FusionEvent> fusions = report.fusions, misses = report.misses;
    llvm::json::Object counts[2];
    for (auto &[name, n] : before)
      counts[0][name] = n;
    for (auto &[name, n] : after)
      counts[1][name] = n;
    llvm::json::Array fused, missed;
    for (const FusionEvent &f : fusions)
      fused.push_back(llvm::json::Object{
          {"pattern", f.pattern}, {"op", f.op}, {"location", f.location}});
    for (const FusionEvent &m : misses)
      missed.push_back(llvm::json::Object{{"pattern", m.pattern},
                                          {"root", m.op},
                                          {"location", m.location},
                                          {"reason", m.reason}});
    llvm::json::Array familiesOff;
    for (auto &[family, op] : off)
      familiesOff.push_back(
          llvm::json::Object{{"family", family}, {"lacks", op}});
    llvm::json::Value object =
        llvm::json::Object{{"ops_before", std::move(counts[0])},
                           {"ops_after", std::move(counts[1])},
                           {"fusions", std::move(fused)},
                           {"near_misses", std::move(missed)},
                           {"families_off", std::move(familiesOff)}};
    os << llvm::formatv("{0:2}", object) << "\n";
  }
};

} // namespace
