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
// flags (lib/Target/<T>/<T>Target.cpp).
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
// (--gpu-binaries) on Metal's CPU runner.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Target/CPU/HostTarget.h"
#include "RLX/Target/Metal/MSLEmitter.h"
#include "RLX/Target/ROCm/ROCmPipeline.h"
#include "RLX/Target/TargetRegistry.h"
#include "RLX/Tools/ToolSupport.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
namespace cl = llvm::cl;

// Required unless --list-targets is given (checked in main).
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"));
static cl::opt<std::string> outputFile("o", cl::desc("Object file to write"),
                                       cl::value_desc("file.o"));
static cl::opt<std::string>
    headerFile("header", cl::desc("C header declaring the entry points"),
               cl::value_desc("file.h"), cl::init(""));
static cl::opt<std::string> hostDescription(
    "host-description",
    cl::desc("With --target=metal, the JSON host description to write "
             "(default: the output's name with .json appended); with "
             "--target=vulkan, the same JSON of the Vulkan program's launches"),
    cl::value_desc("file.json"), cl::init(""));
static cl::opt<bool> useBlas("blas",
                             cl::desc("Call the BLAS gemm at run time for "
                                      "f32/f64 matmuls (rlx-cpu-pipeline "
                                      "blas=true)"),
                             cl::init(false));
static cl::opt<std::string>
    hostCPU("cpu",
            cl::desc("The CPU the object (and a GPU target's host code) is "
                     "for, as LLVM names it (x86-64-v4, sapphirerapids, "
                     "znver4): its features instead of this machine's"),
            cl::value_desc("name"), cl::init(""));

static cl::opt<std::string>
    target("target",
           cl::desc("What to compile for: a registered target (cpu, cuda, "
                    "rocm, vulkan, metal; --list-targets says what each is)"),
           cl::init("cpu"));
static cl::opt<bool> listTargets(
    "list-targets",
    cl::desc("Print the registered targets, what each compiles for and the "
             "ops it claims, then exit"),
    cl::init(false));
static cl::opt<std::string> targetOptions(
    "target-options",
    cl::desc("More options of the target's named pipeline (any target; "
             "the same as --cpu-options, --cuda-options, ... for it)"),
    cl::init(""));
static cl::opt<std::string>
    chip("chip",
         cl::desc("GPU architecture: sm_XX for --target=cuda (default "
                  "sm_90), gfxNNN for --target=rocm (default gfx942)"),
         cl::init("sm_90"));
static cl::opt<std::string>
    cudaToolkit("cuda-toolkit",
                cl::desc("CUDA toolkit whose ptxas compiles the kernels"),
                cl::init("/usr/local/cuda"));
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
                          "always a generated kernel")));
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
                          "generated kernel")));
static cl::opt<bool> dispatchReport(
    "dispatch-report",
    cl::desc("With a GPU target, remark on each matmul and attention: a "
             "runtime kernel (cuBLASLt, flash attention) or a generated "
             "one, and why"),
    cl::init(false));
static cl::opt<std::string>
    cudaOptions("cuda-options",
                cl::desc("More options of --rlx-cuda-pipeline for "
                         "--target=cuda, e.g. 'block-size=128' (chip and "
                         "toolkit come from --chip and --cuda-toolkit)"),
                cl::init(""));

static cl::opt<std::string>
    rocmToolkit("rocm-toolkit",
                cl::desc("ROCm toolkit folder (llvm/bin/ld.lld, "
                         "amdgcn/bitcode) for --target=rocm; the default is "
                         "the one the build arranged"),
                cl::init(rlx::getDefaultROCmToolkit()));
static cl::opt<std::string>
    rocmOptions("rocm-options",
                cl::desc("More options of --rlx-rocm-pipeline for "
                         "--target=rocm, e.g. 'block-size=128' (chip and "
                         "toolkit come from --chip and --rocm-toolkit)"),
                cl::init(""));

static cl::opt<std::string>
    vulkanOptions("vulkan-options",
                  cl::desc("More options of --rlx-vulkan-pipeline for "
                           "--target=vulkan, e.g. 'subgroup-size=8' (the "
                           "device's, from rlx-vulkan-run "
                           "--print-subgroup-size)"),
                  cl::init(""));

static cl::opt<std::string> gpuBinaries(
    "gpu-binaries",
    cl::desc("With a GPU target, also write each kernel module's binary to "
             "DIR/<module>.hsaco (rocm), .cubin (cuda) or .spv (vulkan), "
             "as embedded in "
             "the object, for inspection"),
    cl::value_desc("dir"), cl::init(""));

