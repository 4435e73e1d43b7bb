//===- DecodeAttention.cpp - launches of the decode-attention kernels -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxDecodeAttention (GPURuntime.h): checks the problem, loads the kernels'
// module once, chooses how many splits of the cache fill the GPU (from the
// cache's size: the length is known only on the device), and launches the
// split kernel and, with more than one split, the combine kernel
// (DecodeAttentionKernel.h). The splits' partial results go to a
// workspace kept per context and grown, never shrunk, so a step replayed
// in a CUDA graph allocates nothing once the first step has run.
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "DecodeAttentionKernel.h"
#include "KernelModule.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

using namespace rlx::cuda;

namespace {

/// Blocks that keep every SM of a large GPU busy (two per SM of an H100 or
/// H200); the split count aims at it.
constexpr int64_t kTargetBlocks = 264;
/// The most splits, and the fewest positions one split takes.
constexpr int64_t kMaxSplits = kDecodeMaxSplits;
constexpr int64_t kMinPositionsPerSplit = 32;
constexpr int64_t kMaxGridYZ = 65535;

std::mutex kernelMutex;
KernelModule decodeModule(decodeAttentionImage, "RLX_DECODE_ATTENTION_MODULE",
                          "rlxDecodeAttention",
                          "the decode-attention kernels");
/// Per type (RlxDecodeAttentionType): the split kernel per lane count
/// (1, 2, 4, 8 elements of a row per lane) and the combine kernel.
Handle splitKernels[3][4] = {};
Handle combineKernels[3] = {};

const char *typeName(int32_t type) {
  return type == RLX_DECODE_ATTENTION_F32   ? "f32"
         : type == RLX_DECODE_ATTENTION_F16 ? "f16"
                                            : "bf16";
}

/// The split kernel for `type` and `lanes` and the combine kernel, or
/// false with the reason recorded.
bool kernels(const Driver &d, int32_t type, int lanes, Handle &split,
             Handle &combine) {
  std::lock_guard<std::mutex> lock(kernelMutex);
  int slot = lanes == 1 ? 0 : lanes == 2 ? 1 : lanes == 4 ? 2 : 3;
  Handle &s = splitKernels[type][slot];
  Handle &c = combineKernels[type];
  if (!s || !c) {
    Handle mod = decodeModule.load(d);
    if (!mod)
      return false;
    std::string name = std::string("rlx_decode_attention_split_") +
                       typeName(type) + "_l" + std::to_string(lanes);
    std::string combineName =
        std::string("rlx_decode_attention_combine_") + typeName(type);
    if (!check(d.cuModuleGetFunction(&s, mod, name.c_str()),
               "cuModuleGetFunction") ||
        !check(d.cuModuleGetFunction(&c, mod, combineName.c_str()),
               "cuModuleGetFunction"))
      return false;
  }
  split = s;
  combine = c;
  return true;
}

/// A context's workspace for the splits' partial results.
struct Workspace {
  Handle context;
  CUdeviceptr pointer;
  size_t bytes;
};
std::mutex workspaceMutex;
std::vector<Workspace> workspaces;

/// At least `bytes` of device memory for the current context, kept for
/// later calls; 0 with the error recorded if it cannot be had. A larger
/// one replaces the old, freed in the stream's order after the work that
/// may still read it.
CUdeviceptr workspace(const Driver &d, size_t bytes, Handle stream) {
  Handle context = nullptr;
  if (!check(d.cuCtxGetCurrent(&context), "cuCtxGetCurrent"))
    return 0;
  std::lock_guard<std::mutex> lock(workspaceMutex);
  auto it = std::find_if(workspaces.begin(), workspaces.end(),
                         [&](const Workspace &w) { return w.context == context; });
  if (it != workspaces.end() && it->bytes >= bytes)
    return it->pointer;
  CUdeviceptr pointer = 0;
  if (!check(d.cuMemAlloc(&pointer, bytes), "cuMemAlloc"))
    return 0;
  if (it == workspaces.end()) {
    workspaces.push_back({context, pointer, bytes});
  } else {
    check(d.cuMemFreeAsync(it->pointer, stream), "cuMemFreeAsync");
    *it = {context, pointer, bytes};
  }
  return pointer;
}

/// The reason the kernels do not take the problem, or empty.
std::string unsupported(int32_t type, int64_t batch, int64_t heads,
                        int64_t kvHeads, int64_t seqQ, int64_t maxSeq,
                        int64_t headDim, int64_t valueDim, int64_t window) {
  if (type != RLX_DECODE_ATTENTION_F32 && type != RLX_DECODE_ATTENTION_F16 &&
      type != RLX_DECODE_ATTENTION_BF16)
    return "unknown type " + std::to_string(type);
  if (batch < 0 || heads < 1 || kvHeads < 1 || seqQ < 0 || maxSeq < 0)
    return "negative sizes or no heads";
  if (heads % kvHeads)
    return std::to_string(heads) + " heads over " + std::to_string(kvHeads) +
           " key/value heads";
  if (headDim < 1 || valueDim < 1 || headDim > kDecodeMaxDim ||
      valueDim > kDecodeMaxDim)
    return "head dims " + std::to_string(headDim) + " and " +
           std::to_string(valueDim) + " (the kernels take 1 to " +
           std::to_string(kDecodeMaxDim) + ")";
  int64_t tiles = ((heads / kvHeads) * seqQ + kDecodeRows - 1) / kDecodeRows;
  if (batch * kvHeads > kMaxGridYZ || tiles > kMaxGridYZ)
    return "batch x key/value heads or query rows beyond the grid's limit";
  if (maxSeq > INT32_MAX || seqQ > INT32_MAX || window < 0 ||
      window > INT32_MAX || batch * heads * seqQ > INT32_MAX)
    return "sizes beyond int32";
  return "";
}

} // namespace

