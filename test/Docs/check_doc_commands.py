#!/usr/bin/env python3
# ===- test/Docs/check_doc_commands.py - run the commands the docs show --=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# Runs every tool command shown in the ``` code blocks of README.md and
# docs/*.md, so that an example cannot drift from the tools.
#
#   check_doc_commands.py --root REPO --tools BUILD/bin
#                         [--disabled-targets=cuda,...] [-v] [FILE.md...]
#
# What counts as a command. In a ``` block of shell commands (info string
# `sh`, `bash`, `shell`, `console` or none; other languages such as `mlir`,
# `text` or `c` show files and output), a line that starts with
# `build/bin/` or `rlx-` (after an optional `$ ` prompt, with no indentation)
# is a tool command; a trailing `\` continues it on the next line. When any line of a block
# starts with `$ `, only such lines are commands and the lines after one
# (up to the next `$ ` line) are its shown output. Other commands (python3,
# cc, bash) are not run: a tool command may only read files that are in
# the repository or that an earlier tool command of the same page wrote.
#
# How it runs. Each page gets a scratch folder that holds a symbolic link
# to every top-level entry of REPO (but build/), and its commands run
# there, in order, with bash: paths relative to the repository root
# resolve as in a checkout, and the files a command writes (-o mlp.o,
# --output=y.npy) land in the scratch folder, not in the tree. `build/bin/`
# in a command is replaced by the --tools folder, which also comes first
# on PATH (for commands that start with `rlx-`), and the lib/ folder beside
# it is added to LD_LIBRARY_PATH.
#
# Markers. Words after the language in the block's info string
# (```console fails) say how its commands are checked:
#
#   (none)        every command must exit with 0; shown output is not
#                 compared (it may hold timings or random checksums).
#   output        every command must exit with 0, and each shown output
#                 line (but `...`) must appear, in order, among the lines
#                 the command printed (stdout then stderr).
#   fails         every command must exit non-zero (an expected error), and
#                 each shown output line must appear as with `output`.
#   cuda-toolkit  run only where the CUDA toolkit is installed
#                 (--cuda-toolkit, default /usr/local/cuda, with
#                 nvvm/libdevice/libdevice.10.bc); skipped elsewhere.
#   gpu           needs an NVIDIA GPU: not run, counted as skipped.
#   file=PATH     the block shows the file PATH (relative to REPO): its
#                 text must equal the file's. Combines with the above.
#
# A build that leaves compilation targets out (RLX_ENABLE_<T>=OFF; lit
# passes them as --disabled-targets) skips the commands that need one:
# those of the target's own page (docs/<T>.md), and elsewhere those naming
# it as `target=<t>`, `--<t>-...` or `rlx-<t>-...` (its pipeline, passes,
# options, runner) and `--rlx-to-gpu` without a `target=` (the GPU front
# legalizes for cuda then).
#
# With --no-python (a sanitized build), the commands of the tools that are
# Python programs over the C API (rlx-generate) are skipped, and so are
# those that run a program on the Vulkan driver (`rlx-run --target=vulkan`,
# `rlx-vulkan-run LIB`): lavapipe is not instrumented and keeps allocations
# to the process's end, which LeakSanitizer reports (test/Integration/Vulkan
# is unsupported there for the same reason).
#
# An unknown marker is an error. The checker prints one line per failure
# (page, line, command, exit status, the end of the output) and a summary
# with the number of commands it ran; it exits with 1 when any failed.
#
# ===---------------------------------------------------------------------=== #

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOOL_PREFIXES = ("build/bin/", "rlx-")
SHELL_LANGUAGES = {"", "sh", "bash", "shell", "console"}
MARKERS = {"output", "fails", "cuda-toolkit", "gpu"}
# The tools that are Python programs over the C API (--no-python).
PYTHON_TOOLS = ("rlx-generate",)


def runs_vulkan_driver(text):
    """Whether the command `text` runs a program on the Vulkan driver
    (rlx-run --target=vulkan, rlx-vulkan-run on a library; not the
    runner's --print-* queries)."""
    words = text.split()
    tool = os.path.basename(words[0])
    if tool == "rlx-run":
        return "--target=vulkan" in words
    return tool == "rlx-vulkan-run" and len(words) > 1 and \
        not words[1].startswith("--")
FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")


class Block:
    """One ``` block: its info string's language and markers, and lines."""

    def __init__(self, path, line, language, markers, file, lines):
        self.path = path  # the page, relative to the root
        self.line = line  # 1-based line of the first content line
        self.language = language
        self.markers = markers
        self.file = file
        self.lines = lines


class Command:
    def __init__(self, block, line, text, shown):
        self.block = block
        self.line = line  # 1-based line in the page
        self.text = text  # the command, continuation lines joined
        self.shown = shown  # the output lines shown after it


