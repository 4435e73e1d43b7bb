//===- FusionReportDot.cpp - fusion as a picture --------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two panels side by side: "before" draws each function's top-level ops and
// the values between them as the input had them, "after" as fusion left
// them. In "after" each fused op sits in a cluster (id fusionN, class
// fusion) labelled with its pattern, beside the ops it replaced, drawn grey
// with the values between them; a fused op that a later fusion replaced is
// a dashed cluster inside that one's. Edges into and out of a fused op end
// at its cluster. In "before" each op that fusion replaced is filled with
// the colour of its cluster. Each near miss is a note beside its root with
// a dashed red edge to it labelled with the pattern's reason.
//
// Node names: b<N> / a<N> for op N of the report before / after, b<F>_arg<I>
// / a<F>_arg<I> for argument I of function F, miss<K> for near miss K.
//
//===----------------------------------------------------------------------===//

#include "FusionReportDot.h"
#include "RLX/Dialect/MIR/IR/LocationText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::rlx;

/// `text` as the inside of a DOT string: quotes and backslashes escaped,
/// line breaks as \n.
static std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

/// "line:col" of the first file location in `loc`, else "".
static std::string shortLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return llvm::formatv("{0}:{1}", file.getLine(), file.getColumn()).str();
  return "";
}

/// "1 fusion", "2 fusions".
static std::string plural(size_t n, StringRef one, StringRef many) {
  return (llvm::Twine(n) + " " + (n == 1 ? one : many)).str();
}

/// `text` broken at spaces into lines of about `width` characters.
static std::string wrap(StringRef text, size_t width) {
  std::string out;
  size_t line = 0;
  SmallVector<StringRef> words;
  text.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    if (line > 0 && line + 1 + word.size() > width) {
      out += '\n';
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word.str();
    line += word.size();
  }
  return out;
}

namespace {
class DotWriter {
public:
  DotWriter(llvm::raw_ostream &os, const FusionReport &report)
      : os(os), report(report) {
    size_t numFusions = report.fusions.size();
    children.resize(numFusions);
    for (size_t f = 0; f < numFusions; ++f)
      if (report.absorbedInto[f] >= 0)
        children[report.absorbedInto[f]].push_back(f);
    // Colours: one hue per outermost fusion, the golden angle apart.
    hue.assign(numFusions, 0);
    int64_t outermost = 0;
    for (size_t f = 0; f < numFusions; ++f)
      if (report.absorbedInto[f] < 0)
        setHue(f, std::fmod(0.382 * outermost++ + 0.55, 1.0));
    for (const FusionGraphFunction &graph : report.afterGraph)
      alive.insert(graph.ops.begin(), graph.ops.end());
  }

  void print();

private:
  /// The outermost fusion's hue for `f` and the fusions it absorbed, and
  /// the same for the ops they replaced.
  void setHue(int64_t f, double h) {
    hue[f] = h;
    for (int64_t node : report.replaced[f])
      colourOf[node] = h;
    for (int64_t g : children[f])
      setHue(g, h);
  }
  /// The input's ops that `f` and the fusions inside it replaced.
  void collectReplaced(int64_t f, std::set<int64_t> &ops) const {
    ops.insert(report.replaced[f].begin(), report.replaced[f].end());
    for (int64_t g : children[f])
      collectReplaced(g, ops);
  }
  static std::string colour(double h, double s, double v) {
    return llvm::formatv("{0:F3} {1:F3} {2:F3}", h, s, v).str();
  }
  static std::string source(char panel, int64_t function, int64_t from) {
    if (from < 0)
      return llvm::formatv("{0}{1}_arg{2}", panel, function, -1 - from).str();
    return llvm::formatv("{0}{1}", panel, from).str();
  }
  /// The cluster a fused op's edges end at, where it is drawn.
  std::string clusterOf(int64_t node) const {
    int64_t f = report.nodes[node].fusion;
    if (f < 0)
      return "";
    return llvm::formatv("cluster_fusion_{0}", f).str();
  }

  void printOp(char panel, int64_t node, StringRef attributes);
  void printArguments(char panel, int64_t function,
                      const FusionGraphFunction &graph);
  void printFusion(int64_t f, int64_t function);
  void printFusionEdges(int64_t f);
  void printBefore();
  void printAfter();