extern "C" void rlxDecodeAttention(int32_t type, int64_t batch, int64_t heads,
                                   int64_t kvHeads, int64_t seqQ,
                                   int64_t maxSeq, int64_t headDim,
                                   int64_t valueDim, int64_t window,
                                   float scale, const void *q, const void *k,
                                   const void *v, const int64_t *length,
                                   void *o) {
  std::string reason = unsupported(type, batch, heads, kvHeads, seqQ, maxSeq,
                                   headDim, valueDim, window);
  if (!reason.empty()) {
    recordError("rlxDecodeAttention: " + reason);
    return;
  }
  if (batch == 0 || seqQ == 0)
    return;
  const Driver *d = ready();
  int64_t widest = std::max(headDim, valueDim);
  int lanes = widest <= 32 ? 1 : widest <= 64 ? 2 : widest <= 128 ? 4 : 8;
  Handle split = nullptr, combine = nullptr;
  if (!d || !kernels(*d, type, lanes, split, combine))
    return;

  int64_t tiles = ((heads / kvHeads) * seqQ + kDecodeRows - 1) / kDecodeRows;
  int64_t perSplit = batch * kvHeads * tiles;
  // At least one: batch, heads and seqQ are positive here.
  int64_t splits = std::min({(kTargetBlocks + perSplit - 1) / perSplit,
                             kMaxSplits,
                             std::max<int64_t>(1, maxSeq /
                                                      kMinPositionsPerSplit)});
  DecodeAttentionParams params{};
  if (splits > 1) {
    size_t bytes = size_t(splits) * size_t(batch * heads * seqQ) *
                   size_t(valueDim + 2) * sizeof(float);
    params.partial =
        reinterpret_cast<float *>(workspace(*d, bytes, userStream()));
    if (!params.partial)
      return;
  }
  params.q = q;
  params.k = k;
  params.v = v;
  params.o = o;
  params.length = length;
  params.batch = int32_t(batch);
  params.heads = int32_t(heads);
  params.kvHeads = int32_t(kvHeads);
  params.seqQ = int32_t(seqQ);
  params.maxSeq = int32_t(maxSeq);
  params.headDim = int32_t(headDim);
  params.valueDim = int32_t(valueDim);
  params.window = int32_t(window);
  params.splits = int32_t(splits);
  size_t elementBytes = type == RLX_DECODE_ATTENTION_F32 ? 4 : 2;
  params.vectorK = (headDim * elementBytes) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(k) % 16 == 0;
  params.scaleLog2 = float(double(scale) * M_LOG2E);
  void *args[] = {&params};
  if (launchOnCallerStream(*d, split, unsigned(splits),
                           unsigned(batch * kvHeads), unsigned(tiles),
                           kDecodeThreads, 0, args) &&
      (splits == 1 ||
       launchOnCallerStream(*d, combine, unsigned(batch * heads * seqQ), 1, 1,
                            kDecodeThreads, 0, args)))
    finishWithoutCallerStream(*d);
}
