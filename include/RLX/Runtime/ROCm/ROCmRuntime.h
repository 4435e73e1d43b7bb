/*===- ROCmRuntime.h - what programs from rlx-compile --target=rocm call -===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// librlx_rocm_runtime.so. The host code that --rlx-rocm-pipeline emits
// (upstream gpu-to-llvm) calls the mgpu* functions of RLX's GPU runtime ABI
// (GPURuntime.h): module load and unload from global constructors (the
// embedded HSA code objects), then per entry-point call one stream,
// stream-ordered allocations of temporaries and kernel launches. They are
// implemented over the HIP runtime, loaded at run time with
// dlopen("libamdhip64.so") (then .so.6, .so.5; or $RLX_HIP_RUNTIME), so the
// library builds and links on machines without ROCm.
//
// Streams: by default each entry point runs on a stream of its own and
// waits for it before returning. After rlxRocmSetStream(s) with s non-null
// it enqueues everything on s and returns at once; the caller orders and
// waits (e.g. s = torch.cuda.current_stream().cuda_stream on ROCm
// PyTorch).
//
// rlxGpuMatmul runs in hipBLASLt, opened at its first call
// (libhipblaslt.so, or $RLX_HIPBLASLT), with its bias / ReLU / GELU
// epilogues, on the stream set by rlxRocmSetStream, else on the null
// stream, waited for. There is no flash-attention kernel:
// rlxFlashAttention records an error (the rocm pipeline never calls it).
// rlxGpuConstant makes device copies of constants once.
//
// Errors: a failing HIP call is reported on stderr and recorded; the first
// one since the last rlxRocmClearError() is rlxRocmGetLastError().
//
//===----------------------------------------------------------------------===*/

#ifndef RLX_RUNTIME_ROCM_ROCMRUNTIME_H
#define RLX_RUNTIME_ROCM_ROCMRUNTIME_H

#include "RLX/Runtime/Common/GPURuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ROCm runtime's own API. */
void rlxRocmSetStream(void *stream);
const char *rlxRocmGetLastError(void);
void rlxRocmClearError(void);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_ROCM_ROCMRUNTIME_H */
