//===- MemoryReportSVG.cpp - the memory plan as a picture -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One panel per function: kernels along x (a column per kernel, a buffer
// spanning the columns of its live range, inclusive), the arena's offset up
// y (offset 0 at the bottom, the arena size at the top of the plot). Each
// rect carries its exact figures as data-* attributes (the pixels are
// rounded) and a <title> that browsers show on hover; a short label is
// written only where the rect is wide and tall enough to hold it.
//
//===----------------------------------------------------------------------===//

#include "MemoryReportSVG.h"
#include "RLX/Dialect/MIR/IR/LocationText.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::lir;

namespace {
/// Pixel geometry of one panel.
struct Geometry {
  static constexpr double left = 88, right = 96, top = 48, bottom = 44;
  static constexpr double plotHeight = 360;
  static constexpr double columnWidth = 24, minPlotWidth = 480,
                          maxPlotWidth = 1600;
  static constexpr double charWidth = 6.0, labelHeight = 12;

  int64_t kernels, yMax;
  double plotWidth;

  Geometry(const FunctionMemoryPlan &plan)
      : kernels(std::max<int64_t>(plan.kernels.size(), 1)),
        yMax(std::max<int64_t>({plan.arenaSize, plan.lowerBound, 1})) {
    plotWidth = std::clamp(columnWidth * kernels, minPlotWidth, maxPlotWidth);
  }
  double width() const { return left + plotWidth + right; }
  double height() const { return top + plotHeight + bottom; }
  double column() const { return plotWidth / kernels; }
  double x(int64_t kernel) const { return left + kernel * column(); }
  double y(int64_t offset) const {
    return top + plotHeight - plotHeight * offset / static_cast<double>(yMax);
  }
};
} // namespace

static llvm::raw_ostream &px(llvm::raw_ostream &os, double v) {
  return os << llvm::format("%.2f", v);
}

static void escape(llvm::raw_ostream &os, StringRef text) {
  for (char c : text) {
    switch (c) {
    case '&':
      os << "&amp;";
      break;
    case '<':
      os << "&lt;";
      break;
    case '>':
      os << "&gt;";
      break;
    case '"':
      os << "&quot;";
      break;
    case '\'':
      os << "&apos;";
      break;
    default:
      os << c;
    }
  }
}

/// 1536 -> "1.5 KiB": the figure a person reads on an axis or in a title.
static std::string formatBytes(int64_t bytes) {
  std::string s;
  llvm::raw_string_ostream os(s);
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  double v = bytes;
  unsigned u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  if (u == 0 || v == std::floor(v))
    os << static_cast<int64_t>(v) << " " << units[u];
  else
    os << llvm::format("%.1f", v) << " " << units[u];
  return s;
}

/// A step of 1, 2 or 5 times a power of ten giving at most `most` ticks.
static int64_t decimalStep(int64_t range, int64_t most) {
  int64_t step = 1;
  while (true) {
    for (int64_t m : {1, 2, 5})
      if (range / (step * m) <= most)
        return step * m;
    step *= 10;
  }
}

namespace {
/// What a rect says about its value.
struct Described {
  std::string name, op, location;
};
} // namespace

static Described describe(Value value, AsmState &state) {
  Described d;
  llvm::raw_string_ostream os(d.name);
  value.printAsOperand(os, state);
  if (Operation *def = value.getDefiningOp())
    d.op = def->getName().getStringRef().str();
  else
    d.op = "block argument";
  d.location = locationText(value.getLoc());
  return d;
}

static void printHoverText(llvm::raw_ostream &os, int64_t id,
                           const ArenaValue &b, const Described &d,
                           const FunctionMemoryPlan &plan) {
  os << "<title>";
  escape(os, d.name + " = " + d.op);
  if (b.root)
    os << " (view " << id << " of buffer " << *b.root << ", +" << b.offsetInRoot
       << " bytes)";
  else
    os << " (buffer " << id << ")";
  os << "\n";
  escape(os, d.location);
  os << "\n"
     << b.size << " bytes (" << formatBytes(b.size) << ") at offset "
     << b.offset << "\nlive kernels " << b.start << "-" << b.end;
  auto kernelName = [&](int64_t k) -> std::string {
    if (k < 0 || k >= static_cast<int64_t>(plan.kernels.size()))
      return "?";
    return plan.kernels[k]->getName().getStringRef().str();
  };
  os << " (";
  escape(os, kernelName(b.start) + " .. " + kernelName(b.end));
  os << ")</title>";
}

