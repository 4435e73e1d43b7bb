#!/usr/bin/env bash
#===- scripts/demo.sh - install, build and run the main demo --------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Compiles the examples with rlx-run, runs them on random inputs and checks
# them against a float64 NumPy reference (scripts/demo.py).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${RLX_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh"
RLX_RUN="$BUILD_DIR/bin/rlx-run" /usr/bin/python3 "$ROOT/scripts/demo.py"
