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
// (rlx::host_allocator) is filled with 0xFF bytes first (NaN for floats, -1 for integers), so an element
// the program fails to write shows up in the results (timed --bench runs
// skip the fill). --blas sends f32/f64 matmuls to the BLAS library found
// at run time. --arena runs the program from one planned arena
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
//===----------------------------------------------------------------------===//

#include "Calibration.h"

#include "RLX/Dialect/MIR/IR/NpyDtype.h"
#include "RLX/Dialect/MIR/Transforms/ParamFiles.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/ExecutionEngine/CPUProgram.h"
#include "RLX/ExecutionEngine/HostAllocator.h"
#include "RLX/Runtime/Common/BFloat16.h"
#include "RLX/Runtime/Common/HostMemory.h"
#include "RLX/Runtime/Common/Npy.h"
#include "RLX/Tools/ToolSupport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <unistd.h>

using namespace mlir;
namespace cl = llvm::cl;
using mlir::rlx::runtime::allocateHostMemory;
using mlir::rlx::runtime::bf16ToFloats;
using mlir::rlx::runtime::floatsToBF16;
using mlir::rlx::runtime::floatToBF16;
using mlir::rlx::runtime::NpyArray;
using mlir::rlx::npyDtype;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::Required);
static cl::opt<std::string>
    entryName("entry", cl::desc("Function to run (default: main, or the only "
                                "public function)"),
              cl::init(""));
static cl::list<std::string>
    inputPaths("input", cl::desc("A .npy file for the next argument"));
static cl::list<std::string>
    outputPaths("output", cl::desc("A .npy file for the next result"));
static cl::list<std::string>
    paramSpecs("param", cl::desc("The .npy file of the "
                                 "entry function's rlx.param \"NAME\" "
                                 "(repeatable; random where not given)"),
               cl::value_desc("NAME=PATH.npy"));
static cl::list<std::string>
    paramFilePaths("params",
                   cl::desc("A safetensors or GGUF file whose tensors bind "
                            "the params no --param names (repeatable; the "
                            "first file holding a name wins)"),
                   cl::value_desc("FILE"));
static cl::list<std::string>
    paramRenames("param-map",
                 cl::desc("Bind param PARAM to the --params tensor TENSOR "
                          "(repeatable)"),
                 cl::value_desc("PARAM=TENSOR"));
static cl::opt<unsigned> seed("seed",
                              cl::desc("Seed of the random inputs (normal "
                                       "floats, integers in [0, 4))"),
                              cl::init(0));
static cl::opt<unsigned> benchRuns("bench",
                                   cl::desc("Time N runs after a warm-up and "
                                            "print the median and min"),
                                   cl::init(0));
static cl::opt<bool> useBlas("blas",
                             cl::desc("Run f32/f64 matmuls through the BLAS "
                                      "library found at run time "
                                      "(rlx-cpu-pipeline blas=true)"),
                             cl::init(false));
static cl::opt<bool> useArena("arena",
                              cl::desc("Plan the intermediates into one "
                                       "arena and run from it "
                                       "(rlx-cpu-pipeline arena=true)"),
                              cl::init(false));
static cl::opt<bool> checkBounds(
    "check-bounds",
    cl::desc("Check every memory access of the program at run time: an "
             "out-of-bounds access stops it with the op's location "
             "(rlx-cpu-pipeline check-bounds=true; also on with "
             "RLX_RUN_CHECK_BOUNDS=1)"),
    cl::init(false));
static cl::opt<std::string>
    cpuOptions("cpu-options",
               cl::desc("More options of --rlx-cpu-pipeline, e.g. "
                        "'stream-stores=0' (blas and arena come from "
                        "--blas and --arena)"),
               cl::init(""));
static cl::opt<std::string> calibrationRecord(
    "calibrate",
    cl::desc("Run the program on every batch of --calibration-data and "
             "write the range of each quantization tap (min/max, "
             "percentile, MSE) to this calibration record"),
    cl::value_desc("RECORD.json"), cl::init(""));
