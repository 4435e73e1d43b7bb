//===- FlashAttentionKernel.h - the flash-attention kernel's interface ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What FlashAttention.cu (compiled by nvcc into the runtime) and the host
// code that launches it (FlashAttention.cpp) agree on: the kernels' names,
// their one by-value parameter, and the launch shape. Plain C++ so that the
// host compiler and nvcc both read it.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_FLASHATTENTIONKERNEL_H
#define RLX_RUNTIME_FLASHATTENTIONKERNEL_H

#include <stdint.h>

namespace rlx::cuda {

/// Where a tensor's rows are: element strides of its batch, head and row
/// (sequence) dims; a row's headDim elements are contiguous. Every stride
/// is a multiple of 8 elements and the base 16-byte aligned.
struct FlashAttentionStrides {
  int64_t batch;
  int64_t head;
  int64_t row;
};

/// The kernels' parameter: attention over q [batch, heads, seqQ, headDim],
/// k and v [batch, kvHeads, seqK, headDim], o like q, each through its
/// strides (contiguous row-major: head = seq * headDim, row = headDim; a
/// [batch, seq, heads, headDim] tensor read in place: head = headDim,
/// row = heads * headDim); query head h reads key/value head
/// h / (heads / kvHeads).
/// Query row i sees key j when j <= i + seqK - seqQ (causal: the diagonal
/// aligned at the end, as rlx.attention's), and for a sliding window also
/// when j > i + seqK - seqQ - window. A row that sees no key is zero.
struct FlashAttentionParams {
  const void *q;
  const void *k;
  const void *v;
  void *o;
  FlashAttentionStrides qStrides;
  FlashAttentionStrides kStrides;
  FlashAttentionStrides vStrides;
  FlashAttentionStrides oStrides;
  int32_t heads;
  int32_t kvHeads;
  int32_t seqQ;
  int32_t seqK;
  /// The score scale (> 0) times log2(e): softmax is computed with exp2.
  float scaleLog2;
  /// FlashAttentionMask.
  int32_t mask;
  int32_t window;
};

enum FlashAttentionMask : int32_t {
  kFlashMaskNone = 0,
  kFlashMaskCausal = 1,
  kFlashMaskSlidingWindow = 2
};

/// Query rows per thread block (two warpgroups of 64), threads per block,
/// and key rows per tile.
constexpr int kFlashBlockRows = 128;
constexpr int kFlashThreads = 256;
constexpr int kFlashBlockKeys = 128;

/// Dynamic shared memory of the kernel for `headDim` (2-byte elements):
/// the query tile and two stages of key and value tiles.
constexpr unsigned flashSharedBytes(int headDim) {
  return unsigned(kFlashBlockRows + 4 * kFlashBlockKeys) * headDim * 2;
}

/// Grid: (flashGridX(seqQ), heads, batch). Each block takes two blocks of
/// query rows, one from each end.
constexpr unsigned flashGridX(int seqQ) {
  return unsigned((seqQ + kFlashBlockRows - 1) / kFlashBlockRows + 1) / 2;
}

/// Kernels: rlx_flash_attention_<bf16|f16>_d<64|128>_<none|causal|window>,
/// one per FlashAttentionMask (the `mask` field must match the name), built
/// for sm_90a only (wgmma).

} // namespace rlx::cuda

#endif // RLX_RUNTIME_FLASHATTENTIONKERNEL_H
