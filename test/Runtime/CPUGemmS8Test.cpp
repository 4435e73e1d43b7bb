//===- CPUGemmS8Test.cpp - the int8 gemm's cache of a constant B ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-cpu-gemm-s8-test: calls rlx_cpu_gemm_s8_constant_b as compiled code
// does, with one slot per call site, in the cases that a program cannot
// show from the outside, and checks every element of C against a plain
// int64 sum:
// - four threads make the first call through one slot at once (each packs
//   B, one pointer lands in the slot, the others free their copies);
// - later calls through that slot reuse the packed B;
// - one slot sees a second B view (a constant's subview at a program
//   loop's index moves): that view is packed per call, not read from the
//   slot.
// Prints one line per case; exits non-zero on the first mismatch.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUBlas.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

using mlir::rlx::runtime::MemRef1D;
using mlir::rlx::runtime::MemRef2D;

namespace {

constexpr int64_t kM = 37, kK = 771, kN = 130;

MemRef2D<int8_t> view(std::vector<int8_t> &v, int64_t rows, int64_t cols) {
  return {v.data(), v.data(), 0, {rows, cols}, {cols, 1}};
}

/// Whether C = A B exactly (C was zero before the call).
bool exact(const std::vector<int8_t> &a, const std::vector<int8_t> &b,
           const std::vector<int32_t> &c) {
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kN; ++j) {
      int64_t sum = 0;
      for (int64_t q = 0; q < kK; ++q)
        sum += int64_t(a[i * kK + q]) * b[q * kN + j];
      if (sum != c[i * kN + j])
        return false;
    }
  return true;
}

/// C = A B through rlx_cpu_gemm_s8_constant_b with `slot`.
std::vector<int32_t> product(std::vector<int8_t> &a, std::vector<int8_t> &b,
                             int64_t *slot) {
  std::vector<int32_t> c(kM * kN, 0);
  MemRef2D<int8_t> va = view(a, kM, kK), vb = view(b, kK, kN);
  MemRef2D<int32_t> vc = {c.data(), c.data(), 0, {kM, kN}, {kN, 1}};
  MemRef1D<int64_t> vs = {slot, slot, 0, {1}, {1}};
  _mlir_ciface_rlx_cpu_gemm_s8_constant_b(&va, &vb, &vc, &vs);
  return c;
}

} // namespace

int main() {
  std::mt19937 rng(7);
  auto random = [&](int64_t size) {
    std::vector<int8_t> v(size);
    for (int8_t &x : v)
      x = int8_t(rng());
    return v;
  };
  std::vector<int8_t> a = random(kM * kK), b = random(kK * kN),
                      other = random(kK * kN);

  int64_t slot = 0;
  std::vector<std::vector<int32_t>> results(4);
  std::vector<std::thread> threads;
  for (auto &result : results)
    threads.emplace_back([&] { result = product(a, b, &slot); });
  for (std::thread &t : threads)
    t.join();
  bool racing = slot != 0;
  for (const auto &result : results)
    racing = racing && exact(a, b, result);
  std::printf("first call from 4 threads: exact %s\n", racing ? "yes" : "no");

  bool again = exact(a, b, product(a, b, &slot));
  std::printf("second call, packed B reused: exact %s\n",
              again ? "yes" : "no");

  int64_t kept = slot;
  bool moved = exact(a, other, product(a, other, &slot)) && slot == kept &&
               exact(a, b, product(a, b, &slot));
  std::printf("another B through the slot: exact %s\n", moved ? "yes" : "no");
  return racing && again && moved ? 0 : 1;
}