  llvm::raw_ostream &os;
  const FusionReport &report;
  std::vector<std::vector<int64_t>> children;
  std::vector<double> hue;
  std::map<int64_t, double> colourOf;
  /// Per fused op drawn: the ops it replaced that no other one read.
  DenseMap<int64_t, SmallVector<int64_t>> lastReplaced;
  std::set<int64_t> alive;
  /// The function each op of the after panel is drawn in.
  std::map<int64_t, int64_t> drawnIn;
};
} // namespace

void DotWriter::printOp(char panel, int64_t node, StringRef attributes) {
  const FusionGraphNode &op = report.nodes[node];
  std::string label = op.name;
  std::string where = shortLocation(op.loc);
  if (!where.empty())
    label += "\n" + where;
  os << panel << node << " [label=\"" << escape(label) << "\", tooltip=\""
     << escape(op.name + " at " + locationText(op.loc)) << "\"" << attributes
     << "];\n";
}

void DotWriter::printArguments(char panel, int64_t function,
                               const FusionGraphFunction &graph) {
  for (unsigned i = 0; i < graph.numArguments; ++i)
    os << source(panel, function, -1 - int64_t(i)) << " [label=\"%arg" << i
       << "\", class=\"argument\", shape=plain, style=\"\", "
          "fontcolor=\"gray30\"];\n";
}

void DotWriter::printBefore() {
  int64_t total = 0;
  for (auto &[name, n] : report.before)
    total += n;
  os << "subgraph cluster_before {\n"
     << "id=\"before\"; class=\"panel\"; label=\"before fusion: "
     << plural(total, "rlx op", "rlx ops")
     << "\"; style=\"rounded\"; color=\"gray60\";\n";
  for (auto [function, graph] : llvm::enumerate(report.beforeGraph)) {
    os << "subgraph cluster_before_" << function << " {\n"
       << "id=\"before-" << function << "\"; class=\"function\"; label=\"@"
       << escape(graph.name) << "\"; style=\"dashed\"; color=\"gray70\";\n";
    printArguments('b', function, graph);
    for (int64_t node : graph.ops) {
      auto colour = colourOf.find(node);
      if (colour == colourOf.end()) {
        printOp('b', node, ", class=\"op\"");
        continue;
      }
      printOp('b', node,
              llvm::formatv(", class=\"op replaced\", fillcolor=\"{0}\", "
                            "color=\"{1}\"",
                            DotWriter::colour(colour->second, 0.25, 1.0),
                            DotWriter::colour(colour->second, 0.6, 0.55))
                  .str());
    }
    for (auto [from, to] : graph.edges)
      os << source('b', function, from) << " -> b" << to << ";\n";
    os << "}\n";
  }
  os << "}\n";
}

void DotWriter::printFusion(int64_t f, int64_t function) {
  const FusionEvent &fusion = report.fusions[f];
  bool outermost = report.absorbedInto[f] < 0;
  std::set<int64_t> replaced;
  collectReplaced(f, replaced);
  os << "subgraph cluster_fusion_" << f << " {\n"
     << "id=\"fusion" << f << "\"; class=\"fusion\"; label=\""
     << escape(fusion.pattern);
  // A fused op not drawn (a later fusion or pattern replaced it) is named.
  if (!outermost || !alive.count(fusion.node))
    os << ": " << fusion.op;
  os << "\\n"
     << plural(replaced.size(), "op", "ops") << " replaced"
     << "\"; style=\"rounded,filled" << (outermost ? "" : ",dashed")
     << "\"; fillcolor=\"" << colour(hue[f], outermost ? 0.08 : 0.16, 1.0)
     << "\"; color=\"" << colour(hue[f], 0.6, 0.55) << "\"; fontcolor=\""
     << colour(hue[f], 0.8, 0.35) << "\";\n";
  if (alive.count(fusion.node)) {
    printOp('a', fusion.node,
            llvm::formatv(", class=\"fused\", style=\"rounded,filled,bold\", "
                          "fillcolor=\"{0}\", color=\"{1}\"",
                          colour(hue[f], 0.35, 1.0), colour(hue[f], 0.6, 0.55))
                .str());
    drawnIn[fusion.node] = function;
  }
  for (int64_t node : report.replaced[f]) {
    printOp('a', node,
            ", class=\"replaced\", color=\"gray60\", fontcolor=\"gray35\"");
    drawnIn[node] = function;
  }
  for (int64_t g : children[f])
    printFusion(g, function);
  os << "}\n";
}

