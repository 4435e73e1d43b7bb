#===- scripts/lit-counts.sh - pass and fail counts of a lit run -----------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Sourced by scripts/test.sh and scripts/test-sanitized.sh.
#
#     read -r passed failed <<<"$(lit_counts LOG STATUS)"
#     lit_failures LOG
#     lit_failure_tails LOG
#
# The tests lit's log LOG counts as passed and as failed (failed,
# unresolved, unexpectedly passed, timed out); a run that exited with a
# non-zero STATUS but counted no failure counts one. lit_failures prints
# the names lit's summary lists under "Failed Tests", "Timed Out Tests",
# "Unresolved Tests" and "Unexpectedly Passed Tests", one per line;
# lit_failure_tails the last 40 lines of each failed test's output in a
# `lit -v` log.
#
#===----------------------------------------------------------------------===#

lit_counts() {
  local log="$1" status="$2" passed failed n kind
  # lit pads the labels to one width when the summary has several kinds
  # ("  Passed     : 147"), so spaces may come before the colon.
  count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -n 1; }
  passed=$(count Passed)
  failed=0
  for kind in Failed Unresolved "Unexpectedly Passed" "Timed Out"; do
    n=$(count "$kind"); failed=$((failed + ${n:-0}))
  done
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
  fi
  echo "${passed:-0} $failed"
}

lit_failures() {
  awk '/^(Failed|Timed Out|Unresolved|Unexpectedly Passed) Tests \(/ { on = 1; next }
       on && /^  / { print; next }
       { on = 0 }' "$1"
}

lit_failure_tails() {
  awk '/^\*+ TEST .* (FAILED|TIMEOUT) \*+$/ { on = 1; n = 0; print; next }
       on && /^\*+$/ { start = n > 40 ? n - 40 : 0
                        for (i = start; i < n; i++) print body[i]
                        print; on = 0; next }
       on { body[n++] = $0 }' "$1"
}