static cl::opt<std::string>
    cpuOptions("cpu-options",
               cl::desc("More options of --rlx-cpu-pipeline for "
                        "--target=cpu, e.g. 'stream-stores=0' (blas comes "
                        "from --blas)"),
               cl::init(""));

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
  else if (target == "rocm")
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

/// Adds `info`'s pipeline to `pm` from the flags; false after reporting.
static bool buildTargetPipeline(const rlx::TargetInfo &info,
                                OpPassManager &pm) {
  return succeeded(info.buildPipeline(pm, compileFlags(), [](const Twine &m) {
    llvm::errs() << "rlx-compile: error: " << m << "\n";
  }));
}

/// --list-targets: one paragraph per registered target.
static void printTargets(llvm::raw_ostream &os) {
  for (StringRef name : rlx::registeredTargetNames()) {
    const rlx::TargetInfo *info = rlx::lookupTargetInfo(name);
    os << name << ": " << info->summary << "\n";
    os << "  output: "
       << (info->emitSource ? "source (." + info->sourceExtension + ")"
                            : std::string("object"))
       << ", entry points on "
       << (info->deviceEntryPoints ? "device buffers" : "host memrefs")
       << ", " << (info->ops.staticShapes ? "static" : "static and dynamic")
       << " shapes\n";
    if (info->gpu)
      os << "  gpu: subgroup " << info->gpu->subgroupSize << ", "
         << info->gpu->maxThreadsPerBlock << " threads and "
         << info->gpu->sharedMemoryBytes << " bytes of shared memory a block, "
         << info->gpu->vectorBytes << "-byte accesses\n";
    os << "  claims " << info->ops.ops.size() << " ops\n";
  }
}

/// Writes the binary of every gpu.binary in `module` to
/// gpuBinaries/<name>.<ext>.
static LogicalResult writeGPUBinaries(ModuleOp module, StringRef extension) {
  if (std::error_code ec = llvm::sys::fs::create_directories(gpuBinaries)) {
    llvm::errs() << "rlx-compile: error: " << gpuBinaries << ": "
                 << ec.message() << "\n";
    return failure();
  }
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      StringRef ext = "fatbin";
      if (object.getFormat() == gpu::CompilationTarget::Assembly)
        ext = "s";
      else if (object.getFormat() == gpu::CompilationTarget::Binary)
        ext = extension;
      SmallString<128> path(gpuBinaries);
      llvm::sys::path::append(path, binary.getName() + "." + ext);
      std::string error;
      auto file = openOutputFile(path, &error);
      if (!file) {
        llvm::errs() << "rlx-compile: error: " << error << "\n";
        return failure();
      }
      file->os() << object.getObject().getValue();
      file->keep();
    }
  }
  return success();
}

/// The C type of one element, or "" for types the header cannot spell.
static std::string cElementType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16() || type.isBF16())
    return "uint16_t"; // raw IEEE half / bfloat16 bits
  if (type.isInteger(1))
    return "bool";
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType().isF64() ? "rlx_complex_f64"
                                            : "rlx_complex_f32";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned w = integer.getWidth();
    if (w != 8 && w != 16 && w != 32 && w != 64)
      return "";
    return (integer.isUnsigned() ? "uint" : "int") + std::to_string(w) + "_t";
  }
  return "";
}

/// The descriptor struct name for `type`, e.g. rlx_memref_f32_2d.
static std::string descriptorName(RankedTensorType type) {
  std::string tag;
  llvm::raw_string_ostream os(tag);
  type.getElementType().print(os);
  llvm::erase_if(tag, [](char c) { return !llvm::isAlnum(c); });
  return "rlx_memref_" + tag + "_" + std::to_string(type.getRank()) + "d";
}