/// The width (px) free for a label at the left of rect `id`: up to the first
/// rect drawn over it (a later view of the same root whose bytes overlap),
/// and no wider than the rect.
static double labelRoom(const FunctionMemoryPlan &plan, int64_t id,
                        const Geometry &g) {
  const ArenaValue &b = plan.buffers[id];
  int64_t root = b.root.value_or(id);
  int64_t free = b.end + 1 - b.start;
  for (int64_t other = id + 1, e = plan.buffers.size(); other < e; ++other) {
    const ArenaValue &o = plan.buffers[other];
    if (o.root.value_or(other) != root || o.offset >= b.offset + b.size ||
        b.offset >= o.offset + o.size || o.end < b.start)
      continue;
    if (o.start <= b.start)
      return 0;
    free = std::min(free, o.start - b.start);
  }
  return free * g.column();
}

static void printPanel(llvm::raw_ostream &os, const PlannedFunction &f,
                       unsigned index, double y0) {
  const FunctionMemoryPlan &plan = *f.plan;
  Geometry g(plan);
  func::FuncOp func = f.func;
  AsmState state(func);
  StringRef name = func.getSymName();
  int64_t aliases = plan.getNumAliases();

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"function\" "
        "data-function=\"";
  escape(os, name);
  os << "\" x=\"0\" y=\"";
  px(os, y0) << "\" width=\"";
  px(os, g.width()) << "\" height=\"";
  px(os, g.height()) << "\" font-family=\"monospace\" font-size=\"10\">\n";

  // Heading: the text report's figures.
  os << "<text class=\"heading\" x=\"8\" y=\"17\" font-size=\"13\">@";
  escape(os, name);
  os << ": arena " << formatBytes(plan.arenaSize) << ", lower bound "
     << formatBytes(plan.lowerBound) << ", ratio "
     << llvm::format("%.4f", plan.lowerBound == 0
                                 ? 1.0
                                 : double(plan.arenaSize) / plan.lowerBound)
     << "</text>\n<text class=\"subheading\" x=\"8\" y=\"33\">planner "
     << getPlannerName(plan.planner) << ", alignment " << plan.alignment
     << ", naive " << formatBytes(plan.naiveSize) << "; " << plan.kernels.size()
     << " kernels, " << plan.buffers.size() - aliases << " buffers, " << aliases
     << " views</text>\n";

  // Axes and ticks. The y axis: power-of-two steps (KiB, MiB read evenly).
  double x0 = g.x(0), x1 = g.x(g.kernels), yBottom = g.y(0), yTop = g.y(g.yMax);
  os << "<g class=\"axes\" stroke=\"#444\" fill=\"none\">"
     << "<path d=\"M";
  px(os, x0) << " ";
  px(os, yTop) << " V";
  px(os, yBottom) << " H";
  px(os, x1) << "\"/></g>\n";
  os << "<g class=\"y-ticks\" text-anchor=\"end\">\n";
  int64_t yStep = llvm::PowerOf2Ceil(std::max<int64_t>(g.yMax / 8, 1));
  for (int64_t b = 0; b <= g.yMax; b += yStep) {
    double y = g.y(b);
    os << "<line x1=\"";
    px(os, x0 - 4) << "\" x2=\"";
    px(os, x0) << "\" y1=\"";
    px(os, y) << "\" y2=\"";
    px(os, y) << "\" stroke=\"#444\"/><text x=\"";
    px(os, x0 - 6) << "\" y=\"";
    px(os, y + 3) << "\">" << formatBytes(b) << "</text>\n";
  }
  os << "</g>\n<g class=\"x-ticks\" text-anchor=\"middle\">\n";
  int64_t xStep = decimalStep(g.kernels, 20);
  for (int64_t k = 0; k < g.kernels; k += xStep) {
    double x = g.x(k) + g.column() / 2;
    os << "<line x1=\"";
    px(os, x) << "\" x2=\"";
    px(os, x) << "\" y1=\"";
    px(os, yBottom) << "\" y2=\"";
    px(os, yBottom + 4) << "\" stroke=\"#444\"/><text x=\"";
    px(os, x) << "\" y=\"";
    px(os, yBottom + 15) << "\">" << k << "</text>\n";
  }
  os << "</g>\n<text class=\"x-label\" text-anchor=\"middle\" x=\"";
  px(os, (x0 + x1) / 2) << "\" y=\"";
  px(os, yBottom + 34) << "\">kernel (program order)</text>\n";
  os << "<text class=\"y-label\" text-anchor=\"middle\" transform=\"translate(";
  px(os, 14) << " ";
  px(os, (yTop + yBottom) / 2)
      << ") rotate(-90)\">offset in the arena</text>\n";

  // Buffers first, then the views over them.
  struct Label {
    double x, y;
    std::string text;
  };
  SmallVector<Label> labels;
  os << "<g class=\"buffers\">\n";
  for (bool views : {false, true}) {
    for (auto [id, b] : llvm::enumerate(plan.buffers)) {
      if (b.root.has_value() != views)
        continue;
      double hue = std::fmod(137.508 * b.root.value_or(id), 360.0);
      double x = g.x(b.start), w = (b.end + 1 - b.start) * g.column();
      double y = g.y(b.offset + b.size);
      double h = std::max(g.y(b.offset) - y, 1.0);
      if (views) {
        double inset = std::min(1.5, w / 4);
        x += inset;
        w -= 2 * inset;
      }
      os << "<rect class=\"" << (views ? "view" : "buffer") << "\" id=\"f"
         << index << "-" << id << "\" data-id=\"" << id << "\"";
      if (b.root)
        os << " data-root=\"" << *b.root << "\"";
      os << " data-offset=\"" << b.offset << "\" data-size=\"" << b.size
         << "\" data-start=\"" << b.start << "\" data-end=\"" << b.end
         << "\" x=\"";
      px(os, x) << "\" y=\"";
      px(os, y) << "\" width=\"";
      px(os, w) << "\" height=\"";
      px(os, h) << "\" fill=\"hsl(" << llvm::format("%.0f", hue)
                << (views ? ",60%,88%)" : ",55%,70%)") << "\" stroke=\"hsl("
                << llvm::format("%.0f", hue) << ",45%,35%)\"";
      if (views)
        os << " stroke-dasharray=\"3 2\"";
      os << ">";
      Described d = describe(b.value, state);
      printHoverText(os, id, b, d, plan);
      os << "</rect>\n";

      // A short label where it fits: "%5 matmul", else "%5".
      double room = labelRoom(plan, id, g) - 4;
      if (h < Geometry::labelHeight)
        continue;
      StringRef op = d.op;
      std::string longLabel = d.name + " " + op.rsplit('.').second.str();
      if (op.rsplit('.').second.empty())
        longLabel = d.name + " " + d.op;
      for (const std::string &text : {longLabel, d.name}) {
        if (text.size() * Geometry::charWidth <= room) {
          labels.push_back({x + 3, y + 10, text});
          break;
        }
      }
    }
  }
  os << "</g>\n<g class=\"labels\" fill=\"#111\" pointer-events=\"none\">\n";
  for (const Label &l : labels) {
    os << "<text x=\"";
    px(os, l.x) << "\" y=\"";
    px(os, l.y) << "\">";
    escape(os, l.text);
    os << "</text>\n";
  }
  os << "</g>\n";
  if (plan.buffers.empty()) {
    os << "<text x=\"";
    px(os, (x0 + x1) / 2) << "\" y=\"";
    px(os, (yTop + yBottom) / 2)
        << "\" text-anchor=\"middle\">no buffers in the arena</text>\n";
  }

  // The lower bound, and the arena's top where it is apart from it.
  double yLower = g.y(plan.lowerBound), yArena = g.y(plan.arenaSize);
  os << "<line class=\"lower-bound\" data-bytes=\"" << plan.lowerBound
     << "\" x1=\"";
  px(os, x0) << "\" x2=\"";
  px(os, x1) << "\" y1=\"";
  px(os, yLower) << "\" y2=\"";
  px(os, yLower) << "\" stroke=\"#c00\" stroke-width=\"1.5\" "
                    "stroke-dasharray=\"6 3\"><title>lower bound (peak of "
                    "live bytes): "
                 << plan.lowerBound << " bytes</title></line>\n";
  os << "<text class=\"lower-bound-label\" x=\"";
  px(os, x1 + 6) << "\" y=\"";
  px(os, yLower + 3) << "\" fill=\"#c00\">lower bound</text>\n";
  if (std::abs(yArena - yLower) >= Geometry::labelHeight) {
    os << "<line class=\"arena-size\" data-bytes=\"" << plan.arenaSize
       << "\" x1=\"";
    px(os, x0) << "\" x2=\"";
    px(os, x1) << "\" y1=\"";
    px(os, yArena) << "\" y2=\"";
    px(os, yArena) << "\" stroke=\"#444\" stroke-dasharray=\"2 2\"/>\n";
    os << "<text class=\"arena-size-label\" x=\"";
    px(os, x1 + 6) << "\" y=\"";
    px(os, yArena + 3) << "\">arena</text>\n";
  }
  os << "</svg>\n";
}