static cl::opt<std::string> calibrationData(
    "calibration-data",
    cl::desc("The batches of --calibrate: one subdirectory per batch (in "
             "name order) holding arg0.npy, arg1.npy, ... for the entry "
             "function's ordinary arguments"),
    cl::value_desc("DIR"), cl::init(""));
static cl::opt<double> percentileQ(
    "percentile",
    cl::desc("The percentile (per side) of --calibrate's percentile range, "
             "in (50, 100]"),
    cl::init(99.99));
static cl::opt<bool>
    allocStats("alloc-stats",
               cl::desc("Print the number and byte sizes of the "
                        "allocations of the checked run"),
               cl::init(false));

//===----------------------------------------------------------------------===//
// Tensors and memref descriptors
//===----------------------------------------------------------------------===//

/// Storage on 64-byte boundaries, as a framework's tensors are (PyTorch
/// aligns to 64 bytes): the compiled kernels load 64-byte vectors, and from
/// malloc's 16-byte alignment every such load straddles two cache lines,
/// which made memory-bound kernels about 1.5x slower. Large tensors are on
/// huge pages, as the compiled code's buffers (allocateHostMemory).
template <typename T> struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(size_t n) {
    size_t bytes = std::max<size_t>((n * sizeof(T) + 63) / 64 * 64, 64);
    void *p = allocateHostMemory(64, bytes);
    if (!p)
      llvm::report_bad_alloc_error("rlx-run: out of memory for a tensor");
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t) { std::free(p); }
  bool operator==(const CacheLineAllocator &) const { return true; }
};

/// A tensor argument or result in memory, row-major.
struct HostTensor {
  Type elementType;
  std::vector<int64_t> shape;
  std::vector<uint8_t, CacheLineAllocator<uint8_t>> bytes;
};

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// `what` names the argument in a diagnostic ("argument #0").
static bool fromNpy(const NpyArray &a, RankedTensorType type,
                    const std::string &what, const std::string &path,
                    HostTensor &t) {
  Type element = type.getElementType();
  std::string want = npyDtype(element);
  bool shapeOk = a.shape.size() == size_t(type.getRank());
  for (int64_t i = 0; shapeOk && i < type.getRank(); ++i)
    shapeOk = type.isDynamicDim(i) || type.getDimSize(i) == a.shape[i];
  if (a.dtype != want || !shapeOk) {
    std::string typeStr;
    llvm::raw_string_ostream os(typeStr);
    os << type;
    llvm::errs() << "rlx-run: error: " << what << " expects "
                 << typeStr << " (npy dtype '" << want << "'), but '" << path
                 << "' holds dtype '" << a.dtype << "' of shape "
                 << shapeStr(a.shape) << "\n";
    return false;
  }
  t.elementType = element;
  t.shape = a.shape;
  if (!element.isBF16()) {
    t.bytes.assign(a.data.begin(), a.data.end());
    return true;
  }
  int64_t n = a.numElements();
  t.bytes.resize(2 * n);
  floatsToBF16(a.data.data(), t.bytes.data(), n);
  return true;
}

static NpyArray toNpy(const HostTensor &t) {
  NpyArray a;
  a.dtype = npyDtype(t.elementType);
  a.shape = t.shape;
  if (!t.elementType.isBF16()) {
    a.data.assign(t.bytes.begin(), t.bytes.end());
    return a;
  }
  int64_t n = t.bytes.size() / 2;
  a.data.resize(4 * n);
  bf16ToFloats(t.bytes.data(), a.data.data(), n);
  return a;
}

/// Makes `t` a row-major tensor of `shape` and returns its storage (where
/// the program copies a result).
static void *shapeHostTensor(HostTensor &t, Type elementType,
                             ArrayRef<int64_t> shape) {
  t.elementType = elementType;
  t.shape.assign(shape.begin(), shape.end());
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  t.bytes.resize(n * rlx::getElementBytes(elementType));
  return t.bytes.data();
}

