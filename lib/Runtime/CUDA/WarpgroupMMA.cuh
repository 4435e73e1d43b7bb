//===- WarpgroupMMA.cuh - sm_90a warpgroup tensor-core products -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The wgmma instructions the runtime's hand-written kernels use, as inline
// PTX (nvcc has no intrinsics for them). A warpgroup (4 consecutive warps)
// computes d += a b for a 64 x N x 16 product with f32 accumulators: b is
// read from shared memory through a matrix descriptor, a from shared memory
// or from registers. Accumulator element 4j + e of thread t is row
// 16 (t / 32) + (t % 32) / 4 + 8 (e / 2), column 8j + 2 (t % 4) + e % 2;
// register operands of a use the same row and column pairs (the layout of
// mma.sync's m16n8k16 fragments per warp), so an accumulator packed to
// 2-byte pairs is an a operand.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_WARPGROUPMMA_CUH
#define RLX_RUNTIME_WARPGROUPMMA_CUH

#include <stdint.h>

namespace rlx::cuda::wgmma {

/// A descriptor of a shared-memory operand stored with the 128-byte
/// swizzle (16-byte chunk c of 128-byte line r at chunk c ^ (r % 8), the
/// pattern starting on a 1024-byte boundary). For a K-major operand
/// `leading` is unused (16) and `stride` the distance of 8-line groups;
/// for an MN-major one `leading` is the distance of 64-element column
/// blocks and `stride` that of 8-line groups along K.
__device__ __forceinline__ uint64_t descriptor(uint32_t sharedAddress,
                                               uint32_t leading,
                                               uint32_t stride) {
  return uint64_t((sharedAddress & 0x3FFFF) >> 4) |
         (uint64_t(leading >> 4) << 16) | (uint64_t(stride >> 4) << 32) |
         (uint64_t(1) << 62);
}

/// Orders register writes before the next products read them.
__device__ __forceinline__ void fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
/// Waits until at most N committed groups are in flight.
template <int N> __device__ __forceinline__ void wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
/// Makes this thread's ordinary shared-memory writes (cp.async included)
/// visible to the products, which read through the async proxy.
__device__ __forceinline__ void fenceSharedWrites() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

#define RLX_WGMMA_R0 "%0, %1, %2, %3, %4, %5, %6, %7, "                      \
                     "%8, %9, %10, %11, %12, %13, %14, %15, "                \
                     "%16, %17, %18, %19, %20, %21, %22, %23, "              \
                     "%24, %25, %26, %27, %28, %29, %30, %31"
#define RLX_WGMMA_R32 "%32, %33, %34, %35, %36, %37, %38, %39, "             \
                      "%40, %41, %42, %43, %44, %45, %46, %47, "             \
                      "%48, %49, %50, %51, %52, %53, %54, %55, "             \
                      "%56, %57, %58, %59, %60, %61, %62, %63"
#define RLX_WGMMA_D4(i)                                                       \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define RLX_WGMMA_D32(i)                                                      \
  RLX_WGMMA_D4(i), RLX_WGMMA_D4(i + 4), RLX_WGMMA_D4(i + 8),                  \
      RLX_WGMMA_D4(i + 12), RLX_WGMMA_D4(i + 16), RLX_WGMMA_D4(i + 20),       \
      RLX_WGMMA_D4(i + 24), RLX_WGMMA_D4(i + 28)
#define RLX_WGMMA_SHAPE(N, TYPE)                                              \
  "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." TYPE "." TYPE " "

/// The products for one 2-byte element type (PTX name TYPE), N = 64, 128.
#define RLX_WGMMA_PRODUCTS(NAME, TYPE)                                        \
  struct NAME {                                                               \
    static __device__ __forceinline__ void mma(float (&d)[32], uint64_t a,    \
                                               uint64_t b) {                  \
      asm volatile(RLX_WGMMA_SHAPE(64, TYPE) "{" RLX_WGMMA_R0 "}, %32, %33, " \
                                             "1, 1, 1, 0, 0;\n"               \
                   : RLX_WGMMA_D32(0)                                         \
                   : "l"(a), "l"(b));                                         \
    }                                                                         \
    static __device__ __forceinline__ void mma(float (&d)[64], uint64_t a,    \
                                               uint64_t b) {                  \
      asm volatile(RLX_WGMMA_SHAPE(128, TYPE) "{" RLX_WGMMA_R0                \
                                              ", " RLX_WGMMA_R32 "}, %64, "   \
                                              "%65, 1, 1, 1, 0, 0;\n"         \
                   : RLX_WGMMA_D32(0), RLX_WGMMA_D32(32)                      \
                   : "l"(a), "l"(b));                                         \
    }                                                                         \
    /* b is MN-major (transposed) here. */                                    \
    static __device__ __forceinline__ void mma(float (&d)[32],                \
                                               const uint32_t (&a)[4],        \
                                               uint64_t b) {                  \
      asm volatile(RLX_WGMMA_SHAPE(64, TYPE) "{" RLX_WGMMA_R0 "}, "           \
                                             "{%32, %33, %34, %35}, %36, "    \
                                             "1, 1, 1, 1;\n"                  \
                   : RLX_WGMMA_D32(0)                                         \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));     \
    }                                                                         \
    static __device__ __forceinline__ void mma(float (&d)[64],                \
                                               const uint32_t (&a)[4],        \
                                               uint64_t b) {                  \
      asm volatile(RLX_WGMMA_SHAPE(128, TYPE) "{" RLX_WGMMA_R0                \
                                              ", " RLX_WGMMA_R32 "}, "        \
                                              "{%64, %65, %66, %67}, %68, "   \
                                              "1, 1, 1, 1;\n"                 \
                   : RLX_WGMMA_D32(0), RLX_WGMMA_D32(32)                      \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));     \
    }                                                                         \
  };

RLX_WGMMA_PRODUCTS(BF16, "bf16")
RLX_WGMMA_PRODUCTS(F16, "f16")

#undef RLX_WGMMA_PRODUCTS
#undef RLX_WGMMA_SHAPE
#undef RLX_WGMMA_D32
#undef RLX_WGMMA_D4
#undef RLX_WGMMA_R32
#undef RLX_WGMMA_R0

} // namespace rlx::cuda::wgmma

#endif // RLX_RUNTIME_WARPGROUPMMA_CUH
