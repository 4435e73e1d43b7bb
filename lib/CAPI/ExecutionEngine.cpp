//===- ExecutionEngine.cpp - C API: run RLX functions on the CPU ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "rlx-c/ExecutionEngine.h"

#include "RLX/ExecutionEngine/CPUProgram.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

#include <string>

using namespace mlir;

static rlx::CPUProgram *unwrap(RlxCpuProgram p) {
  return static_cast<rlx::CPUProgram *>(p.ptr);
}

RlxCpuProgram rlxCpuProgramCreate(MlirModule module, MlirStringRef name,
                                  MlirStringRef pipelineOptions) {
  ModuleOp op = unwrap(module);
  rlx::CPUPipelineOptions options;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(options.parseFromString(unwrap(pipelineOptions), os))) {
    emitError(op.getLoc()) << "bad rlx-cpu-pipeline options '"
                           << unwrap(pipelineOptions) << "': " << errors;
    return {nullptr};
  }
  return {rlx::CPUProgram::compile(op, unwrap(name), options).release()};
}

void rlxCpuProgramDestroy(RlxCpuProgram program) { delete unwrap(program); }

intptr_t rlxCpuProgramGetNumArguments(RlxCpuProgram p) {
  return unwrap(p)->getArgumentTypes().size();
}

MlirType rlxCpuProgramGetArgumentType(RlxCpuProgram p, intptr_t pos) {
  return wrap(Type(unwrap(p)->getArgumentTypes()[pos]));
}

intptr_t rlxCpuProgramGetNumResults(RlxCpuProgram p) {
  return unwrap(p)->getResultTypes().size();
}

MlirType rlxCpuProgramGetResultType(RlxCpuProgram p, intptr_t pos) {
  return wrap(Type(unwrap(p)->getResultTypes()[pos]));
}

intptr_t rlxCpuProgramGetNumParams(RlxCpuProgram p) {
  return unwrap(p)->getParamNames().size();
}

MlirStringRef rlxCpuProgramGetParamName(RlxCpuProgram p, intptr_t pos) {
  return wrap(StringRef(unwrap(p)->getParamNames()[pos]));
}

intptr_t rlxCpuProgramGetResultArgument(RlxCpuProgram p, intptr_t pos) {
  return unwrap(p)->getResultArgument(pos);
}

int64_t rlxGetElementBytes(MlirType elementType) {
  return rlx::getElementBytes(unwrap(elementType));
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// The argument views of a C call.
static std::vector<rlx::TensorView> views(const RlxTensor *args,
                                          intptr_t numArgs) {
  std::vector<rlx::TensorView> out;
  for (intptr_t i = 0; i < numArgs; ++i)
    out.push_back({args[i].data,
                   {args[i].shape, args[i].shape + args[i].rank}});
  return out;
}

MlirLogicalResult rlxCpuProgramRun(RlxCpuProgram program,
                                   const RlxTensor *args, intptr_t numArgs,
                                   const RlxTensor *results,
                                   intptr_t numResults,
                                   MlirStringCallback onError,
                                   void *userData) {
  rlx::CPUProgram *p = unwrap(program);
  auto fail = [&](const std::string &message) {
    if (onError)
      onError(wrap(StringRef(message)), userData);
    return mlirLogicalResultFailure();
  };
  if (numResults != intptr_t(p->getResultTypes().size()))
    return fail("@" + p->getName().str() + " returns " +
                std::to_string(p->getResultTypes().size()) + " results, " +
                std::to_string(numResults) + " buffers given");
  std::string mismatch;
  auto destination = [&](unsigned i, ArrayRef<int64_t> shape) -> void * {
    ArrayRef<int64_t> given(results[i].shape, results[i].rank);
    if (given != shape) {
      if (mismatch.empty())
        mismatch = "result #" + std::to_string(i) + " of @" +
                   p->getName().str() + " has shape " + shapeString(shape) +
                   ", but its buffer is for shape " + shapeString(given);
      return nullptr;
    }
    return results[i].data;
  };
  if (llvm::Error err = p->run(views(args, numArgs), destination))
    return fail(toString(std::move(err)));
  if (!mismatch.empty())
    return fail(mismatch);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rlxCpuProgramRunWithDestination(
    RlxCpuProgram program, const RlxTensor *args, intptr_t numArgs,
    RlxResultDestination destination, MlirStringCallback onError,
    void *userData) {
  auto where = [&](unsigned i, ArrayRef<int64_t> shape) -> void * {
    return destination(i, shape.size(), shape.data(), userData);
  };
  if (llvm::Error err = unwrap(program)->run(views(args, numArgs), where)) {
    if (onError)
      onError(wrap(StringRef(toString(std::move(err)))), userData);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}
