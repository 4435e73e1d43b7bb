/*===- GPURuntime.h - what the host code of RLX's GPU programs calls ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ABI between the GPU front (--rlx-to-gpu) and every RLX GPU runtime
// library (librlx_cuda_runtime today). The host code that a target's
// pipeline emits calls the mgpu* functions of upstream's gpu-to-llvm
// lowering (module load and unload from global constructors, then per
// entry-point call one stream, stream-ordered allocations of temporaries
// and kernel launches) and the rlx* functions below for the ops that the
// front dispatched to the runtime's library kernels
// (rlx-gpu-call-runtime-kernels). A runtime records errors rather than
// aborting; its own header says how to read them and how to choose the
// stream.
//
//===----------------------------------------------------------------------===*/

#ifndef RLX_RUNTIME_COMMON_GPURUNTIME_H
#define RLX_RUNTIME_COMMON_GPURUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What rlxGpuMatmul computes on: its operands' element type. S8 is int8
   operands summed exactly into an int32 result (rlx.int8_matmul), with no
   epilogue; the runtimes that take it (the CUDA one) need transB set,
   transA clear and k a multiple of 4. */
enum RlxGpuMatmulType {
  RLX_GPU_MATMUL_F32 = 0,
  RLX_GPU_MATMUL_BF16 = 1,
  RLX_GPU_MATMUL_F16 = 2,
  RLX_GPU_MATMUL_S8 = 3
};
/* The epilogue applied to the product (+ bias, then an activation; GELU is
   the tanh approximation). */
enum RlxGpuMatmulEpilogue {
  RLX_GPU_MATMUL_NONE = 0,
  RLX_GPU_MATMUL_BIAS = 1,
  RLX_GPU_MATMUL_RELU = 2,
  RLX_GPU_MATMUL_RELU_BIAS = 3,
  RLX_GPU_MATMUL_GELU = 4,
  RLX_GPU_MATMUL_GELU_BIAS = 5
};

/* c[i] = epilogue(a[i] b[i] + bias) for i < batch: row-major, contiguous
   buffers of `type`, a[i] m x k (stored k x m if transA), b[i] k x n (stored
   n x k if transB), c[i] m x n, bias n elements (ignored without a bias
   epilogue). Products accumulate in f32. Runs on the runtime's current
   stream (see its own header). A runtime implements it over its vendor's
   matmul library. */
void rlxGpuMatmul(int32_t type, int32_t epilogue, int32_t transA,
                  int32_t transB, int64_t batch, int64_t m, int64_t n,
                  int64_t k, const void *a, const void *b, const void *bias,
                  void *c);

/* The fp8 format of rlxGpuMatmulFp8's weight bytes. */
enum RlxGpuFp8Weight { RLX_GPU_FP8_E4M3 = 0, RLX_GPU_FP8_E5M2 = 1 };
/* How rlxGpuMatmulFp8 scales: one scale per tensor (the weight's scale[0],
   one for all of x) or per channel (the weight's scale per output column,
   one per row of x). */
enum RlxGpuFp8Scaling {
  RLX_GPU_FP8_PER_TENSOR = 0,
  RLX_GPU_FP8_PER_CHANNEL = 1
};

/* c = (q(x) w^T) * sx * scale, rlx.dequant_matmul with an fp8 weight
   computed in fp8: x m x k of `type` (an RlxGpuMatmulType of floats) is
   quantized to e4m3 at the call, q(x) = e4m3(x / sx) with sx = amax|x| / 448
   per row of x (per channel) or over all of x (per tensor) (round to
   nearest even, saturating); w n x k of fp8 bytes in `weight`'s format;
   scale n f32s (per channel) or one (per tensor, scale[0]); c m x n of
   `type`. Products accumulate in f32. A NaN or infinity in x makes its row
   (per channel) or all of c (per tensor) NaN. k must be a multiple of 16
   and n of 8. */
void rlxGpuMatmulFp8(int32_t type, int32_t weight, int32_t scaling, int64_t m,
                     int64_t n, int64_t k, const void *x, const void *w,
                     const float *scale, void *c);

/* What rlxFlashAttention computes on: its operands' element type. */
enum RlxFlashAttentionType {
  RLX_FLASH_ATTENTION_BF16 = 0,
  RLX_FLASH_ATTENTION_F16 = 1
};
/* Which keys a query row sees (rlx.attention's mask kinds without a mask
   operand). */
