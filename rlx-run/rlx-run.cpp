//===- rlx-run.cpp - compile and run an RLX program on the CPU ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-run FILE.mlir [--entry=FUNC] [--input=PATH.npy]... [--output=PATH.npy]...
//         [--param=NAME=PATH.npy]... [--seed=N] [--bench=N] [--blas]
//         [--arena] [--check-bounds] [--alloc-stats]
//
// Promotes the entry function's `rlx.param`s to trailing arguments
// (--rlx-promote-params), compiles FILE with --rlx-cpu-pipeline, JIT-compiles
// it with MLIR's ExecutionEngine, binds inputs to the entry function's
// arguments in order and each param to the --param file of its name (random
// ones from --seed where none are given, params after the ordinary
// arguments), runs it, and writes the results in order. A --param that
// names no param is an error. Every buffer the program allocates is filled
// with 0xFF bytes first (NaN for floats, -1 for integers), so an element
// the program fails to write shows up in the results (timed --bench runs
// skip the fill). --blas sends f32/f64 matmuls to the BLAS library found
// at run time. --arena runs the program from one planned arena
// (--rlx-plan-memory); --alloc-stats prints the checked run's allocations.
// --check-bounds (or RLX_RUN_CHECK_BOUNDS=1 in the environment, which lit's
// `check_bounds` parameter sets for the whole suite) compiles runtime checks
// of the memory accesses into the program: an out-of-bounds access stops
// it with the op's location (rlx-cpu-pipeline check-bounds=true).
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/NpyDtype.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/InitAllDialects.h"
#include "RLX/Target/CPU/HostTarget.h"
#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Runtime/CPU/CPUBlas.h"
#include "RLX/Runtime/Common/HostMemory.h"
#include "RLX/Runtime/Common/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <map>
#include <unistd.h>
#include <unordered_map>

using namespace mlir;
namespace cl = llvm::cl;
using mlir::rlx::runtime::allocateHostMemory;
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
static cl::opt<bool>
    allocStats("alloc-stats",
               cl::desc("Print the number and byte sizes of the "
                        "allocations of the checked run"),
               cl::init(false));

//===----------------------------------------------------------------------===//
// Poisoning allocator
//===----------------------------------------------------------------------===//

// The compiled code allocates through these (finalize-memref-to-llvm with
// generic functions). They remember every live buffer, so that rlx-run
// frees exactly the results the program hands over; they fill each buffer
// with 0xFF while `poisonAllocations` is set (the checked run), so an
// element the program never writes shows up as NaN or -1; and they keep
// freed large buffers for reuse, as a framework's caching allocator does:
// a fresh 64 MiB buffer costs a page fault per page, which on some
// machines takes longer than the kernel that fills it. The memory comes
// from allocateHostMemory (large blocks on huge pages), as the tensors'.
static std::mutex allocMutex;
static std::unordered_map<void *, uint64_t> liveAllocations;
/// Freed large buffers kept for reuse, by size; released at exit.
struct BlockCache : std::multimap<uint64_t, void *> {
  ~BlockCache() {
    for (auto &[size, block] : *this)
      std::free(block);
  }
};
static BlockCache cachedBlocks;
static uint64_t cachedBytes = 0;
static bool poisonAllocations = true;
static constexpr uint64_t kCacheMinBytes = 1 << 20;
static constexpr uint64_t kCacheMaxBytes = uint64_t(1) << 31;

/// The requested sizes of the checked run's allocations (--alloc-stats).
static std::vector<uint64_t> allocationLog;

static void *allocate(uint64_t alignment, uint64_t size) {
  if (poisonAllocations) {
    std::lock_guard<std::mutex> lock(allocMutex);
    allocationLog.push_back(size);
  }
  size = std::max<uint64_t>((size + alignment - 1) / alignment * alignment,
                            alignment);
  void *p = nullptr;
  {
    std::lock_guard<std::mutex> lock(allocMutex);
    auto cached = cachedBlocks.find(size);
    if (cached != cachedBlocks.end()) {
      p = cached->second;
      cachedBlocks.erase(cached);
      cachedBytes -= size;
    }
  }
  if (!p)
    p = allocateHostMemory(alignment, size);
  if (poisonAllocations)
    std::memset(p, 0xFF, size);
  std::lock_guard<std::mutex> lock(allocMutex);
  liveAllocations[p] = size;
  return p;
}

extern "C" void *rlxAlloc(uint64_t size) { return allocate(16, size); }

extern "C" void *rlxAlignedAlloc(uint64_t alignment, uint64_t size) {
  return allocate(std::max<uint64_t>(alignment, 16), size);
}

extern "C" void rlxFree(void *p) {
  {
    std::lock_guard<std::mutex> lock(allocMutex);
    auto live = liveAllocations.find(p);
    if (live != liveAllocations.end()) {
      uint64_t size = live->second;
      liveAllocations.erase(live);
      if (size >= kCacheMinBytes && cachedBytes + size <= kCacheMaxBytes) {
        cachedBlocks.emplace(size, p);
        cachedBytes += size;
        return;
      }
    }
  }
  std::free(p);
}

