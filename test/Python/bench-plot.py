# RUN: %python %s
# bench/plot.py, which draws the bench scripts' tables: one bar per row as
# long as its ratio to the best peer of its workload (ratios worked out
# here from the values), the line at 1.00, the title; the same bytes on a
# rerun and through the JSON that a GPU machine without matplotlib writes.
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "bench")
sys.path.insert(0, BENCH)
import plot  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
WORKLOADS = ["softmax 4096x4096", "matmul 1024^3",
             "a BERT-base layer at batch 8 with a long name"]
PEERS = ["rlx", "rlx --blas", "torch"]
VALUES = [[2.0, 4.0, 5.0], [30.0, 15.0, 10.0], [6.0, 6.0, 3.0]]
ROWS = [(w, p, VALUES[i][j]) for i, w in enumerate(WORKLOADS)
        for j, p in enumerate(PEERS)]
TITLE = "CPU: median ms against the fastest peer"


def path_xs_ys(element):
    """The x and y coordinates of the first <path> at or under
    `element`."""
    path = next(element.iter(SVG + "path"))
    nums = [float(t) for t in path.get("d").replace("M", " ").replace(
        "L", " ").replace("z", " ").split()]
    return nums[0::2], nums[1::2]


def check(svg_path, title, expected, values):
    """`expected[i][j]`: the ratio the bar of workload i and peer j must
    show, `values[i][j]` the value its label names."""
    root = ET.parse(svg_path).getroot()
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    bars = {k: v for k, v in by_id.items() if k.startswith("bar-")}
    assert len(bars) == len(WORKLOADS) * len(PEERS), sorted(bars)
    lefts, widths, heights, centers = {}, {}, {}, {}
    for i in range(len(WORKLOADS)):
        for j in range(len(PEERS)):
            xs, ys = path_xs_ys(bars["bar-%d-%d" % (i, j)])
            lefts[i, j], widths[i, j] = min(xs), max(xs) - min(xs)
            heights[i, j], centers[i, j] = max(ys) - min(ys), sum(ys) / len(ys)
    # Every bar starts at 0 on one scale: width / ratio is one constant.
    scale = widths[0, 0] / expected[0][0]
    for (i, j), width in widths.items():
        assert abs(lefts[i, j] - lefts[0, 0]) < 1e-3, lefts
        assert abs(width / expected[i][j] - scale) < 1e-3 * scale, \
            (i, j, width / scale, expected[i][j])
        assert abs(heights[i, j] - heights[0, 0]) < 1e-3, heights
    # Grouped by workload, first on top, peers in order within each.
    order = sorted(centers, key=centers.get)
    assert order == sorted(centers), order
    # The dashed line at 1.00: vertical, where a ratio of 1 ends.
    xs, _ = path_xs_ys(by_id["ratio-1"])
    assert len(set(xs)) == 1, xs
    assert abs(xs[0] - (lefts[0, 0] + scale)) < 1e-3, (xs, scale)
    texts = [t.text for t in root.iter(SVG + "text")]
    assert title in texts, texts
    for name in WORKLOADS + PEERS:
        assert name in texts, (name, texts)
    for i, row in enumerate(expected):
        for j, r in enumerate(row):
            label = "%.2fx (%.4g ms)" % (r, values[i][j])
            assert label in texts, (label, texts)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "times.svg")
    plot.write_ratio_plot(out, TITLE, ROWS, unit="ms")
    # Times: each value over the least of its workload.
    times = [[v / min(row) for v in row] for row in VALUES]
    assert times[0] == [1.0, 2.0, 2.5] and times[1][2] == 1.0
    check(out, TITLE, times, VALUES)

    # Throughputs: the greatest of the workload over each value.
    out_rate = os.path.join(tmp, "rates.svg")
    plot.write_ratio_plot(out_rate, "tokens/s", ROWS, lower_is_better=False,
                          unit="ms")
    rates = [[max(row) / v for v in row] for row in VALUES]
    assert rates[0] == [2.5, 1.25, 1.0]
    check(out_rate, "tokens/s", rates, VALUES)

    with open(out, "rb") as f:
        first = f.read()
    rerun = os.path.join(tmp, "rerun.svg")
    plot.write_ratio_plot(rerun, TITLE, ROWS, unit="ms")
    with open(rerun, "rb") as f:
        assert f.read() == first, "a rerun wrote other bytes"

    # The GPU bench's --rows-json, drawn by plot.py's command line.
    rows_json = os.path.join(tmp, "rows.json")
    with open(rows_json, "w") as f:
        json.dump({"title": TITLE, "lower_is_better": True, "unit": "ms",
                   "rows": ROWS}, f)
    from_json = os.path.join(tmp, "from_json.svg")
    subprocess.run([sys.executable, os.path.join(BENCH, "plot.py"),
                    rows_json, from_json], check=True)
    with open(from_json, "rb") as f:
        assert f.read() == first, "the JSON path drew another SVG"

    png = os.path.join(tmp, "times.png")
    plot.write_ratio_plot(png, TITLE, ROWS, unit="ms")
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"

    for bad in ("times.pdf", "times"):
        try:
            plot.write_ratio_plot(os.path.join(tmp, bad), TITLE, ROWS)
        except ValueError as e:
            assert ".svg or .png" in str(e), e
        else:
            raise AssertionError("wrote " + bad)

# Without matplotlib, the error names Debian's package.
missing = subprocess.run(
    [sys.executable, "-c", "import sys; sys.modules['matplotlib'] = None; "
     "sys.path.insert(0, sys.argv[1]); import plot; "
     "plot.write_ratio_plot('x.svg', 't', [('w', 'p', 1.0)])", BENCH],
    capture_output=True, text=True)
assert missing.returncode != 0
assert "ImportError" in missing.stderr and \
    "python3-matplotlib" in missing.stderr, missing.stderr
print("ok")
