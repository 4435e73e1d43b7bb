#!/bin/bash
# ===- dequant_gemv.sh - GGUF-block GEMV against PyTorch's float32 mv ----=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------=== #
# bash bench/cpu/dequant_gemv.sh [OUT]: builds dequant_gemv.cpp against
# build/lib/librlx_cpu_runtime.so into OUT (default bench/cpu/out; a folder
# that can be carried to another machine: run OUT/run.sh there), and runs
# it: one row of x against an 8192x8192 weight in Q8_0 and Q4_K, and a
# 14336x4096 Q8_0 (Llama-3-8B's FFN), at 1..all threads, with PyTorch's
# float32 torch.mv of the same shape at the same thread counts as the peer.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${1:-$ROOT/bench/cpu/out}"
mkdir -p "$OUT"
g++ -O2 -std=c++17 -I"$ROOT/include" "$ROOT/bench/cpu/dequant_gemv.cpp" \
  -L"$ROOT/build/lib" -lrlx_cpu_runtime -Wl,-rpath,'$ORIGIN' \
  -o "$OUT/dequant_gemv"
cp "$ROOT/build/lib/librlx_cpu_runtime.so" "$OUT/"
cat > "$OUT/run.sh" <<'RUN'
#!/bin/bash
cd "$(dirname "$0")"
cpus=$(nproc)
for t in 1 2 4 8 16 32 64; do
  [ "$t" -le "$cpus" ] || break
  RLX_NUM_THREADS=$t ./dequant_gemv 1 8192 8192
  RLX_NUM_THREADS=$t ./dequant_gemv 2 8192 8192
  RLX_NUM_THREADS=$t ./dequant_gemv 1 14336 4096
  "${PYTHON:-python3}" - "$t" <<'PY' || echo "(no PyTorch peer)"
import sys, time
import torch
torch.set_num_threads(int(sys.argv[1]))
w, x = torch.randn(8192, 8192), torch.randn(8192)
for _ in range(3):
    torch.mv(w, x)
ts = []
for _ in range(20):
    a = time.perf_counter(); torch.mv(w, x); ts.append(time.perf_counter() - a)
ts.sort()
print("peer: torch f32 mv 8192x8192, %s threads: median %.3f ms, %.1f GB/s"
      % (sys.argv[1], ts[10] * 1e3, 8192 * 8192 * 4 / ts[10] / 1e9))
PY
done
RUN
chmod +x "$OUT/run.sh"
bash "$OUT/run.sh"
