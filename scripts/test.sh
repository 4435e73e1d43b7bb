#!/usr/bin/env bash
#===- scripts/test.sh - install, build and run every test -----------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Builds everything, runs the lit suite under test/, and ends with the line
# "N passed, N failed". Exits non-zero when any test fails.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${RLX_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh"

LOG="$BUILD_DIR/lit.log"
set +e
/usr/lib/llvm-22/bin/lit -v "$BUILD_DIR/test" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
set -e

# lit pads the labels to one width when the summary has several kinds
# ("  Passed     : 147"), so spaces may come before the colon.
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$LOG" | head -n 1; }
passed=$(count Passed); passed=${passed:-0}
failed=0
for kind in Failed Unresolved "Unexpectedly Passed" "Timed Out"; do
  n=$(count "$kind"); failed=$((failed + ${n:-0}))
done
echo "$passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
