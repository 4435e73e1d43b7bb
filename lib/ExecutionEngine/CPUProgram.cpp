//===- CPUProgram.cpp - an RLX function JIT-compiled for the CPU ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/ExecutionEngine/CPUProgram.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/IR/NpyDtype.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/ExecutionEngine/HostAllocator.h"
#include "RLX/Runtime/CPU/CPUBlas.h"
#include "RLX/Runtime/CPU/CPUDequantMatmul.h"
#include "RLX/Runtime/CPU/CPUThreads.h"
#include "RLX/Runtime/Common/Collectives.h"
#include "RLX/Target/CPU/HostTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::rlx;

int64_t rlx::getElementBytes(Type type) {
  if (npyDtype(type).empty())
    return 0;
  if (type.isInteger(1))
    return 1;
  if (auto c = dyn_cast<ComplexType>(type))
    return 2 * c.getElementType().getIntOrFloatBitWidth() / 8;
  return type.getIntOrFloatBitWidth() / 8;
}

CPUProgram::~CPUProgram() = default;

/// The ranked tensor types of `types`, or an error at `entry` naming the
/// first that a program cannot pass (`what` is "argument" or "result").
static LogicalResult bindableTypes(func::FuncOp entry, TypeRange types,
                                   StringRef what,
                                   SmallVectorImpl<RankedTensorType> &out) {
  for (auto [i, t] : llvm::enumerate(types)) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || getElementBytes(type.getElementType()) == 0)
      return entry.emitError()
             << what << " #" << i << " has type " << t
             << ", which a compiled CPU program cannot pass (ranked tensors "
                "of integers, floats and complex numbers only)";
    out.push_back(type);
  }
  return success();
}

