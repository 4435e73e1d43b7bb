//===- rlx-compile.cpp - compile an RLX program to an object file ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-compile FILE.mlir -o OUT.o [--header=OUT.h] [--blas] [--cpu=NAME]
//             [--target=metal -o OUT.metal [--host-description=OUT.json]]
//             [--target=cuda [--chip=sm_90] [--cuda-toolkit=DIR]
//             [--gpu-matmul=library|generated]
//             [--gpu-attention=flash|decomposed] [--dispatch-report]
//             [--cuda-options='block-size=128 fast-math=false']]
//             [--target=rocm [--chip=gfx942] [--rocm-toolkit=DIR]
//             [--gpu-matmul=...] [--gpu-attention=...] [--dispatch-report]
//             [--rocm-options='block-size=128']]
//             [--target=vulkan [--gpu-matmul=generated]
//             [--vulkan-options='subgroup-size=8']]
//             [--target-options='...'] [--list-targets]
//
// The targets are those of the target registry (RLX/InitAllTargets.h);
// --list-targets prints them, and each builds its own pipeline from these
// flags (lib/Target/<T>/<T>Target.cpp). A target the build left out
// (RLX_ENABLE_<T>=OFF) is unknown here.
//
// Ahead-of-time counterpart of rlx-run: runs --rlx-cpu-pipeline, translates
// to LLVM IR, optimizes for the host CPU and writes a relocatable object.
// Every public function gets a plain C entry point,
// `void _mlir_ciface_NAME(results *, args *...)` on memref descriptors
// (MLIR's C interface), which --header declares in a C header. The object
// needs the RLX CPU runtime (librlx_cpu_runtime.so: allocation and the
// BLAS gemm entry points) and MLIR's libmlir_c_runner_utils.so (memrefCopy).
//
// With --target=cuda it runs --rlx-cuda-pipeline instead: the object holds
// the host code and the kernels' cubin; each entry point is
// `void _mlir_ciface_NAME(args *..., results *...)` where every descriptor
// points to device memory and the results are buffers the caller
// allocated. The object needs librlx_cuda_runtime.so (CUDARuntime.h).
// --target=rocm is the same through --rlx-rocm-pipeline: the object holds
// an HSA code object and needs librlx_rocm_runtime.so (ROCmRuntime.h).
// --target=vulkan too through --rlx-vulkan-pipeline: the object holds
// SPIR-V modules and needs librlx_vulkan_runtime.so (VulkanRuntime.h);
// the device pointers are the runtime's (rlxVulkanAlloc).
//
// With --target=metal it runs --rlx-metal-pipeline and writes no object:
// OUT is the kernels' MSL source (rlx-translate --rlx-to-msl) and
// --host-description (default OUT.json) the JSON a host program follows
// to run each function (--rlx-to-metal-host; docs/Metal.md). With
// --target=vulkan, --host-description writes the Vulkan program's launches
// in that JSON, for running SPIRV-Cross's MSL of its SPIR-V modules
// (--gpu-binaries) on Metal's CPU runner: the metal target writes it, so a
// build without metal rejects --host-description.
//
// The files it writes are RLXToolSupport's (RLX/Tools/CompileOutputs.h,
// EntryPointHeader.h, HostDescription.h, TargetList.h); this file is the
// flags.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Target/TargetRegistry.h"
#include "RLX/Tools/CommandLine.h"
#include "RLX/Tools/CompileOutputs.h"
#include "RLX/Tools/EntryPointHeader.h"
#include "RLX/Tools/HostDescription.h"
#include "RLX/Tools/TargetList.h"
#include "RLX/Tools/ToolSupport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
namespace cl = llvm::cl;

