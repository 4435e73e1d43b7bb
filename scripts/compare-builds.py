#!/usr/bin/env python3
#===- scripts/compare-builds.py - one compiler output whatever builds it -===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
"""Runs every `rlx-opt %s ...` RUN line of the lit inputs with two builds of
rlx-opt (CI: the gcc-built Release one and the clang-built sanitized one)
and compares what they print. C++ leaves the order in which a call's
arguments are evaluated unspecified, so a builder call with two
op-creating arguments creates its ops in a different order under gcc and
clang; a module that prints differently is such a site (or another source
of nondeterminism: iteration over pointer-keyed maps).

  compare-builds.py RLX_OPT_A RLX_OPT_B [test dir or .mlir files...]

Prints one line per difference and `compare-builds: N run lines compared,
N identical, N differ, N skipped`; exits 1 when any differs. Skipped: RUN
lines that need more than %s (temporary files, other tools feeding
rlx-opt, lit conditionals), and those whose run takes too long.
"""
import difflib
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 120
# Sanitizer reports at exit (leaks in the MLIR libraries' static state)
# are not compiler output.
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")


def run_lines(path):
    """The RUN lines of `path`, continuation lines joined."""
    lines, current = [], None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
            if not m:
                continue
            text = m.group(1).rstrip()
            current = (current + " " if current else "") + text.rstrip("\\")
            if not text.endswith("\\"):
                lines.append(current)
                current = None
    return lines


def rlx_opt_args(run_line):
    """The arguments after `rlx-opt %s` of a RUN line that starts with it
    (under `not` or a lit `%if feature %{ ... %}` too) and reads nothing
    else, or None."""
    line = re.sub(r"^%if [^%]*%\{\s*(.*?)\s*%\}$", r"\1", run_line.strip())
    line = re.sub(r"^not ", "", line)
    first = line.split("|")[0]
    if not first.startswith("rlx-opt ") or "%" in first.replace("%s", ""):
        return None
    words = shlex.split(first)
    if "%s" not in words:
        return None
    # Redirections and diagnostics verification belong to lit's pipe.
    return [w for w in words[1:] if w not in ("2>&1",) and
            not w.startswith(("2>", ">"))]


def output(rlx_opt, args, path):
    cmd = [rlx_opt] + [path if a == "%s" else a for a in args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=TIMEOUT, env=ENV, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None
    # GPU binaries record how long the assembler took.
    timing = re.compile(r"LLVMIRToISATimeInMs = \d+")
    return (p.returncode, timing.sub("", p.stdout), timing.sub("", p.stderr))


def inputs(paths):
    for path in paths:
        if os.path.isdir(path):
            for d, _, files in sorted(os.walk(path)):
                for name in sorted(files):
                    if name.endswith(".mlir"):
                        yield os.path.join(d, name)
        else:
            yield path


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    a, b = argv[1], argv[2]
    paths = argv[3:] or [os.path.join(ROOT, "test")]
    compared = identical = skipped = 0
    differ = []
    for path in inputs(paths):
        for line in run_lines(path):
            args = rlx_opt_args(line)
            if args is None:
                if "rlx-opt " in line:
                    skipped += 1
                continue
            first, second = output(a, args, path), output(b, args, path)
            if first is None or second is None:
                skipped += 1
                continue
            compared += 1
            if first == second:
                identical += 1
                continue
            differ.append(path)
            rel = os.path.relpath(path, ROOT)
            print("DIFFERS %s: rlx-opt %s" % (rel, " ".join(args)))
            for what, x, y in (("exit", str(first[0]), str(second[0])),
                               ("stdout", first[1], second[1]),
                               ("stderr", first[2], second[2])):
                if x != y:
                    diff = list(difflib.unified_diff(
                        x.splitlines(), y.splitlines(), "a", "b", n=1,
                        lineterm=""))
                    print("  %s:\n    %s" % (what, "\n    ".join(diff[:20])))
    print("compare-builds: %d run lines compared, %d identical, %d differ, "
          "%d skipped" % (compared, identical, len(differ), skipped))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