/// The values between the ops an outermost fusion replaced (grey), and
/// invisible edges that keep its fused op above them, at the top of the
/// cluster where the edges into it arrive.
void DotWriter::printFusionEdges(int64_t f) {
  std::set<int64_t> replaced;
  collectReplaced(f, replaced);
  std::set<int64_t> read, written;
  for (const FusionGraphFunction &graph : report.beforeGraph)
    for (auto [from, to] : graph.edges)
      if (replaced.count(from) && replaced.count(to)) {
        os << "a" << from << " -> a" << to
           << " [class=\"replaced\", color=\"gray60\"];\n";
        read.insert(from);
        written.insert(to);
      }
  int64_t fused = report.fusions[f].node;
  if (!alive.count(fused))
    return;
  for (int64_t node : replaced) {
    if (!written.count(node))
      os << "a" << fused << " -> a" << node << " [style=invis];\n";
    if (!read.count(node))
      lastReplaced[fused].push_back(node);
  }
}

void DotWriter::printAfter() {
  int64_t total = 0;
  for (auto &[name, n] : report.after)
    total += n;
  os << "subgraph cluster_after {\n"
     << "id=\"after\"; class=\"panel\"; label=\"after fusion: "
     << plural(total, "rlx op", "rlx ops") << ", "
     << plural(report.fusions.size(), "fusion", "fusions") << ", "
     << plural(report.misses.size(), "near miss", "near misses")
     << "\"; style=\"rounded\"; color=\"gray60\";\n";
  for (auto [function, graph] : llvm::enumerate(report.afterGraph)) {
    os << "subgraph cluster_after_" << function << " {\n"
       << "id=\"after-" << function << "\"; class=\"function\"; label=\"@"
       << escape(graph.name) << "\"; style=\"dashed\"; color=\"gray70\";\n";
    printArguments('a', function, graph);
    // The fused ops of this function, outermost first in program order,
    // then those no longer in the program.
    SmallVector<int64_t> fusions;
    for (int64_t node : graph.ops) {
      int64_t f = report.nodes[node].fusion;
      if (f >= 0 && report.absorbedInto[f] < 0) {
        fusions.push_back(f);
        continue;
      }
      printOp('a', node, ", class=\"op\"");
      drawnIn[node] = function;
    }
    for (auto [f, event] : llvm::enumerate(report.fusions))
      if (report.function[f] == static_cast<int64_t>(function) &&
          report.absorbedInto[f] < 0 && !alive.count(event.node))
        fusions.push_back(f);
    for (int64_t f : fusions)
      printFusion(f, function);
    for (int64_t f : fusions)
      printFusionEdges(f);
    for (auto [from, to] : graph.edges) {
      os << source('a', function, from) << " -> a" << to;
      SmallVector<std::string> attributes;
      if (from >= 0 && !clusterOf(from).empty())
        attributes.push_back("ltail=" + clusterOf(from));
      if (!clusterOf(to).empty())
        attributes.push_back("lhead=" + clusterOf(to));
      if (!attributes.empty())
        os << " [" << llvm::join(attributes, ", ") << "]";
      os << ";\n";
      // What reads a fused op goes below its whole cluster.
      if (from >= 0)
        for (int64_t last : lastReplaced.lookup(from))
          os << "a" << last << " -> a" << to << " [style=invis];\n";
    }
    // Near misses beside their root.
    for (auto [k, miss] : llvm::enumerate(report.misses)) {
      auto at = drawnIn.find(miss.node);
      if (at == drawnIn.end() || at->second != static_cast<int64_t>(function))
        continue;
      os << "miss" << k << " [label=\"near miss\\n"
         << escape(miss.pattern)
         << "\", class=\"near-miss\", shape=note, style=\"dashed\", "
            "color=\"#c00000\", fontcolor=\"#c00000\"];\n"
         << "miss" << k << " -> a" << miss.node
         << " [class=\"near-miss\", style=dashed, color=\"#c00000\", "
            "fontcolor=\"#c00000\", label=\""
         << escape(wrap(miss.reason, 36)) << "\"];\n";
    }
    os << "}\n";
  }
  // A near miss whose root is not drawn (it went into a fused op that a
  // later fusion replaced): its note alone.
  for (auto [k, miss] : llvm::enumerate(report.misses))
    if (!drawnIn.count(miss.node))
      os << "miss" << k << " [label=\"near miss\\n"
         << escape(miss.pattern) << " at " << escape(miss.location) << ":\\n"
         << escape(wrap(miss.reason, 36))
         << "\", class=\"near-miss\", shape=note, style=\"dashed\", "
            "color=\"#c00000\", fontcolor=\"#c00000\"];\n";
  os << "}\n";
}