//===----------------------------------------------------------------------===//
// Tensors and memref descriptors
//===----------------------------------------------------------------------===//

/// Bytes per element in memory (bf16 is 2 bytes in memory).
static int64_t memBytes(Type type) {
  if (type.isInteger(1))
    return 1;
  if (auto c = dyn_cast<ComplexType>(type))
    return 2 * c.getElementType().getIntOrFloatBitWidth() / 8;
  return type.getIntOrFloatBitWidth() / 8;
}

static uint16_t toBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return 0x7FC0;
  uint32_t rounding = 0x7FFF + ((bits >> 16) & 1); // round to nearest even
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

static float fromBF16(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

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
  for (int64_t i = 0; i < n; ++i) {
    float f;
    std::memcpy(&f, a.data.data() + 4 * i, 4);
    uint16_t h = toBF16(f);
    std::memcpy(t.bytes.data() + 2 * i, &h, 2);
  }
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
  for (int64_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, t.bytes.data() + 2 * i, 2);
    float f = fromBF16(h);
    std::memcpy(a.data.data() + 4 * i, &f, 4);
  }
  return a;
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
  int64_t bytes = memBytes(e);
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
      uint16_t h = toBF16(normal(rng));
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

/// A ranked memref descriptor: {allocated, aligned, offset, sizes, strides}.
static std::vector<int64_t> makeDescriptor(HostTensor &t) {
  int64_t rank = t.shape.size();
  std::vector<int64_t> d(3 + 2 * rank);
  d[0] = d[1] = reinterpret_cast<int64_t>(t.bytes.data());
  d[2] = 0;
  int64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    d[3 + i] = t.shape[i];
    d[3 + rank + i] = stride;
    stride *= t.shape[i];
  }
  return d;
}

/// Copies a result out of its descriptor (any strides). Its buffer is freed
/// by freeResults once every result has been read (two results may share
/// one buffer).
static HostTensor readResult(const int64_t *d, RankedTensorType type) {
  HostTensor t;
  t.elementType = type.getElementType();
  int64_t rank = type.getRank();
  auto *aligned = reinterpret_cast<const uint8_t *>(d[1]);
  int64_t offset = d[2];
  int64_t n = 1;
  for (int64_t i = 0; i < rank; ++i) {
    t.shape.push_back(d[3 + i]);
    n *= d[3 + i];
  }
  int64_t bytes = memBytes(t.elementType);
  t.bytes.resize(n * bytes);
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t at = offset;
    for (int64_t i = 0; i < rank; ++i)
      at += index[i] * d[3 + rank + i];
    std::memcpy(t.bytes.data() + linear * bytes, aligned + at * bytes, bytes);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < t.shape[i])
        break;
      index[i] = 0;
    }
  }
  return t;
}

