//===- CPUCallThreadPool.cpp - chunked kernels on the thread pool ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The calling convention is RLX's thread pool's (RLX/Runtime/CPU/
// CPUThreads.h), not OpenMP's: upstream's convert-scf-to-openmp would need
// libomp beside every compiled object and gives no control over nested or
// concurrent callers (docs/CPU.md, "Threads").
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUCALLTHREADPOOLPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kParallelFor = "rlx_cpu_parallel_for";

/// `void (ptr context, i64 begin, i64 end)`: loads the kernel's operands
/// and the start of its range from `context` (a struct of them) and calls
/// it on [start + begin, start + end).
LLVM::LLVMFuncOp buildChunkFunction(OpBuilder &builder, LLVM::LLVMFuncOp kernel,
                                    LLVM::LLVMStructType context) {
  MLIRContext *ctx = builder.getContext();
  Location loc = kernel.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                          {ptr, i64, i64});
  builder.setInsertionPointAfter(kernel);
  auto chunk = LLVM::LLVMFuncOp::create(
      builder, loc, (kernel.getName() + "_chunk").str(), type,
      LLVM::Linkage::Internal);
  Block *entry = chunk.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> operands;
  for (auto [i, field] : llvm::enumerate(context.getBody())) {
    Value address = LLVM::GEPOp::create(
        builder, loc, ptr, context, entry->getArgument(0),
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    operands.push_back(LLVM::LoadOp::create(builder, loc, field, address));
  }
  Value start = operands.pop_back_val();
  for (unsigned i : {1, 2})
    operands.push_back(
        LLVM::AddOp::create(builder, loc, start, entry->getArgument(i)));
  LLVM::CallOp::create(builder, loc, kernel, operands);
  LLVM::ReturnOp::create(builder, loc, ValueRange{});
  return chunk;
}

struct CPUCallThreadPoolPass
    : rlx::impl::CPUCallThreadPoolPassBase<CPUCallThreadPoolPass> {
  using CPUCallThreadPoolPassBase::CPUCallThreadPoolPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SymbolTable symbols(module);
    SmallVector<LLVM::CallOp> calls;
    module.walk([&](LLVM::CallOp call) {
      auto callee = call.getCallee();
      if (!callee)
        return;
      auto kernel = symbols.lookup<LLVM::LLVMFuncOp>(*callee);
      if (kernel && kernel->hasAttr(rlx::kChunkedKernelAttrName) &&
          !call->getParentOfType<LLVM::LLVMFuncOp>()->hasAttr(
              rlx::kChunkedKernelAttrName))
        calls.push_back(call);
    });
    if (calls.empty())
      return;

    OpBuilder builder(ctx);
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto parallelFor = symbols.lookup<LLVM::LLVMFuncOp>(kParallelFor);
    if (!parallelFor) {
      builder.setInsertionPointToEnd(module.getBody());
      parallelFor = LLVM::LLVMFuncOp::create(
          builder, module.getLoc(), kParallelFor,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                      {ptr, ptr, i64, i64}));
    }
    llvm::DenseMap<Operation *, LLVM::LLVMFuncOp> chunkFunctions;
    for (LLVM::CallOp call : calls) {
      auto kernel = symbols.lookup<LLVM::LLVMFuncOp>(*call.getCallee());
      ValueRange operands = call.getArgOperands();
      if (operands.size() < 2) {
        call.emitError("rlx-cpu-call-thread-pool: a chunked kernel's call "
                       "ends with its range [begin, end)");
        return signalPassFailure();
      }
      // The operands but the range, and the range's start.
      SmallVector<Value> packed(operands.drop_back(1));
      auto context = LLVM::LLVMStructType::getLiteral(
          ctx, llvm::to_vector(ValueRange(packed).getTypes()));
      LLVM::LLVMFuncOp &chunk = chunkFunctions[kernel];
      if (!chunk) {
        chunk = buildChunkFunction(builder, kernel, context);
        symbols.insert(chunk);
      }

      // The struct lives on the caller's stack, allocated at its entry (an
      // alloca in a block would grow the stack per call).
      Location loc = call.getLoc();
      auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
      builder.setInsertionPointToStart(&caller.getBody().front());
      Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                           builder.getI64IntegerAttr(1));
      Value address = LLVM::AllocaOp::create(builder, loc, ptr, context, one);
      builder.setInsertionPoint(call);
      for (auto [i, value] : llvm::enumerate(packed)) {
        Value field = LLVM::GEPOp::create(
            builder, loc, ptr, context, address,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        LLVM::StoreOp::create(builder, loc, value, field);
      }
      Value begin = operands[operands.size() - 2];
      Value end = operands.back();
      Value iterations = LLVM::SubOp::create(builder, loc, end, begin);
      Value function = LLVM::AddressOfOp::create(builder, loc, chunk);
      Value maxThreads = LLVM::ConstantOp::create(
          builder, loc, i64, builder.getI64IntegerAttr(threads));
      LLVM::CallOp::create(builder, loc, parallelFor,
                           ValueRange{function, address, iterations,
                                      maxThreads});
      call.erase();
    }
  }
};

} // namespace
