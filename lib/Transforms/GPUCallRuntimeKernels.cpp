//===- GPUCallRuntimeKernels.cpp - outlined ops as CUDA runtime calls -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The second half of the GPU kernel dispatch (rlx-gpu-dispatch-matmul and
// rlx-gpu-dispatch-attention outline; GPUDispatch.h): after bufferization
// each call of a function tagged `rlx.cublaslt` becomes a call of the
// runtime's rlxCublasLtMatmul, each call of one tagged `rlx.flash_attention`
// a call of rlxFlashAttention (CUDARuntime.h), on the buffers' addresses,
// and the tagged functions go. The buffers are contiguous: function
// boundaries bufferize to identity layouts.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/GPUDispatch.h"
#include "RLX/Runtime/CUDARuntime.h"
#include "RLX/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUCALLRUNTIMEKERNELSPASS
#include "RLX/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using rlx::kCuBLASLtTag;
using rlx::kFlashAttentionTag;

namespace {

/// RlxCublasLtType of `element`, or -1.
int32_t cublasLtType(Type element) {
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

/// RlxFlashAttentionType of `element`, or -1.
int32_t flashType(Type element) {
  if (element.isBF16())
    return RLX_FLASH_ATTENTION_BF16;
  if (element.isF16())
    return RLX_FLASH_ATTENTION_F16;
  return -1;
}

/// RlxFlashAttentionMask of a mask name, or -1.
int32_t maskCode(StringRef name) {
  return llvm::StringSwitch<int32_t>(name)
      .Case("none", RLX_FLASH_ATTENTION_NONE)
      .Case("causal", RLX_FLASH_ATTENTION_CAUSAL)
      .Case("sliding_window", RLX_FLASH_ATTENTION_SLIDING_WINDOW)
      .Default(-1);
}

/// Builds a runtime call's arguments before a call of a tagged function.
struct ArgBuilder {
  OpBuilder b;
  Location loc;
  DictionaryAttr problem;

  /// The buffer's address as an !llvm.ptr.
  Value address(Value buffer) {
    Value index =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), i64);
  }
  Value i32(int32_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  /// The problem's integer `name` as an i64.
  Value i64(StringRef name) {
    return arith::ConstantIntOp::create(
        b, loc, problem.getAs<IntegerAttr>(name).getInt(), 64);
  }
  /// The problem's boolean `name` as an i32.
  Value flag(StringRef name) {
    return i32(problem.getAs<BoolAttr>(name).getValue());
  }
};

struct GPUCallRuntimeKernelsPass
    : rlx::impl::GPUCallRuntimeKernelsPassBase<GPUCallRuntimeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> tagged;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn->hasAttr(kCuBLASLtTag) || fn->hasAttr(kFlashAttentionTag))
        tagged.push_back(fn);
    for (func::FuncOp fn : tagged) {
      std::optional<SymbolTable::UseRange> uses = fn.getSymbolUses(module);
      for (SymbolTable::SymbolUse use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call || failed(checkOperands(call)) ||
            failed(fn->hasAttr(kCuBLASLtTag) ? callCublasLt(call, fn)
                                             : callFlashAttention(call, fn)))
          return signalPassFailure();
      }
      fn.erase();
    }
  }

  /// The call is on contiguous buffers, with the result as out-parameter.
  LogicalResult checkOperands(func::CallOp call) {
    if (call.getNumResults() != 0 || call.getNumOperands() == 0 ||
        !llvm::all_of(call.getOperandTypes(), llvm::IsaPred<MemRefType>))
      return call.emitError("rlx-gpu-call-runtime-kernels: expects a call on "
                            "buffers with the result as out-parameter (run "
                            "bufferization and buffer-results-to-out-params "
                            "first)");
    for (Value v : call.getOperands())
      if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
        return call.emitError("rlx-gpu-call-runtime-kernels: expects "
                              "contiguous buffers");
    return success();
  }

  /// `call(lhs, rhs, [bias,] out)` -> rlxCublasLtMatmul(..., addresses).
  LogicalResult callCublasLt(func::CallOp call, func::FuncOp fn) {
    auto problem = fn->getAttrOfType<DictionaryAttr>(kCuBLASLtTag);
    auto epilogue = problem.getAs<StringAttr>("epilogue");
    ValueRange operands = call.getOperands();
    if (operands.size() != 3 && operands.size() != 4)
      return call.emitError("rlx-gpu-call-runtime-kernels: a cuBLASLt matmul "
                            "takes lhs, rhs, an optional bias and its result");
    Type element = cast<MemRefType>(operands.back().getType()).getElementType();
    int32_t type = cublasLtType(element);
    int32_t epi = epilogue ? epilogueCode(epilogue.getValue()) : -1;
    if (type < 0 || epi < 0)
      return call.emitError("rlx-gpu-call-runtime-kernels: no cuBLASLt "
                            "matmul for ")
             << element << " and epilogue " << epilogue;

    ArgBuilder a{OpBuilder(call), call.getLoc(), problem};
    Value lhs = a.address(operands[0]), rhs = a.address(operands[1]);
    Value bias =
        operands.size() == 4
            ? a.address(operands[2])
            : LLVM::ZeroOp::create(a.b, a.loc,
                                   LLVM::LLVMPointerType::get(&getContext()))
                  .getResult();
    Value result = a.address(elideResultCopy(call));
    SmallVector<Value> args = {a.i32(type),
                               a.i32(epi),
                               a.flag("transpose_a"),
                               a.flag("transpose_b"),
                               a.i64("batch"),
                               a.i64("m"),
                               a.i64("n"),
                               a.i64("k"),
                               lhs,
                               rhs,
                               bias,
                               result};
    replaceCall(call, "rlxCublasLtMatmul", args);
    return success();
  }

  /// `call(q, k, v, out)` -> rlxFlashAttention(..., addresses).
  LogicalResult callFlashAttention(func::CallOp call, func::FuncOp fn) {
    auto problem = fn->getAttrOfType<DictionaryAttr>(kFlashAttentionTag);
    auto mask = problem.getAs<StringAttr>("mask");
    auto scale = problem.getAs<FloatAttr>("scale");
    ValueRange operands = call.getOperands();
    if (operands.size() != 4 || !scale)
      return call.emitError("rlx-gpu-call-runtime-kernels: a flash attention "
                            "takes q, k, v and its result, and a scale");
    Type element = cast<MemRefType>(operands.back().getType()).getElementType();
    int32_t type = flashType(element);
    int32_t maskKind = mask ? maskCode(mask.getValue()) : -1;
    if (type < 0 || maskKind < 0)
      return call.emitError("rlx-gpu-call-runtime-kernels: no flash attention "
                            "for ")
             << element << " and mask " << mask;

    ArgBuilder a{OpBuilder(call), call.getLoc(), problem};
    Value q = a.address(operands[0]), k = a.address(operands[1]),
          v = a.address(operands[2]);
    Value o = a.address(elideResultCopy(call));
    Value scaleValue = arith::ConstantOp::create(
        a.b, a.loc, a.b.getF32FloatAttr(scale.getValueAsDouble()));
    SmallVector<Value> args = {a.i32(type),
                               a.i32(maskKind),
                               a.i64("batch"),
                               a.i64("heads"),
                               a.i64("kv_heads"),
                               a.i64("seq_q"),
                               a.i64("seq_k"),
                               a.i64("head_dim"),
                               a.i64("window"),
                               scaleValue,
                               q,
                               k,
                               v,
                               o};
    replaceCall(call, "rlxFlashAttention", args);
    return success();
  }

  /// Replaces `call` by a call of the runtime function `name` (declared
  /// once per module with `args`' types), and its elided temporary.
  void replaceCall(func::CallOp call, StringRef name, ValueRange args) {
    auto module = call->getParentOfType<ModuleOp>();
    if (!module.lookupSymbol(name)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      func::FuncOp::create(b, module.getLoc(), name,
                           b.getFunctionType(args.getTypes(), {}))
          .setPrivate();
    }
    OpBuilder b(call);
    func::CallOp::create(b, call.getLoc(), name, TypeRange{}, args);
    Value temporary = call.getOperands().back();
    call.erase();
    // An elided temporary (elideResultCopy) has no user left.
    if (Operation *alloc = temporary.getDefiningOp();
        alloc && alloc->use_empty())
      alloc->erase();
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
};

} // namespace
