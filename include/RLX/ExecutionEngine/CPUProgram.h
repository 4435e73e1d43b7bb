//===- CPUProgram.h - an RLX function JIT-compiled for the CPU --*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One function of an RLX module compiled for the host CPU
// (--rlx-cpu-pipeline, then MLIR's ExecutionEngine) and called on tensors
// in the caller's memory. rlx-run, the C API (rlxCpuProgram*) and the
// Python package all run programs through it.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_EXECUTIONENGINE_CPUPROGRAM_H
#define RLX_EXECUTIONENGINE_CPUPROGRAM_H

#include "RLX/Target/CPU/CPUPipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
namespace rlx {

/// A row-major tensor in memory that the caller owns.
struct TensorView {
  void *data = nullptr;
  llvm::SmallVector<int64_t> shape;
};

/// Bytes per element of `type` in a program's memory (i1 takes a byte, bf16
/// two, complex<f32> eight); 0 for a type programs cannot pass.
int64_t getElementBytes(Type type);

class CPUProgram {
public:
  ~CPUProgram();

  /// Compiles `entry` of `module` (lowered in place) for the host CPU. The
  /// entry's `rlx.param` arguments become trailing arguments first
  /// (rlx-promote-params; getParamNames() names them). Every argument and
  /// result must be a ranked tensor of a type that getElementBytes knows.
  /// Returns nullptr after emitting the diagnostics on the module's
  /// context.
  static std::unique_ptr<CPUProgram> compile(ModuleOp module,
                                             StringRef entry,
                                             const CPUPipelineOptions &options);

  StringRef getName() const { return name; }
  ArrayRef<RankedTensorType> getArgumentTypes() const { return argTypes; }
  ArrayRef<RankedTensorType> getResultTypes() const { return resultTypes; }
  /// The names of the promoted params: the last getParamNames().size()
  /// arguments, in order.
  ArrayRef<std::string> getParamNames() const { return paramNames; }
  /// The argument that holds result `index` in place (an argument marked
  /// `rlx.in_place_result`), or -1: run() writes that argument's memory and
  /// hands it back as the result.
  int64_t getResultArgument(unsigned index) const {
    return resultArguments[index];
  }

  /// Where result `index` of shape `shape` goes: row-major memory of that
  /// shape, or nullptr to drop it.
  using ResultDestination =
      llvm::function_ref<void *(unsigned index, ArrayRef<int64_t> shape)>;

  /// Calls the program once on `args` (one per argument, each of the
  /// argument type's rank, static dims equal) and copies each result where
  /// `destination` says. The buffers the program allocated for its results
  /// are freed before it returns.
  llvm::Error run(ArrayRef<TensorView> args, ResultDestination destination);

private:
  CPUProgram() = default;

  std::string name;
  SmallVector<RankedTensorType> argTypes, resultTypes;
  SmallVector<std::string> paramNames;
  SmallVector<int64_t> resultArguments;
  std::unique_ptr<ExecutionEngine> engine;
};

} // namespace rlx
} // namespace mlir

#endif // RLX_EXECUTIONENGINE_CPUPROGRAM_H
