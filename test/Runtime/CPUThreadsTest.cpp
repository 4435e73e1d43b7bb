//===- CPUThreadsTest.cpp - the CPU runtime's thread pool -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-cpu-threads-test: calls rlx_cpu_parallel_for as compiled code does and
// prints, per case, whether every iteration ran exactly once, in how many
// chunks and on how many threads: ranges shorter and longer than the pool,
// a thread cap, calls nested in a chunk (run inline), and several host
// threads calling at once (one holds the pool, the others run inline).
// Exits non-zero on the first failure; the lit test checks the lines.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUThreads.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

/// What the chunks of one call saw.
struct Record {
  std::vector<std::atomic<int>> visits;
  std::atomic<int> chunks{0};
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<bool> chunksInOrder{true};

  explicit Record(int64_t n) : visits(n) {}
};

void countChunk(void *context, int64_t begin, int64_t end) {
  auto *record = static_cast<Record *>(context);
  if (begin >= end)
    record->chunksInOrder = false;
  record->chunks.fetch_add(1);
  {
    std::lock_guard<std::mutex> lock(record->mutex);
    record->threads.insert(std::this_thread::get_id());
  }
  for (int64_t i = begin; i < end; ++i)
    record->visits[i].fetch_add(1);
  // Long enough that a worker takes part.
  volatile double sink = 0;
  for (int64_t i = 0; i < (end - begin) * 2000; ++i)
    sink = sink + 1.0;
}

bool eachOnce(const Record &record) {
  for (const std::atomic<int> &v : record.visits)
    if (v.load() != 1)
      return false;
  return record.chunksInOrder;
}

int failures = 0;

void check(const char *name, int64_t n, int64_t maxThreads) {
  Record record(n);
  rlx_cpu_parallel_for(countChunk, &record, n, maxThreads);
  bool ok = eachOnce(record);
  failures += !ok;
  std::printf("%s: n=%lld max=%lld each once %s, chunks %d, threads %zu\n",
              name, static_cast<long long>(n),
              static_cast<long long>(maxThreads), ok ? "yes" : "NO",
              record.chunks.load(), record.threads.size());
}

/// A chunk that itself runs a parallel loop: the inner one runs inline.
struct Nested {
  Record outer{8};
  std::atomic<int> innerOk{0}, innerInline{0};
};

void nestedChunk(void *context, int64_t begin, int64_t end) {
  auto *nested = static_cast<Nested *>(context);
  countChunk(&nested->outer, begin, end);
  for (int64_t i = begin; i < end; ++i) {
    Record inner(16);
    rlx_cpu_parallel_for(countChunk, &inner, 16, 0);
    nested->innerOk += eachOnce(inner);
    nested->innerInline += inner.chunks.load() == 1 &&
                           *inner.threads.begin() == std::this_thread::get_id();
  }
}

} // namespace

int main() {
  std::printf("threads %lld\n", static_cast<long long>(rlx_cpu_num_threads()));
  check("empty", 0, 0);
  check("one", 1, 0);
  check("fewer than threads", 2, 0);
  check("many", 1000, 0);
  check("odd", 997, 0);
  check("capped", 1000, 1);
  check("capped", 1000, 2);

  Nested nested;
  rlx_cpu_parallel_for(nestedChunk, &nested, 8, 0);
  bool nestedOk = eachOnce(nested.outer) && nested.innerOk == 8;
  failures += !nestedOk;
  std::printf("nested: each once %s, inner calls inline %d of 8\n",
              nestedOk ? "yes" : "NO", nested.innerInline.load());

  // Host threads calling at once: every call still runs each iteration
  // once, whether it got the pool or ran inline.
  std::atomic<int> correct{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int repeat = 0; repeat < 50; ++repeat) {
        Record record(64);
        rlx_cpu_parallel_for(countChunk, &record, 64, 0);
        correct += eachOnce(record);
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  failures += correct != 200;
  std::printf("concurrent callers: %d of 200 calls each once\n",
              correct.load());
  return failures ? 1 : 0;
}
