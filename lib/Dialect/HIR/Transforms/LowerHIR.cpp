//===- LowerHIR.cpp - rlx_hir blocks to rlx primitives --------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Blocks that have a fused rlx counterpart are built as that fused op and
// unfused with --rlx-unfuse's patterns: the meaning of an attention block
// or a BERT layer is written once, in Unfuse.cpp. The other blocks are
// short chains built here. Every op is built with its result type given,
// then verified, so a block whose operands do not fit fails with the MIR
// op's diagnostic at the block's location instead of a crash in type
// inference.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/HIR/IR/RLXHIROps.h"
#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_LOWERHIRPASS
#include "RLX/Dialect/HIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// Builds the MIR of one block and remembers the fused ops to unfuse.
class BlockLowering {
public:
  BlockLowering(OpBuilder &b, SmallVectorImpl<Operation *> &fused)
      : b(b), fused(fused) {}

  /// `type` with its last dim replaced by dim 1 of the 2-D `weight`.
  static RankedTensorType lastDimOf(Value x, Value weight) {
    auto t = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.back() = cast<RankedTensorType>(weight.getType()).getDimSize(1);
    return t.clone(shape);
  }

  /// Verifies a built op; fused ones are queued for unfusing.
  template <typename OpTy>
  FailureOr<Value> check(OpTy op, bool isFused = false) {
    if (failed(verify(op)))
      return failure();
    if (isFused)
      fused.push_back(op);
    return op->getResult(0);
  }

  FailureOr<Value> lower(hir::LinearOp op) {
    return check(FusedMatmulBiasActOp::create(
                     b, op.getLoc(), op.getType(), op.getInput(),
                     op.getWeight(), op.getBias(), op.getActivationAttr()),
                 /*isFused=*/true);
  }

  FailureOr<Value> lower(hir::MlpOp op) {
    FailureOr<Value> h =
        check(FusedMatmulBiasActOp::create(b, op.getLoc(),
                                           lastDimOf(op.getInput(), op.getW1()),
                                           op.getInput(), op.getW1(),
                                           op.getB1(), op.getActivationAttr()),
              true);
    if (failed(h))
      return failure();
    return check(FusedMatmulBiasActOp::create(b, op.getLoc(), op.getType(), *h,
                                              op.getW2(), op.getB2(),
                                              b.getStringAttr("none")),
                 true);
  }

  FailureOr<Value> swiglu(Location loc, Value x, Value wGate, Value wUp,
                          Value wDown, Type resultType) {
    FailureOr<Value> g =
        check(FusedSwigluOp::create(b, loc, lastDimOf(x, wGate), x, wGate, wUp),
              true);
    if (failed(g))
      return failure();
    return check(MatmulOp::create(b, loc, resultType, *g, wDown,
                                  /*transpose_a=*/nullptr,
                                  /*transpose_b=*/nullptr));
  }

  FailureOr<Value> lower(hir::SwigluOp op) {
    return swiglu(op.getLoc(), op.getInput(), op.getWGate(), op.getWUp(),
                  op.getWDown(), op.getType());
  }

  FailureOr<Value> lower(hir::EmbeddingOp op) {
    return check(GatherOp::create(b, op.getLoc(), op.getType(), op.getTable(),
                                  op.getIds(), b.getI64IntegerAttr(0)));
  }

  FailureOr<Value> lower(hir::LayerNormOp op) {
    return check(LayerNormOp::create(b, op.getLoc(), op.getType(),
                                     op.getInput(), op.getGamma(), op.getBeta(),
                                     op.getEpsilonAttr()));
  }

  FailureOr<Value> lower(hir::RmsNormOp op) {
    return check(RmsNormOp::create(b, op.getLoc(), op.getType(), op.getInput(),
                                   op.getGamma(), op.getEpsilonAttr()));
  }

  FailureOr<Value> lower(hir::AttentionBlockOp op) {
    return check(FusedAttentionBlockOp::create(
                     b, op.getLoc(), op.getType(), op.getInput(), op.getWQkv(),
                     op.getWOut(), op.getQkvBias(), op.getOutBias(),
                     op.getCos(), op.getSin(), op.getAttnMask(),
                     op.getNumHeadsAttr(), op.getNumKvHeadsAttr(),
                     op.getMaskAttr(), op.getWindowAttr(), op.getScaleAttr(),
                     op.getRopeStyleAttr()),
                 true);
  }

