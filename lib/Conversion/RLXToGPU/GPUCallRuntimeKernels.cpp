//===- GPUCallRuntimeKernels.cpp - outlined ops as GPU runtime calls ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The second half of the GPU kernel dispatch (rlx-gpu-dispatch-matmul and
// rlx-gpu-dispatch-attention outline; RuntimeKernels.h): after bufferization
// each call of a function tagged `rlx.library_matmul` becomes a call of the
// runtime's rlxGpuMatmul (or rlxGpuMatmulFp8), each call of one tagged
// `rlx.flash_attention` a call of rlxFlashAttention and each call of one
// tagged `rlx.decode_attention` a call of rlxDecodeAttention (GPURuntime.h),
// on the buffers' addresses, and the tagged functions go. Function boundaries
// bufferize to identity layouts: a strided view passed to one is first copied
// into a contiguous buffer. The flash kernel reads rows through strides, so a
// view copied only for its call is passed as it is (q, k and v of a [batch,
// seq, heads, head dim] tensor sliced out of one qkv projection, say); the
// library matmul's operands stay contiguous.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/BufferAddress.h"
#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Runtime/Common/GPURuntime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUCALLRUNTIMEKERNELSPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using rlx::kLibraryMatmulTag;
using rlx::kDecodeAttentionTag;
using rlx::kFlashAttentionTag;
using rlx::elideResultCopy;

