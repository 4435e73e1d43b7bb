//===- CUDAPipeline.cpp - the rlx-cuda-pipeline ---------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-cuda-pipeline: the GPU front (--rlx-to-gpu) for the chip's
// description, with bf16/f16 matmuls that cuBLASLt does not take run on
// tensor cores (rlx-cuda-mma-matmul), then upstream's GPU path: one stream
// per function (gpu-async-region), NVVM, gpu-to-llvm for the host side
// (calls to the mgpu* functions of librlx_cuda_runtime) and
// gpu-module-to-binary, which runs ptxas from the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CUDA/CUDAPipeline.h"

#include "RLX/Target/CUDA/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

rlx::GPUTargetDescription rlx::getCUDATargetDescription(StringRef chip) {
  GPUTargetDescription target;
  target.name = "cuda";
  target.subgroupSize = 32;
  target.maxThreadsPerBlock = 1024;
  target.sharedMemoryBytes = 48 * 1024;
  target.vectorBytes = 16;
  target.runtimeMatmul = true;
  // The runtime holds the flash-attention kernel as sm_90a code alone
  // (wgmma).
  target.runtimeFlashAttention = chip == "sm_90" || chip == "sm_90a";
  // Over NCCL (NCCLCollectives.cpp).
  target.runtimeCollectives = true;
  // gridDim.x up to 2^31 - 1, y and z up to 65535.
  target.maxGridSize = {2147483647, 65535, 65535};
  target.runtimeInt8Matmul = true;
  // cuBLASLt's int8 kernels read K in 4-byte groups.
  target.int8MatmulKMultiple = 4;
  // cuBLASLt's fp8 matmuls need Ada or later (sm_89), and 16-byte aligned
  // rows of the fp8 operands and of the result.
  unsigned arch = 0;
  target.runtimeFp8Matmul =
      chip.consume_front("sm_") && !chip.consumeInteger(10, arch) && arch >= 89;
  // The decode-attention kernels are sm_80 and sm_90 code and compute_80
  // PTX (DecodeAttention.cu).
  target.runtimeDecodeAttention = arch >= 80;
  target.fp8MatmulKMultiple = 16;
  target.fp8MatmulNMultiple = 8;
  return target;
}

void rlx::buildCUDAPipeline(OpPassManager &pm,
                            const CUDAPipelineOptions &options) {
  // rlx-legalize, inside the GPU front, looks the target up.
  registerCUDATarget();
  buildRLXToGPUPipeline(
      pm, options.choices(), getCUDATargetDescription(options.chip),
      [](OpPassManager &hostPm) {
        hostPm.addNestedPass<func::FuncOp>(createCUDAMmaMatmulPass());
      });
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  // Complex comparisons, division, exp and log expand into arith and math
  // ops; the NVVM conversion takes complex values and arithmetic alone.
  kernels.addPass(createConvertComplexToStandardPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  buildGPUHostToLLVMPipeline(pm);
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
}

void rlx::registerCUDAPipeline() {
  PassPipelineRegistration<CUDAPipelineOptions>(
      "rlx-cuda-pipeline",
      "Lower rlx_hir and rlx (MIR) through linalg, bufferization and GPU "
      "kernels to the LLVM dialect with an embedded CUDA binary",
      buildCUDAPipeline);
}
