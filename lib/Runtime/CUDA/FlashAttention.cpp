//===- FlashAttention.cpp - launches of the flash-attention kernel --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxFlashAttention (CUDARuntime.h): checks the problem against what the
// kernels take, loads their module (the embedded fatbin, once, into the
// current context), looks each kernel (one per type, head dim and mask
// kind) up once and raises its dynamic shared memory limit above the
// default 48 KiB, then launches it with the shape FlashAttentionKernel.h
// fixes.
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "FlashAttentionKernel.h"
#include "KernelModule.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <cmath>
#include <cstdint>
#include <mutex>
#include <string>

using namespace rlx::cuda;

namespace {

/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
constexpr int kMaxDynamicSharedBytes = 8;
/// The grid's y (heads) and z (batch) limit.
constexpr int64_t kMaxGridYZ = 65535;

std::mutex kernelMutex;
KernelModule flashModule(flashAttentionImage, "RLX_FLASH_ATTENTION_MODULE",
                         "rlxFlashAttention", "the flash-attention kernels");
/// Per element type (RlxFlashAttentionType), head dim (64, 128) and mask
/// (RlxFlashAttentionMask): each mask kind has a kernel of its own.
Handle kernels[2][2][3] = {};

/// The kernel for `type`, `headDim` and `mask`, ready to launch, or null.
Handle kernel(const Driver &d, int32_t type, int64_t headDim, int32_t mask) {
  std::lock_guard<std::mutex> lock(kernelMutex);
  Handle &function = kernels[type][headDim == 128][mask];
  if (function)
    return function;
  Handle mod = flashModule.load(d);
  if (!mod)
    return nullptr;
  std::string name = std::string("rlx_flash_attention_") +
                     (type == RLX_FLASH_ATTENTION_BF16 ? "bf16" : "f16") +
                     "_d" + std::to_string(headDim) + "_" +
                     (mask == RLX_FLASH_ATTENTION_NONE     ? "none"
                      : mask == RLX_FLASH_ATTENTION_CAUSAL ? "causal"
                                                           : "window");
  Handle f = nullptr;
  if (!check(d.cuModuleGetFunction(&f, mod, name.c_str()),
             "cuModuleGetFunction") ||
      !check(d.cuFuncSetAttribute(f, kMaxDynamicSharedBytes,
                                  int(flashSharedBytes(int(headDim)))),
             "cuFuncSetAttribute"))
    return nullptr;
  function = f;
  return function;
}

/// The reason the kernels do not take the problem, or empty.
std::string unsupported(int32_t type, int32_t mask, int64_t batch,
                        int64_t heads, int64_t kvHeads, int64_t seqQ,
                        int64_t seqK, int64_t headDim, int64_t window,
                        float scale) {
  if (type != RLX_FLASH_ATTENTION_BF16 && type != RLX_FLASH_ATTENTION_F16)
    return "unknown type " + std::to_string(type);
  if (mask != RLX_FLASH_ATTENTION_NONE && mask != RLX_FLASH_ATTENTION_CAUSAL &&
      mask != RLX_FLASH_ATTENTION_SLIDING_WINDOW)
    return "unknown mask " + std::to_string(mask);
  if (headDim != 64 && headDim != 128)
    return "head dim " + std::to_string(headDim) +
           " (the kernels take 64 "
           "and 128)";
  if (batch < 0 || heads < 1 || kvHeads < 1 || seqQ < 0 || seqK < 0)
    return "negative sizes or no heads";
  if (heads % kvHeads)
    return std::to_string(heads) + " heads over " + std::to_string(kvHeads) +
           " key/value heads";
  if (batch > kMaxGridYZ || heads > kMaxGridYZ)
    return "batch or heads above 65535 (the grid's limit)";
  if (seqQ > INT32_MAX || seqK > INT32_MAX)
    return "sequences longer than int32";
  if (mask == RLX_FLASH_ATTENTION_SLIDING_WINDOW &&
      (window < 1 || window > INT32_MAX))
    return "sliding window " + std::to_string(window);
  // The kernel takes row maxima of unscaled scores.
  if (!(scale > 0.0f))
    return "scale " + std::to_string(scale) +
           " (the kernel takes a positive "
           "one)";
  return "";
}

/// Whether the kernel reads (or writes) rows of a buffer at `base` with
/// `strides` in place: 16-byte aligned, every stride whole 16-byte chunks.
bool aligned(const void *base, const FlashAttentionStrides &strides) {
  auto chunks = [](int64_t stride) { return stride >= 0 && stride % 8 == 0; };
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && chunks(strides.batch) &&
         chunks(strides.head) && chunks(strides.row);
}

} // namespace

extern "C" void rlxFlashAttention(
    int32_t type, int32_t mask, int64_t batch, int64_t heads, int64_t kvHeads,
    int64_t seqQ, int64_t seqK, int64_t headDim, int64_t window, float scale,
    const void *q, int64_t qBatchStride, int64_t qHeadStride,
    int64_t qRowStride, const void *k, int64_t kBatchStride,
    int64_t kHeadStride, int64_t kRowStride, const void *v,
    int64_t vBatchStride, int64_t vHeadStride, int64_t vRowStride, void *o,
    int64_t oBatchStride, int64_t oHeadStride, int64_t oRowStride) {
  std::string reason = unsupported(type, mask, batch, heads, kvHeads, seqQ,
                                   seqK, headDim, window, scale);
  FlashAttentionStrides qs{qBatchStride, qHeadStride, qRowStride},
      ks{kBatchStride, kHeadStride, kRowStride},
      vs{vBatchStride, vHeadStride, vRowStride},
      os{oBatchStride, oHeadStride, oRowStride};
  if (reason.empty() &&
      !(aligned(q, qs) && aligned(k, ks) && aligned(v, vs) && aligned(o, os)))
    reason = "a buffer not 16-byte aligned or a stride not a non-negative "
             "multiple of 8 elements";
  if (!reason.empty()) {
    recordError("rlxFlashAttention: " + reason);
    return;
  }
  if (batch == 0 || seqQ == 0)
    return;
  const Driver *d = ready();
  Handle function = d ? kernel(*d, type, headDim, mask) : nullptr;
  if (!function)
    return;

  FlashAttentionParams params{};
  params.q = q;
  params.k = k;
  params.v = v;
  params.o = o;
  params.qStrides = qs;
  params.kStrides = ks;
  params.vStrides = vs;
  params.oStrides = os;
  params.heads = int32_t(heads);
  params.kvHeads = int32_t(kvHeads);
  params.seqQ = int32_t(seqQ);
  params.seqK = int32_t(seqK);
  params.scaleLog2 = float(double(scale) * M_LOG2E);
  params.mask = mask;
  params.window =
      mask == RLX_FLASH_ATTENTION_SLIDING_WINDOW ? int32_t(window) : 0;
  void *args[] = {&params};
  if (launchOnCallerStream(*d, function, flashGridX(int(seqQ)),
                           unsigned(heads), unsigned(batch), kFlashThreads,
                           flashSharedBytes(int(headDim)), args))
    finishWithoutCallerStream(*d);
}
