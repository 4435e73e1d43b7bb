#!/usr/bin/env bash
#===- bench/cpu/alternate.sh - builds of one row op, timed in turn --------===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Compares builds of one 4096x4096 f32 row op (bench.py's memory-bound
# workloads) with different rlx-cpu-pipeline options, alternating in one
# process on the same memory (alternate.c says why), beside the floors of
# reading and writing 64 MiB:
#
#     bash bench/cpu/alternate.sh OP NAME=OPTIONS [NAME=OPTIONS]...
#     bash bench/cpu/alternate.sh softmax default= no-prefetch=stream-prefetch=0
#
# OP is softmax, layer_norm, rms_norm or gelu; OPTIONS go to
# `rlx-compile --cpu-options`. Uses the build in $RLX_BUILD_DIR (default
# build/). For A/B of a code change, build rlx-compile twice and set
# RLX_COMPILE per variant: NAME=OPTIONS@/path/to/rlx-compile.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${RLX_BUILD_DIR:-$ROOT/build}"
if [ $# -lt 2 ]; then
  sed -n '/^# Compares/,/^#===/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
op="$1"
shift
T="tensor<4096x4096xf32>"
G="tensor<4096xf32>"
case "$op" in
  softmax) args="%x: $T"; body="rlx.softmax %x axis = -1 : $T"; cargs="r, x" ;;
  gelu) args="%x: $T"; body="rlx.gelu %x : $T"; cargs="r, x" ;;
  rms_norm) args="%x: $T, %g: $G"; body="rlx.rms_norm %x, %g : $T, $G"
    cargs="r, x, g" ;;
  layer_norm) args="%x: $T, %g: $G, %b: $G"
    body="rlx.layer_norm %x, %g, %b : $T, $G"; cargs="r, x, g, b" ;;
  *) echo "alternate.sh: unknown op '$op' (softmax, layer_norm, rms_norm, gelu)" >&2
    exit 2 ;;
esac
params="Memref2D *r, Memref2D *x$(case $cargs in *b) echo ", Memref1D *g, Memref1D *b" ;; *g) echo ", Memref1D *g" ;; esac)"

work="$(mktemp -d /tmp/rlx-alternate.XXXXXX)"
trap 'rm -rf "$work"' EXIT
names=()
objects=()
i=0
for spec in "$@"; do
  name="${spec%%=*}"
  rest="${spec#*=}"
  options="${rest%%@*}"
  compiler="$BUILD/bin/rlx-compile"
  [[ "$rest" == *@* ]] && compiler="${rest#*@}"
  printf 'func.func @variant%d(%s) -> %s {\n  %%y = %s\n  return %%y : %s\n}\n' \
    "$i" "$args" "$T" "$body" "$T" > "$work/v$i.mlir"
  "$compiler" "$work/v$i.mlir" -o "$work/v$i.o" --cpu-options="$options"
  names+=("\"$name\"")
  objects+=("$work/v$i.o")
  i=$((i + 1))
done
{
  echo "enum { NUM_VARIANTS = $i };"
  echo "static const char *kVariantNames[] = {$(IFS=,; echo "${names[*]}")};"
  for j in $(seq 0 $((i - 1))); do
    echo "void _mlir_ciface_variant$j($params);"
  done
  echo "static void callVariant(int v, Memref2D *r, Memref2D *x, Memref1D *g, Memref1D *b) {"
  echo "  (void)g; (void)b;"
  echo "  switch (v) {"
  for j in $(seq 0 $((i - 1))); do
    echo "  case $j: _mlir_ciface_variant$j($cargs); break;"
  done
  echo "  }"
  echo "}"
} > "$work/variants.h"
cc -O2 -std=c11 -Wall -Werror -I"$work" -o "$work/alternate" \
  "$ROOT/bench/cpu/alternate.c" "${objects[@]}" -lm
echo "$op 4096x4096 f32, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$work/alternate"
