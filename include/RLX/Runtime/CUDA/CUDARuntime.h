/*===- CUDARuntime.h - what programs from rlx-compile --target=cuda call -===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// librlx_cuda_runtime.so. The host code that --rlx-cuda-pipeline emits
// (upstream gpu-to-llvm) calls the mgpu* functions below: module load and
// unload from global constructors, then per entry-point call one stream,
// stream-ordered allocations of temporaries and kernel launches. They are
// implemented over the CUDA driver API, loaded at run time with
// dlopen("libcuda.so.1") (or $RLX_CUDA_DRIVER), so the library builds and
// links on machines without CUDA.
//
// Streams: by default each entry point runs on a stream of its own and
// waits for it before returning. After rlxCudaSetStream(s) with s non-null
// it enqueues everything on s and returns at once; the caller orders and
// waits (e.g. s = torch.cuda.current_stream().cuda_stream).
//
// It implements RLX's GPU runtime ABI (GPURuntime.h). rlxGpuMatmul runs in
// NVIDIA's BLAS-Lt library, opened at its first call (programs need no
// link-time BLAS; the library's names and its environment variables are in
// lib/Runtime/CUDA/). The first call of each problem times the library's
// heuristic candidates on its operands (waiting for the stream once) and
// keeps the fastest. rlxFlashAttention runs one fused kernel per mask kind
// that nvcc compiled into this library as sm_90a code (H100/H200);
// $RLX_FLASH_ATTENTION_MODULE, if set, names a module file that the driver
// loads instead of the embedded one. Constant operands of either
// (baked-in weights) are device copies made once by rlxGpuConstant.
//
// Every rlx* function of the ABI runs on the stream set by
// rlxCudaSetStream, else on the legacy default stream and waits for it.
//
// Devices: the runtime computes in the context current on the calling
// thread (PyTorch's, say). With none current it makes current the primary
// context of the process's device: one process per GPU, device
// $RLX_LOCAL_RANK (set by rlx.distributed), else torchrun's $LOCAL_RANK,
// else 0; a process that CUDA_VISIBLE_DEVICES shows a single GPU uses
// that one.
//
// Collectives (RLX/Runtime/Common/Collectives.h) run over NVIDIA's NCCL,
// opened at the first collective ($RLX_NCCL_LIBRARY, else libnccl.so.2;
// rlx.distributed points the variable at PyTorch's copy), on the same
// stream as the other rlx* functions.
//
// Errors: a failing driver call is reported on stderr and recorded; the
// first one since the last rlxCudaClearError() is rlxCudaGetLastError().
//
//===----------------------------------------------------------------------===*/

#ifndef RLX_RUNTIME_CUDA_CUDARUNTIME_H
#define RLX_RUNTIME_CUDA_CUDARUNTIME_H

#include "RLX/Runtime/Common/GPURuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CUDA runtime's own API. */
void rlxCudaSetStream(void *stream);
const char *rlxCudaGetLastError(void);
void rlxCudaClearError(void);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_CUDA_CUDARUNTIME_H */