  FailureOr<Value> lower(hir::TransformerLayerOp op) {
    Location loc = op.getLoc();
    ValueRange w = op.getWeights();
    Type type = op.getType();
    if (op.getStyle() == "bert") {
      FloatAttr epsilon =
          op.getEpsilonAttr() ? op.getEpsilonAttr() : b.getF32FloatAttr(1e-12);
      return check(FusedTransformerLayerOp::create(
                       b, loc, type, op.getInput(), w[0], w[1], w[2], w[3],
                       w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11],
                       /*attn_mask=*/Value(), op.getNumHeadsAttr(),
                       op.getMaskAttr(), epsilon, op.getActivationAttr()),
                   true);
    }
    // llama: attn_norm, w_qkv, w_out, cos, sin, ffn_norm, w_gate, w_up,
    // w_down.
    FloatAttr epsilon =
        op.getEpsilonAttr() ? op.getEpsilonAttr() : b.getF32FloatAttr(1e-6);
    FailureOr<Value> n1 =
        check(RmsNormOp::create(b, loc, type, op.getInput(), w[0], epsilon));
    if (failed(n1))
      return failure();
    FailureOr<Value> a = check(
        FusedAttentionBlockOp::create(
            b, loc, type, *n1, w[1], w[2], /*qkv_bias=*/Value(),
            /*out_bias=*/Value(), w[3], w[4], /*attn_mask=*/Value(),
            op.getNumHeadsAttr(), op.getNumKvHeadsAttr(), op.getMaskAttr(),
            /*window=*/nullptr, /*scale=*/nullptr, op.getRopeStyleAttr()),
        true);
    if (failed(a))
      return failure();
    FailureOr<Value> h = check(AddOp::create(b, loc, type, op.getInput(), *a));
    if (failed(h))
      return failure();
    FailureOr<Value> n2 =
        check(RmsNormOp::create(b, loc, type, *h, w[5], epsilon));
    if (failed(n2))
      return failure();
    FailureOr<Value> f = swiglu(loc, *n2, w[6], w[7], w[8], type);
    if (failed(f))
      return failure();
    return check(AddOp::create(b, loc, type, *h, *f));
  }

  FailureOr<Value> lower(hir::ConvBlockOp op) {
    Location loc = op.getLoc();
    Type type = op.getType();
    FailureOr<Value> conv = check(ConvOp::create(
        b, loc, type, op.getInput(), op.getWeight(), op.getBias(),
        op.getStridesAttr(), op.getPaddingAttr(), op.getDilationsAttr(),
        /*groups=*/nullptr));
    if (failed(conv))
      return failure();
    FailureOr<Value> norm = check(
        GroupNormOp::create(b, loc, type, *conv, op.getGamma(), op.getBeta(),
                            op.getNumGroupsAttr(), op.getEpsilonAttr()));
    if (failed(norm))
      return failure();
    return buildActivation(b, loc, *norm, op.getActivation());
  }

private:
  OpBuilder &b;
  SmallVectorImpl<Operation *> &fused;
};

struct LowerHIRPass : rlx::impl::LowerHIRPassBase<LowerHIRPass> {
  void runOnOperation() override {
    SmallVector<Operation *> blocks;
    getOperation()->walk([&](Operation *op) {
      if (isa<hir::RLXHIRDialect>(op->getDialect()))
        blocks.push_back(op);
    });
    SmallVector<Operation *> fused;
    OpBuilder b(&getContext());
    for (Operation *op : blocks) {
      b.setInsertionPoint(op);
      BlockLowering lowering(b, fused);
      FailureOr<Value> result =
          TypeSwitch<Operation *, FailureOr<Value>>(op)
              .Case<hir::LinearOp, hir::MlpOp, hir::SwigluOp, hir::EmbeddingOp,
                    hir::LayerNormOp, hir::RmsNormOp, hir::AttentionBlockOp,
                    hir::TransformerLayerOp, hir::ConvBlockOp>(
                  [&](auto block) { return lowering.lower(block); })
              .Default([](Operation *) { return failure(); });
      if (failed(result)) {
        op->emitError("cannot lower this block to rlx (see above)");
        return signalPassFailure();
      }
      op->getResult(0).replaceAllUsesWith(*result);
      op->erase();
    }
    // Only the fused ops built here are unfused (and those their unfusing
    // builds); fused ops the input already had stay for --rlx-fuse's
    // target to decide.
    RewritePatternSet patterns(&getContext());
    populateUnfusePatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(fused, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