void lir::printMemoryReportSVG(llvm::raw_ostream &os,
                               ArrayRef<PlannedFunction> functions) {
  double width = 0, height = 0;
  for (const PlannedFunction &f : functions) {
    Geometry g(*f.plan);
    width = std::max(width, g.width());
    height += g.height();
  }
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  px(os, width) << "\" height=\"";
  px(os, height) << "\" viewBox=\"0 0 ";
  px(os, width) << " ";
  px(os, height) << "\">\n";
  os << "<rect class=\"background\" width=\"100%\" height=\"100%\" "
        "fill=\"white\"/>\n";
  double y = 0;
  for (auto [index, f] : llvm::enumerate(functions)) {
    printPanel(os, f, index, y);
    y += Geometry(*f.plan).height();
  }
  os << "</svg>\n";
}

void lir::printMemoryReportHTML(llvm::raw_ostream &os,
                                ArrayRef<PlannedFunction> functions) {
  os << "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>rlx memory report</title>\n<style>\n"
        "body { font-family: sans-serif; margin: 16px; }\n"
        ".legend span { margin-right: 18px; }\n"
        ".legend svg { vertical-align: middle; margin-right: 4px; }\n"
        "</style>\n</head>\n<body>\n<h1>rlx memory report</h1>\n";
  os << "<p class=\"legend\">"
        "<span><svg width=\"24\" height=\"12\"><rect width=\"24\" "
        "height=\"12\" fill=\"hsl(0,55%,70%)\" stroke=\"hsl(0,45%,35%)\"/>"
        "</svg>buffer (its bytes over its live kernels)</span>"
        "<span><svg width=\"24\" height=\"12\"><rect width=\"24\" "
        "height=\"12\" fill=\"hsl(0,60%,88%)\" stroke=\"hsl(0,45%,35%)\" "
        "stroke-dasharray=\"3 2\"/></svg>view or in-place result, inside "
        "its buffer</span>"
        "<span><svg width=\"24\" height=\"12\"><line x1=\"0\" x2=\"24\" "
        "y1=\"6\" y2=\"6\" stroke=\"#c00\" stroke-width=\"1.5\" "
        "stroke-dasharray=\"6 3\"/></svg>lower bound: the most bytes live at "
        "one kernel</span></p>\n"
        "<p>x: kernels in program order; y: offset in the arena (0 at the "
        "bottom). Hover a rectangle for its value, op, source location, size "
        "and live range.</p>\n";
  for (auto [index, f] : llvm::enumerate(functions)) {
    func::FuncOp func = f.func;
    os << "<h2>@";
    escape(os, func.getSymName());
    os << "</h2>\n<div class=\"plot\">\n";
    printPanel(os, f, index, 0);
    os << "</div>\n";
  }
  os << "</body>\n</html>\n";
}
