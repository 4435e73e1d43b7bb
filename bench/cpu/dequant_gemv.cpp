//===- dequant_gemv.cpp - the CPU runtime's GGUF-block matmul, timed ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// dequant_gemv SCHEME N K [M]: times rlx_cpu_dequant_matmul (M rows of x,
// default 1, an N x K weight of random blocks of RlxCpuDequantScheme
// SCHEME) in wall time with RLX_NUM_THREADS threads and prints the median of
// 20 calls and the rate at which it reads the packed weight. Built and run
// with its PyTorch peer by dequant_gemv.sh.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUDequantMatmul.h"
#include "RLX/Runtime/CPU/CPUThreads.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: dequant_gemv SCHEME N K [M]\n");
    return 2;
  }
  int scheme = std::atoi(argv[1]);
  int64_t n = std::atoll(argv[2]), k = std::atoll(argv[3]);
  int64_t m = argc > 4 ? std::atoll(argv[4]) : 1;
  RlxCpuDequantFormat format = rlxCpuDequantFormat(scheme);
  if (format.weights == 0 || k % format.weights != 0) {
    std::fprintf(stderr, "dequant_gemv: bad scheme or K\n");
    return 2;
  }
  int64_t weights = format.weights, bytes = format.bytes;
  std::vector<uint8_t> w(n * k / weights * bytes);
  std::mt19937_64 random(1);
  for (uint8_t &byte : w)
    byte = static_cast<uint8_t>(random());
  // Scales of 2^-7 (f16 0x2000) where the blocks have f16 scales first, so
  // that the sums stay finite.
  if (scheme <= 3)
    for (int64_t b = 0; b < n * k / weights; ++b)
      for (int i = 0; i < (scheme <= 1 ? 2 : 4); i += 2) {
        w[b * bytes + i] = 0;
        w[b * bytes + i + 1] = 0x20;
      }
  std::vector<float> x(m * k, 0.5f), y(m * n);
  std::vector<double> times;
  for (int r = 0; r < 20; ++r) {
    auto start = std::chrono::steady_clock::now();
    rlx_cpu_dequant_matmul(x.data(), m, k, w.data(), n, y.data(), scheme);
    auto end = std::chrono::steady_clock::now();
    times.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("scheme %d N %lld K %lld M %lld, %lld threads: median %.3f ms, "
              "%.1f GB/s of packed weight\n",
              scheme, static_cast<long long>(n), static_cast<long long>(k),
              static_cast<long long>(m),
              static_cast<long long>(rlx_cpu_num_threads()), times[10],
              w.size() / times[10] / 1e6);
  return 0;
}
