//===- ProgramRuns.cpp - running a compiled program from a tool -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/ProgramRuns.h"

#include "RLX/Dialect/MIR/IR/NpyDtype.h"
#include "RLX/ExecutionEngine/HostAllocator.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using namespace mlir::rlx;
using runtime::NpyArray;

func::FuncOp
rlx::findEntryFunction(ModuleOp module, StringRef name,
                       llvm::function_ref<void(const Twine &)> error) {
  if (!name.empty()) {
    auto entry = module.lookupSymbol<func::FuncOp>(name);
    if (!entry)
      error("no function '" + name + "'");
    return entry;
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp only;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (only) {
      only = nullptr;
      break;
    }
    only = fn;
  }
  if (!only)
    error("no 'main' and not exactly one public function; name one with "
          "--entry");
  return only;
}

void rlx::exitOnFailedRuntimeCheck(StringRef tool) {
  // Built here, as the handler may not allocate.
  static std::string message;
  message =
      (tool + ": error: the program stopped on a failed runtime check\n").str();
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::signal(SIGABRT, [](int) {
    (void)!write(STDERR_FILENO, message.data(), message.size());
    _exit(1);
  });
}

FailureOr<std::vector<HostTensor>>
rlx::runProgram(CPUProgram &program, ArrayRef<TensorView> args,
                llvm::function_ref<void(const Twine &)> error) {
  ArrayRef<RankedTensorType> resultTypes = program.getResultTypes();
  std::vector<HostTensor> results(resultTypes.size());
  auto intoResults = [&](unsigned i, ArrayRef<int64_t> shape) -> void * {
    return results[i].reshape(resultTypes[i].getElementType(), shape);
  };
  if (llvm::Error err = program.run(args, intoResults)) {
    error(toString(std::move(err)));
    return failure();
  }
  return results;
}

void rlx::printAllocationLog(llvm::raw_ostream &os) {
  std::vector<uint64_t> sizes = host_allocator::takeAllocationLog();
  os << "allocations: " << sizes.size() << " (bytes:";
  for (uint64_t size : sizes)
    os << " " << size;
  os << ")\n";
}

/// The element of type T at `p`, as double.
template <typename T> static double load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return double(v);
}

/// Sum of all elements as double (real part for complex), for a checksum.
static double checksum(const HostTensor &t) {
  NpyArray a = toNpy(t);
  int64_t n = a.numElements();
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t *p = a.data.data() + i * a.elementSize();
    const std::string &d = a.dtype;
    if (d == "f4" || d == "c8")
      sum += load<float>(p);
    else if (d == "f8" || d == "c16")
      sum += load<double>(p);
    else if (d == "b1" || d == "u1")
      sum += *p;
    else if (d == "i1")
      sum += int8_t(*p);
    else if (d == "i2")
      sum += load<int16_t>(p);
    else if (d == "i4")
      sum += load<int32_t>(p);
    else if (d == "u4")
      sum += load<uint32_t>(p);
    else if (d == "i8")
      sum += load<int64_t>(p);
  }
  return sum;
}

LogicalResult rlx::writeResults(ArrayRef<HostTensor> results,
                                ArrayRef<std::string> outputs,
                                llvm::raw_ostream &os,
                                llvm::function_ref<void(const Twine &)> error) {
  for (auto [i, r] : llvm::enumerate(results)) {
    os << "result #" << i << ": " << npyDtype(r.elementType) << " "
       << formatShape(r.shape) << " checksum "
       << llvm::format("%.6g", checksum(r)) << "\n";
    if (i >= outputs.size())
      continue;
    std::string message;
    if (!runtime::writeNpy(outputs[i], toNpy(r), message)) {
      error(message);
      return failure();
    }
  }
  return success();
}

LogicalResult rlx::benchmark(CPUProgram &program, ArrayRef<TensorView> args,
                             unsigned runs, llvm::raw_ostream &os,
                             llvm::function_ref<void(const Twine &)> error) {
  // The runs go back to back, as a caller's loop would: each one's results
  // are freed, not copied out (a copy of a 64 MiB result would leave the
  // caches full of dirty lines for the next timed run to write back).
  host_allocator::setPoison(false);
  auto drop = [](unsigned, ArrayRef<int64_t>) -> void * { return nullptr; };
  std::vector<double> ms;
  for (unsigned i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error err = program.run(args, drop)) {
      error(toString(std::move(err)));
      return failure();
    }
    auto stop = std::chrono::steady_clock::now();
    ms.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(ms.begin(), ms.end());
  os << "bench: " << runs << " runs, median "
     << llvm::format("%.3f", ms[ms.size() / 2]) << " ms, min "
     << llvm::format("%.3f", ms.front()) << " ms\n";
  return success();
}
