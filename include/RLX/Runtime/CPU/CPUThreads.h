//===- CPUThreads.h - the thread pool compiled code runs on -----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `rlx-cpu-call-thread-pool` turns each call of a chunked kernel (a kernel
// whose outermost parallel loops `rlx-cpu-chunk-kernels` collapsed into one
// range of iterations) into a call of rlx_cpu_parallel_for, which runs the
// range in contiguous chunks on the pool's threads and the caller's.
//
// The pool is RLX's own rather than OpenMP's: its size is exact
// (RLX_NUM_THREADS, else the CPUs this process may run on), a call from
// inside a chunk (a nested program) or made while another thread's call
// holds the pool runs inline on its caller's thread, so a host that already
// runs threads is never oversubscribed, and compiled objects need no
// OpenMP runtime beside librlx_cpu_runtime.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_CPU_CPUTHREADS_H
#define RLX_RUNTIME_CPU_CPUTHREADS_H

#include <cstdint>

extern "C" {
/// A chunk of a kernel: iterations [begin, end) of its collapsed range,
/// with its operands packed behind `context`.
typedef void (*rlx_cpu_chunk_fn)(void *context, int64_t begin, int64_t end);

/// Runs `chunk` over [0, iterations) split into contiguous chunks, one per
/// thread, and returns when all have run. `maxThreads` > 0 caps the number
/// of threads (the pipeline's `threads` option); 0 takes the pool's.
void rlx_cpu_parallel_for(rlx_cpu_chunk_fn chunk, void *context,
                          int64_t iterations, int64_t maxThreads);

/// The number of threads rlx_cpu_parallel_for uses: RLX_NUM_THREADS when
/// set to a positive number, else the CPUs this process may run on.
int64_t rlx_cpu_num_threads(void);
}

#endif // RLX_RUNTIME_CPU_CPUTHREADS_H