def parse_info(info, where, errors):
    words = info.split()
    language = ""
    if words and words[0] not in MARKERS and not words[0].startswith("file="):
        language = words.pop(0)
    markers, file = set(), None
    for word in words:
        if word.startswith("file="):
            file = word[len("file="):]
        elif word in MARKERS:
            markers.add(word)
        else:
            errors.append("%s: unknown marker '%s' in the info string "
                          "(known: %s, file=PATH)"
                          % (where, word, ", ".join(sorted(MARKERS))))
    if "output" in markers and "fails" in markers:
        errors.append("%s: 'output' and 'fails' exclude each other" % where)
    return language, markers, file


def read_blocks(root, page, errors):
    """The ``` blocks of one page."""
    with open(os.path.join(root, page), encoding="utf-8") as f:
        text = f.read().splitlines()
    blocks, i = [], 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        where = "%s:%d" % (page, i + 1)
        language, markers, file = parse_info(info, where, errors)
        start, i = i + 1, i + 1
        body = []
        while i < len(text):
            close = text[i].strip()
            if close.startswith(fence) and set(close) == {"`"}:
                break
            # Drop the fence's indentation, as Markdown does.
            line = text[i]
            body.append(line[len(indent):] if line.startswith(indent) else
                        line.lstrip())
            i += 1
        else:
            errors.append("%s: the ``` block is not closed" % where)
        i += 1
        blocks.append(Block(page, start + 1, language, markers, file, body))
    return blocks


def is_tool_command(text):
    return text.startswith(TOOL_PREFIXES)


def commands_of(block):
    """The tool commands of a block, with their shown output."""
    if block.language not in SHELL_LANGUAGES:
        return []
    session = any(l.startswith("$ ") or l == "$" for l in block.lines)
    result, current, i = [], None, 0
    while i < len(block.lines):
        line, number = block.lines[i], block.line + i
        if session and not line.startswith("$ "):
            if current is not None:
                current.shown.append(line)
            i += 1
            continue
        text = line[2:] if session else line
        # Join continuation lines.
        while text.rstrip().endswith("\\") and i + 1 < len(block.lines):
            i += 1
            text = text.rstrip()[:-1].rstrip() + " " + block.lines[i].strip()
        i += 1
        text = text.rstrip()
        if is_tool_command(text):
            current = Command(block, number, text, [])
            result.append(current)
        else:
            current = None  # not ours: its output is not checked either
    return result


def disabled_target_of(page, text, disabled):
    """The target in `disabled` that the command `text` of `page` needs, or
    None."""
    name = os.path.splitext(os.path.basename(page))[0].lower()
    if name in disabled:
        return name
    if "cuda" in disabled and re.search(r"--rlx-to-gpu(?![\w-])", text) and \
            "target=" not in text:
        return "cuda"
    for target in disabled:
        if re.search(r"(?:target=|--|rlx-)%s(?![\w.])" % re.escape(target),
                     text):
            return target
    return None


def make_scratch(root):
    """A folder that looks like the repository root but keeps new files."""
    scratch = tempfile.mkdtemp(prefix="rlx-doc-")
    for entry in os.listdir(root):
        if entry in ("build", ".git"):
            continue
        os.symlink(os.path.join(root, entry), os.path.join(scratch, entry))
    return scratch


def shown_lines_appear(shown, printed):
    """Whether every shown line (but `...`) is a printed line, in order."""
    want = [l.rstrip() for l in shown if l.strip() and l.strip() != "..."]
    have = [l.rstrip() for l in printed.splitlines()]
    pos = 0
    for line in want:
        while pos < len(have) and have[pos] != line:
            pos += 1
        if pos == len(have):
            return line
        pos += 1
    return None


def tail(text, lines=12):
    kept = text.rstrip().splitlines()[-lines:]
    return "\n".join("    | " + l for l in kept)


