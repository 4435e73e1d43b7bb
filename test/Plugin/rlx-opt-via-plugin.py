#!/usr/bin/env python3
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""rlx-opt's command line, run by Debian's stock mlir-opt-22 with
librlx-plugin.so loaded (lit's `--param rlx_opt=plugin`).

mlir-opt registers a plugin's passes while it parses its command line, after
its pass flags were made, so plugin passes can be named only in
--pass-pipeline. This driver turns the pass flags of an rlx-opt command line
(`--rlx-fuse="target=metal" --canonicalize`) into one textual pipeline
(`builtin.module(rlx-fuse{target=metal},canonicalize)`) and hands every other
option to mlir-opt-22 unchanged. A pass that runs on functions only is
nested as rlx-opt nests it implicitly (`func.func(rlx-cpu-order-loops)`);
which passes those are, the Passes.td files under SRC/include say.

    rlx-opt-via-plugin.py MLIR_OPT PLUGIN SRC [rlx-opt arguments...]
"""

import glob
import os
import re
import sys

# mlir-opt's own options that take their value in the next argument.
VALUE_OPTIONS = {"o"}
# mlir-opt's own flags (everything else spelled -x or --x is a pass).
OWN_PREFIXES = ("mlir-", "split-input-file", "verify-diagnostics",
                "allow-unregistered-dialect", "verify-each", "pass-pipeline",
                "o=", "show-dialects", "emit-bytecode", "no-implicit-module",
                "dump-pass-pipeline", "log-actions-to", "debug",
                "elide-resource", "run-reproducer", "verify-roundtrip")


# The ODS anchors of passes, as the textual pipeline names them.
ANCHORS = {"::mlir::func::FuncOp": "func.func", "func::FuncOp": "func.func"}


def function_passes(src):
    """The names of RLX's passes that run on func.func alone."""
    names = set()
    for td in glob.glob(os.path.join(src, "include", "**", "Passes.td"),
                        recursive=True):
        with open(td) as f:
            for name, anchor in re.findall(r'Pass<"([\w-]+)",\s*"([\w:]+)"',
                                           f.read()):
                if ANCHORS.get(anchor) == "func.func":
                    names.add(name)
    return names


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: rlx-opt-via-plugin.py MLIR_OPT PLUGIN SRC [ARGS...]")
    mlir_opt, plugin, src, args = argv[1], argv[2], argv[3], argv[4:]
    on_functions = function_passes(src)
    command = [mlir_opt, "--load-dialect-plugin=" + plugin,
               "--load-pass-plugin=" + plugin]
    passes = []
    i = 0
    while i < len(args):
        arg = args[i]
        name = arg.lstrip("-")
        if not arg.startswith("-") or arg == "-":
            command.append(arg)
        elif name in VALUE_OPTIONS:
            command += [arg, args[i + 1]]
            i += 1
        elif name.startswith(OWN_PREFIXES):
            command.append(arg)
        else:
            pass_name, _, options = name.partition("=")
            text = pass_name + ("{" + options + "}" if options else "")
            if pass_name in on_functions:
                text = "func.func(" + text + ")"
            passes.append(text)
        i += 1
    if passes:
        command.append("--pass-pipeline=builtin.module(" + ",".join(passes)
                       + ")")
    os.execv(mlir_opt, command)


if __name__ == "__main__":
    main(sys.argv)
