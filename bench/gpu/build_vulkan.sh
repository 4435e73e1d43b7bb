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
# kernels.mlir and the BERT layer with `rlx-compile --target=vulkan` (SPIR-V for a 32-lane
# subgroup, NVIDIA's) into librlx_vulkan_bench.so, and puts it,
# librlx_vulkan_runtime.so, vulkan_bench.py, layers.py (with what it
# imports) and shared/bench/gpu_peers.py
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
# at b8 h16 s2048 is not what this measures), and the BERT layer of
# examples/ at the benchmark's batch (32) in f32 and bf16, as build.sh
# compiles them for CUDA.
EXAMPLE="$ROOT/examples/bert_encoder_layer.mlir"
{
  sed '/^func.func @attention_causal_bf16/,$d' "$ROOT/bench/gpu/kernels.mlir"
  sed -e 's/tensor<1x/tensor<32x/g' -e 's/@bert_layer/@bert_layer_f32/' "$EXAMPLE"
  sed -e 's/tensor<1x/tensor<32x/g' -e 's/@bert_layer/@bert_layer_bf16/' \
    -e 's/xf32>/xbf16>/g' "$EXAMPLE"
} > "$OUT/bench.mlir"
"$BUILD/bin/rlx-compile" --target=vulkan \
  --vulkan-options="subgroup-size=32 ${RLX_VULKAN_OPTIONS:-}" \
  "$OUT/bench.mlir" -o "$OUT/kernels.o"
cp "$BUILD/lib/librlx_vulkan_runtime.so" "$OUT/"
gcc -shared -o "$OUT/librlx_vulkan_bench.so" "$OUT/kernels.o" \
  -L"$OUT" -lrlx_vulkan_runtime -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined
rm "$OUT/bench.mlir" "$OUT/kernels.o"
# layers.py (the BERT layer's inputs and reference) and bench.py (its
# error measure) with what they import.
install -m 644 "$ROOT/bench/gpu/vulkan_bench.py" "$ROOT/bench/gpu/bench.py" \
  "$ROOT/bench/gpu/layers.py" \
  "$ROOT/bench/gpu/attention_check.py" "$ROOT/bench/gpu/constant_layers.py" \
  "$PEERS" "$OUT/"
echo "bench/gpu: Vulkan artifacts in $OUT ($(du -sh "$OUT" | cut -f1))"
