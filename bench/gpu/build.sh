#!/usr/bin/env bash
#===- bench/gpu/build.sh - build the GPU benchmark's artifacts ------------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Compiles kernels.mlir with `rlx-compile --target=cuda` (cubin for sm_90,
# ptxas from /usr/local/cuda) into librlx_bench_kernels.so, and puts it,
# librlx_cuda_runtime.so, bench.py and shared/bench/gpu_peers.py into one
# folder (default bench/gpu/out, ignored by git) that the GPU machine runs
# with no LLVM/MLIR:
#
#     bash bench/gpu/build.sh [OUT_DIR]
#     # on the GPU machine, with OUT_DIR carried:
#     python3 OUT_DIR/bench.py
#     python3 OUT_DIR/row_ceiling.py   # hand-written residual+LN schedules
#     python3 OUT_DIR/ops_check.py     # ops.mlir against PyTorch
#
# RLX_CUDA_OPTIONS='block-size=128 fast-math=false' builds the kernels with
# these rlx-cuda-pipeline options (for tuning; see bench.py --kernels).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${RLX_BUILD_DIR:-$ROOT/build}"
OUT="${1:-$ROOT/bench/gpu/out}"
PEERS="${RLX_GPU_PEERS:-$ROOT/../shared/bench/gpu_peers.py}"

mkdir -p "$OUT"
# The layers of layers.py come from the examples, at the benchmark's batch
# (32) and in each dtype: one module with the kernels.
EXAMPLE="$ROOT/examples/bert_encoder_layer.mlir"
# @llama_layer_hir alone (the file's second function computes the same).
LLAMA="$(sed -n '/^func.func @llama_layer_hir/,/^}/p' \
  "$ROOT/examples/llama_layer_hir.mlir" |
  sed -e 's/tensor<1x16x/tensor<32x128x/g' -e 's/tensor<16x32x/tensor<128x32x/g')"
{
  cat "$ROOT/bench/gpu/kernels.mlir"
  sed -e 's/tensor<1x/tensor<32x/g' -e 's/@bert_layer/@bert_layer_f32/' "$EXAMPLE"
  sed -e 's/tensor<1x/tensor<32x/g' -e 's/@bert_layer/@bert_layer_bf16/' \
    -e 's/xf32>/xbf16>/g' "$EXAMPLE"
  echo "$LLAMA" | sed -e 's/@llama_layer_hir/@llama_layer_f32/'
  echo "$LLAMA" | sed -e 's/@llama_layer_hir/@llama_layer_bf16/' \
    -e 's/xf32>/xbf16>/g'
  python3 "$ROOT/bench/gpu/constant_layers.py" 32 128 768 128
} > "$OUT/bench.mlir"
"$BUILD/bin/rlx-compile" --target=cuda --chip=sm_90 \
  --cuda-options="${RLX_CUDA_OPTIONS:-}" "$OUT/bench.mlir" -o "$OUT/kernels.o" \
  --header="$OUT/kernels.h"
# The BERT layer once more with every intermediate in one planned arena.
{
  sed -e 's/tensor<1x/tensor<32x/g' -e 's/@bert_layer/@bert_layer_arena_f32/' \
    "$EXAMPLE"
  sed -e 's/tensor<1x/tensor<32x/g' -e 's/@bert_layer/@bert_layer_arena_bf16/' \
    -e 's/xf32>/xbf16>/g' "$EXAMPLE"
} > "$OUT/arena.mlir"
"$BUILD/bin/rlx-compile" --target=cuda --chip=sm_90 \
  --cuda-options="arena=1 ${RLX_CUDA_OPTIONS:-}" "$OUT/arena.mlir" \
  -o "$OUT/arena.o"
# Programs that once failed to compile for CUDA, checked by ops_check.py
# (ops_arena.mlir with arena=1).
"$BUILD/bin/rlx-compile" --target=cuda --chip=sm_90 \
  --cuda-options="${RLX_CUDA_OPTIONS:-}" "$ROOT/bench/gpu/ops.mlir" \
  -o "$OUT/ops.o"
"$BUILD/bin/rlx-compile" --target=cuda --chip=sm_90 \
  --cuda-options="arena=1 ${RLX_CUDA_OPTIONS:-}" \
  "$ROOT/bench/gpu/ops_arena.mlir" -o "$OUT/ops_arena.o"
rm "$OUT/bench.mlir" "$OUT/arena.mlir"
cp "$BUILD/lib/librlx_cuda_runtime.so" "$OUT/"
# $ORIGIN: the kernels library finds the runtime beside it.
gcc -shared -o "$OUT/librlx_bench_kernels.so" "$OUT/kernels.o" "$OUT/arena.o" \
  -L"$OUT" -lrlx_cuda_runtime -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined
gcc -shared -o "$OUT/librlx_ops_check.so" "$OUT/ops.o" "$OUT/ops_arena.o" \
  -L"$OUT" -lrlx_cuda_runtime -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined
rm "$OUT/kernels.o" "$OUT/arena.o" "$OUT/ops.o" "$OUT/ops_arena.o"
# The hand-written schedules that row_ceiling.py times beside torch.compile.
"${RLX_CUDA_TOOLKIT:-/usr/local/cuda}/bin/nvcc" -arch=sm_90 -cubin -O3 \
  -std=c++17 -o "$OUT/row_ceiling.cubin" "$ROOT/bench/gpu/row_ceiling.cu"
install -m 644 "$ROOT/bench/gpu/bench.py" "$ROOT/bench/gpu/layers.py" \
  "$ROOT/bench/gpu/attention_check.py" "$ROOT/bench/gpu/constant_layers.py" \
  "$ROOT/bench/gpu/row_ceiling.py" "$ROOT/bench/gpu/ops_check.py" "$PEERS" \
  "$OUT/"
echo "bench/gpu: artifacts in $OUT ($(du -sh "$OUT" | cut -f1))"
