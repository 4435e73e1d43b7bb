"""Arena size per planner against the lower bound, for four workloads.

For each workload: rlx-opt --rlx-memory-report=format=json (the same
analysis as --rlx-plan-memory) gives the lower bound (the most bytes live
at one kernel), the arenas of the greedy (the seeds' size-sorted first-fit)
and best-fit (global decreasing-size best-fit) planners, the naive size
(every intermediate in an allocation of its own), and the planner `auto`
keeps. Weights and function arguments/results are outside the arena.

The MLP training step comes twice: with the backward that rlx.grad
generates (bench/memory/mlp_train_step_grad.mlir, planned after
--rlx-expand-autodiff and --inline) and with a backward written by hand in MIR
(bench/memory/mlp_train_step.mlir), to show what the generated one costs.

--plot FILE (.svg or .png) draws each workload's lower bound, greedy,
best-fit and naive sizes against the least of them, the lower bound
(bench/plot.py).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import plot  # noqa: E402
RLX_OPT = os.environ.get("RLX_OPT", os.path.join(ROOT, "build/bin/rlx-opt"))
TRAIN_STEP = os.path.join(ROOT, "bench/memory/mlp_train_step_grad.mlir")
TRAIN_PASSES = ["--rlx-expand-autodiff", "--inline", "--symbol-dce"]
TRAIN_FUNCTION = "mlp_train_step"
HAND_STEP = os.path.join(ROOT, "bench/memory/mlp_train_step.mlir")


def bert_stack(layers):
    """`layers` BERT-base layers (examples/bert_encoder_layer.mlir's body)
    chained, each with its own weights as rlx.params."""
    text = open(os.path.join(ROOT, "examples/bert_encoder_layer.mlir")).read()
    sig = re.search(r"func\.func @bert_layer\((.*?)\)\s*->", text, re.S)
    weights = re.findall(r"%(\w+): (tensor<[^>]*>)", sig.group(1))[1:]
    body = text[sig.end():]
    body = body[body.index("{") + 1:body.index("return")]
    body = "\n".join(l for l in body.splitlines()
                     if not l.strip().startswith("//"))
    out = ["func.func @bert_%d_layers(%%x: tensor<1x128x768xf32>) "
           "-> tensor<1x128x768xf32> {" % layers]
    prev = "x"
    for i in range(layers):
        for name, ty in weights:
            out.append('  %%l%d_%s = "rlx.param"() {name = "layer%d.%s"} '
                       ': () -> %s' % (i, name, i, name, ty))
        def rename(m):
            n = m.group(1)
            return "%" + (prev if n == "x" else "l%d_%s" % (i, n))
        out.append(re.sub(r"%(\w+)", rename, body))
        prev = "l%d_y" % i
    out.append("  return %%%s : tensor<1x128x768xf32>\n}" % prev)
    return "\n".join(out)


def report(path, passes, function):
    cmd = [RLX_OPT, path] + passes + [
        "--rlx-memory-report=format=json", "-o", os.devnull]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        row = json.loads(line)
        if row["function"] == function:
            return row
    raise SystemExit("no report for @%s in %s" % (function, path))


def mib(n):
    return "%.2f" % (n / 2**20)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--markdown", action="store_true",
                        help="print the table as Markdown")
    parser.add_argument("--plot", type=plot.plot_file, metavar="FILE",
                        help="also draw the table (.svg or .png)")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    stack = os.path.join(tmp, "bert12.mlir")
    open(stack, "w").write(bert_stack(12))
    workloads = [
        ("BERT-base layer (1x128)", os.path.join(
            ROOT, "examples/bert_encoder_layer.mlir"), [], "bert_layer"),
        ("Llama decoder layer (1x16, 512)", os.path.join(
            ROOT, "examples/llama_layer_hir.mlir"), ["--rlx-lower-hir"],
         "llama_layer_hir"),
        ("BERT-base 12 layers (1x128)", stack, [], "bert_12_layers"),
        ("MLP train step (128x784, 512, 512, 10)", TRAIN_STEP, TRAIN_PASSES,
         TRAIN_FUNCTION),
        ("same, backward by hand*", HAND_STEP, [], "mlp_train_step"),
    ]
    rows = [(name, report(path, passes, fn))
            for name, path, passes, fn in workloads]
    head = ["workload", "kernels", "buffers", "aliases", "lower bound MiB",
            "greedy MiB", "best-fit MiB", "naive MiB", "chosen",
            "chosen / bound"]
    table = [head]
    for name, r in rows:
        table.append([name, str(r["kernels"]), str(r["buffers"]),
                      str(r["aliases"]), mib(r["lower_bound"]),
                      mib(r["greedy"]), mib(r["best_fit"]), mib(r["naive"]),
                      r["planner"], "%.4f" % r["ratio"]])
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in table[1:]:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in table) for i in range(len(head))]
        for row in table:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                            for i, (c, w) in enumerate(zip(row, widths))))
    print("\n* backward written by hand in MIR, for comparison with the "
          "generated one; forward activations live until the backward reads "
          "them.")
    print("bytes: " + "; ".join(
        "%s: bound %d, greedy %d, best-fit %d, naive %d" % (
            n, r["lower_bound"], r["greedy"], r["best_fit"], r["naive"])
        for n, r in rows))
    worst = max(r["ratio"] for _, r in rows)
    print("worst chosen / lower bound: %.4f (target <= 1.05)" % worst)
    if args.plot:
        plot.write_ratio_plot(
            args.plot, "Arena per planner against the lower bound",
            [(name, peer, r[key] / 2**20) for name, r in rows
             for peer, key in (("lower bound", "lower_bound"),
                               ("greedy", "greedy"), ("best-fit", "best_fit"),
                               ("naive", "naive"))], unit="MiB")


if __name__ == "__main__":
    sys.exit(main())
