//===- Passes.td - RLX CUDA target passes ------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_CUDA_PASSES_TD
#define RLX_TARGET_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def CUDAMmaMatmulPass : Pass<"rlx-cuda-mma-matmul", "::mlir::func::FuncOp"> {
  let summary = "Run bf16/f16 matmuls on buffers as tensor-core kernels "
                "(mma.sync)";
  let description = [{
    The CUDA target's generated tensor-core schedule, run by
    `--rlx-cuda-pipeline` on the bufferized host functions just before the
    GPU front maps the remaining linalg ops to kernels
    (`rlx-gpu-map-linalg`). Each row-major bf16 or f16 matmul accumulating
    into f32 (`linalg.matmul` or its generic form; static sizes that are
    multiples of 64 x 32 x 16, identity layouts) becomes a `gpu.launch` of
    `nvvm.mma.sync` m16n8k16 tiles: each warp computes 16 x 32 of the
    result (four 16 x 8 tiles sharing the A fragment), four warps a block
    of 64 x 32, every lane loading its fragments straight from global
    memory in mma.sync's register layout (no shared memory yet). Upstream's
    `nvgpu.mma.sync` does not lower bf16 and its matmul rewrite takes no
    f32 accumulation, hence NVVM directly. Other linalg ops are left to the
    front (named ops are generalized on the way, as the front would).

    ```mlir
    linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x32xbf16>)
                  outs(%c : memref<64x32xf32>)
    // becomes
    gpu.launch blocks(%bx, ...) in (%gx = %c1, ...) threads(%tx, ...)
        in (%c128, ...) {
      ... nvvm.mma.sync A[...] B[...] C[...] {shape = #nvvm.shape<m = 16,
          n = 8, k = 16>, ...} : (vector<2xbf16>, ...) -> !llvm.struct<...>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // RLX_TARGET_CUDA_PASSES_TD
