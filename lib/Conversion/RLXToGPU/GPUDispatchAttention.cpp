//===- GPUDispatchAttention.cpp - attention to the flash kernel ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' kernel-dispatch policy for attention on the GPU: each
// rlx.attention that the GPU runtime's flash-attention kernel computes
// (FlashAttentionKernel.h) is outlined into a private function tagged
// `rlx.flash_attention` (RuntimeKernels.h); after bufferization,
// rlx-gpu-call-runtime-kernels calls rlxFlashAttention instead. The
// kernel reads rows through strides, so the transposes between
// [batch, seq, heads, dim] tensors and the attention's operands and result
// move into the function too (`seq_major`): the heads of a qkv projection
// are read where they are. The others stay for rlx-decompose-attention or
// the generated lowering.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUDISPATCHATTENTIONPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// The most batches and heads rlxFlashAttention takes, whatever the target
/// (its contract in GPURuntime.h: the kernel's grid y and z walk them).
constexpr int64_t kFlashAttentionMaxBatchHeads = 65535;

/// An attention as the flash kernel computes it.
struct FlashProblem {
  int64_t batch, heads, kvHeads, seqQ, seqK, headDim, window = 0;
  double scale;
};

/// `op` as the kernel's problem, or the reason it is not one.
FailureOr<FlashProblem> match(AttentionOp op, std::string &reason) {
  llvm::raw_string_ostream os(reason);
  auto qt = cast<RankedTensorType>(op.getQuery().getType());
  auto kt = cast<RankedTensorType>(op.getKey().getType());
  auto vt = cast<RankedTensorType>(op.getValue().getType());
  Type element = qt.getElementType();
  if (!element.isBF16() && !element.isF16()) {
    os << "element type " << element << "; the kernel takes bf16 and f16";
    return failure();
  }
  if (op.getAttnMask() ||
      (op.getMask() != MaskKind::None && op.getMask() != MaskKind::Causal &&
       op.getMask() != MaskKind::SlidingWindow)) {
    os << "mask " << stringifyMaskKind(op.getMask())
       << "; the kernel takes none, causal and sliding_window";
    return failure();
  }
  if (!qt.hasStaticShape() || !kt.hasStaticShape() || !vt.hasStaticShape()) {
    reason = "dynamic shape";
    return failure();
  }
  FlashProblem p;
  p.batch = qt.getDimSize(0);
  p.heads = qt.getDimSize(1);
  p.seqQ = qt.getDimSize(2);
  p.headDim = qt.getDimSize(3);
  p.kvHeads = kt.getDimSize(1);
  p.seqK = kt.getDimSize(2);
  if (vt.getDimSize(3) != p.headDim || (p.headDim != 64 && p.headDim != 128)) {
    os << "head dim " << p.headDim << " (values " << vt.getDimSize(3)
       << "); the kernel takes 64 and 128 for both";
    return failure();
  }
  if (p.kvHeads == 0 || p.heads % p.kvHeads) {
    os << p.heads << " heads over " << p.kvHeads << " key/value heads";
    return failure();
  }
  if (p.batch * p.heads * p.seqQ * p.seqK == 0) {
    reason = "an empty attention";
    return failure();
  }
  if (p.batch > kFlashAttentionMaxBatchHeads ||
      p.heads > kFlashAttentionMaxBatchHeads || p.seqQ > INT32_MAX ||
      p.seqK > INT32_MAX) {
    reason = "sizes beyond the kernel's grid or int32";
    return failure();
  }
  if (op.getMask() == MaskKind::SlidingWindow) {
    p.window = *op.getWindow();
    if (p.window > INT32_MAX) {
      reason = "a window beyond int32";
      return failure();
    }
  }
  p.scale = op.getScale() ? op.getScale()->convertToDouble()
                          : 1.0 / std::sqrt(double(p.headDim));
  if (!(p.scale > 0)) {
    os << "scale " << p.scale << "; the kernel takes a positive one";
    return failure();
  }
  return p;
}

/// Whether `t` is an rlx.transpose swapping dims 1 and 2 of a 4-d tensor.
bool swapsSeqAndHeads(TransposeOp t) {
  return t && t.getPermutation() == ArrayRef<int64_t>{0, 2, 1, 3};
}

/// The transposes between [batch, seq, heads, head dim] tensors and the
/// attention's [batch, heads, seq, head dim] operands and result, which
/// the kernel takes in by reading and writing rows through strides.
struct Layout {
  /// q, k, v's transposes (null where an operand is not one).
  TransposeOp inputs[3] = {};
  /// The result's only user, if it is one.
  TransposeOp output = {};

