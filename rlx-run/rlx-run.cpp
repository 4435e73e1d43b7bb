//===- rlx-run.cpp - compile and run an RLX program on the CPU ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-run FILE.mlir [--entry=FUNC] [--input=PATH.npy]... [--output=PATH.npy]...
//         [--param=NAME=PATH.npy]... [--params=FILE]... [--param-map=P=T]...
//         [--seed=N] [--bench=N] [--blas]
//         [--arena] [--check-bounds] [--alloc-stats]
// rlx-run FILE.mlir --calibrate=RECORD.json --calibration-data=DIR
//         [--percentile=Q] [--entry=FUNC] [--param=NAME=PATH.npy]... [--seed=N]
// rlx-run --target=vulkan|cuda|rocm FILE.mlir [--entry=FUNC]
//         [--input=PATH.npy]... [--output=PATH.npy]... [--seed=N] [--bench=N]
//         [--target-options='...']
// rlx-run --list-devices
//
// Compiles the entry function of FILE as an rlx::CPUProgram (its
// `rlx.param`s promoted to trailing arguments, --rlx-cpu-pipeline, MLIR's
// ExecutionEngine), binds inputs to the entry function's
// arguments in order and each param to the --param file of its name (random
// ones from --seed where none are given, params after the ordinary
// arguments), runs it, and writes the results in order. A --param that
// names no param is an error. --params binds the params no --param names
// to the tensors of safetensors or GGUF files (of their name, or the one
// --param-map gives), as --rlx-specialize-params files=... does; a param
// they do not hold is then an error. Every buffer the program allocates
// (rlx::host_allocator) is filled with 0xFF bytes first (NaN for floats, -1 for
// integers), so an element the program fails to write shows up in the results
// (timed --bench runs skip the fill). --blas sends f32/f64 matmuls to the BLAS
// library found at run time. --arena runs the program from one planned arena
// (--rlx-plan-memory); --alloc-stats prints the checked run's allocations.
// --check-bounds (or RLX_RUN_CHECK_BOUNDS=1 in the environment, which lit's
// `check_bounds` parameter sets for the whole suite) compiles runtime checks
// of the memory accesses into the program: an out-of-bounds access stops
// it with the op's location (rlx-cpu-pipeline check-bounds=true).
//
// --calibrate returns every quantization tap of the entry function as an
// extra result (rlx-expose-quant-taps), runs the program on each batch of
// DIR (one subdirectory per batch, in name order, holding arg0.npy ...
// arg<n-1>.npy for the ordinary arguments; params bound as above, the
// same for every batch) and writes each tap's min/max, percentile (Q, per
// side) and MSE range to the calibration record RECORD.json (QuantTaps.h;
// how the ranges are found: TapStatistics.h).
//
// --target=vulkan compiles the program as `rlx-compile --target=vulkan`
// does, links it with librlx_vulkan_runtime and runs it with
// rlx-vulkan-run in a child process (RLX/Tools/TargetRuns.h): the same
// inputs, outputs, report, --bench line and errors as on the CPU. cuda and
// rocm programs compile and link, then the run is an error saying what
// runs them (this tool has no runner for them). --list-devices prints
// each target's device.
//
// The binding of arguments to files, the runs and the results' report are
// RLXToolSupport's (RLX/Tools/ArgumentBinding.h, RLX/Tools/ProgramRuns.h,
// RLX/Tools/TargetRuns.h); this file is the flags.
//
//===----------------------------------------------------------------------===//

#include "Calibration.h"

#include "RLX/ExecutionEngine/CPUProgram.h"
#include "RLX/Target/TargetRegistry.h"
#include "RLX/Tools/ArgumentBinding.h"
#include "RLX/Tools/CommandLine.h"
#include "RLX/Tools/ProgramRuns.h"
#include "RLX/Tools/TargetRuns.h"
#include "RLX/Tools/ToolSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdlib>
#include <memory>

using namespace mlir;
namespace cl = llvm::cl;