namespace {

/// RlxGpuMatmulType of a result's `element` type (i32: int8 operands), or
/// -1.
int32_t libraryMatmulType(Type element) {
  if (element.isF32())
    return RLX_GPU_MATMUL_F32;
  if (element.isBF16())
    return RLX_GPU_MATMUL_BF16;
  if (element.isF16())
    return RLX_GPU_MATMUL_F16;
  if (element.isInteger(32))
    return RLX_GPU_MATMUL_S8;
  return -1;
}

/// RlxGpuFp8Weight and RlxGpuFp8Scaling of their names, or -1.
int32_t fp8WeightCode(StringRef name) {
  return llvm::StringSwitch<int32_t>(name)
      .Case("e4m3", RLX_GPU_FP8_E4M3)
      .Case("e5m2", RLX_GPU_FP8_E5M2)
      .Default(-1);
}
int32_t fp8ScalingCode(StringRef name) {
  return llvm::StringSwitch<int32_t>(name)
      .Case("tensor", RLX_GPU_FP8_PER_TENSOR)
      .Case("channel", RLX_GPU_FP8_PER_CHANNEL)
      .Default(-1);
}

/// RlxGpuMatmulEpilogue of an epilogue name, or -1.
int32_t epilogueCode(StringRef name) {
  return llvm::StringSwitch<int32_t>(name)
      .Case("none", RLX_GPU_MATMUL_NONE)
      .Case("bias", RLX_GPU_MATMUL_BIAS)
      .Case("relu", RLX_GPU_MATMUL_RELU)
      .Case("relu_bias", RLX_GPU_MATMUL_RELU_BIAS)
      .Case("gelu", RLX_GPU_MATMUL_GELU)
      .Case("gelu_bias", RLX_GPU_MATMUL_GELU_BIAS)
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

/// RlxDecodeAttentionType of `element`, or -1.
int32_t decodeType(Type element) {
  if (element.isF32())
    return RLX_DECODE_ATTENTION_F32;
  if (element.isF16())
    return RLX_DECODE_ATTENTION_F16;
  if (element.isBF16())
    return RLX_DECODE_ATTENTION_BF16;
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

/// Declares the runtime function `name` of `type` in `module` once.
void declareRuntimeFunction(ModuleOp module, StringRef name,
                            FunctionType type) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  func::FuncOp::create(b, module.getLoc(), name, type).setPrivate();
}

/// The constant global `buffer` is (a view of), or null.
memref::GetGlobalOp constantGlobal(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return nullptr;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  return global && global.getConstant() ? get : nullptr;
}

/// Builds a runtime call's arguments before a call of a tagged function.
struct ArgBuilder {
  OpBuilder b;
  Location loc;
  DictionaryAttr problem;

  /// The device address of the buffer's first element as an !llvm.ptr
  /// (its layout's static offset included). A constant global (or a view
  /// of one) lives in host memory: its device copy (rlxGpuConstant).
  Value address(Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    auto [strides, offset] = type.getStridesAndOffset();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value base;
    if (memref::GetGlobalOp global = constantGlobal(buffer)) {
      auto globalType = cast<MemRefType>(global.getType());
      int64_t bytes =
          globalType.getNumElements() * globalType.getElementTypeBitWidth() / 8;
      auto module = global->getParentOfType<ModuleOp>();
      auto fnType = b.getFunctionType({ptrType, b.getI64Type()}, {ptrType});
      declareRuntimeFunction(module, "rlxGpuConstant", fnType);
      Value host = rlx::alignedPointer(b, loc, global.getResult());
      Value copy = func::CallOp::create(b, loc, "rlxGpuConstant", ptrType,
                                        ValueRange{host, i64(bytes)})
                       .getResult(0);
      base = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), copy);
    } else {
      base = rlx::alignedPointerWord(b, loc, buffer);
    }
    if (offset != 0) {
      int64_t bytes = offset * type.getElementTypeBitWidth() / 8;
      base = arith::AddIOp::create(b, loc, base, i64(bytes));
    }
    return LLVM::IntToPtrOp::create(b, loc, ptrType, base);
  }
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  Value i32(int32_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  /// The problem's integer `name` as an i64.
  Value i64(StringRef name) {
    return i64(problem.getAs<IntegerAttr>(name).getInt());
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
      if (fn->hasAttr(kLibraryMatmulTag) || fn->hasAttr(kFlashAttentionTag) ||
          fn->hasAttr(kDecodeAttentionTag))
        tagged.push_back(fn);
    if (tagged.empty())
      return;
    // The calls of every function, in one walk (a walk per tagged function
    // was quadratic: 3.8 s of a 24-layer gradient).
    DenseMap<StringAttr, SmallVector<func::CallOp>> callsOf;
    module.walk([&](func::CallOp call) {
      callsOf[call.getCalleeAttr().getAttr()].push_back(call);
    });
    for (func::FuncOp fn : tagged) {
      for (func::CallOp call : callsOf.lookup(fn.getSymNameAttr()))
        if (failed(checkOperands(call)) || failed(callRuntimeKernel(call, fn)))
          return signalPassFailure();
      // What else named it (no call) is left to the verifier's symbol check.
      fn.erase();
    }
  }

  LogicalResult callRuntimeKernel(func::CallOp call, func::FuncOp fn) {
    if (fn->hasAttr(kLibraryMatmulTag))
      return callLibraryMatmul(call, fn);
    if (fn->hasAttr(kFlashAttentionTag))
      return callFlashAttention(call, fn);
    return callDecodeAttention(call, fn);
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

  /// Whether the flash kernel reads rows of `type` in place: static strides
  /// and offset, contiguous rows, and the offset and every other stride
  /// whole 16-byte chunks (the buffer itself is 16-byte aligned: the
  /// runtime checks).
  static bool flashReadsInPlace(MemRefType type) {
    auto [strides, offset] = type.getStridesAndOffset();
    int64_t chunk = 128 / type.getElementTypeBitWidth();
    auto whole = [&](int64_t v) {
      return !ShapedType::isDynamic(v) && v >= 0 && v % chunk == 0;
    };
    return type.getRank() == 4 && strides.back() == 1 && whole(offset) &&
           llvm::all_of(ArrayRef<int64_t>(strides).drop_back(), whole);
  }

  /// Passes the view that `call`'s operand `i` was copied from, where the
  /// copy's buffer exists only for the call and the kernel reads the view
  /// in place: bufferization copies a strided view into a contiguous
  /// buffer at the function boundary, just before the call. The copy, the
  /// buffer and its deallocations go. Nothing between the copy and the call
  /// may write memory but allocations and copies into buffers allocated
  /// after the copy (which cannot be the view's).
  static void forwardCopiedView(func::CallOp call, unsigned i) {
    auto alloc = call.getOperand(i).getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getBlock() != call->getBlock())
      return;
    memref::CopyOp copy;
    SmallVector<Operation *> deallocs;
    for (Operation *user : alloc->getUsers()) {
      if (auto c = dyn_cast<memref::CopyOp>(user);
          c && c.getTarget() == alloc && !copy)
        copy = c;
      else if (isa<memref::DeallocOp>(user))
        deallocs.push_back(user);
      else if (user != call)
        return;
    }
    if (!copy || copy->getBlock() != call->getBlock() ||
        !copy->isBeforeInBlock(call) ||
        !flashReadsInPlace(cast<MemRefType>(copy.getSource().getType())))
      return;
    for (Operation *op = copy->getNextNode(); op != call;
         op = op->getNextNode()) {
      auto into = dyn_cast<memref::CopyOp>(op);
      auto fresh = into ? into.getTarget().getDefiningOp<memref::AllocOp>()
                        : memref::AllocOp();
      if (!isMemoryEffectFree(op) && !isa<memref::AllocOp>(op) &&
          !(fresh && fresh->getBlock() == call->getBlock() &&
            copy->isBeforeInBlock(fresh)))
        return;
    }
    call->replaceUsesOfWith(alloc, copy.getSource());
    copy.erase();
    for (Operation *dealloc : deallocs)
      dealloc->erase();
    alloc.erase();
  }

  /// `call(lhs, rhs, [bias,] out)` -> rlxGpuMatmul(..., addresses), or
  /// `call(x, w, scale, out)` -> rlxGpuMatmulFp8 for a problem with an
  /// `fp8_weight`.
  LogicalResult callLibraryMatmul(func::CallOp call, func::FuncOp fn) {
    auto problem = fn->getAttrOfType<DictionaryAttr>(kLibraryMatmulTag);
    if (problem.contains("fp8_weight"))
      return callFp8Matmul(call, problem);
    auto epilogue = problem.getAs<StringAttr>("epilogue");
    ValueRange operands = call.getOperands();
    if (operands.size() != 3 && operands.size() != 4)
      return call.emitError("rlx-gpu-call-runtime-kernels: a library matmul "
                            "takes lhs, rhs, an optional bias and its result");
    Type element = cast<MemRefType>(operands.back().getType()).getElementType();
    int32_t type = libraryMatmulType(element);
    int32_t epi = epilogue ? epilogueCode(epilogue.getValue()) : -1;
    if (type < 0 || epi < 0 ||
        (type == RLX_GPU_MATMUL_S8 && epi != RLX_GPU_MATMUL_NONE))
      return call.emitError("rlx-gpu-call-runtime-kernels: no library "
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
    replaceCall(call, "rlxGpuMatmul", args);
    return success();
  }

  LogicalResult callFp8Matmul(func::CallOp call, DictionaryAttr problem) {
    auto weight = problem.getAs<StringAttr>("fp8_weight");
    auto scaling = problem.getAs<StringAttr>("fp8_scaling");
    ValueRange operands = call.getOperands();
    Type element = cast<MemRefType>(operands.back().getType()).getElementType();
    int32_t type = libraryMatmulType(element);
    int32_t weightCode = weight ? fp8WeightCode(weight.getValue()) : -1;
    int32_t scalingCode = scaling ? fp8ScalingCode(scaling.getValue()) : -1;
    if (operands.size() != 4 || type < 0 || type == RLX_GPU_MATMUL_S8 ||
        weightCode < 0 || scalingCode < 0)
      return call.emitError("rlx-gpu-call-runtime-kernels: an fp8 library "
                            "matmul takes x, w, scale and its float result, "
                            "with `fp8_weight` e4m3 or e5m2 and "
                            "`fp8_scaling` tensor or channel");
    ArgBuilder a{OpBuilder(call), call.getLoc(), problem};
    Value x = a.address(operands[0]), w = a.address(operands[1]),
          scale = a.address(operands[2]);
    Value result = a.address(elideResultCopy(call));
    SmallVector<Value> args = {a.i32(type),
                               a.i32(weightCode),
                               a.i32(scalingCode),
                               a.i64("m"),
                               a.i64("n"),
                               a.i64("k"),
                               x,
                               w,
                               scale,
                               result};
    replaceCall(call, "rlxGpuMatmulFp8", args);
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

    auto seqMajor = problem.getAs<DenseBoolArrayAttr>("seq_major");
    if (!seqMajor || seqMajor.size() != 4)
      return call.emitError("rlx-gpu-call-runtime-kernels: a flash attention "
                            "needs `seq_major` for q, k, v and its result");
    for (unsigned i = 0; i < 3; ++i)
      forwardCopiedView(call, i);
    operands = call.getOperands();

    ArgBuilder a{OpBuilder(call), call.getLoc(), problem};
    Value scaleValue = arith::ConstantOp::create(
        a.b, a.loc, a.b.getF32FloatAttr(scale.getValueAsDouble()));
    SmallVector<Value> args = {
        a.i32(type),       a.i32(maskKind), a.i64("batch"), a.i64("heads"),
        a.i64("kv_heads"), a.i64("seq_q"),  a.i64("seq_k"), a.i64("head_dim"),
        a.i64("window"),   scaleValue};
    // Each buffer's address, then its batch, head and row strides: dims
    // 0, 1, 2 of [batch, heads, seq, dim], dims 0, 2, 1 of [batch, seq,
    // heads, dim].
    for (unsigned i = 0; i < 4; ++i) {
      Value buffer = i < 3 ? operands[i] : elideResultCopy(call);
      auto type = cast<MemRefType>(buffer.getType());
      if (!flashReadsInPlace(type))
        return call.emitError("rlx-gpu-call-runtime-kernels: the flash "
                              "kernel does not read ")
               << type << " in place";
      SmallVector<int64_t> strides = type.getStridesAndOffset().first;
      bool bshd = seqMajor[i];
      args.append({a.address(buffer), a.i64(strides[0]),
                   a.i64(strides[bshd ? 2 : 1]), a.i64(strides[bshd ? 1 : 2])});
    }
    replaceCall(call, "rlxFlashAttention", args);
    return success();
  }

  /// `call(q, k cache, v cache, length, out)` -> rlxDecodeAttention(...,
  /// addresses): the length stays in device memory, where the kernel reads
  /// it.
  LogicalResult callDecodeAttention(func::CallOp call, func::FuncOp fn) {
    auto problem = fn->getAttrOfType<DictionaryAttr>(kDecodeAttentionTag);
    auto scale = problem.getAs<FloatAttr>("scale");
    ValueRange operands = call.getOperands();
    Type element = cast<MemRefType>(operands.back().getType()).getElementType();
    int32_t type = decodeType(element);
    if (operands.size() != 5 || !scale || type < 0)
      return call.emitError("rlx-gpu-call-runtime-kernels: a decode attention "
                            "takes q, the k and v caches, the length and its "
                            "f32, f16 or bf16 result, and a scale");
    ArgBuilder a{OpBuilder(call), call.getLoc(), problem};
    Value scaleValue = arith::ConstantOp::create(
        a.b, a.loc, a.b.getF32FloatAttr(scale.getValueAsDouble()));
    SmallVector<Value> args = {
        a.i32(type),         a.i64("batch"),     a.i64("heads"),
        a.i64("kv_heads"),   a.i64("seq_q"),     a.i64("max_seq"),
        a.i64("head_dim"),   a.i64("value_dim"), a.i64("window"),
        scaleValue,          a.address(operands[0]), a.address(operands[1]),
        a.address(operands[2]), a.address(operands[3]),
        a.address(elideResultCopy(call))};
    replaceCall(call, "rlxDecodeAttention", args);
    return success();
  }

  /// Replaces `call` by a call of the runtime function `name` (declared
  /// once per module with `args`' types), and its elided temporary.
  void replaceCall(func::CallOp call, StringRef name, ValueRange args) {
    OpBuilder b(call);
    declareRuntimeFunction(call->getParentOfType<ModuleOp>(), name,
                           b.getFunctionType(args.getTypes(), {}));
    func::CallOp::create(b, call.getLoc(), name, TypeRange{}, args);
    Value temporary = call.getOperands().back();
    call.erase();
    // An elided temporary (elideResultCopy) has no user left.
    if (Operation *alloc = temporary.getDefiningOp();
        alloc && alloc->use_empty())
      alloc->erase();
  }
};

} // namespace
