#!/usr/bin/env python3
#===- bench/plot.py - a bench table as bars against the best peer --------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
"""Draws a benchmark's table as bars against the best peer per workload.

For each workload, each peer's figure against the best peer's of that
workload, so that the best reads 1.00 and every other bar how many times
worse it is. The bench scripts call write_ratio_plot with the numbers
they printed (`--plot FILE`); a machine without matplotlib writes the
rows as JSON instead, which this file draws elsewhere:

  python3 bench/plot.py ROWS.json OUT.svg|OUT.png

ROWS.json: {"title": str, "lower_is_better": bool, "unit": str,
"rows": [[workload, peer, value], ...]}.

matplotlib comes from Debian (python3-matplotlib), imported only when a
plot is drawn: the scripts run without it until one is asked for.
"""
import argparse
import json
import sys

FORMATS = {".svg": "svg", ".png": "png"}
# A fixed salt for the ids of the SVG's clip paths (random otherwise) and no
# date: a rerun on the same numbers writes the same bytes. Text stays
# <text>, not glyphs drawn as paths: a reader can search it.
RC = {"svg.hashsalt": "rlx-bench", "svg.fonttype": "none"}
METADATA = {"Date": None}
BAR_INCHES = 0.22  # one bar with its value label
GROUP_GAP_INCHES = 0.2  # between workloads
NAME_CHAR_INCHES = 0.075  # a character of a workload's name at 10 pt


def import_matplotlib():
    """matplotlib's Figure, or an ImportError that names the package.

    Figure draws through Agg (PNG) and the SVG backend without pyplot, so
    no GUI backend is ever picked and no figure outlives its call."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError("bench plots need matplotlib: apt-get install "
                          "python3-matplotlib (Debian's package)") from e
    return matplotlib, Figure


def output_format(path):
    """'svg' or 'png' by the path's suffix."""
    for suffix, fmt in FORMATS.items():
        if path.endswith(suffix):
            return fmt
    raise ValueError("a plot is .svg or .png, not %r" % path)


def plot_file(path):
    """argparse type of --plot: checks the suffix and matplotlib before a
    long run rather than after it."""
    try:
        output_format(path)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))
    import_matplotlib()
    return path


def write_ratio_plot(path, title, rows, lower_is_better=True, unit=""):
    """Writes `rows`, (workload, peer, value) triples, as a plot at `path`
    (.svg or .png). Each bar is value / least value of its workload
    (`lower_is_better`: times) or greatest / value (throughputs); bars
    group by workload in the rows' order, one color per peer. The bar of
    workload i and peer j (counted from 0 in the rows' order) has the SVG
    id bar-i-j, the line at 1.00 the id ratio-1: what a reader of the SVG
    finds them by."""
    fmt = output_format(path)
    matplotlib, Figure = import_matplotlib()
    if not rows:
        raise ValueError("no rows to plot")
    if any(value <= 0 for _, _, value in rows):
        raise ValueError("values must be positive: %r" % (rows,))
    if len({(w, p) for w, p, _ in rows}) != len(rows):
        raise ValueError("a workload has a peer twice: %r" % (rows,))
    workloads = list(dict.fromkeys(w for w, _, _ in rows))
    peers = list(dict.fromkeys(p for _, p, _ in rows))
    pick = min if lower_is_better else max
    best = {w: pick(v for rw, _, v in rows if rw == w) for w in workloads}

    def ratio(workload, value):
        return value / best[workload] if lower_is_better else \
            best[workload] / value
    bar = 0.8 / len(peers)  # of one workload's unit of height
    # The bars keep their size however many rows come, and the names
    # their room beside them however long.
    width = 8 + NAME_CHAR_INCHES * max(len(w) for w in workloads)
    height = 1.6 + len(workloads) * (len(peers) * BAR_INCHES +
                                      GROUP_GAP_INCHES)
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(width, height), layout="constrained")
        ax = fig.add_subplot()
        for j, peer in enumerate(peers):
            mine = [(workloads.index(w), v, ratio(w, v))
                    for w, p, v in rows if p == peer]
            offset = (j - (len(peers) - 1) / 2) * bar
            bars = ax.barh([i + offset for i, _, _ in mine],
                           [r for _, _, r in mine], height=bar * 0.9,
                           color="C%d" % (j % 10), label=peer)
            for (i, _, _), patch in zip(mine, bars):
                patch.set_gid("bar-%d-%d" % (i, j))
            ax.bar_label(bars, fontsize=7, padding=3, labels=[
                "%.2fx (%.4g%s)" % (r, v, " " + unit if unit else "")
                for _, v, r in mine])
        ax.axvline(1.0, color="black", linewidth=0.8, linestyle="--",
                   gid="ratio-1")
        # Room on the right for the labels of the longest bars.
        ax.set_xlim(0, 1.3 * max(ratio(w, v) for w, _, v in rows))
        ax.set_yticks(range(len(workloads)), workloads)
        ax.set_ylim(len(workloads) - 0.5, -0.5)  # first row on top
        ax.set_xlabel(("%s: value / least value of the workload"
                       if lower_is_better else
                       "%s: greatest value of the workload / value") %
                      (unit or "value") + " (1.00 = best)")
        fig.suptitle(title)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.savefig(path, format=fmt, metadata=METADATA)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("rows_json", help="rows written by a bench's --rows-json")
    p.add_argument("out", type=plot_file, help="the plot, .svg or .png")
    a = p.parse_args()
    with open(a.rows_json) as f:
        table = json.load(f)
    write_ratio_plot(a.out, table["title"], table["rows"],
                     table["lower_is_better"], table["unit"])


if __name__ == "__main__":
    sys.exit(main())