/// Frees each distinct buffer that the program allocated and handed over in
/// the result descriptors.
static void freeResults(const int64_t *d, ArrayRef<RankedTensorType> types) {
  std::set<void *> buffers;
  for (RankedTensorType t : types) {
    buffers.insert(reinterpret_cast<void *>(d[0]));
    d += 3 + 2 * t.getRank();
  }
  for (void *p : buffers) {
    bool owned;
    {
      std::lock_guard<std::mutex> lock(allocMutex);
      owned = liveAllocations.count(p);
    }
    if (owned)
      rlxFree(p);
  }
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
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  cl::ParseCommandLineOptions(
      argc, argv,
      "rlx-run: compile an RLX program for the CPU and run it\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  rlx::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
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

  // The params become trailing arguments, each with its name (the
  // attribute is dropped before compiling: the pipeline has no use for it).
  unsigned numOrdinary = entry.getNumArguments();
  {
    PassManager promote(&context);
    rlx::PromoteParamsPassOptions promoteOptions;
    promoteOptions.functions.push_back(name);
    promote.addPass(rlx::createPromoteParamsPass(promoteOptions));
    if (failed(promote.run(*module)))
      return 1;
  }
  SmallVector<std::string> paramNames;
  for (unsigned i = numOrdinary; i < entry.getNumArguments(); ++i) {
    auto attr = entry.getArgAttrOfType<StringAttr>(i, "rlx.param");
    paramNames.push_back(attr ? attr.getValue().str() : "");
    entry.removeArgAttr(i, "rlx.param");
  }
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

  FunctionType signature = entry.getFunctionType();
  SmallVector<RankedTensorType> argTypes, resultTypes;
  for (auto [i, t] : llvm::enumerate(signature.getInputs())) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || npyDtype(type.getElementType()).empty()) {
      entry.emitError("argument #") << i << " has type " << t
                                    << ", which rlx-run cannot bind";
      return 1;
    }
    argTypes.push_back(type);
  }
  for (auto [i, t] : llvm::enumerate(signature.getResults())) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || npyDtype(type.getElementType()).empty()) {
      entry.emitError("result #") << i << " has type " << t
                                  << ", which rlx-run cannot return";
      return 1;
    }
    resultTypes.push_back(type);
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

  // Compile.
  rlx::markCPUEntryPoint(entry);
  PassManager pm(&context);
  rlx::CPUPipelineOptions options;
  if (failed(options.parseFromString(cpuOptions, llvm::errs()))) {
    llvm::errs() << "rlx-run: error: bad --cpu-options\n";
    return 1;
  }
  if (useBlas) {
    if (!rlx::runtime::loadBlas()) {
      llvm::errs() << "rlx-run: error: --blas: no CBLAS library found "
                      "(libopenblas.so.0, libcblas.so.3 or libblas.so.3)\n";
      return 1;
    }
    options.blas = true;
  }
  options.arena = useArena;
  // --check-bounds, RLX_RUN_CHECK_BOUNDS=1 and --cpu-options=check-bounds=1
  // each turn the checks on.
  const char *env = std::getenv("RLX_RUN_CHECK_BOUNDS");
  if (checkBounds || (env && *env && std::string(env) != "0"))
    options.checkBounds = true;
  rlx::buildCPUPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  auto tm = rlx::createHostTargetMachine(/*pic=*/false);
  if (!tm) {
    llvm::errs() << "rlx-run: error: " << toString(tm.takeError()) << "\n";
    return 1;
  }
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(3, 0, tm->get());
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(*module, engineOptions,
                                        std::move(*tm));
  if (!engine) {
    llvm::errs() << "rlx-run: error: " << toString(engine.takeError())
                 << "\n";
    return 1;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *symbol, void *fn) {
      map[interner(symbol)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                               llvm::JITSymbolFlags::Exported};
    };
    add("_mlir_memref_to_llvm_alloc",
        reinterpret_cast<void *>(&rlxAlloc));
    add("_mlir_memref_to_llvm_aligned_alloc",
        reinterpret_cast<void *>(&rlxAlignedAlloc));
    add("_mlir_memref_to_llvm_free", reinterpret_cast<void *>(&rlxFree));
    add("_mlir_ciface_rlx_cpu_sgemm",
        reinterpret_cast<void *>(&_mlir_ciface_rlx_cpu_sgemm));
    add("_mlir_ciface_rlx_cpu_dgemm",
        reinterpret_cast<void *>(&_mlir_ciface_rlx_cpu_dgemm));
    // Bufferization's copies call into MLIR's C runner utilities.
    add("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
    return map;
  });

  // Run: the C interface takes a pointer to the result descriptor(s) first,
  // then a pointer to each argument's descriptor.
  std::vector<std::vector<int64_t>> descriptors;
  for (HostTensor &t : inputs)
    descriptors.push_back(makeDescriptor(t));
  size_t resultWords = 0;
  for (RankedTensorType t : resultTypes)
    resultWords += 3 + 2 * t.getRank();
  std::vector<int64_t> resultBuffer(std::max<size_t>(resultWords, 1));
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
  auto runOnce = [&]() -> bool {
    std::vector<void *> pointers;
    void *resultPtr = resultBuffer.data();
    std::vector<void *> descPtrs;
    for (auto &d : descriptors)
      descPtrs.push_back(d.data());
    if (!resultTypes.empty())
      pointers.push_back(&resultPtr);
    for (void *&p : descPtrs)
      pointers.push_back(&p);
    if (llvm::Error err =
            (*engine)->invokePacked("_mlir_ciface_" + name, pointers)) {
      llvm::errs() << "rlx-run: error: " << toString(std::move(err)) << "\n";
      return false;
    }
    return true;
  };
  auto collect = [&]() {
    std::vector<HostTensor> results;
    const int64_t *d = resultBuffer.data();
    for (RankedTensorType t : resultTypes) {
      results.push_back(readResult(d, t));
      d += 3 + 2 * t.getRank();
    }
    freeResults(resultBuffer.data(), resultTypes);
    return results;
  };

  if (!runOnce())
    return 1;
  if (allocStats) {
    llvm::outs() << "allocations: " << allocationLog.size() << " (bytes:";
    for (uint64_t size : allocationLog)
      llvm::outs() << " " << size;
    llvm::outs() << ")\n";
  }
  std::vector<HostTensor> results = collect();
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
    poisonAllocations = false;
    std::vector<double> ms;
    for (unsigned i = 0; i < benchRuns; ++i) {
      auto start = std::chrono::steady_clock::now();
      if (!runOnce())
        return 1;
      auto stop = std::chrono::steady_clock::now();
      ms.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
      freeResults(resultBuffer.data(), resultTypes);
    }
    std::sort(ms.begin(), ms.end());
    llvm::outs() << "bench: " << benchRuns << " runs, median "
                 << llvm::format("%.3f", ms[ms.size() / 2]) << " ms, min "
                 << llvm::format("%.3f", ms.front()) << " ms\n";
  }
  return 0;
}
