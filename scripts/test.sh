#!/usr/bin/env bash
#===- scripts/test.sh - install, build and run every test -----------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${RLX_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh"
cmake --build "$BUILD_DIR" --target check-rlx