def main():
    parser = argparse.ArgumentParser(
        description="Run the tool commands shown in README.md and docs/*.md")
    parser.add_argument("--root", required=True,
                        help="the repository root (README.md, docs/)")
    parser.add_argument("--tools",
                        default=os.path.dirname(os.environ.get("RLX_OPT", "")),
                        help="the folder holding rlx-opt, rlx-run and "
                        "rlx-compile (default: that of $RLX_OPT)")
    parser.add_argument("--cuda-toolkit", default="/usr/local/cuda")
    parser.add_argument("--disabled-targets", default="",
                        help="comma-separated compilation targets the "
                        "build left out; commands that need one are "
                        "skipped")
    parser.add_argument("--no-python", action="store_true",
                        help="skip the commands of the tools that are "
                        "Python programs over RLX's C API (%s): a "
                        "sanitized build's librlx_c.so cannot load into "
                        "an uninstrumented python3" % ", ".join(
                            PYTHON_TOOLS))
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds one command may run")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print each command as it runs")
    parser.add_argument("pages", nargs="*",
                        help="pages relative to the root (default: "
                        "README.md and docs/*.md)")
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    tools = os.path.abspath(args.tools) if args.tools else ""
    if not tools or not os.path.isfile(os.path.join(tools, "rlx-opt")):
        sys.exit("check_doc_commands: no rlx-opt in --tools '%s'" % tools)
    pages = args.pages or (
        ["README.md"] +
        sorted(os.path.relpath(p, root)
               for p in glob.glob(os.path.join(root, "docs", "*.md"))))
    has_toolkit = os.path.isfile(os.path.join(
        args.cuda_toolkit, "nvvm", "libdevice", "libdevice.10.bc"))
    disabled = [t for t in args.disabled_targets.split(",") if t]

    env = dict(os.environ)
    env["PATH"] = tools + os.pathsep + env.get("PATH", "")
    lib = os.path.join(os.path.dirname(tools), "lib")
    env["LD_LIBRARY_PATH"] = lib + (
        os.pathsep + env["LD_LIBRARY_PATH"]
        if env.get("LD_LIBRARY_PATH") else "")

    errors, failures = [], []
    ran, skipped, files_checked = 0, [], 0
    for page in pages:
        blocks = read_blocks(root, page, errors)
        scratch = make_scratch(root)
        try:
            for block in blocks:
                if block.file:
                    files_checked += 1
                    path = os.path.join(root, block.file)
                    where = "%s:%d" % (block.path, block.line - 1)
                    if not os.path.isfile(path):
                        failures.append("%s: file=%s: no such file"
                                        % (where, block.file))
                    else:
                        with open(path, encoding="utf-8") as f:
                            want = f.read().rstrip("\n").splitlines()
                        if [l.rstrip() for l in want] != \
                                [l.rstrip() for l in block.lines]:
                            failures.append(
                                "%s: the block differs from %s; copy the "
                                "file into the page again" % (where,
                                                              block.file))
                for cmd in commands_of(block):
                    where = "%s:%d" % (cmd.block.path, cmd.line)
                    if "gpu" in block.markers:
                        skipped.append("%s: needs a GPU: %s" % (where,
                                                                 cmd.text))
                        continue
                    if "cuda-toolkit" in block.markers and not has_toolkit:
                        skipped.append("%s: needs the CUDA toolkit: %s"
                                       % (where, cmd.text))
                        continue
                    tool = os.path.basename(cmd.text.split()[0])
                    if args.no_python and tool in PYTHON_TOOLS:
                        skipped.append("%s: %s is a Python program: %s"
                                       % (where, tool, cmd.text))
                        continue
                    if args.no_python and runs_vulkan_driver(cmd.text):
                        skipped.append("%s: runs a program on the Vulkan "
                                       "driver, which a sanitized build "
                                       "reports leaks in: %s"
                                       % (where, cmd.text))
                        continue
                    target = disabled_target_of(page, cmd.text, disabled)
                    if target:
                        skipped.append("%s: the build has no %s target: %s"
                                       % (where, target, cmd.text))
                        continue
                    text = cmd.text.replace("build/bin/", tools + "/")
                    if args.verbose:
                        print("%s: %s" % (where, cmd.text), flush=True)
                    try:
                        proc = subprocess.run(
                            ["bash", "-c", text], cwd=scratch, env=env,
                            stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, errors="replace",
                            timeout=args.timeout)
                    except subprocess.TimeoutExpired:
                        failures.append("%s: timed out after %d s: %s"
                                        % (where, args.timeout, cmd.text))
                        ran += 1
                        continue
                    ran += 1
                    printed = proc.stdout + proc.stderr
                    expect_failure = "fails" in block.markers
                    if expect_failure and proc.returncode == 0:
                        failures.append(
                            "%s: the block is marked 'fails' but the "
                            "command exited with 0: %s\n%s"
                            % (where, cmd.text, tail(printed)))
                        continue
                    if not expect_failure and proc.returncode != 0:
                        failures.append(
                            "%s: exit status %d: %s\n%s"
                            % (where, proc.returncode, cmd.text,
                               tail(printed)))
                        continue
                    if block.markers & {"output", "fails"}:
                        missing = shown_lines_appear(cmd.shown, printed)
                        if missing is not None:
                            failures.append(
                                "%s: the shown line '%s' is not in the "
                                "output of: %s\n%s"
                                % (where, missing, cmd.text, tail(printed)))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    for line in errors + failures:
        print("error: " + line)
    for line in skipped:
        print("skipped: " + line)
    print("check_doc_commands: %d pages, %d commands ran, %d skipped, "
          "%d shown files compared, %d failed"
          % (len(pages), ran, len(skipped), files_checked,
             len(errors) + len(failures)))
    return 1 if errors or failures else 0


if __name__ == "__main__":
    sys.exit(main())
