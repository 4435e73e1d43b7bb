//===- ROCmPipeline.cpp - the rlx-rocm-pipeline ---------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-rocm-pipeline: the GPU front (--rlx-to-gpu) for the chip's
// description, then upstream's GPU path for AMD GPUs: one stream per
// function (gpu-async-region), ROCDL (convert-gpu-to-rocdl, which lowers
// the row kernels' gpu.shuffle to ds_bpermute / DPP at the wavefront size
// they were built for), gpu-to-llvm for the host side (calls to the mgpu*
// functions of librlx_rocm_runtime) and gpu-module-to-binary, which links
// the device libraries' bitcode where a kernel calls them and the code
// object with the toolkit's ld.lld.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/ROCm/ROCmPipeline.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

ArrayRef<rlx::ROCmChip> rlx::getROCmChips() {
  // LDS: 64 KiB per workgroup on CDNA2/3 and on RDNA3 (whose 128 KiB per
  // WGP are shared by its workgroups).
  static const ROCmChip chips[] = {
      {"gfx90a", 64, 64 * 1024},
      {"gfx942", 64, 64 * 1024},
      {"gfx1100", 32, 64 * 1024},
  };
  return chips;
}

const rlx::ROCmChip *rlx::lookupROCmChip(StringRef name) {
  ArrayRef<ROCmChip> chips = getROCmChips();
  const ROCmChip *it = llvm::find_if(
      chips, [&](const ROCmChip &chip) { return chip.name == name; });
  return it == chips.end() ? nullptr : it;
}

std::string rlx::unknownROCmChipMessage(StringRef name) {
  std::string message = "unknown ROCm chip '" + name.str() + "' (expected ";
  llvm::interleave(
      getROCmChips(), [&](const ROCmChip &chip) { message += chip.name; },
      [&] { message += ", "; });
  return message + ")";
}

std::string rlx::getDefaultROCmToolkit() { return RLX_ROCM_TOOLKIT_DIR; }

rlx::GPUTargetDescription rlx::getROCmTargetDescription(const ROCmChip &chip) {
  GPUTargetDescription target;
  target.name = "rocm";
  target.subgroupSize = chip.wavefrontSize;
  target.maxThreadsPerBlock = 1024;
  target.sharedMemoryBytes = chip.ldsBytes;
  // global_load_dwordx4 / global_store_dwordx4.
  target.vectorBytes = 16;
  // What hipGetDeviceProperties reports (maxGridSize), as CUDA's.
  target.maxGridSize = {2147483647, 65535, 65535};
  target.runtimeMatmul = true;
  target.runtimeFlashAttention = false;
  target.runtimeDecodeAttention = false;
  return target;
}

LogicalResult rlx::buildROCmPipeline(OpPassManager &pm,
                                     const ROCmPipelineOptions &options) {
  // rlx-legalize, inside the GPU front, looks the target up.
  registerROCmTarget();
  const ROCmChip *chip = lookupROCmChip(options.chip);
  if (!chip)
    return failure();
  buildRLXToGPUPipeline(pm, options.choices(), getROCmTargetDescription(*chip));
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  GpuROCDLAttachTargetOptions target;
  target.chip = chip->name.str();
  target.wave64Flag = chip->wavefrontSize == 64;
  target.optLevel = 3;
  // Code object v5, which every ROCm since 5.x loads (v6, upstream's
  // default, needs ROCm 6.2).
  target.abiVersion = "500";
  pm.addPass(createGpuROCDLAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  // Complex arithmetic expands into arith and math ops first, as for NVVM.
  kernels.addPass(createConvertComplexToStandardPass());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = chip->name.str();
  rocdl.runtime = gpu::amd::Runtime::HIP;
  // The lowerings of these dialects alone: with those of every loaded
  // dialect (rlx-compile loads all), math.tanh may become llvm.intr.tanh,
  // which the AMDGPU back end cannot select ("no libcall available for
  // ftanh"), instead of the device library's __ocml_tanh_f32.
  rocdl.allowedDialects = {"arith", "cf",     "func", "index",
                           "math",  "memref", "ub",   "vector"};
  kernels.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  buildGPUHostToLLVMPipeline(pm);
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
  return success();
}

void rlx::registerROCmPipeline() {
  // Registered by hand rather than with PassPipelineRegistration so that an
  // unknown chip fails the pipeline's parsing with a message.
  registerPassPipeline(
      "rlx-rocm-pipeline",
      "Lower rlx_hir and rlx (MIR) through linalg, bufferization and GPU "
      "kernels to the LLVM dialect with an embedded AMD HSA code object",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ROCmPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (failed(buildROCmPipeline(pm, options)))
          return errorHandler(unknownROCmChipMessage(options.chip));
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(ROCmPipelineOptions());
      });
}
