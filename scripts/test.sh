#!/usr/bin/env bash
#===- scripts/test.sh - install, build and run every test -----------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Builds everything and runs the lit suite under test/ (Release build), its
# pass and dialect tests again through mlir-opt-22 with RLX's plugin, then
# scripts/test-sanitized.sh: the suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer, the integration tests with bounds checks in
# the generated code, and a short run of every fuzz target. Ends with the
# line "N passed, N failed" over all of them; exits non-zero when any test
# fails. RLX_SKIP_SANITIZERS=1 runs the Release suite alone (quicker, for
# local work; CI runs everything).
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

source "$ROOT/scripts/lit-counts.sh"
read -r passed failed <<<"$(lit_counts "$LOG" "$status")"
echo "Release: $passed passed, $failed failed"

# The pass and dialect tests again, each rlx-opt run as Debian's stock
# mlir-opt-22 with librlx-plugin.so loaded (as another MLIR compiler embeds
# RLX).
PLUGIN_LOG="$BUILD_DIR/lit-plugin.log"
set +e
/usr/lib/llvm-22/bin/lit -v --param rlx_opt=plugin \
  "$BUILD_DIR/test/Dialect" "$BUILD_DIR/test/Conversion" \
  "$BUILD_DIR/test/Target" "$BUILD_DIR/test/Examples" 2>&1 | tee "$PLUGIN_LOG"
status=${PIPESTATUS[0]}
set -e
read -r pp pf <<<"$(lit_counts "$PLUGIN_LOG" "$status")"
echo "Through mlir-opt-22 and librlx-plugin.so: $pp passed, $pf failed"
passed=$((passed + pp))
failed=$((failed + pf))

if [ "${RLX_SKIP_SANITIZERS:-0}" = "0" ]; then
  SAN_LOG="$BUILD_DIR/test-sanitized.log"
  set +e
  bash "$ROOT/scripts/test-sanitized.sh" 2>&1 | tee "$SAN_LOG"
  san_status=${PIPESTATUS[0]}
  set -e
  last=$(sed -n 's/^sanitized, bounds-checked and fuzzed: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$SAN_LOG" | tail -n 1)
  if [ -z "$last" ]; then
    last="0 1"
  fi
  read -r sp sf <<<"$last"
  if [ "$san_status" -ne 0 ] && [ "$sf" -eq 0 ]; then
    sf=1
  fi
  passed=$((passed + sp))
  failed=$((failed + sf))
fi

# CI keeps the tail of this output: name what failed right above the count.
if [ "$failed" -ne 0 ]; then
  echo "== what failed"
  logs=("$LOG" "$PLUGIN_LOG")
  if [ "${RLX_SKIP_SANITIZERS:-0}" = "0" ]; then
    SAN_DIR="${RLX_SAN_BUILD_DIR:-$ROOT/build-san}"
    logs+=("$SAN_DIR/lit-sanitized.log" "$BUILD_DIR/lit-check-bounds.log")
    grep -h "^fuzz: " "$SAN_DIR/fuzz.log" 2>/dev/null |
      grep -v "no finding" || true
    grep -h "^DIFFERS " "$SAN_DIR/compare-builds.log" 2>/dev/null || true
  fi
  for log in "${logs[@]}"; do
    if [ -f "$log" ]; then lit_failure_tails "$log"; fi
  done
  for log in "${logs[@]}"; do
    if [ -f "$log" ]; then
      lit_failures "$log" | sed "s|^ *|$(basename "$log"): |"
    fi
  done
fi
echo "$passed passed, $failed failed"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