// Required unless --list-devices is given (checked in main).
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    target("target",
           cl::desc("Where to run: cpu (in this process), vulkan (compiled, "
                    "linked and run by rlx-vulkan-run); cuda and rocm "
                    "compile and link only"),
           cl::init("cpu"), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> targetOptions(
    "target-options",
    cl::desc("More options of the target's named pipeline, as "
             "rlx-compile --target-options (not --target=cpu: see "
             "--cpu-options)"),
    cl::init(""), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> listDevices(
    "list-devices",
    cl::desc("Print the device each target runs on, then exit"),
    cl::init(false), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: main, or the only "
                       "public function)"),
              cl::init(""), cl::cat(rlx::getToolOptionCategory()));
static cl::list<std::string>
    inputPaths("input", cl::desc("A .npy file for the next argument"),
               cl::cat(rlx::getToolOptionCategory()));
static cl::list<std::string>
    outputPaths("output", cl::desc("A .npy file for the next result"),
                cl::cat(rlx::getToolOptionCategory()));
static cl::list<std::string>
    paramSpecs("param",
               cl::desc("The .npy file of the "
                        "entry function's rlx.param \"NAME\" "
                        "(repeatable; random where not given)"),
               cl::value_desc("NAME=PATH.npy"),
               cl::cat(rlx::getToolOptionCategory()));
static cl::list<std::string>
    paramFilePaths("params",
                   cl::desc("A safetensors or GGUF file whose tensors bind "
                            "the params no --param names (repeatable; the "
                            "first file holding a name wins)"),
                   cl::value_desc("FILE"),
                   cl::cat(rlx::getToolOptionCategory()));
static cl::list<std::string>
    paramRenames("param-map",
                 cl::desc("Bind param PARAM to the --params tensor TENSOR "
                          "(repeatable)"),
                 cl::value_desc("PARAM=TENSOR"),
                 cl::cat(rlx::getToolOptionCategory()));
static cl::opt<unsigned> seed("seed",
                              cl::desc("Seed of the random inputs (normal "
                                       "floats, integers in [0, 4))"),
                              cl::init(0),
                              cl::cat(rlx::getToolOptionCategory()));
static cl::opt<unsigned> benchRuns("bench",
                                   cl::desc("Time N runs after a warm-up and "
                                            "print the median and min"),
                                   cl::init(0),
                                   cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> useBlas("blas",
                             cl::desc("Run f32/f64 matmuls through the BLAS "
                                      "library found at run time "
                                      "(rlx-cpu-pipeline blas=true)"),
                             cl::init(false),
                             cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> useArena("arena",
                              cl::desc("Plan the intermediates into one "
                                       "arena and run from it "
                                       "(rlx-cpu-pipeline arena=true)"),
                              cl::init(false),
                              cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool> checkBounds(
    "check-bounds",
    cl::desc("Check every memory access of the program at run time: an "
             "out-of-bounds access stops it with the op's location "
             "(rlx-cpu-pipeline check-bounds=true; also on with "
             "RLX_RUN_CHECK_BOUNDS=1)"),
    cl::init(false), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string>
    cpuOptions("cpu-options",
               cl::desc("More options of --rlx-cpu-pipeline, e.g. "
                        "'stream-stores=0' (blas and arena come from "
                        "--blas and --arena)"),
               cl::init(""), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> calibrationRecord(
    "calibrate",
    cl::desc("Run the program on every batch of --calibration-data and "
             "write the range of each quantization tap (min/max, "
             "percentile, MSE) to this calibration record"),
    cl::value_desc("RECORD.json"), cl::init(""),
    cl::cat(rlx::getToolOptionCategory()));
static cl::opt<std::string> calibrationData(
    "calibration-data",
    cl::desc("The batches of --calibrate: one subdirectory per batch (in "
             "name order) holding arg0.npy, arg1.npy, ... for the entry "
             "function's ordinary arguments"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<double> percentileQ(
    "percentile",
    cl::desc("The percentile (per side) of --calibrate's percentile range, "
             "in (50, 100]"),
    cl::init(99.99), cl::cat(rlx::getToolOptionCategory()));
static cl::opt<bool>
    allocStats("alloc-stats",
               cl::desc("Print the number and byte sizes of the "
                        "allocations of the checked run"),
               cl::init(false), cl::cat(rlx::getToolOptionCategory()));

static void reportError(const Twine &message) {
  llvm::errs() << "rlx-run: error: " << message << "\n";
}

/// The flags that only the CPU path takes, given with another --target.
static std::string cpuOnlyFlags() {
  std::string given;
  // std::addressof: cl::list's operator& is its storage's address.
  const cl::Option *cpuOnly[] = {
      std::addressof(paramSpecs),  std::addressof(paramFilePaths),
      std::addressof(paramRenames), &useBlas,
      &useArena,                   &checkBounds,
      &cpuOptions,                 &calibrationRecord,
      &calibrationData,            &percentileQ,
      &allocStats};
  for (const cl::Option *option : cpuOnly)
    if (option->getNumOccurrences())
      given += (given.empty() ? "--" : ", --") + option->ArgStr.str();
  return given;
}

/// rlx-run --target=X for X other than cpu.
static int runOnTarget(ModuleOp module, func::FuncOp entry,
                       const char *argv0) {
  std::string cpuOnly = cpuOnlyFlags();
  if (!cpuOnly.empty()) {
    reportError(cpuOnly + " only with --target=cpu");
    return 1;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  rlx::TargetRunOptions options;
  options.target = target;
  options.pipelineOptions = targetOptions;
  options.benchRuns = benchRuns;
  options.binDir =
      rlx::getToolBinDir(argv0, reinterpret_cast<void *>(&reportError));
  rlx::RunFiles files{inputPaths, outputPaths, {}, {}, {}, seed};
  return failed(rlx::runOnTarget(module, entry, options, files, llvm::outs(),
                                 reportError))
             ? 1
             : 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  rlx::parseToolCommandLine(
      argc, argv,
      "rlx-run: compile an RLX program for the CPU and run it, or for a "
      "GPU with --target=vulkan\n");

  std::unique_ptr<MLIRContext> context = rlx::createToolContext();
  if (listDevices) {
    rlx::listTargetDevices(
        rlx::getToolBinDir(argv[0], reinterpret_cast<void *>(&reportError)),
        llvm::outs());
    return 0;
  }
  if (inputFile.empty()) {
    reportError("an input file is required (see --help)");
    return 1;
  }
  if (target != "cpu" && !rlx::lookupTargetInfo(target)) {
    reportError(rlx::unknownTargetMessage(target));
    return 1;
  }
  if (target == "cpu" && targetOptions.getNumOccurrences()) {
    reportError("--target-options is for GPU targets; --cpu-options takes "
                "the CPU pipeline's");
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, context.get());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, context.get());
  if (!module)
    return 1;
  func::FuncOp entry = rlx::findEntryFunction(*module, entryName, reportError);
  if (!entry)
    return 1;
  if (target != "cpu")
    return runOnTarget(*module, entry, argv[0]);
  rlx::RunFiles files{inputPaths,     outputPaths,  paramSpecs,
                      paramFilePaths, paramRenames, seed};
  FailureOr<rlx::ParamTensors> fileParams =
      rlx::readParamTensors(entry, files, reportError);
  if (failed(fileParams))
    return 1;

  bool calibrating = !calibrationRecord.empty();
  if (calibrating != !calibrationData.empty()) {
    reportError("--calibrate and --calibration-data go together");
    return 1;
  }
  if (calibrating &&
      (!inputPaths.empty() || !outputPaths.empty() || benchRuns > 0)) {
    reportError("--calibrate reads its inputs from --calibration-data and "
                "takes no --input, --output or --bench");
    return 1;
  }
  if (!(percentileQ > 50 && percentileQ <= 100)) {
    llvm::errs() << "rlx-run: error: --percentile="
                 << llvm::format("%g", percentileQ.getValue())
                 << " is not in (50, 100]\n";
    return 1;
  }
  FailureOr<rlx::ExposedTaps> taps;
  if (calibrating) {
    taps = rlx::exposeQuantTaps(*module, entry, reportError);
    if (failed(taps))
      return 1;
  }

  rlx::CPUPipelineOptions options;
  if (failed(options.parseFromString(cpuOptions, llvm::errs()))) {
    reportError("bad --cpu-options");
    return 1;
  }
  if (useBlas)
    options.blas = true;
  options.arena = useArena;
  // --check-bounds, RLX_RUN_CHECK_BOUNDS=1 and --cpu-options=check-bounds=1
  // each turn the checks on.
  const char *env = std::getenv("RLX_RUN_CHECK_BOUNDS");
  if (checkBounds || (env && *env && std::string(env) != "0"))
    options.checkBounds = true;
  std::unique_ptr<rlx::CPUProgram> program =
      rlx::CPUProgram::compile(*module, entry.getName(), options);
  if (!program)
    return 1;

  FailureOr<std::vector<rlx::HostTensor>> args =
      rlx::bindArguments(*program, files, *fileParams, reportError);
  if (failed(args))
    return 1;
  if (options.checkBounds)
    rlx::exitOnFailedRuntimeCheck("rlx-run");
  if (calibrating)
    return failed(rlx::runCalibration(*program, *args, *taps, calibrationData,
                                      percentileQ, calibrationRecord,
                                      reportError))
               ? 1
               : 0;

  // The checked run: every buffer the program allocates is poisoned first
  // (rlx::host_allocator), and the results are copied out.
  std::vector<rlx::TensorView> views = rlx::viewTensors(*args);
  FailureOr<std::vector<rlx::HostTensor>> results =
      rlx::runProgram(*program, views, reportError);
  if (failed(results))
    return 1;
  if (allocStats)
    rlx::printAllocationLog(llvm::outs());
  if (failed(
          rlx::writeResults(*results, outputPaths, llvm::outs(), reportError)))
    return 1;
  // The checked run saw poisoned buffers; timed runs skip the fill.
  if (benchRuns > 0 && failed(rlx::benchmark(*program, views, benchRuns,
                                             llvm::outs(), reportError)))
    return 1;
  return 0;
}