  SmallVector<bool> flags() const {
    return {bool(inputs[0]), bool(inputs[1]), bool(inputs[2]), bool(output)};
  }
  bool any() const { return llvm::is_contained(flags(), true); }
  std::string describe() const {
    static const char *names[] = {"q", "k", "v", "o"};
    std::string s;
    SmallVector<bool> f = flags();
    for (int i = 0; i < 4; ++i)
      if (f[i])
        s += std::string(s.empty() ? "" : " ") + names[i];
    return s;
  }
};

Layout seqMajorLayout(AttentionOp op) {
  Layout layout;
  Value operands[] = {op.getQuery(), op.getKey(), op.getValue()};
  for (int i = 0; i < 3; ++i)
    if (auto t = operands[i].getDefiningOp<TransposeOp>(); swapsSeqAndHeads(t))
      layout.inputs[i] = t;
  if (op.getResult().hasOneUse())
    if (auto t = dyn_cast<TransposeOp>(*op.getResult().getUsers().begin());
        swapsSeqAndHeads(t))
      layout.output = t;
  return layout;
}

struct GPUDispatchAttentionPass
    : rlx::impl::GPUDispatchAttentionPassBase<GPUDispatchAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<AttentionOp> ops;
    module.walk([&](AttentionOp op) {
      if (op->getParentOfType<func::FuncOp>() && !isInRuntimeKernelFunction(op))
        ops.push_back(op);
    });
    SymbolTable symbols(module);
    for (AttentionOp op : ops) {
      std::string reason;
      FailureOr<FlashProblem> p = failure();
      if (runtimeKernel)
        p = match(op, reason);
      else
        reason = "the target's runtime has no flash-attention kernel";
      if (failed(p)) {
        if (report)
          op.emitRemark() << "attention: no flash kernel (" << reason << ")";
        continue;
      }
      Layout layout = seqMajorLayout(op);
      if (report) {
        InFlightDiagnostic remark = op.emitRemark();
        remark << "attention: flash kernel "
               << op.getQuery().getType().getElementType() << " "
               << stringifyMaskKind(op.getMask()) << " " << p->batch << "x"
               << p->heads << "x" << p->kvHeads << "x" << p->seqQ << "x"
               << p->seqK << "x" << p->headDim
               << " (batch x heads x kv heads x seq q x seq k x head dim)";
        if (layout.any())
          remark << ", " << layout.describe()
                 << " as batch x seq x heads x head dim in place";
      }
      outline(op, *p, layout, symbols);
    }
  }

  /// Moves `op`, with the transposes `layout` takes in, into a private
  /// function tagged with the problem, called in their place.
  void outline(AttentionOp op, const FlashProblem &p, Layout layout,
               SymbolTable &symbols) {
    OpBuilder b(op);
    NamedAttribute problem[] = {
        b.getNamedAttr("mask",
                       b.getStringAttr(stringifyMaskKind(op.getMask()))),
        b.getNamedAttr("window", b.getI64IntegerAttr(p.window)),
        b.getNamedAttr("scale", b.getF32FloatAttr(p.scale)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(p.batch)),
        b.getNamedAttr("heads", b.getI64IntegerAttr(p.heads)),
        b.getNamedAttr("kv_heads", b.getI64IntegerAttr(p.kvHeads)),
        b.getNamedAttr("seq_q", b.getI64IntegerAttr(p.seqQ)),
        b.getNamedAttr("seq_k", b.getI64IntegerAttr(p.seqK)),
        b.getNamedAttr("head_dim", b.getI64IntegerAttr(p.headDim)),
        b.getNamedAttr("seq_major", b.getDenseBoolArrayAttr(layout.flags()))};
    // Input transposes first (each once: q, k and v may share one), then
    // the attention, then the transpose of its result.
    llvm::SetVector<Operation *> group;
    for (TransposeOp t : layout.inputs)
      if (t)
        group.insert(t);
    group.insert(op);
    Value result = op.getResult();
    if (layout.output) {
      group.insert(layout.output);
      result = layout.output.getResult();
    }
    // The call's operands are q, k and v (or what they transpose).
    SmallVector<Value> args(op->getOperands());
    for (int i = 0; i < 3; ++i)
      if (layout.inputs[i])
        args[i] = layout.inputs[i].getInput();
    IRMapping clones;
    func::CallOp call = outlineForRuntimeKernel(
        group.getArrayRef(), args, result, "rlx_flash_attention",
        kFlashAttentionTag, b.getDictionaryAttr(problem), symbols, clones);
    result.replaceAllUsesWith(call.getResult(0));
    if (layout.output)
      layout.output.erase();
    op.erase();
    for (Operation *t : group)
      if (t != op && t != layout.output && t->use_empty())
        t->erase();
  }
};

} // namespace