enum RlxFlashAttentionMask {
  RLX_FLASH_ATTENTION_NONE = 0,
  RLX_FLASH_ATTENTION_CAUSAL = 1,
  RLX_FLASH_ATTENTION_SLIDING_WINDOW = 2
};

/* o = softmax(scale q k^T + mask) v per batch and query head, as
   rlx.attention: q and o [batch, heads, seqQ, headDim], k and v
   [batch, kvHeads, seqK, headDim], buffers of `type` whose rows of headDim
   elements are contiguous and whose batch, head and row (sequence)
   element strides follow each pointer: a contiguous row-major q has
   heads * seqQ * headDim, seqQ * headDim, headDim; a [batch, seq, heads,
   headDim] one is read (or o written) in place with seq * heads * headDim,
   headDim, heads * headDim. Strides are non-negative multiples of 8
   elements and the buffers 16-byte aligned.
   Query head h reads key/value head h / (heads / kvHeads). With a causal
   mask query row i sees key j <= i + seqK - seqQ; with a sliding window
   also only j > i + seqK - seqQ - window (`window` is ignored otherwise). A
   row that sees no key is zero. Scores and the softmax are f32, the
   probabilities are rounded to `type` for the second product. Taken:
   headDim 64 or 128, heads a multiple of kvHeads, batch and heads at most
   65535, sizes within int32, scale positive; anything else is recorded as
   an error and nothing is launched. Runs on the runtime's current stream.
   Only runtimes whose target description offers flash attention have a
   kernel for it (CUDA's on sm_90); the others record an error. */
void rlxFlashAttention(int32_t type, int32_t mask, int64_t batch, int64_t heads,
                       int64_t kvHeads, int64_t seqQ, int64_t seqK,
                       int64_t headDim, int64_t window, float scale,
                       const void *q, int64_t qBatchStride, int64_t qHeadStride,
                       int64_t qRowStride, const void *k, int64_t kBatchStride,
                       int64_t kHeadStride, int64_t kRowStride, const void *v,
                       int64_t vBatchStride, int64_t vHeadStride,
                       int64_t vRowStride, void *o, int64_t oBatchStride,
                       int64_t oHeadStride, int64_t oRowStride);

/* What rlxDecodeAttention computes on: its operands' element type. */
enum RlxDecodeAttentionType {
  RLX_DECODE_ATTENTION_F32 = 0,
  RLX_DECODE_ATTENTION_F16 = 1,
  RLX_DECODE_ATTENTION_BF16 = 2
};

/* rlx.decode_attention: o = softmax(scale q k^T) v of q [batch, heads,
   seqQ, headDim] over the first *length positions of the caches k [batch,
   maxSeq, kvHeads, headDim] and v [batch, maxSeq, kvHeads, valueDim]; o is
   [batch, heads, seqQ, valueDim]. Contiguous buffers of `type`; `length`
   points to one int64 in device memory, read when the kernel runs (so a
   replayed CUDA graph reads each step's), clamped to [0, maxSeq]. Query
   row s sits at position p = length - seqQ + s and sees the positions
   j <= p, and only j > p - window for a positive window; query head h
   reads key/value head h / (heads / kvHeads). A row that sees no position
   is zero. Scores and the softmax are f32. Taken: head dims 1 to 256,
   heads a multiple of kvHeads, sizes within int32; anything else is
   recorded as an error and nothing is launched. Runs on the runtime's
   current stream. Only runtimes whose target description offers it have
   it (CUDA's). */
void rlxDecodeAttention(int32_t type, int64_t batch, int64_t heads,
                        int64_t kvHeads, int64_t seqQ, int64_t maxSeq,
                        int64_t headDim, int64_t valueDim, int64_t window,
                        float scale, const void *q, const void *k,
                        const void *v, const int64_t *length, void *o);

/* The device copy of the constant host buffer `host` of `bytes` bytes: the
   first call for `host` copies it (synchronously) into a device allocation
   that lives as long as the process, later calls return that allocation.
   Compiled code calls it for constants it hands to runtime kernels (a
   library matmul's constant weight). A call whose size or first and last
   64 bytes differ from the copy's (code unloaded, other code loaded at the
   same address) gets a new copy. Null, with the error recorded, if the
   copy fails. */
void *rlxGpuConstant(const void *host, int64_t bytes);

/* The functions upstream's gpu-to-llvm lowering calls. */
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_COMMON_GPURUNTIME_H */
