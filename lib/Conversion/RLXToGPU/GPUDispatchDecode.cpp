//===- GPUDispatchDecode.cpp - KV caches and decode attention out ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.kv_cache_write and rlx.decode_attention read a position or a length
// at run time. On a GPU that tensor lives in device memory, where the CPU's
// lowering (a tensor.extract feeding a slice's offset or a loop's bound)
// would read it on the host. So each op moves into a function of its own
// (RuntimeKernels.h) whose call, after bufferization, becomes a kernel that
// reads the value where it is: a generated copy kernel for the cache write
// (rlx-gpu-expand-kv-cache-write), the runtime's split decode-attention
// kernel for the attention (rlx-gpu-call-runtime-kernels).
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUDISPATCHDECODEPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// The largest head dim rlxDecodeAttention takes (GPURuntime.h).
constexpr int64_t kDecodeMaxHeadDim = 256;

/// The kernel's problem of `op`, or failure with the reason in `reason`.
FailureOr<DictionaryAttr> decodeProblem(DecodeAttentionOp op,
                                        std::string &reason) {
  auto qt = cast<RankedTensorType>(op.getQuery().getType());
  auto kt = cast<RankedTensorType>(op.getKeyCache().getType());
  auto vt = cast<RankedTensorType>(op.getValueCache().getType());
  reason.clear();
  llvm::raw_string_ostream os(reason);
  if (!qt.hasStaticShape() || !kt.hasStaticShape() || !vt.hasStaticShape()) {
    os << "dynamic shapes";
    return failure();
  }
  Type element = qt.getElementType();
  if (!element.isF32() && !element.isF16() && !element.isBF16()) {
    os << "element type '" << element << "'; the kernel takes f32, f16, bf16";
    return failure();
  }
  int64_t headDim = qt.getDimSize(3), valueDim = vt.getDimSize(3);
  if (headDim > kDecodeMaxHeadDim || valueDim > kDecodeMaxHeadDim) {
    os << "head dims " << headDim << " and " << valueDim
       << "; the kernel takes up to " << kDecodeMaxHeadDim;
    return failure();
  }
  double scale = op.getScale() ? op.getScale()->convertToDouble()
                               : 1.0 / std::sqrt(double(headDim));
  Builder b(op.getContext());
  NamedAttribute entries[] = {
      b.getNamedAttr("batch", b.getI64IntegerAttr(qt.getDimSize(0))),
      b.getNamedAttr("heads", b.getI64IntegerAttr(qt.getDimSize(1))),
      b.getNamedAttr("kv_heads", b.getI64IntegerAttr(op.getNumKvHeads())),
      b.getNamedAttr("seq_q", b.getI64IntegerAttr(qt.getDimSize(2))),
      b.getNamedAttr("max_seq", b.getI64IntegerAttr(kt.getDimSize(1))),
      b.getNamedAttr("head_dim", b.getI64IntegerAttr(headDim)),
      b.getNamedAttr("value_dim", b.getI64IntegerAttr(valueDim)),
      b.getNamedAttr("window", b.getI64IntegerAttr(op.getWindow())),
      b.getNamedAttr("scale", b.getF32FloatAttr(scale))};
  return b.getDictionaryAttr(entries);
}

struct GPUDispatchDecodePass
    : rlx::impl::GPUDispatchDecodePassBase<GPUDispatchDecodePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<KVCacheWriteOp, DecodeAttentionOp>(op) &&
          !isInRuntimeKernelFunction(op))
        ops.push_back(op);
    });
    SymbolTable symbols(module);
    for (Operation *op : ops) {
      OpBuilder b(op);
      IRMapping map;
      func::CallOp call;
      if (auto write = dyn_cast<KVCacheWriteOp>(op)) {
        // The cache argument stays writable (the default): the body's
        // insert_slice writes it in place, so the function's result is
        // its argument and the caller's cache is written where that is
        // correct (one-shot bufferization copies it otherwise).
        int64_t axis = write.getType().getRank() - 3;
        DictionaryAttr problem = b.getDictionaryAttr(
            b.getNamedAttr("axis", b.getI64IntegerAttr(axis)));
        call = outlineForRuntimeKernel({op}, op->getOperands(),
                                       op->getResults(), "kv_cache_write",
                                       kKVCacheWriteTag, problem, symbols, map);
      } else {
        auto attention = cast<DecodeAttentionOp>(op);
        std::string reason = "the target's runtime has no decode-attention "
                             "kernel";
        FailureOr<DictionaryAttr> problem = failure();
        if (runtimeKernel)
          problem = decodeProblem(attention, reason);
        if (failed(problem)) {
          op->emitOpError("has no GPU lowering here: ") << reason;
          return signalPassFailure();
        }
        call = outlineForRuntimeKernel(
            {op}, op->getOperands(), op->getResults(), "rlx_decode_attention",
            kDecodeAttentionTag, *problem, symbols, map);
      }
      op->replaceAllUsesWith(call.getResults());
      op->erase();
    }
  }
};

} // namespace