std::unique_ptr<CPUProgram>
CPUProgram::compile(ModuleOp module, StringRef entryName,
                    const CPUPipelineOptions &options) {
  MLIRContext *context = module.getContext();
  auto entry = module.lookupSymbol<func::FuncOp>(entryName);
  if (!entry || entry.isExternal()) {
    emitError(module.getLoc()) << "no function '" << entryName
                               << "' with a body to compile";
    return nullptr;
  }
  std::unique_ptr<CPUProgram> program(new CPUProgram);
  program->name = entryName.str();

  // The params become trailing arguments, each with its name (the
  // attribute is dropped before compiling: the pipeline has no use for it).
  unsigned numOrdinary = entry.getNumArguments();
  PassManager promote(context);
  PromoteParamsPassOptions promoteOptions;
  promoteOptions.functions.push_back(program->name);
  promote.addPass(createPromoteParamsPass(promoteOptions));
  // A program annotated with shardings takes its device's shards: the
  // signature to bind is the partitioned one (rlx_hir blocks and autodiff
  // transforms first become the rlx ops that partitioning splits).
  promote.addPass(createLowerHIRPass());
  promote.addPass(createExpandAutodiffPass());
  promote.addPass(createPartitionPass());
  if (failed(promote.run(module)))
    return nullptr;
  for (unsigned i = numOrdinary; i < entry.getNumArguments(); ++i) {
    auto attr = entry.getArgAttrOfType<StringAttr>(i, "rlx.param");
    program->paramNames.push_back(attr ? attr.getValue().str() : "");
    entry.removeArgAttr(i, "rlx.param");
  }

  FunctionType signature = entry.getFunctionType();
  if (failed(bindableTypes(entry, signature.getInputs(), "argument",
                           program->argTypes)) ||
      failed(bindableTypes(entry, signature.getResults(), "result",
                           program->resultTypes)))
    return nullptr;

  // Results held in place by arguments: checked here, on tensor types, so
  // that the error names the entry's types; rlx-results-in-place
  // removes them from the compiled function.
  program->resultArguments.assign(program->resultTypes.size(), -1);
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    Attribute attr = entry.getArgAttr(i, kInPlaceResultAttrName);
    if (!attr)
      continue;
    auto index = dyn_cast<IntegerAttr>(attr);
    int64_t numResults = program->resultTypes.size();
    if (!index || index.getInt() < 0 || index.getInt() >= numResults) {
      emitError(entry.getLoc())
          << "argument #" << i << ": " << kInPlaceResultAttrName
          << " must be the index of one of the " << numResults
          << " results, got " << attr;
      return nullptr;
    }
    int64_t j = index.getInt();
    if (program->resultArguments[j] >= 0) {
      emitError(entry.getLoc())
          << "result #" << j << " is held in place by arguments #"
          << program->resultArguments[j] << " and #" << i;
      return nullptr;
    }
    if (program->argTypes[i] != program->resultTypes[j]) {
      emitError(entry.getLoc())
          << "argument #" << i << " of type " << program->argTypes[i]
          << " cannot hold result #" << j << " of type "
          << program->resultTypes[j];
      return nullptr;
    }
    program->resultArguments[j] = i;
  }

  if (options.blas && !runtime::loadBlas()) {
    emitError(entry.getLoc())
        << "blas=true: no CBLAS library found (libopenblas.so.0, "
           "libcblas.so.3 or libblas.so.3)";
    return nullptr;
  }
  markCPUEntryPoint(entry);
  Location loc = entry.getLoc();
  // The ExecutionEngine translates the lowered module to LLVM IR.
  DialectRegistry translations;
  registerAllToLLVMIRTranslations(translations);
  context->appendDialectRegistry(translations);
  PassManager pm(context);
  buildCPUPipeline(pm, options);
  if (failed(pm.run(module)))
    return nullptr;

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto tm = createHostTargetMachine(/*pic=*/false);
  if (!tm) {
    emitError(loc) << toString(tm.takeError());
    return nullptr;
  }
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(3, 0, tm->get());
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(module, engineOptions,
                                        std::move(*tm));
  if (!engine) {
    emitError(loc) << toString(engine.takeError());
    return nullptr;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *symbol, void *fn) {
      map[interner(symbol)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                               llvm::JITSymbolFlags::Exported};
    };
    add("_mlir_memref_to_llvm_alloc",
        reinterpret_cast<void *>(&host_allocator::allocate));
    add("_mlir_memref_to_llvm_aligned_alloc",
        reinterpret_cast<void *>(&host_allocator::allocateAligned));
    add("_mlir_memref_to_llvm_free",
        reinterpret_cast<void *>(&host_allocator::deallocate));
    add("_mlir_ciface_rlx_cpu_sgemm",
        reinterpret_cast<void *>(&_mlir_ciface_rlx_cpu_sgemm));
    add("_mlir_ciface_rlx_cpu_dgemm",
        reinterpret_cast<void *>(&_mlir_ciface_rlx_cpu_dgemm));
    add("_mlir_ciface_rlx_cpu_gemm_s8",
        reinterpret_cast<void *>(&_mlir_ciface_rlx_cpu_gemm_s8));
    add("_mlir_ciface_rlx_cpu_gemm_s8_constant_b",
        reinterpret_cast<void *>(&_mlir_ciface_rlx_cpu_gemm_s8_constant_b));
    add("rlx_cpu_parallel_for",
        reinterpret_cast<void *>(&rlx_cpu_parallel_for));
    add("rlx_cpu_dequant_matmul",
        reinterpret_cast<void *>(&rlx_cpu_dequant_matmul));
    // A partitioned program's collectives (rlx-lower-collectives).
    add("rlxCollectiveRank", reinterpret_cast<void *>(&rlxCollectiveRank));
    add("rlxCollectiveWorldSize",
        reinterpret_cast<void *>(&rlxCollectiveWorldSize));
    add("rlxCollectiveAllReduce",
        reinterpret_cast<void *>(&rlxCollectiveAllReduce));
    add("rlxCollectiveAllGather",
        reinterpret_cast<void *>(&rlxCollectiveAllGather));
    add("rlxCollectiveReduceScatter",
        reinterpret_cast<void *>(&rlxCollectiveReduceScatter));
    add("rlxCollectiveAllToAll",
        reinterpret_cast<void *>(&rlxCollectiveAllToAll));
    add("rlxCollectiveAllReduceAsync",
        reinterpret_cast<void *>(&rlxCollectiveAllReduceAsync));
    add("rlxCollectiveAllGatherAsync",
        reinterpret_cast<void *>(&rlxCollectiveAllGatherAsync));
    add("rlxCollectiveReduceScatterAsync",
        reinterpret_cast<void *>(&rlxCollectiveReduceScatterAsync));
    add("rlxCollectiveAllToAllAsync",
        reinterpret_cast<void *>(&rlxCollectiveAllToAllAsync));
    add("rlxCollectiveWait", reinterpret_cast<void *>(&rlxCollectiveWait));
    add("rlxCollectiveGetLastError",
        reinterpret_cast<void *>(&rlxCollectiveGetLastError));
    add("rlxCollectiveClearError",
        reinterpret_cast<void *>(&rlxCollectiveClearError));
    // Bufferization's copies call into MLIR's C runner utilities.
    add("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
    return map;
  });
  // The JIT generates code at the first lookup of a symbol: done here, so
  // that the first run costs what the others do (a decode step's first
  // call took 200 ms more than the rest).
  if (auto entryPoint =
          (*engine)->lookupPacked(("_mlir_ciface_" + entryName).str());
      !entryPoint) {
    emitError(loc) << llvm::toString(entryPoint.takeError());
    return nullptr;
  }
  program->engine = std::move(*engine);
  return program;
}