/// Writes a C header with one descriptor struct per (element type, rank)
/// and one declaration per public function (results returned, or with
/// `outParams` passed as trailing arguments). Fails on a type it cannot
/// spell, naming the function.
static LogicalResult writeHeader(ModuleOp module, llvm::raw_ostream &os,
                                 bool outParams) {
  std::set<std::string> emitted;
  std::string decls, structs;
  llvm::raw_string_ostream d(decls), s(structs);
  auto descriptor = [&](Type t, func::FuncOp fn) -> FailureOr<std::string> {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || cElementType(type.getElementType()).empty())
      return fn.emitError("rlx-compile --header: cannot spell type ")
             << t << " in C";
    std::string name = descriptorName(type);
    if (emitted.insert(name).second) {
      std::string elem = cElementType(type.getElementType());
      s << "typedef struct {\n  " << elem << " *allocated;\n  " << elem
        << " *aligned;\n  int64_t offset;\n";
      if (type.getRank() > 0)
        s << "  int64_t sizes[" << type.getRank() << "];\n  int64_t strides["
          << type.getRank() << "];\n";
      s << "} " << name << ";\n\n";
    }
    return name;
  };
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    FunctionType signature = fn.getFunctionType();
    SmallVector<std::string> args, results;
    std::string resultType;
    if (outParams) {
      for (Type t : signature.getResults()) {
        FailureOr<std::string> r = descriptor(t, fn);
        if (failed(r))
          return failure();
        results.push_back(*r);
      }
    } else if (signature.getNumResults() == 1) {
      FailureOr<std::string> r = descriptor(signature.getResult(0), fn);
      if (failed(r))
        return failure();
      resultType = *r;
    } else if (signature.getNumResults() > 1) {
      // Several results come back as one struct of descriptors.
      resultType = fn.getName().str() + "_results";
      std::string fields;
      for (auto [i, t] : llvm::enumerate(signature.getResults())) {
        FailureOr<std::string> r = descriptor(t, fn);
        if (failed(r))
          return failure();
        fields += "  " + *r + " r" + std::to_string(i) + ";\n";
      }
      s << "typedef struct {\n" << fields << "} " << resultType << ";\n\n";
    }
    for (Type t : signature.getInputs()) {
      FailureOr<std::string> a = descriptor(t, fn);
      if (failed(a))
        return failure();
      args.push_back(*a);
    }
    d << "void _mlir_ciface_" << fn.getName() << "(";
    bool first = true;
    if (!resultType.empty()) {
      d << resultType << " *result";
      first = false;
    }
    for (auto [i, a] : llvm::enumerate(args)) {
      d << (first ? "" : ", ") << a << " *arg" << i;
      first = false;
    }
    for (auto [i, r] : llvm::enumerate(results)) {
      d << (first ? "" : ", ") << r << " *result" << i;
      first = false;
    }
    d << (first ? "void" : "") << ");\n";
  }
  os << "/* Generated by rlx-compile: entry points of an RLX program.\n"
     << (outParams
             ? " * Every buffer is device memory; the caller allocates the\n"
               " * results, which the program writes. Inputs are read,\n"
               " * never written or kept. */\n"
             : " * Each result's buffer is allocated with malloc by the "
               "program;\n"
               " * free each distinct `allocated` pointer once. Inputs are "
               "read,\n"
               " * never written or kept. */\n")
     << "#ifndef RLX_GENERATED_H\n#define RLX_GENERATED_H\n\n"
        "#include <stdbool.h>\n#include <stdint.h>\n\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
        "typedef struct {\n  float re, im;\n} rlx_complex_f32;\n"
        "typedef struct {\n  double re, im;\n} rlx_complex_f64;\n\n"
     << structs << decls
     << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* RLX_GENERATED_H */\n";
  return success();
}

/// Names each function's element types (args, then results) for the host
/// description: bufferization makes unsigned element types signless.
static void setSourceElementTypes(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    SmallVector<Attribute> types;
    for (Type t : llvm::concat<const Type>(fn.getArgumentTypes(),
                                           fn.getResultTypes()))
      if (auto shaped = dyn_cast<ShapedType>(t))
        types.push_back(TypeAttr::get(shaped.getElementType()));
    fn->setAttr(rlx::kMetalElementTypesAttr,
                ArrayAttr::get(module.getContext(), types));
  }
}

namespace {
/// --target=vulkan --host-description: the Vulkan pipeline's launches as
/// the Metal host description's JSON, written just before
/// gpu-module-to-binary, the last point where the host functions launch the
/// gpu.funcs of gpu.modules (then they are lowered to LLVM). With the
/// modules' SPIR-V (--gpu-binaries) through `spirv-cross --msl`,
/// rlx-metal-cpu-run --spirv-cross runs the Vulkan path's kernels as it
/// launches them.
struct VulkanHostDescription : public PassInstrumentation {
  bool written = false, failed = false;

  void runBeforePass(Pass *pass, Operation *op) override {
    if (written || pass->getArgument() != "gpu-module-to-binary")
      return;
    written = true;
    std::string error;
    auto file = openOutputFile(hostDescription, &error);
    if (!file) {
      llvm::errs() << "rlx-compile: error: " << error << "\n";
      failed = true;
      return;
    }
    // Its kernels are SPIRV-Cross's, whose builtins are its own.
    failed = mlir::failed(rlx::translateToMetalHostDescription(
        op, file->os(), /*withBuiltins=*/false));
    if (!failed)
      file->keep();
  }
};
} // namespace

