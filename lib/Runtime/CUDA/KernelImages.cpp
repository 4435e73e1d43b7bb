//===- KernelImages.cpp - the runtime's own kernels' fatbins --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fatbins that nvcc made of FlashAttention.cu, Fp8Quantize.cu,
// DecodeAttention.cu and Gemv.cu, embedded in librlx_cuda_runtime with .incbin (their
// paths are RLX_<NAME>_FATBIN, set by CMake
// where nvcc was found), so that the library is the one file a program
// needs.
//
//===----------------------------------------------------------------------===//

#include "KernelImages.h"

// Hidden: the images are the runtime's own, not part of its interface.
#define RLX_EMBED_FATBIN(SYMBOL, PATH)                                         \
  asm(".section .rodata\n"                                                     \
      ".balign 16\n"                                                           \
      ".globl " #SYMBOL "\n"                                                   \
      ".hidden " #SYMBOL "\n" #SYMBOL ":\n"                                    \
      ".incbin \"" PATH "\"\n"                                                 \
      ".globl " #SYMBOL "End\n"                                                \
      ".hidden " #SYMBOL "End\n" #SYMBOL "End:\n"                              \
      ".previous\n");                                                          \
  extern "C" const char SYMBOL[], SYMBOL##End[];

#ifdef RLX_FLASH_ATTENTION_FATBIN
RLX_EMBED_FATBIN(rlxFlashAttentionFatbin, RLX_FLASH_ATTENTION_FATBIN)
rlx::cuda::Image rlx::cuda::flashAttentionImage() {
  return {rlxFlashAttentionFatbin,
          size_t(rlxFlashAttentionFatbinEnd - rlxFlashAttentionFatbin)};
}
#else
rlx::cuda::Image rlx::cuda::flashAttentionImage() { return {nullptr, 0}; }
#endif

#ifdef RLX_FP8_QUANTIZE_FATBIN
RLX_EMBED_FATBIN(rlxFp8QuantizeFatbin, RLX_FP8_QUANTIZE_FATBIN)
rlx::cuda::Image rlx::cuda::fp8QuantizeImage() {
  return {rlxFp8QuantizeFatbin,
          size_t(rlxFp8QuantizeFatbinEnd - rlxFp8QuantizeFatbin)};
}
#else
rlx::cuda::Image rlx::cuda::fp8QuantizeImage() { return {nullptr, 0}; }
#endif

#ifdef RLX_DECODE_ATTENTION_FATBIN
RLX_EMBED_FATBIN(rlxDecodeAttentionFatbin, RLX_DECODE_ATTENTION_FATBIN)
rlx::cuda::Image rlx::cuda::decodeAttentionImage() {
  return {rlxDecodeAttentionFatbin,
          size_t(rlxDecodeAttentionFatbinEnd - rlxDecodeAttentionFatbin)};
}
#else
rlx::cuda::Image rlx::cuda::decodeAttentionImage() { return {nullptr, 0}; }
#endif

#ifdef RLX_GEMV_FATBIN
RLX_EMBED_FATBIN(rlxGemvFatbin, RLX_GEMV_FATBIN)
rlx::cuda::Image rlx::cuda::gemvImage() {
  return {rlxGemvFatbin, size_t(rlxGemvFatbinEnd - rlxGemvFatbin)};
}
#else
rlx::cuda::Image rlx::cuda::gemvImage() { return {nullptr, 0}; }
#endif
