//===- FlashAttentionImage.cpp - the flash-attention kernels' fatbin ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fatbin that nvcc made of FlashAttention.cu, embedded in
// librlx_cuda_runtime with .incbin (its path is RLX_FLASH_ATTENTION_FATBIN,
// set by CMake where nvcc was found), so that the library is the one file
// a program needs.
//
//===----------------------------------------------------------------------===//

#include "FlashAttentionImage.h"

#ifdef RLX_FLASH_ATTENTION_FATBIN
// Hidden: the image is the runtime's own, not part of its interface.
asm(".section .rodata\n"
    ".balign 16\n"
    ".globl rlxFlashAttentionFatbin\n"
    ".hidden rlxFlashAttentionFatbin\n"
    "rlxFlashAttentionFatbin:\n"
    ".incbin \"" RLX_FLASH_ATTENTION_FATBIN "\"\n"
    ".globl rlxFlashAttentionFatbinEnd\n"
    ".hidden rlxFlashAttentionFatbinEnd\n"
    "rlxFlashAttentionFatbinEnd:\n"
    ".previous\n");

extern "C" const char rlxFlashAttentionFatbin[], rlxFlashAttentionFatbinEnd[];

rlx::cuda::Image rlx::cuda::flashAttentionImage() {
  return {rlxFlashAttentionFatbin,
          size_t(rlxFlashAttentionFatbinEnd - rlxFlashAttentionFatbin)};
}
#else
rlx::cuda::Image rlx::cuda::flashAttentionImage() { return {nullptr, 0}; }
#endif
