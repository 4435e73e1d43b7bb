//===- bench/cpu/gemm_s8.cpp - the int8 gemm kernel timed alone -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Times rlx_cpu_gemm_s8 (B packed at every call) and
// rlx_cpu_gemm_s8_constant_b (B packed at the first call) on C += A B with
// A m x k and B k x n random int8, row-major: the minimum of RUNS calls
// each, in ms and GOP/s (2 m k n operations). Before timing, 2000 random
// elements of C are checked against a plain sum (exit 1 on a mismatch).
// Built with the kernel's source, so that its constants can be changed
// and timed without rebuilding the project:
//
//   g++ -O2 -std=c++17 -Iinclude -o /tmp/gemm_s8
//       bench/cpu/gemm_s8.cpp lib/Runtime/CPU/CPUGemmS8.cpp
//   /tmp/gemm_s8 1024 768 3072 [RUNS=10]
//
// (one command on one line).
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUBlas.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using mlir::rlx::runtime::MemRef1D;
using mlir::rlx::runtime::MemRef2D;

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s M K N [RUNS]\n", argv[0]);
    return 2;
  }
  int64_t m = std::atol(argv[1]), k = std::atol(argv[2]),
          n = std::atol(argv[3]);
  int runs = argc > 4 ? std::atoi(argv[4]) : 10;
  std::mt19937 rng(1);
  std::vector<int8_t> a(m * k), b(k * n);
  for (int8_t &x : a)
    x = int8_t(rng());
  for (int8_t &x : b)
    x = int8_t(rng());
  std::vector<int32_t> c(m * n, 0);
  MemRef2D<int8_t> va{a.data(), a.data(), 0, {m, k}, {k, 1}};
  MemRef2D<int8_t> vb{b.data(), b.data(), 0, {k, n}, {n, 1}};
  MemRef2D<int32_t> vc{c.data(), c.data(), 0, {m, n}, {n, 1}};
  int64_t slotWord = 0;
  MemRef1D<int64_t> slot{&slotWord, &slotWord, 0, {1}, {1}};

  _mlir_ciface_rlx_cpu_gemm_s8(&va, &vb, &vc);
  for (int t = 0; t < 2000; ++t) {
    int64_t i = rng() % m, j = rng() % n, sum = 0;
    for (int64_t q = 0; q < k; ++q)
      sum += int32_t(a[i * k + q]) * b[q * n + j];
    if (sum != c[i * n + j]) {
      std::printf("mismatch at (%ld, %ld): %ld, kernel %d\n", long(i),
                  long(j), long(sum), c[i * n + j]);
      return 1;
    }
  }

  for (bool constantB : {false, true}) {
    double best = 1e30;
    for (int r = 0; r < runs; ++r) {
      auto start = std::chrono::steady_clock::now();
      if (constantB)
        _mlir_ciface_rlx_cpu_gemm_s8_constant_b(&va, &vb, &vc, &slot);
      else
        _mlir_ciface_rlx_cpu_gemm_s8(&va, &vb, &vc);
      std::chrono::duration<double, std::milli> ms =
          std::chrono::steady_clock::now() - start;
      best = std::min(best, ms.count());
    }
    std::printf("%ldx%ldx%ld %-10s min %.3f ms, %.0f GOP/s\n", long(m),
                long(k), long(n), constantB ? "constant-b" : "packed-b",
                best, 2.0 * m * k * n / best / 1e6);
  }
  return 0;
}