/// Random normal floats, integers in [0, 4), fair booleans.
static HostTensor randomTensor(RankedTensorType type, std::mt19937_64 &rng) {
  HostTensor t;
  t.elementType = type.getElementType();
  for (int64_t d : type.getShape())
    t.shape.push_back(ShapedType::isDynamic(d) ? 1 : d);
  int64_t n = 1;
  for (int64_t d : t.shape)
    n *= d;
  Type e = t.elementType;
  int64_t bytes = rlx::getElementBytes(e);
  t.bytes.resize(n * bytes);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> small(0, 3);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *p = t.bytes.data() + i * bytes;
    if (e.isF32()) {
      float f = normal(rng);
      std::memcpy(p, &f, 4);
    } else if (e.isF64()) {
      double f = normal(rng);
      std::memcpy(p, &f, 8);
    } else if (e.isBF16()) {
      uint16_t h = floatToBF16(normal(rng));
      std::memcpy(p, &h, 2);
    } else if (e.isF16()) {
      // f16 from f32 by truncating the mantissa of a value in [-4, 4].
      float f = std::clamp(normal(rng), -4.0, 4.0);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      uint32_t sign = (bits >> 16) & 0x8000;
      int32_t exp = int32_t((bits >> 23) & 0xFF) - 127 + 15;
      uint16_t h = exp <= 0 ? uint16_t(sign)
                            : uint16_t(sign | (exp << 10) |
                                       ((bits >> 13) & 0x3FF));
      std::memcpy(p, &h, 2);
    } else if (auto c = dyn_cast<ComplexType>(e)) {
      double parts[2] = {normal(rng), normal(rng)};
      if (c.getElementType().isF64()) {
        std::memcpy(p, parts, 16);
      } else {
        float narrow[2] = {float(parts[0]), float(parts[1])};
        std::memcpy(p, narrow, 8);
      }
    } else if (e.isInteger(1)) {
      *p = small(rng) & 1;
    } else {
      int64_t v = small(rng);
      std::memcpy(p, &v, bytes); // little-endian: low bytes first
    }
  }
  return t;
}

/// Sum of all elements as double (real part for complex), for a checksum.
static double checksum(const HostTensor &t) {
  NpyArray a = toNpy(t);
  int64_t n = a.numElements();
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t *p = a.data.data() + i * a.elementSize();
    const std::string &d = a.dtype;
    if (d == "f4" || d == "c8") {
      float f;
      std::memcpy(&f, p, 4);
      sum += f;
    } else if (d == "f8" || d == "c16") {
      double f;
      std::memcpy(&f, p, 8);
      sum += f;
    } else if (d == "b1" || d == "u1") {
      sum += *p;
    } else if (d == "i1") {
      sum += int8_t(*p);
    } else if (d == "i2") {
      int16_t v;
      std::memcpy(&v, p, 2);
      sum += v;
    } else if (d == "i4") {
      int32_t v;
      std::memcpy(&v, p, 4);
      sum += v;
    } else if (d == "u4") {
      uint32_t v;
      std::memcpy(&v, p, 4);
      sum += v;
    } else if (d == "i8") {
      int64_t v;
      std::memcpy(&v, p, 8);
      sum += double(v);
    }
  }
  return sum;
}

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

/// Makes `entry` return its quantization taps after its own results
/// (rlx-expose-quant-taps) and reads their names and channel axes.
static LogicalResult exposeQuantTaps(ModuleOp module, func::FuncOp entry,
                                     std::vector<std::string> &names,
                                     std::vector<int64_t> &axes) {
  PassManager pm(module.getContext());
  pm.addPass(rlx::createExposeQuantTapsPass());
  if (failed(pm.run(module)))
    return failure();
  auto tapNames = entry->getAttrOfType<ArrayAttr>("rlx.quant_taps");
  auto tapAxes = entry->getAttrOfType<DenseI64ArrayAttr>("rlx.quant_tap_axes");
  if (!tapNames || tapNames.empty() || !tapAxes) {
    llvm::errs() << "rlx-run: error: --calibrate: @" << entry.getName()
                 << " has no quantization tap (a float operand of rlx.matmul "
                    "or rlx.conv outside nested regions, in a public "
                    "function)\n";
    return failure();
  }
  for (Attribute name : tapNames)
    names.push_back(cast<StringAttr>(name).str());
  axes.assign(tapAxes.asArrayRef().begin(), tapAxes.asArrayRef().end());
  return success();
}

