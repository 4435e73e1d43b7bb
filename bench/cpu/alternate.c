//===- bench/cpu/alternate.c - builds of one kernel timed in turn ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Driver of alternate.sh: calls each build (variant) of one 4096x4096 f32
// row op in turn, RUNS rounds, on the same input and the same result
// buffer, and prints each one's median and minimum. On this project's VM a
// process's timings of memory-bound kernels move by 35-55% from one process
// to the next (where its memory lies), so builds compared in separate
// processes (rlx-run) mostly compare processes. Here every variant, and the
// two floors (memcpy, and a copy with non-temporal stores: the read and
// write of 64 MiB each that the row ops cannot avoid), touch the same
// memory, and each timed call starts from the same cache state.
//
// variants.h (written by alternate.sh) defines NUM_VARIANTS, kVariantNames
// and callVariant(i, result, x, g, b).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1D;

enum { N = 4096, RUNS = 60, WARMUP = 3 };
static const size_t kBytes = (size_t)N * N * sizeof(float);

/// The result buffer: every call's result is this one block (freed after
/// each call), so that all variants write the same memory. A 64-byte
/// aligned result asks for up to 64 bytes more, to round its pointer up.
static void *resultBlock;
static int resultInUse;

static void *hugeBlock(size_t bytes) {
  void *p = aligned_alloc(2 << 20, bytes);
  if (!p) {
    perror("aligned_alloc");
    exit(1);
  }
  madvise(p, bytes, MADV_HUGEPAGE);
  memset(p, 1, bytes);
  return p;
}

// The compiled code's allocation hooks (the runtime's in librlx_cpu_runtime).
void *_mlir_memref_to_llvm_alloc(uint64_t bytes) {
  if (bytes >= kBytes && bytes <= kBytes + 64 && !resultInUse) {
    resultInUse = 1;
    return resultBlock;
  }
  return aligned_alloc(64, (bytes + 63) / 64 * 64);
}
void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t bytes) {
  (void)alignment; // at most 64 in the row ops
  return _mlir_memref_to_llvm_alloc(bytes);
}
void _mlir_memref_to_llvm_free(void *p) {
  if (p == resultBlock)
    resultInUse = 0;
  else
    free(p);
}

#include "variants.h"

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void streamCopy(float *dst, const float *src) {
  for (size_t i = 0; i < (size_t)N * N; i += 4)
    _mm_stream_ps(dst + i, _mm_load_ps(src + i));
  _mm_sfence();
}

int main(void) {
  resultBlock = hugeBlock(kBytes + 64);
  float *x = hugeBlock(kBytes);
  float *g = aligned_alloc(64, N * sizeof(float));
  float *b = aligned_alloc(64, N * sizeof(float));
  // Scratch read before each timed call: the caches hold the same clean
  // lines whichever call came before.
  size_t scratchFloats = (size_t)8 << 20;
  float *scratch = hugeBlock(scratchFloats * sizeof(float));
  srand(1);
  for (size_t i = 0; i < (size_t)N * N; ++i)
    x[i] = (rand() / (float)RAND_MAX - 0.5f) * 6;
  for (int i = 0; i < N; ++i) {
    g[i] = 1 + rand() / (float)RAND_MAX;
    b[i] = rand() / (float)RAND_MAX;
  }
  Memref2D xm = {x, x, 0, {N, N}, {N, 1}};
  Memref1D gm = {g, g, 0, {N}, {1}}, bm = {b, b, 0, {N}, {1}};
  enum { COLUMNS = NUM_VARIANTS + 2 };
  static double ms[COLUMNS][RUNS];
  volatile float sink = 0;
  for (int run = -WARMUP; run < RUNS; ++run)
    for (int v = 0; v < COLUMNS; ++v) {
      float acc = 0;
      for (size_t i = 0; i < scratchFloats; i += 16)
        acc += scratch[i];
      sink = acc;
      Memref2D result;
      double start = nowMs();
      if (v < NUM_VARIANTS)
        callVariant(v, &result, &xm, &gm, &bm);
      else if (v == NUM_VARIANTS)
        memcpy(resultBlock, x, kBytes);
      else
        streamCopy(resultBlock, x);
      double elapsed = nowMs() - start;
      if (v < NUM_VARIANTS) {
        if ((void *)result.allocated != resultBlock) {
          fprintf(stderr, "variant %s returned another buffer\n",
                  kVariantNames[v]);
          return 1;
        }
        _mlir_memref_to_llvm_free(result.allocated);
      }
      if (run >= 0)
        ms[v][run] = elapsed;
    }
  (void)sink;
  printf("%-28s %10s %10s %10s\n", "variant", "median ms", "min ms",
         "vs first");
  for (int v = 0; v < COLUMNS; ++v) {
    qsort(ms[v], RUNS, sizeof(double), compareDoubles);
    const char *name = v < NUM_VARIANTS        ? kVariantNames[v]
                       : v == NUM_VARIANTS     ? "(floor) memcpy"
                                               : "(floor) non-temporal copy";
    printf("%-28s %10.3f %10.3f %10.2f\n", name, ms[v][RUNS / 2], ms[v][0],
           ms[v][RUNS / 2] / ms[0][RUNS / 2]);
  }
  return 0;
}
