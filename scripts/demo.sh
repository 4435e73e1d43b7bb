#!/usr/bin/env bash
#===- scripts/demo.sh - install, build and run the main demo --------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Until the CPU runner exists, the demo parses, verifies, canonicalizes and
# prints every example in examples/ with rlx-opt.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${RLX_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh"
for f in "$ROOT"/examples/*.mlir; do
  echo "=== rlx-opt --canonicalize $(basename "$f")"
  "$BUILD_DIR/bin/rlx-opt" --canonicalize "$f"
done
