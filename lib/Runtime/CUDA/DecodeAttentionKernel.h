//===- DecodeAttentionKernel.h - the decode-attention kernels' interface --===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What DecodeAttention.cu (compiled by nvcc into the runtime) and the host
// code that launches it (DecodeAttention.cpp) agree on: the kernels' names,
// their one by-value parameter and the launch shape. Plain C++ so that the
// host compiler and nvcc both read it.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_DECODEATTENTIONKERNEL_H
#define RLX_RUNTIME_DECODEATTENTIONKERNEL_H

#include <stdint.h>

namespace rlx::cuda {

/// Threads of a block of either kernel: four warps.
constexpr int kDecodeThreads = 128;
/// Query rows (heads of one key/value head's group, times new tokens) that
/// one block of the split kernel keeps in registers.
constexpr int kDecodeRows = 8;
/// The largest head dim the kernels take: each lane holds
/// kDecodeMaxDim / 32 elements of a row.
constexpr int kDecodeMaxDim = 256;
/// The most splits of the cache (a multiple of 32).
constexpr int kDecodeMaxSplits = 128;

/// rlx.decode_attention over contiguous buffers: q [batch, heads, seqQ,
/// headDim], the caches [batch, maxSeq, kvHeads, headDim] and [batch,
/// maxSeq, kvHeads, valueDim], o [batch, heads, seqQ, valueDim], `length`
/// one int64 in device memory (read by the kernel, so a replayed CUDA
/// graph sees each step's). Query row s of head h sits at position
/// p = length - seqQ + s and sees keys j <= p (and j > p - window for a
/// positive window) of kv head h / (heads / kvHeads).
///
/// rlx_decode_attention_split_<T>_<lanes> (grid: splits x batch * kvHeads
/// x row tiles of kDecodeRows) takes positions [split * chunk, (split + 1)
/// * chunk) with chunk = ceil(min(length, maxSeq) / splits) and writes, per
/// query row, its running maximum (log2 domain), sum and unnormalised
/// output in f32 to `partial` (splits x batch*heads*seqQ x (valueDim + 2)),
/// or the normalised row to `o` when there is one split.
/// rlx_decode_attention_combine_<T> (grid: batch * heads * seqQ) merges
/// the splits into `o`.
struct DecodeAttentionParams {
  const void *q;
  const void *k;
  const void *v;
  void *o;
  const int64_t *length;
  float *partial;
  int32_t batch;
  int32_t heads;
  int32_t kvHeads;
  int32_t seqQ;
  int32_t maxSeq;
  int32_t headDim;
  int32_t valueDim;
  int32_t window;
  int32_t splits;
  /// Whether every cached key row starts 16-byte aligned (the head dim a
  /// multiple of 16 bytes, the cache aligned): read 16 bytes at a time.
  int32_t vectorK;
  /// The score scale times log2(e): the softmax is computed with exp2.
  float scaleLog2;
};

} // namespace rlx::cuda

#endif // RLX_RUNTIME_DECODEATTENTIONKERNEL_H