/// A target whose output is source (--target=metal): the kernels' source
/// in the output, the host functions as JSON beside it.
static int compileSource(ModuleOp module, const rlx::TargetInfo &info) {
  setSourceElementTypes(module);
  PassManager pm(module.getContext());
  if (!buildTargetPipeline(info, pm) || failed(pm.run(module)))
    return 1;
  std::string error;
  auto source = openOutputFile(outputFile, &error);
  auto host = source ? openOutputFile(hostDescription.empty()
                                          ? outputFile + ".json"
                                          : std::string(hostDescription),
                                      &error)
                     : nullptr;
  if (!source || !host) {
    llvm::errs() << "rlx-compile: error: " << error << "\n";
    return 1;
  }
  if (failed(info.emitSource(module, source->os(), host->os())))
    return 1;
  source->keep();
  host->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  cl::ParseCommandLineOptions(
      argc, argv,
      "rlx-compile: compile an RLX program to an object file for this CPU\n");

  std::unique_ptr<MLIRContext> context = rlx::createToolContext();
  if (listTargets) {
    printTargets(llvm::outs());
    return 0;
  }
  if (inputFile.empty() || outputFile.empty()) {
    llvm::errs() << "rlx-compile: error: an input file and -o OUT are "
                    "required (see --help)\n";
    return 1;
  }
  const rlx::TargetInfo *targetInfo = rlx::lookupTargetInfo(target);
  if (!targetInfo) {
    llvm::errs() << "rlx-compile: error: " << rlx::unknownTargetMessage(target)
                 << "\n";
    return 1;
  }

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, context.get());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, context.get());
  if (!module)
    return 1;

  if (targetInfo->emitSource) {
    if (!headerFile.empty()) {
      llvm::errs() << "rlx-compile: error: --target=" << target
                   << " writes no C header (the host description is JSON)\n";
      return 1;
    }
    return compileSource(*module, *targetInfo);
  }

  if (!hostDescription.empty() && target != "vulkan") {
    llvm::errs() << "rlx-compile: error: --host-description is for "
                    "--target=metal and --target=vulkan\n";
    return 1;
  }

  // The header describes the tensor signatures, which lowering replaces.
  if (!headerFile.empty()) {
    std::string error;
    auto header = openOutputFile(headerFile, &error);
    if (!header) {
      llvm::errs() << "rlx-compile: error: " << error << "\n";
      return 1;
    }
    if (failed(writeHeader(*module, header->os(),
                           targetInfo->deviceEntryPoints)))
      return 1;
    header->keep();
  }

  for (auto fn : module->getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      rlx::markCPUEntryPoint(fn);
  PassManager pm(context.get());
  VulkanHostDescription *vulkanHost = nullptr;
  if (!buildTargetPipeline(*targetInfo, pm))
    return 1;
  if (!hostDescription.empty()) {
    setSourceElementTypes(*module);
    auto writer = std::make_unique<VulkanHostDescription>();
    vulkanHost = writer.get();
    pm.addInstrumentation(std::move(writer));
  }
  if (failed(pm.run(*module)) || (vulkanHost && vulkanHost->failed))
    return 1;
  if (vulkanHost && !vulkanHost->written) {
    llvm::errs() << "rlx-compile: error: the Vulkan pipeline has no "
                    "gpu-module-to-binary step to describe the launches "
                    "before\n";
    return 1;
  }
  if (!gpuBinaries.empty() &&
      failed(writeGPUBinaries(*module, targetInfo->binaryExtension)))
    return 1;

  auto tm = rlx::createHostTargetMachine(/*pic=*/true, hostCPU);
  if (!tm) {
    llvm::errs() << "rlx-compile: error: " << toString(tm.takeError()) << "\n";
    return 1;
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, inputFile);
  if (!llvmModule) {
    llvm::errs() << "rlx-compile: error: translation to LLVM IR failed\n";
    return 1;
  }
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  if (llvm::Error err =
          makeOptimizingTransformer(3, 0, tm->get())(llvmModule.get())) {
    llvm::errs() << "rlx-compile: error: " << toString(std::move(err)) << "\n";
    return 1;
  }

  std::string error;
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "rlx-compile: error: " << error << "\n";
    return 1;
  }
  llvm::legacy::PassManager codegen;
  if ((*tm)->addPassesToEmitFile(codegen, output->os(), nullptr,
                                 llvm::CodeGenFileType::ObjectFile)) {
    llvm::errs() << "rlx-compile: error: this target cannot emit objects\n";
    return 1;
  }
  codegen.run(*llvmModule);
  output->keep();
  return 0;
}