void DotWriter::print() {
  os << "digraph \"rlx fusion report\" {\n"
     << "graph [compound=true, fontname=\"Helvetica\", fontsize=11, "
        "nodesep=0.2, ranksep=0.3];\n"
     << "node [shape=box, style=\"rounded,filled\", fillcolor=\"white\", "
        "fontname=\"Helvetica\", fontsize=10, height=0.3];\n"
     << "edge [color=\"gray35\", arrowsize=0.6, fontname=\"Helvetica\", "
        "fontsize=9];\n";
  printBefore();
  printAfter();
  os << "}\n";
}

void rlx::printFusionReportDot(llvm::raw_ostream &os,
                               const FusionReport &report) {
  // The writer puts each statement on a line of its own; indent them by
  // the depth of the (sub)graphs around them.
  std::string dot;
  llvm::raw_string_ostream dotStream(dot);
  DotWriter(dotStream, report).print();
  SmallVector<StringRef> lines;
  StringRef(dot).split(lines, '\n', -1, /*KeepEmpty=*/false);
  unsigned depth = 0;
  for (StringRef line : lines) {
    line = line.trim();
    if (line == "}" && depth > 0)
      --depth;
    os.indent(2 * depth) << line << "\n";
    if (line.ends_with("{"))
      ++depth;
  }
}

// We run Graphviz rather than lay the graph out here: placing a few hundred
// nodes in ranks, ordering them against edge crossings, routing the edges
// around clusters and fitting the labels is what Graphviz's `dot` does
// well, and a layout of our own would be thousands of lines for a worse
// picture. Without it the DOT text is still there (format=dot) for any
// viewer.
FailureOr<std::string> rlx::findGraphvizDot(Location loc) {
  llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
  if (!dot) {
    emitError(loc) << "format=svg lays the graph out with Graphviz's 'dot', "
                      "which is not on PATH: install graphviz (Debian's "
                      "'graphviz' package; scripts/setup.sh installs it) or "
                      "use format=dot";
    return failure();
  }
  return *dot;
}

LogicalResult rlx::renderDotAsSVG(StringRef dotProgram, StringRef dot,
                                  llvm::raw_ostream &os, Location loc) {
  SmallString<128> input, output, errors;
  std::pair<SmallString<128> *, StringRef> files[] = {
      {&input, "dot"}, {&output, "svg"}, {&errors, "txt"}};
  for (auto [path, suffix] : files) {
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "rlx-fusion-report", suffix, *path)) {
      emitError(loc) << "cannot create a temporary file for Graphviz: "
                     << ec.message();
      return failure();
    }
  }
  llvm::FileRemover removeInput(input), removeOutput(output),
      removeErrors(errors);
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(input, ec);
    if (ec) {
      emitError(loc) << "cannot write '" << input << "': " << ec.message();
      return failure();
    }
    file << dot;
  }
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                          StringRef(errors)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(
      dotProgram, {dotProgram, "-Tsvg", input, "-o", output},
      /*Env=*/std::nullopt, redirects, /*SecondsToWait=*/0,
      /*MemoryLimit=*/0, &message);
  if (status != 0) {
    InFlightDiagnostic diag = emitError(loc)
                              << "Graphviz's '" << dotProgram << "' failed";
    if (!message.empty())
      diag << " (" << message << ")";
    if (auto text = llvm::MemoryBuffer::getFile(errors))
      diag << ": " << (*text)->getBuffer().trim();
    return failure();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> svg =
      llvm::MemoryBuffer::getFile(output);
  if (!svg) {
    emitError(loc) << "cannot read the SVG Graphviz wrote: "
                   << svg.getError().message();
    return failure();
  }
  os << (*svg)->getBuffer();
  return success();
}
