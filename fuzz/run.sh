#!/usr/bin/env bash
#===- fuzz/run.sh - run RLX's libFuzzer targets ---------------------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
#     bash fuzz/run.sh [SECONDS_PER_TARGET] [TARGET_NAME...]
#     RLX_FUZZ_RUNS=N bash fuzz/run.sh [TARGET_NAME...]
#
# Runs each fuzz target of a build made with RLX_ENABLE_FUZZERS=ON
# ($RLX_SAN_BUILD_DIR, default build-san; scripts/test-sanitized.sh makes
# it) for SECONDS_PER_TARGET (default 60) on its corpus: the seeds from
# fuzz/make_corpus.py plus what earlier runs found, kept in
# $RLX_SAN_BUILD_DIR/fuzz/corpus/<target>. The pipeline target runs once per
# pipeline below. A crash, sanitizer finding, leak or timeout leaves its
# input in $RLX_SAN_BUILD_DIR/fuzz/artifacts and fails the target. Prints
# each target's executions and ends with "N passed, N failed". For a long
# run: bash fuzz/run.sh 3600. The pipelines of a compilation target the
# build left out (RLX_ENABLE_<T>=OFF) are skipped: optimize-<t>, and to-gpu
# (rlx-to-gpu legalizes for cuda).
#
# With RLX_FUZZ_RUNS=N each target instead makes N executions from the
# seeds alone with a fixed random seed ($RLX_FUZZ_SEED, default 1) into a
# fresh corpus: close to the same mutations every time (coverage can vary
# with the heap's addresses), a smoke run for scripts/test.sh; a timed run
# explores new inputs each time and its findings are triaged.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${RLX_SAN_BUILD_DIR:-$ROOT/build-san}"
RUNS="${RLX_FUZZ_RUNS:-}"
if [ -n "$RUNS" ]; then
  SECONDS_PER_TARGET=0
else
  SECONDS_PER_TARGET="${1:-60}"
  shift || true
fi
WORK="$BUILD/fuzz"
SEEDS="$WORK/seeds"
mkdir -p "$WORK/corpus" "$WORK/artifacts" "$WORK/logs"
/usr/bin/python3 "$ROOT/fuzz/make_corpus.py" "$ROOT" "$SEEDS"

# name, binary, seed folder, pipeline (pipeline target only), LLVM IR too.
TARGETS=(
  "parser rlx-fuzz-parser mlir - 0"
  "npy rlx-fuzz-npy npy - 0"
  "weights rlx-fuzz-weights weights - 0"
  "optimize-cpu rlx-fuzz-pipeline mlir rlx-optimize{target=cpu} 0"
  "optimize-cuda rlx-fuzz-pipeline mlir rlx-optimize{target=cuda} 0"
  "optimize-rocm rlx-fuzz-pipeline mlir rlx-optimize{target=rocm} 0"
  "optimize-vulkan rlx-fuzz-pipeline mlir rlx-optimize{target=vulkan} 0"
  "optimize-metal rlx-fuzz-pipeline mlir rlx-optimize{target=metal} 0"
  "expand-autodiff rlx-fuzz-pipeline mlir rlx-expand-autodiff 0"
  "plan-memory rlx-fuzz-pipeline mlir rlx-plan-memory 0"
  "to-linalg rlx-fuzz-pipeline mlir convert-rlx-to-linalg 0"
  "cpu-pipeline rlx-fuzz-pipeline mlir rlx-cpu-pipeline 1"
  "to-gpu rlx-fuzz-pipeline mlir rlx-to-gpu 0"
)

# Whether the build left compilation target $1 (cuda, ...) out.
target_left_out() {
  grep -Eqi "^RLX_ENABLE_$1:BOOL=(OFF|0|FALSE|NO|N)$" \
    "$BUILD/CMakeCache.txt" 2>/dev/null
}

passed=0
failed=0
for entry in "${TARGETS[@]}"; do
  read -r name binary seeds pipeline llvmir <<<"$entry"
  if [ "$#" -gt 0 ] && [[ " $* " != *" $name "* ]]; then
    continue
  fi
  case "$name" in
    optimize-*) needs="${name#optimize-}" ;;
    to-gpu) needs=cuda ;;
    *) needs="" ;;
  esac
  if [ -n "$needs" ] && target_left_out "$needs"; then
    echo "fuzz: $name: skipped (the build has no $needs target)"
    continue
  fi
  corpus="$WORK/corpus/$name"
  log="$WORK/logs/$name.log"
  if [ -n "$RUNS" ]; then
    corpus="$WORK/smoke-corpus/$name"
    rm -rf "$corpus"
    budget=(-runs="$RUNS" -seed="${RLX_FUZZ_SEED:-1}")
  else
    # Timed runs go on past a finding (each child process of -fork=1 runs
    # until one), so that one known crash does not end the exploration;
    # every finding leaves its artifact.
    budget=(-max_total_time="$SECONDS_PER_TARGET" -fork=1 -ignore_crashes=1
            -ignore_timeouts=1 -ignore_ooms=1)
  fi
  before=$(ls "$WORK/artifacts" | grep -c "^$name-" || true)
  mkdir -p "$corpus"
  env_args=()
  if [ "$pipeline" != "-" ]; then
    env_args=(RLX_FUZZ_PIPELINE="$pipeline" RLX_FUZZ_TO_LLVMIR="$llvmir")
  fi
  # Leaks are findings too; MLIR's global registries are built once and
  # kept, which LeakSanitizer does not report (they stay reachable).
  env "${env_args[@]}" ASAN_OPTIONS=detect_leaks=1:allow_user_poisoning=0 \
    "$BUILD/bin/$binary" "$corpus" "$SEEDS/$seeds" \
    "${budget[@]}" -timeout=60 -rss_limit_mb=4096 \
    -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$WORK/artifacts/$name-" >"$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ -z "$runs" ]; then  # -fork=1 prints "#N: cov: ..." lines instead
    runs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
  fi
  after=$(ls "$WORK/artifacts" | grep -c "^$name-" || true)
  if [ "$after" -gt "$before" ]; then
    status=1
  fi
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "fuzz: $name: ${runs:-?} executions, no finding"
  else
    failed=$((failed + 1))
    echo "fuzz: $name: FAILED after ${runs:-?} executions, $((after - before)) new artifact(s); log $log:"
    grep -m 20 -E 'SUMMARY|Test unit written|CRASH|abort' "$log" || tail -n 20 "$log"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