// Required unless --list-targets is given (checked in main).
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> outputFile("o", cl::desc("Object file to write"),
                                       cl::value_desc("file.o"),
                                       cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    headerFile("header", cl::desc("C header declaring the entry points"),
               cl::value_desc("file.h"), cl::init(""),
               cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> hostDescription(
    "host-description",
    cl::desc("With --target=metal, the JSON host description to write "
             "(default: the output's name with .json appended); with "
             "--target=vulkan, the same JSON of the Vulkan program's launches"),
    cl::value_desc("file.json"), cl::init(""),
    cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> useBlas("blas",
                             cl::desc("Call the BLAS gemm at run time for "
                                      "f32/f64 matmuls (rlx-cpu-pipeline "
                                      "blas=true)"),
                             cl::init(false),
                             cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    hostCPU("cpu",
            cl::desc("The CPU the object (and a GPU target's host code) is "
                     "for, as LLVM names it (x86-64-v4, sapphirerapids, "
                     "znver4): its features instead of this machine's"),
            cl::value_desc("name"), cl::init(""),
            cl::cat(rlx::getToolOptionCategory()));

static cl::opt<std::string>
    target("target",
           cl::desc("What to compile for: a registered target (cpu, cuda, "
                    "rocm, vulkan, metal; --list-targets says what each is)"),
           cl::init("cpu"), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> listTargets(
    "list-targets",
    cl::desc("Print the registered targets, what each compiles for and the "
             "ops it claims, then exit"),
    cl::init(false), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> targetOptions(
    "target-options",
    cl::desc("More options of the target's named pipeline (any target; "
             "the same as --cpu-options, --cuda-options, ... for it)"),
    cl::init(""), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    chip("chip",
         cl::desc("GPU architecture: sm_XX for --target=cuda (default "
                  "sm_90), gfxNNN for --target=rocm (default gfx942)"),
         cl::init("sm_90"), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> cudaToolkit(
    "cuda-toolkit", cl::desc("CUDA toolkit whose ptxas compiles the kernels"),
    cl::init("/usr/local/cuda"), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<rlx::GPUMatmul> gpuMatmul(
    "gpu-matmul",
    cl::desc("Where matmuls run with --target=cuda or rocm (always "
             "generated with --target=vulkan)"),
    cl::init(rlx::GPUMatmul::Library),
    cl::values(clEnumValN(rlx::GPUMatmul::Library, "library",
                          "the runtime's library matmul (cuBLASLt, "
                          "hipBLASLt) with its bias/activation epilogue "
                          "where it takes the matmul (matmul=library)"),
               clEnumValN(rlx::GPUMatmul::Library, "cublaslt",
                          "the same as library"),
               clEnumValN(rlx::GPUMatmul::Generated, "generated",
                          "always a generated kernel")),
    cl::cat(rlx::getToolOptionCategory()));
static cl::opt<rlx::GPUAttention> gpuAttention(
    "gpu-attention",
    cl::desc("Where attention runs with --target=cuda or rocm"),
    cl::init(rlx::GPUAttention::Flash),
    cl::values(clEnumValN(rlx::GPUAttention::Flash, "flash",
                          "the runtime's flash-attention kernel where it "
                          "takes the attention (rlx-cuda-pipeline "
                          "attention=flash)"),
               clEnumValN(rlx::GPUAttention::Decomposed, "decomposed",
                          "matmuls around a softmax where unmasked, else a "
                          "generated kernel")),
    cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> dispatchReport(
    "dispatch-report",
    cl::desc("With a GPU target, remark on each matmul and attention: a "
             "runtime kernel (cuBLASLt, flash attention) or a generated "
             "one, and why"),
    cl::init(false), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    cudaOptions("cuda-options",
                cl::desc("More options of --rlx-cuda-pipeline for "
                         "--target=cuda, e.g. 'block-size=128' (chip and "
                         "toolkit come from --chip and --cuda-toolkit)"),
                cl::init(""), cl::cat(rlx::getToolOptionCategory()));

static cl::opt<std::string>
    rocmToolkit("rocm-toolkit",
                cl::desc("ROCm toolkit folder (llvm/bin/ld.lld, "
                         "amdgcn/bitcode) for --target=rocm; the default is "
                         "the one the build arranged"),
                cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    rocmOptions("rocm-options",
                cl::desc("More options of --rlx-rocm-pipeline for "
                         "--target=rocm, e.g. 'block-size=128' (chip and "
                         "toolkit come from --chip and --rocm-toolkit)"),
                cl::init(""), cl::cat(rlx::getToolOptionCategory()));

static cl::opt<std::string>
    vulkanOptions("vulkan-options",
                  cl::desc("More options of --rlx-vulkan-pipeline for "
                           "--target=vulkan, e.g. 'subgroup-size=8' (the "
                           "device's, from rlx-vulkan-run "
                           "--print-subgroup-size)"),
                  cl::init(""), cl::cat(rlx::getToolOptionCategory()));

static cl::opt<std::string> gpuBinaries(
    "gpu-binaries",
    cl::desc("With a GPU target, also write each kernel module's binary to "
             "DIR/<module>.hsaco (rocm), .cubin (cuda) or .spv (vulkan), "
             "as embedded in "
             "the object, for inspection"),
    cl::value_desc("dir"), cl::init(""), cl::cat(rlx::getToolOptionCategory()));

static cl::opt<std::string>
    cpuOptions("cpu-options",
               cl::desc("More options of --rlx-cpu-pipeline for "
                        "--target=cpu, e.g. 'stream-stores=0' (blas comes "
                        "from --blas)"),
               cl::init(""), cl::cat(rlx::getToolOptionCategory()));

/// rlx-compile's flags as the target's pipeline builder reads them. The
/// kernel choices are set only where given, so that
/// --cuda-options='attention=decomposed' (bench/gpu/build.sh's
/// RLX_CUDA_OPTIONS) selects too.
static rlx::TargetCompileFlags compileFlags() {
  rlx::TargetCompileFlags flags;
  // Each target's own options flag, then the generic one.
  static const std::pair<StringRef, cl::opt<std::string> *> ownOptions[] = {
      {"cpu", &cpuOptions},
      {"cuda", &cudaOptions},
      {"rocm", &rocmOptions},
      {"vulkan", &vulkanOptions}};
  bool own = false;
  for (auto [name, option] : ownOptions) {
    if (name != target || !option->getNumOccurrences())
      continue;
    flags.pipelineOptions = *option;
    flags.pipelineOptionsFlag = ("--" + name + "-options").str();
    own = true;
  }
  if (targetOptions.getNumOccurrences()) {
    flags.pipelineOptions += " " + targetOptions;
    if (own)
      flags.pipelineOptionsFlag += " or --target-options";
  }
  if (chip.getNumOccurrences())
    flags.chip = chip;
  if (target == "cuda")
    flags.toolkit = cudaToolkit;
  else if (target == "rocm" && rocmToolkit.getNumOccurrences())
    flags.toolkit = rocmToolkit;
  if (gpuMatmul.getNumOccurrences())
    flags.matmul = gpuMatmul;
  if (gpuAttention.getNumOccurrences())
    flags.attention = gpuAttention;
  if (dispatchReport.getNumOccurrences())
    flags.dispatchReport = dispatchReport;
  flags.blas = useBlas;
  return flags;
}

static void reportError(const Twine &message) {
  llvm::errs() << "rlx-compile: error: " << message << "\n";
}

/// Adds `info`'s pipeline to `pm` from the flags; false after reporting.
static bool buildTargetPipeline(const rlx::TargetInfo &info,
                                OpPassManager &pm) {
  return succeeded(info.buildPipeline(pm, compileFlags(), reportError));
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  rlx::parseToolCommandLine(
      argc, argv,
      "rlx-compile: compile an RLX program to an object file for this CPU\n");

  std::unique_ptr<MLIRContext> context = rlx::createToolContext();
  if (listTargets) {
    rlx::printTargets(llvm::outs());
    return 0;
  }
  if (inputFile.empty() || outputFile.empty()) {
    reportError("an input file and -o OUT are required (see --help)");
    return 1;
  }
  const rlx::TargetInfo *targetInfo = rlx::lookupTargetInfo(target);
  if (!targetInfo) {
    reportError(rlx::unknownTargetMessage(target));
    return 1;
  }

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, context.get());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, context.get());
  if (!module)
    return 1;
  PassManager pm(context.get());

  // A target whose output is source (--target=metal): the kernels' source
  // in the output, the host functions as JSON beside it.
  if (targetInfo->emitSource) {
    if (!headerFile.empty()) {
      reportError("--target=" + target +
                  " writes no C header (the host description is JSON)");
      return 1;
    }
    rlx::setHostElementTypes(*module);
    if (!buildTargetPipeline(*targetInfo, pm) || failed(pm.run(*module)))
      return 1;
    std::string hostPath = hostDescription.empty()
                               ? outputFile + ".json"
                               : std::string(hostDescription);
    return failed(rlx::writeSourceFiles(*module, *targetInfo, outputFile,
                                        hostPath, reportError))
               ? 1
               : 0;
  }

  if (!hostDescription.empty() && target != "vulkan") {
    reportError("--host-description is for --target=metal and "
                "--target=vulkan");
    return 1;
  }
  // The header describes the tensor signatures, which lowering replaces.
  if (!headerFile.empty() &&
      failed(rlx::writeEntryPointHeader(
          *module, headerFile, targetInfo->deviceEntryPoints, reportError)))
    return 1;

  return failed(rlx::compileObjectFile(*module, *targetInfo, compileFlags(),
                                       inputFile, hostCPU, outputFile,
                                       gpuBinaries, hostDescription,
                                       reportError))
             ? 1
             : 0;
}
