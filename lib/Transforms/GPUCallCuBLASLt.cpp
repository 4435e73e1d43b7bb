//===- GPUCallCuBLASLt.cpp - outlined matmuls as rlxCublasLtMatmul calls --===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The second half of the GPU matmul dispatch (rlx-gpu-dispatch-matmul
// outlines): after bufferization each call of a function tagged
// `rlx.cublaslt` becomes a call of the runtime's rlxCublasLtMatmul
// (CUDARuntime.h) on the buffers' addresses, and the tagged functions go.
// The buffers are contiguous: function boundaries bufferize to identity
// layouts.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CUDARuntime.h"
#include "RLX/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUCALLCUBLASLTPASS
#include "RLX/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

constexpr StringLiteral kTag = "rlx.cublaslt";
constexpr StringLiteral kRuntimeFn = "rlxCublasLtMatmul";

/// RlxCublasLtType of `element`, or -1.
int32_t typeCode(Type element) {
  if (element.isF32())
    return RLX_CUBLASLT_F32;
  if (element.isBF16())
    return RLX_CUBLASLT_BF16;
  if (element.isF16())
    return RLX_CUBLASLT_F16;
  return -1;
}

/// RlxCublasLtEpilogue of an epilogue name, or -1.
int32_t epilogueCode(StringRef name) {
  return llvm::StringSwitch<int32_t>(name)
      .Case("none", RLX_CUBLASLT_NONE)
      .Case("bias", RLX_CUBLASLT_BIAS)
      .Case("relu", RLX_CUBLASLT_RELU)
      .Case("relu_bias", RLX_CUBLASLT_RELU_BIAS)
      .Case("gelu", RLX_CUBLASLT_GELU)
      .Case("gelu_bias", RLX_CUBLASLT_GELU_BIAS)
      .Default(-1);
}

struct GPUCallCuBLASLtPass
    : rlx::impl::GPUCallCuBLASLtPassBase<GPUCallCuBLASLtPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> tagged;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn->hasAttr(kTag))
        tagged.push_back(fn);
    if (tagged.empty())
      return;
    FlatSymbolRefAttr runtimeFn = declareRuntimeFn(module);
    for (func::FuncOp fn : tagged) {
      std::optional<SymbolTable::UseRange> uses = fn.getSymbolUses(module);
      for (SymbolTable::SymbolUse use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call || failed(rewriteCall(call, fn, runtimeFn)))
          return signalPassFailure();
      }
      fn.erase();
    }
  }

  /// `call(lhs, rhs, [bias,] out)` -> rlxCublasLtMatmul(..., addresses).
  LogicalResult rewriteCall(func::CallOp call, func::FuncOp fn,
                            FlatSymbolRefAttr runtimeFn) {
    auto problem = fn->getAttrOfType<DictionaryAttr>(kTag);
    auto epilogue = problem.getAs<StringAttr>("epilogue");
    ValueRange operands = call.getOperands();
    auto out = dyn_cast<MemRefType>(operands.back().getType());
    if (!out || call.getNumResults() != 0 ||
        (operands.size() != 3 && operands.size() != 4))
      return call.emitError("rlx-gpu-call-cublaslt: expects a call on "
                            "buffers with the result as out-parameter (run "
                            "bufferization and buffer-results-to-out-params "
                            "first)");
    for (Value v : operands)
      if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
        return call.emitError("rlx-gpu-call-cublaslt: expects contiguous "
                              "buffers");
    int32_t type = typeCode(out.getElementType());
    int32_t epi = epilogue ? epilogueCode(epilogue.getValue()) : -1;
    if (type < 0 || epi < 0)
      return call.emitError("rlx-gpu-call-cublaslt: no cuBLASLt matmul for ")
             << out.getElementType() << " and epilogue " << epilogue;

    OpBuilder b(call);
    Location loc = call.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    auto address = [&](Value buffer) -> Value {
      Value index =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
      Value i64 =
          arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
      return LLVM::IntToPtrOp::create(b, loc, ptrType, i64);
    };
    auto i32 = [&](int32_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    auto i64 = [&](StringRef name) -> Value {
      return arith::ConstantIntOp::create(
          b, loc, problem.getAs<IntegerAttr>(name).getInt(), 64);
    };
    auto flag = [&](StringRef name) {
      return i32(problem.getAs<BoolAttr>(name).getValue());
    };
    Value lhs = address(operands[0]), rhs = address(operands[1]);
    Value bias = operands.size() == 4
                     ? address(operands[2])
                     : LLVM::ZeroOp::create(b, loc, ptrType).getResult();
    Value temporary = operands.back();
    Value target = elideResultCopy(call);
    Value result = address(target);
    SmallVector<Value> args = {i32(type),         i32(epi),
                               flag("transpose_a"), flag("transpose_b"),
                               i64("batch"),      i64("m"),
                               i64("n"),          i64("k"),
                               lhs,               rhs,
                               bias,              result};
    func::CallOp::create(b, loc, runtimeFn, TypeRange{}, args);
    call.erase();
    // An elided temporary had no other user than the call.
    if (target != temporary)
      temporary.getDefiningOp()->erase();
    return success();
  }

  /// Where the call's result should be written. Buffer-results-to-out-
  /// params gives a call's result a temporary that is then copied to the
  /// caller's out-parameter; where the copy follows the call and the
  /// temporary has no other use, the call writes to the copy's target
  /// instead (one pass over the result less); the copy and deallocations
  /// of the temporary go here, the temporary with the call.
  Value elideResultCopy(func::CallOp call) {
    Value out = call.getOperands().back();
    auto alloc = out.getDefiningOp<memref::AllocOp>();
    auto copy = dyn_cast_or_null<memref::CopyOp>(call->getNextNode());
    if (!alloc || !copy || copy.getSource() != out ||
        copy.getTarget().getType() != out.getType() ||
        llvm::is_contained(call.getOperands(), copy.getTarget()))
      return out;
    SmallVector<Operation *> deallocs;
    for (Operation *user : alloc->getUsers()) {
      if (isa<memref::DeallocOp>(user))
        deallocs.push_back(user);
      else if (user != call && user != copy)
        return out;
    }
    Value target = copy.getTarget();
    copy.erase();
    for (Operation *dealloc : deallocs)
      dealloc->erase();
    return target;
  }

  /// Declares rlxCublasLtMatmul once per module.
  FlatSymbolRefAttr declareRuntimeFn(ModuleOp module) {
    MLIRContext *ctx = module.getContext();
    if (!module.lookupSymbol(kRuntimeFn)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      Type i32 = b.getI32Type(), i64 = b.getI64Type(),
           ptr = LLVM::LLVMPointerType::get(ctx);
      auto type = FunctionType::get(
          ctx, {i32, i32, i32, i32, i64, i64, i64, i64, ptr, ptr, ptr, ptr},
          {});
      func::FuncOp::create(b, module.getLoc(), kRuntimeFn, type)
          .setPrivate();
    }
    return FlatSymbolRefAttr::get(ctx, kRuntimeFn);
  }
};

} // namespace
