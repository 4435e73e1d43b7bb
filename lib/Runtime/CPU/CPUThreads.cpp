//===- CPUThreads.cpp - the thread pool compiled code runs on -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One process-wide pool of N-1 workers; the calling thread is the N-th.
// A call publishes a job (the chunk function, its context, the range) under
// a new generation number; the caller and the workers claim its chunks
// until none is left, so a worker that wakes late only finds less to do. Workers spin for a while after a job before they sleep: the
// kernels of a program follow one another within microseconds.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUThreads.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <sched.h>
#include <thread>

namespace {

/// Spins before a worker sleeps (or the caller blocks): about 50-100 us,
/// longer than the glue between two kernels.
constexpr int kSpinIterations = 20000;

/// Set on the workers and on a caller while its job runs: a parallel call
/// made there runs inline.
thread_local bool insideJob = false;

int64_t threadsFromEnvironment() {
  if (const char *value = std::getenv("RLX_NUM_THREADS")) {
    char *end = nullptr;
    long n = std::strtol(value, &end, 10);
    if (end != value && *end == '\0' && n > 0)
      return n;
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

class ThreadPool {
public:
  explicit ThreadPool(int64_t threads) : threads(threads) {
    for (int64_t i = 1; i < threads; ++i)
      std::thread([this] { work(); }).detach();
  }

  int64_t size() const { return threads; }

  /// Runs `chunk` over [0, iterations) in `parts` chunks; false if another
  /// thread's job holds the pool (the caller then runs it inline).
  bool run(rlx_cpu_chunk_fn chunk, void *context, int64_t iterations,
           int64_t parts) {
    std::unique_lock<std::mutex> owner(ownerMutex, std::try_to_lock);
    if (!owner.owns_lock())
      return false;
    jobChunk.store(chunk, std::memory_order_relaxed);
    jobContext.store(context, std::memory_order_relaxed);
    jobIterations.store(iterations, std::memory_order_relaxed);
    jobParts.store(parts, std::memory_order_relaxed);
    pending.store(parts, std::memory_order_relaxed);
    uint64_t generation =
        ((state.load(std::memory_order_relaxed) >> 32) + 1) & 0xFFFFFFFF;
    {
      std::lock_guard<std::mutex> lock(mutex);
      state.store(generation << 32, std::memory_order_release);
    }
    wake.notify_all();
    insideJob = true;
    claimChunks(generation);
    insideJob = false;
    for (int i = 0; i < kSpinIterations; ++i)
      if (pending.load(std::memory_order_acquire) == 0)
        return true;
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] {
      return pending.load(std::memory_order_acquire) == 0;
    });
    return true;
  }

private:
  /// Runs chunks of job `generation` until none is left. A chunk is
  /// claimed by one compare-and-swap of `state` (generation in the high
  /// half, next chunk in the low half), so a worker still looking at an
  /// older job can never claim a chunk of the current one; the job's
  /// fields are read after the claim, and stay valid until its last chunk
  /// has run (the caller waits for `pending`).
  void claimChunks(uint64_t generation) {
    uint64_t current = state.load(std::memory_order_acquire);
    for (;;) {
      if ((current >> 32) != generation)
        return;
      int64_t part = static_cast<int64_t>(current & 0xFFFFFFFF);
      if (part >= jobParts.load(std::memory_order_acquire))
        return;
      if (!state.compare_exchange_weak(current, current + 1,
                                       std::memory_order_acq_rel,
                                       std::memory_order_acquire))
        continue;
      int64_t iterations = jobIterations.load(std::memory_order_relaxed);
      int64_t parts = jobParts.load(std::memory_order_relaxed);
      jobChunk.load(std::memory_order_relaxed)(
          jobContext.load(std::memory_order_relaxed),
          iterations * part / parts, iterations * (part + 1) / parts);
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // The last chunk: wake a caller that stopped spinning.
        std::lock_guard<std::mutex> lock(mutex);
        finished.notify_all();
      }
      current = state.load(std::memory_order_acquire);
    }
  }

  void work() {
    insideJob = true;
    uint64_t seen = 0;
    auto published = [&] {
      return (state.load(std::memory_order_acquire) >> 32) != seen;
    };
    for (;;) {
      bool ready = false;
      for (int i = 0; i < kSpinIterations && !ready; ++i)
        ready = published();
      if (!ready) {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, published);
      }
      seen = state.load(std::memory_order_acquire) >> 32;
      claimChunks(seen);
    }
  }

  const int64_t threads;
  /// Held by the caller whose job the pool runs.
  std::mutex ownerMutex;
  /// The sleeping side of both waits.
  std::mutex mutex;
  std::condition_variable wake, finished;
  /// The current job, written by its caller before `state` publishes it.
  std::atomic<rlx_cpu_chunk_fn> jobChunk{nullptr};
  std::atomic<void *> jobContext{nullptr};
  std::atomic<int64_t> jobIterations{0}, jobParts{0};
  /// Generation << 32 | next chunk to claim.
  std::atomic<uint64_t> state{0};
  std::atomic<int64_t> pending{0};
};

/// Created on first use and never destroyed: its detached workers may still
/// spin while the process exits.
ThreadPool &pool() {
  static ThreadPool *instance = new ThreadPool(threadsFromEnvironment());
  return *instance;
}

} // namespace

extern "C" int64_t rlx_cpu_num_threads(void) { return pool().size(); }

extern "C" void rlx_cpu_parallel_for(rlx_cpu_chunk_fn chunk, void *context,
                                     int64_t iterations, int64_t maxThreads) {
  if (iterations <= 0)
    return;
  int64_t threads = pool().size();
  if (maxThreads > 0)
    threads = std::min(threads, maxThreads);
  int64_t parts = std::min(threads, iterations);
  if (parts <= 1 || insideJob ||
      !pool().run(chunk, context, iterations, parts))
    chunk(context, 0, iterations);
}
