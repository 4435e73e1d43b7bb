#===- scripts/test-sanitized.sh - sanitized, bounds-checked, fuzzed runs ---===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Run by scripts/test.sh after the Release suite (RLX_SKIP_SANITIZERS=1
# skips it), and on its own after a Release build:
# 1. builds RLX with clang-22 under AddressSanitizer + UndefinedBehavior-
#    Sanitizer with the libFuzzer targets (RLX_ENABLE_SANITIZERS,
#    RLX_ENABLE_FUZZERS) into $RLX_SAN_BUILD_DIR (default build-san) and runs
#    the whole lit suite with it: any finding fails its test;
# 2. runs every `rlx-opt %s` RUN line of the lit inputs with the gcc-built
#    Release rlx-opt and the clang-built one and requires the same output
#    (scripts/compare-builds.py; one check);
# 3. runs the integration tests once more on the Release build with
#    --check-bounds compiled into every program (lit --param check_bounds=1);
# 4. runs each fuzz target for $RLX_FUZZ_RUNS (default 20000) executions
#    with a fixed seed from its seed corpus (fuzz/run.sh; timed runs that
#    explore: bash fuzz/run.sh 3600).
# Ends with "N passed, N failed" over the four.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${RLX_BUILD_DIR:-$ROOT/build}"
SAN_DIR="${RLX_SAN_BUILD_DIR:-$ROOT/build-san}"
LLVM_PREFIX=/usr/lib/llvm-22
LIT="$LLVM_PREFIX/bin/lit"

if [ ! -f "$SAN_DIR/build.ninja" ]; then
  # -O1: the sanitizers' recommended level, and a faster build than -O3.
  cmake -G Ninja -S "$ROOT" -B "$SAN_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DRLX_ENABLE_SANITIZERS="address;undefined" -DRLX_ENABLE_FUZZERS=ON \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
    -DLLVM_EXTERNAL_LIT="$LIT"
fi
cmake --build "$SAN_DIR" -j "$(nproc)"

source "$ROOT/scripts/lit-counts.sh"
passed=0
failed=0
# Adds the counts of lit log $1, whose run exited with $2.
tally() {
  local p f
  read -r p f <<<"$(lit_counts "$1" "$2")"
  passed=$((passed + p))
  failed=$((failed + f))
}

set +e
echo "== lit under AddressSanitizer + UndefinedBehaviorSanitizer"
"$LIT" -sv "$SAN_DIR/test" 2>&1 | tee "$SAN_DIR/lit-sanitized.log"
tally "$SAN_DIR/lit-sanitized.log" "${PIPESTATUS[0]}"

# C++ leaves the order of a call's arguments open: a builder call with two
# op-creating arguments orders its ops one way under gcc, another under
# clang. Both builds must print the same module for every lit input.
echo "== one compiler output: gcc-built and clang-built rlx-opt"
python3 "$ROOT/scripts/compare-builds.py" "$BUILD_DIR/bin/rlx-opt" \
  "$SAN_DIR/bin/rlx-opt" "$ROOT/test" 2>&1 | tee "$SAN_DIR/compare-builds.log"
if [ "${PIPESTATUS[0]}" -eq 0 ]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi

echo "== integration tests with --check-bounds (Release build)"
"$LIT" -sv --param check_bounds=1 "$BUILD_DIR/test/Integration" 2>&1 |
  tee "$BUILD_DIR/lit-check-bounds.log"
tally "$BUILD_DIR/lit-check-bounds.log" "${PIPESTATUS[0]}"

echo "== fuzz targets, ${RLX_FUZZ_RUNS:-20000} executions each (fixed seed)"
RLX_SAN_BUILD_DIR="$SAN_DIR" RLX_FUZZ_RUNS="${RLX_FUZZ_RUNS:-20000}" \
  bash "$ROOT/fuzz/run.sh" | tee "$SAN_DIR/fuzz.log"
fp=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$SAN_DIR/fuzz.log")
ff=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$SAN_DIR/fuzz.log")
passed=$((passed + ${fp:-0}))
failed=$((failed + ${ff:-1}))
set -e

echo "sanitized, bounds-checked and fuzzed: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
