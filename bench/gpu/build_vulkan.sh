#!/usr/bin/env bash
#===- bench/gpu/build_vulkan.sh - the Vulkan benchmark's artifacts --------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Compiles the memory-bound workloads and the bias-GELU matmul of
# kernels.mlir with `rlx-compile --target=vulkan` (SPIR-V for a 32-lane
# subgroup, NVIDIA's) into librlx_vulkan_bench.so, and puts it,
# librlx_vulkan_runtime.so, vulkan_bench.py and shared/bench/gpu_peers.py
# into one folder (default bench/gpu/out-vulkan) that the GPU machine runs
# with no LLVM/MLIR:
#
#     bash bench/gpu/build_vulkan.sh [OUT_DIR]
#     # on the GPU machine, with OUT_DIR carried and a Vulkan loader:
#     python3 OUT_DIR/vulkan_bench.py --peers
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${RLX_BUILD_DIR:-$ROOT/build}"
OUT="${1:-$ROOT/bench/gpu/out-vulkan}"
PEERS="${RLX_GPU_PEERS:-$ROOT/../shared/bench/gpu_peers.py}"

mkdir -p "$OUT"
# kernels.mlir up to the attention workloads (a generated attention kernel
# at b8 h16 s2048 is not what this measures).
sed '/^func.func @attention_causal_bf16/,$d' "$ROOT/bench/gpu/kernels.mlir" \
  > "$OUT/bench.mlir"
"$BUILD/bin/rlx-compile" --target=vulkan \
  --vulkan-options="subgroup-size=32 ${RLX_VULKAN_OPTIONS:-}" \
  "$OUT/bench.mlir" -o "$OUT/kernels.o"
cp "$BUILD/lib/librlx_vulkan_runtime.so" "$OUT/"
gcc -shared -o "$OUT/librlx_vulkan_bench.so" "$OUT/kernels.o" \
  -L"$OUT" -lrlx_vulkan_runtime -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined
rm "$OUT/bench.mlir" "$OUT/kernels.o"
install -m 644 "$ROOT/bench/gpu/vulkan_bench.py" "$PEERS" "$OUT/"
echo "bench/gpu: Vulkan artifacts in $OUT ($(du -sh "$OUT" | cut -f1))"
