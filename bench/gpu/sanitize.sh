#!/bin/bash
# ===- sanitize.sh - RLX's GPU kernels under compute-sanitizer ---------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------=== #
# bash OUT/sanitize.sh [TOOLS...]: on the GPU machine, in the folder that
# bench/gpu/build.sh filled (OUT), runs ops_check.py (every op of ops.mlir
# and ops_arena.mlir against PyTorch) and attention_check.py (the flash
# attention kernel, every mask and layout) under NVIDIA's compute-sanitizer
# with each tool (default: memcheck racecheck synccheck initcheck). PyTorch's
# kernels (the references, the random inputs) are checked too; a finding
# names its kernel in the log (sanitize-TOOL-CHECK.log). Prints each run's
# summary line and exits 1 if any tool reported an error or a check failed.
set -uo pipefail
cd "$(dirname "$0")"
SANITIZER="${COMPUTE_SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}"
TOOLS=("$@")
[ ${#TOOLS[@]} -gt 0 ] || TOOLS=(memcheck racecheck synccheck initcheck)
status=0
for tool in "${TOOLS[@]}"; do
  for check in ops_check.py attention_check.py; do
    log="sanitize-$tool-${check%.py}.log"
    "$SANITIZER" --tool "$tool" --print-limit 20 --error-exitcode 3 \
      python3 "$check" >"$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY" "$log" | tail -1)
    echo "$tool $check: exit $rc; ${summary:-no summary}; $(grep -E "cases failed|passed|failed" "$log" | tail -1)"
    [ "$rc" -eq 0 ] || status=1
  done
done
exit $status