/// Runs `program` on every batch of --calibration-data, twice (extremes,
/// then the distributions: TapStatistics.h), and writes the record.
/// `inputs` hold the params; the ordinary arguments are read from each
/// batch. The taps are the program's last results.
static int calibrate(rlx::CPUProgram &program, std::vector<HostTensor> &inputs,
                     unsigned numOrdinary, ArrayRef<std::string> names,
                     ArrayRef<int64_t> axes) {
  std::vector<std::vector<std::string>> batches;
  std::string error;
  if (!rlx::listCalibrationBatches(calibrationData, numOrdinary, batches,
                                   error)) {
    llvm::errs() << "rlx-run: error: " << error << "\n";
    return 1;
  }
  ArrayRef<RankedTensorType> argTypes = program.getArgumentTypes();
  ArrayRef<RankedTensorType> resultTypes = program.getResultTypes();
  unsigned firstTap = resultTypes.size() - names.size();
  rlx::Calibrator calibrator(names, axes);
  std::vector<HostTensor> taps(names.size());
  unsigned batchIndex = 0;
  auto intoTaps = [&](unsigned i, ArrayRef<int64_t> shape) -> void * {
    if (i < firstTap || !calibrator.wants(batchIndex, i - firstTap))
      return nullptr;
    return shapeHostTensor(taps[i - firstTap], resultTypes[i].getElementType(),
                           shape);
  };
  for (unsigned pass = 0; pass < 2; ++pass) {
    for (auto [index, batch] : llvm::enumerate(batches)) {
      batchIndex = index;
      for (unsigned i = 0; i < numOrdinary; ++i) {
        NpyArray array;
        if (!rlx::runtime::readNpy(batch[i], array, error)) {
          llvm::errs() << "rlx-run: error: " << error << "\n";
          return 1;
        }
        if (!fromNpy(array, argTypes[i], "argument #" + std::to_string(i),
                     batch[i], inputs[i]))
          return 1;
      }
      std::vector<rlx::TensorView> views;
      for (HostTensor &t : inputs)
        views.push_back({t.bytes.data(), {t.shape.begin(), t.shape.end()}});
      if (llvm::Error err = program.run(views, intoTaps)) {
        llvm::errs() << "rlx-run: error: " << toString(std::move(err)) << "\n";
        return 1;
      }
      for (unsigned k = 0; k < taps.size(); ++k) {
        if (!calibrator.observe(pass, index, k, toNpy(taps[k]), error)) {
          llvm::errs() << "rlx-run: error: " << error << " (batch of '"
                       << batch.front() << "')\n";
          return 1;
        }
      }
    }
  }
  if (!rlx::writeCalibrationRecord(
          calibrator.record(percentileQ, batches.size()), calibrationRecord,
          error)) {
    llvm::errs() << "rlx-run: error: " << error << "\n";
    return 1;
  }
  llvm::outs() << "calibrated " << names.size() << " taps on " << batches.size()
               << " batches into '" << calibrationRecord << "'\n";
  return 0;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static func::FuncOp findEntry(ModuleOp module) {
  if (!entryName.empty())
    return module.lookupSymbol<func::FuncOp>(entryName);
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp only;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (only)
      return nullptr;
    only = fn;
  }
  return only;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "rlx-run: compile an RLX program for the CPU and run it\n");

  std::unique_ptr<MLIRContext> context = rlx::createToolContext();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, context.get());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, context.get());
  if (!module)
    return 1;

  func::FuncOp entry = findEntry(*module);
  if (!entry) {
    llvm::errs() << "rlx-run: error: "
                 << (entryName.empty()
                         ? std::string("no 'main' and not exactly one public "
                                       "function; name one with --entry")
                         : "no function '" + entryName.getValue() + "'")
                 << "\n";
    return 1;
  }
  std::string name = entry.getName().str();

  // Read the --params tensors of the entry's params before compiling, while
  // the rlx.param ops are there to check against (and to report at).
  std::map<std::string, NpyArray> fileParams;
  if (!paramFilePaths.empty()) {
    std::string error;
    FailureOr<rlx::ParamFiles> files =
        rlx::ParamFiles::open(paramFilePaths, paramRenames, error);
    if (failed(files)) {
      llvm::errs() << "rlx-run: error: " << error << "\n";
      return 1;
    }
    std::set<std::string> fromNpyFiles;
    for (const std::string &spec : paramSpecs)
      fromNpyFiles.insert(spec.substr(0, spec.find('=')));
    WalkResult walk = entry.walk([&](rlx::ParamOp param) {
      std::string paramName = param.getName().str();
      if (fromNpyFiles.count(paramName) || fileParams.count(paramName))
        return WalkResult::advance();
      FailureOr<NpyArray> array = files->read(param);
      if (failed(array))
        return WalkResult::interrupt();
      fileParams.emplace(paramName, std::move(*array));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return 1;
  } else if (!paramRenames.empty()) {
    llvm::errs() << "rlx-run: error: --param-map needs --params\n";
    return 1;
  }

  bool calibrating = !calibrationRecord.empty();
  if (calibrating != !calibrationData.empty()) {
    llvm::errs() << "rlx-run: error: --calibrate and --calibration-data go "
                    "together\n";
    return 1;
  }
  if (calibrating &&
      (!inputPaths.empty() || !outputPaths.empty() || benchRuns > 0)) {
    llvm::errs() << "rlx-run: error: --calibrate reads its inputs from "
                    "--calibration-data and takes no --input, --output or "
                    "--bench\n";
    return 1;
  }
  if (!(percentileQ > 50 && percentileQ <= 100)) {
    llvm::errs() << "rlx-run: error: --percentile="
                 << llvm::format("%g", percentileQ.getValue())
                 << " is not in (50, 100]\n";
    return 1;
  }
  std::vector<std::string> tapNames;
  std::vector<int64_t> tapAxes;
  if (calibrating && failed(exposeQuantTaps(*module, entry, tapNames, tapAxes)))
    return 1;

  // Compile.
  rlx::CPUPipelineOptions options;
  if (failed(options.parseFromString(cpuOptions, llvm::errs()))) {
    llvm::errs() << "rlx-run: error: bad --cpu-options\n";
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
      rlx::CPUProgram::compile(*module, name, options);
  if (!program)
    return 1;
  ArrayRef<RankedTensorType> argTypes = program->getArgumentTypes();
  ArrayRef<RankedTensorType> resultTypes = program->getResultTypes();
  ArrayRef<std::string> paramNames = program->getParamNames();
  unsigned numOrdinary = argTypes.size() - paramNames.size();

  std::map<std::string, std::string> paramPaths;
  for (const std::string &spec : paramSpecs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      llvm::errs() << "rlx-run: error: --param=" << spec
                   << ": expected NAME=PATH.npy\n";
      return 1;
    }
    std::string param = spec.substr(0, eq);
    if (!llvm::is_contained(paramNames, param)) {
      llvm::errs() << "rlx-run: error: --param=" << spec << ": @" << name
                   << " has no rlx.param \"" << param << "\"";
      if (!paramNames.empty())
        llvm::errs() << " (its params: " << llvm::join(paramNames, ", ")
                     << ")";
      llvm::errs() << "\n";
      return 1;
    }
    if (!paramPaths.emplace(param, spec.substr(eq + 1)).second) {
      llvm::errs() << "rlx-run: error: --param: \"" << param
                   << "\" is given twice\n";
      return 1;
    }
  }
  if (inputPaths.size() > numOrdinary) {
    llvm::errs() << "rlx-run: error: " << inputPaths.size()
                 << " inputs given but @" << name << " takes "
                 << numOrdinary << " arguments\n";
    return 1;
  }
  if (outputPaths.size() > resultTypes.size()) {
    llvm::errs() << "rlx-run: error: " << outputPaths.size()
                 << " outputs given but @" << name << " returns "
                 << resultTypes.size() << " results\n";
    return 1;
  }

  // Bind the inputs, then the params.
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> inputs(argTypes.size());
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    std::string path, what = "argument #" + std::to_string(i);
    if (i < numOrdinary && i < inputPaths.size()) {
      path = inputPaths[i];
    } else if (i >= numOrdinary) {
      const std::string &param = paramNames[i - numOrdinary];
      what = "param \"" + param + "\" (" + what + ")";
      auto it = paramPaths.find(param);
      if (it != paramPaths.end())
        path = it->second;
      auto fromFile = fileParams.find(param);
      if (fromFile != fileParams.end()) {
        // Checked against the param's type when read.
        if (!fromNpy(fromFile->second, type, what, "--params", inputs[i]))
          return 1;
        continue;
      }
    }
    if (path.empty()) {
      inputs[i] = randomTensor(type, rng);
      continue;
    }
    NpyArray array;
    std::string error;
    if (!rlx::runtime::readNpy(path, array, error)) {
      llvm::errs() << "rlx-run: error: "
                   << (i >= numOrdinary ? what + ": " : "") << error << "\n";
      return 1;
    }
    if (!fromNpy(array, type, what, path, inputs[i]))
      return 1;
  }
  std::vector<rlx::TensorView> views;
  for (HostTensor &t : inputs)
    views.push_back({t.bytes.data(), {t.shape.begin(), t.shape.end()}});

  // A failed runtime check (--check-bounds) prints its message with puts
  // and calls abort: stdout is line-buffered so that the message is not
  // lost in a pipe's buffer, and the abort ends the run as an error of the
  // program (exit code 1) instead of as a crash of rlx-run.
  if (options.checkBounds) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    std::signal(SIGABRT, [](int) {
      static const char message[] =
          "rlx-run: error: the program stopped on a failed runtime check\n";
      (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
      _exit(1);
    });
  }

  if (calibrating)
    return calibrate(*program, inputs, numOrdinary, tapNames, tapAxes);

  // The checked run: every buffer the program allocates is poisoned first
  // (rlx::host_allocator), and the results are copied out.
  std::vector<HostTensor> results(resultTypes.size());
  auto intoResults = [&](unsigned i, ArrayRef<int64_t> shape) -> void * {
    return shapeHostTensor(results[i], resultTypes[i].getElementType(), shape);
  };
  if (llvm::Error err = program->run(views, intoResults)) {
    llvm::errs() << "rlx-run: error: " << toString(std::move(err)) << "\n";
    return 1;
  }
  std::vector<uint64_t> allocationLog =
      rlx::host_allocator::takeAllocationLog();
  if (allocStats) {
    llvm::outs() << "allocations: " << allocationLog.size() << " (bytes:";
    for (uint64_t size : allocationLog)
      llvm::outs() << " " << size;
    llvm::outs() << ")\n";
  }
  for (auto [i, r] : llvm::enumerate(results)) {
    llvm::outs() << "result #" << i << ": " << npyDtype(r.elementType) << " "
                 << shapeStr(r.shape) << " checksum "
                 << llvm::format("%.6g", checksum(r)) << "\n";
    if (i < outputPaths.size()) {
      std::string error;
      if (!rlx::runtime::writeNpy(outputPaths[i], toNpy(r), error)) {
        llvm::errs() << "rlx-run: error: " << error << "\n";
        return 1;
      }
    }
  }

  if (benchRuns > 0) {
    // The checked run above saw poisoned buffers; timed runs skip the fill.
    // They run back to back, as a caller's loop would: each one's results
    // are freed, not copied out (a copy of a 64 MiB result would leave the
    // caches full of dirty lines for the next timed run to write back).
    rlx::host_allocator::setPoison(false);
    auto drop = [](unsigned, ArrayRef<int64_t>) -> void * { return nullptr; };
    std::vector<double> ms;
    for (unsigned i = 0; i < benchRuns; ++i) {
      auto start = std::chrono::steady_clock::now();
      if (llvm::Error err = program->run(views, drop)) {
        llvm::errs() << "rlx-run: error: " << toString(std::move(err))
                     << "\n";
        return 1;
      }
      auto stop = std::chrono::steady_clock::now();
      ms.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    llvm::outs() << "bench: " << benchRuns << " runs, median "
                 << llvm::format("%.3f", ms[ms.size() / 2]) << " ms, min "
                 << llvm::format("%.3f", ms.front()) << " ms\n";
  }
  return 0;
}