static std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Copies a result out of its memref descriptor {allocated, aligned,
/// offset, sizes, strides} (any strides) into row-major memory at `to`.
static void copyOut(const int64_t *d, int64_t rank, int64_t bytes,
                    uint8_t *to) {
  auto *aligned = reinterpret_cast<const uint8_t *>(d[1]);
  int64_t n = 1;
  bool rowMajor = true;
  for (int64_t i = rank - 1; i >= 0; --i) {
    rowMajor &= d[3 + i] == 1 || d[3 + rank + i] == n;
    n *= d[3 + i];
  }
  if (rowMajor) {
    if (n != 0)
      std::memcpy(to, aligned + d[2] * bytes, n * bytes);
    return;
  }
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t at = d[2];
    for (int64_t i = 0; i < rank; ++i)
      at += index[i] * d[3 + rank + i];
    std::memcpy(to + linear * bytes, aligned + at * bytes, bytes);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < d[3 + i])
        break;
      index[i] = 0;
    }
  }
}

llvm::Error CPUProgram::run(ArrayRef<TensorView> args,
                            ResultDestination destination) {
  if (args.size() != argTypes.size())
    return llvm::createStringError("@" + name + " takes " +
                                   std::to_string(argTypes.size()) +
                                   " arguments, " +
                                   std::to_string(args.size()) + " given");
  // A ranked memref descriptor per argument: {allocated, aligned, offset,
  // sizes, strides}, row-major.
  std::vector<std::vector<int64_t>> descriptors;
  for (auto [i, arg] : llvm::enumerate(args)) {
    RankedTensorType type = argTypes[i];
    bool fits = int64_t(arg.shape.size()) == type.getRank();
    int64_t elements = 1;
    for (int64_t d = 0; fits && d < type.getRank(); ++d) {
      fits = arg.shape[d] >= 0 &&
             (type.isDynamicDim(d) || type.getDimSize(d) == arg.shape[d]);
      elements *= arg.shape[d];
    }
    // An empty tensor may come without memory.
    if (!fits || (!arg.data && elements != 0)) {
      std::string shape;
      for (int64_t d : arg.shape)
        shape += (shape.empty() ? "" : ", ") + std::to_string(d);
      return llvm::createStringError(
          "argument #" + std::to_string(i) + " of @" + name + " expects " +
          typeString(type) + ", given " +
          (arg.data ? "a tensor of shape [" + shape + "]" : "no data"));
    }
    int64_t rank = type.getRank();
    std::vector<int64_t> d(3 + 2 * rank);
    d[0] = d[1] = reinterpret_cast<int64_t>(arg.data);
    int64_t stride = 1;
    for (int64_t k = rank - 1; k >= 0; --k) {
      d[3 + k] = arg.shape[k];
      d[3 + rank + k] = stride;
      stride *= arg.shape[k];
    }
    descriptors.push_back(std::move(d));
  }
  // An argument written in place must not share memory with another: the
  // program would read what it wrote (two caches passed as one array).
  auto byteRange = [&](unsigned i) {
    int64_t size = getElementBytes(argTypes[i].getElementType());
    for (int64_t n : args[i].shape)
      size *= n;
    auto *begin = static_cast<const char *>(args[i].data);
    return std::make_pair(begin, begin + size);
  };
  for (auto [j, held] : llvm::enumerate(resultArguments)) {
    if (held < 0 || !args[held].data)
      continue;
    auto [begin, end] = byteRange(held);
    for (unsigned k = 0; k < args.size(); ++k) {
      if (k == unsigned(held) || !args[k].data)
        continue;
      auto [otherBegin, otherEnd] = byteRange(k);
      if (begin < otherEnd && otherBegin < end && begin != end &&
          otherBegin != otherEnd)
        return llvm::createStringError(
            "argument #" + std::to_string(held) + " of @" + name +
            " holds result #" + std::to_string(j) +
            " in place and shares memory with argument #" +
            std::to_string(k));
    }
  }

  // The compiled function returns the results no argument holds.
  size_t resultWords = 0;
  unsigned numReturned = 0;
  for (auto [j, t] : llvm::enumerate(resultTypes))
    if (resultArguments[j] < 0) {
      resultWords += 3 + 2 * t.getRank();
      ++numReturned;
    }
  std::vector<int64_t> resultBuffer(std::max<size_t>(resultWords, 1));

  // The C interface takes a pointer to the result descriptor(s) first, then
  // a pointer to each argument's descriptor.
  std::vector<void *> pointers;
  void *resultPtr = resultBuffer.data();
  std::vector<void *> descPtrs;
  for (auto &d : descriptors)
    descPtrs.push_back(d.data());
  if (numReturned != 0)
    pointers.push_back(&resultPtr);
  for (void *&p : descPtrs)
    pointers.push_back(&p);
  // A collective that fails (a peer gone past the timeout) records an
  // error and returns: the call's results are then garbage.
  rlxCollectiveClearError();
  if (llvm::Error err = engine->invokePacked("_mlir_ciface_" + name, pointers))
    return err;

  // Copy the results out, then free each distinct buffer the program
  // allocated for them (two results may share one; a result may be an
  // argument's buffer, which is the caller's). A result held in place is
  // its argument, updated: copied only where the destination is elsewhere.
  const int64_t *d = resultBuffer.data();
  std::set<void *> buffers;
  for (auto [i, type] : llvm::enumerate(resultTypes)) {
    int64_t rank = type.getRank();
    int64_t bytes = getElementBytes(type.getElementType());
    if (int64_t a = resultArguments[i]; a >= 0) {
      const TensorView &arg = args[a];
      int64_t size = bytes;
      for (int64_t n : arg.shape)
        size *= n;
      void *to = destination(i, arg.shape);
      if (to && to != arg.data && size != 0)
        std::memcpy(to, arg.data, size);
      continue;
    }
    if (void *to = destination(i, ArrayRef<int64_t>(d + 3, rank)))
      copyOut(d, rank, bytes, static_cast<uint8_t *>(to));
    buffers.insert(reinterpret_cast<void *>(d[0]));
    d += 3 + 2 * rank;
  }
  for (void *p : buffers)
    if (host_allocator::isLiveAllocation(p))
      host_allocator::deallocate(p);
  if (const char *error = rlxCollectiveGetLastError())
    return llvm::createStringError(error);
  return llvm::Error::success();
}
