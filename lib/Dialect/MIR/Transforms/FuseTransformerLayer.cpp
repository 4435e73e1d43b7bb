//===- FuseTransformerLayer.cpp - BERT layers into one op -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Recognizes the post-LN layer that `--rlx-unfuse` builds for
// rlx.fused_transformer_layer, as primitives or with its parts already
// fused (rlx.fused_attention_block, rlx.fused_residual_layer_norm,
// rlx.fused_matmul_bias_act), and replaces it by the fused op. Rooted at
// the last norm; every intermediate must be read by the layer only.
//
//===----------------------------------------------------------------------===//

#include "FusionMatchers.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSETRANSFORMERLAYERPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// layer_norm(lhs + rhs) with its gamma, beta and epsilon.
struct ResidualNorm {
  Value lhs, rhs, gamma, beta;
  FloatAttr epsilon;
};

/// act(input @ weight + bias).
struct Linear {
  Value input, weight, bias;
  Activation activation;
};

} // namespace

/// Matches `v` as layer_norm(a + b), as rlx.add → rlx.layer_norm or as
/// rlx.fused_residual_layer_norm, where the sum has no reader but the norm
/// and neither operand broadcasts.
static std::optional<ResidualNorm> matchResidualNorm(Value v) {
  if (auto fused = v.getDefiningOp<FusedResidualLayerNormOp>()) {
    if (v != fused.getResult() || !fused.getSum().use_empty())
      return std::nullopt;
    return ResidualNorm{fused.getInput(), fused.getResidual(), fused.getGamma(),
                        fused.getBeta(), fused.getEpsilonAttr()};
  }
  auto norm = v.getDefiningOp<LayerNormOp>();
  if (!norm)
    return std::nullopt;
  auto add = norm.getInput().getDefiningOp<AddOp>();
  if (!add || !add->hasOneUse() || add.getLhs().getType() != add.getType() ||
      add.getRhs().getType() != add.getType())
    return std::nullopt;
  return ResidualNorm{add.getLhs(), add.getRhs(), norm.getGamma(),
                      norm.getBeta(), norm.getEpsilonAttr()};
}

/// The activation that `op` applies, if it is one of the fused op's.
static std::optional<Activation> activationOf(Operation *op) {
  if (isa<ReluOp>(op))
    return Activation::Relu;
  if (auto gelu = dyn_cast<GeluOp>(op))
    return gelu.getApproximate() == GeluApproximation::Tanh
               ? Activation::GeluTanh
               : Activation::Gelu;
  if (isa<SiluOp>(op))
    return Activation::Silu;
  if (isa<SigmoidOp>(op))
    return Activation::Sigmoid;
  if (isa<TanhOp>(op))
    return Activation::Tanh;
  return std::nullopt;
}

/// Matches `v` as act(x @ w + b) with a 2-D weight and a 1-D bias of its
/// output features: rlx.fused_matmul_bias_act (no transpose), or the
/// primitives rlx.matmul → rlx.add (bias on either side) → activation
/// (when `activation` is allowed), every intermediate read once.
static std::optional<Linear> matchLinear(Value v, bool allowActivation) {
  if (auto fused = v.getDefiningOp<FusedMatmulBiasActOp>()) {
    if (fused.getTransposeB() || !fused.getBias() ||
        (!allowActivation && fused.getActivation() != Activation::None))
      return std::nullopt;
    return Linear{fused.getLhs(), fused.getRhs(), fused.getBias(),
                  fused.getActivation()};
  }
  Activation activation = Activation::None;
  if (Operation *def = v.getDefiningOp()) {
    if (std::optional<Activation> act = activationOf(def)) {
      if (!allowActivation || !def->getOperand(0).hasOneUse())
        return std::nullopt;
      activation = *act;
      v = def->getOperand(0);
    }
  }
  auto add = v.getDefiningOp<AddOp>();
  if (!add)
    return std::nullopt;
  auto matmul = add.getLhs().getDefiningOp<MatmulOp>();
  Value bias = add.getRhs();
  if (!matmul) {
    matmul = add.getRhs().getDefiningOp<MatmulOp>();
    bias = add.getLhs();
  }
  if (!matmul || !matmul->hasOneUse() || matmul.getTransposeA() ||
      matmul.getTransposeB() || add.getType() != matmul.getType())
    return std::nullopt;
  auto out = cast<RankedTensorType>(matmul.getType());
  auto biasType = cast<RankedTensorType>(bias.getType());
  if (biasType.getRank() != 1 || !biasType.hasStaticShape() ||
      !out.hasStaticShape() || biasType.getDimSize(0) != out.getShape().back())
    return std::nullopt;
  return Linear{matmul.getLhs(), matmul.getRhs(), bias, activation};
}

namespace {

// layer_norm(h + ffn(h)), h = layer_norm(x + attention_block(x))
//   -> fused_transformer_layer(x, ...)
// Rooted at the last norm: rlx.layer_norm or
// rlx.fused_residual_layer_norm (whose sum must then be unread).
template <typename RootOp>
struct FuseTransformerLayer : OpRewritePattern<RootOp> {
  // Above the residual-norm and matmul-bias-act patterns, which would
  // take parts of the layer.
  FuseTransformerLayer(MLIRContext *context)
      : OpRewritePattern<RootOp>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(RootOp op,
                                PatternRewriter &rewriter) const override {
    auto fail = [&](const char *why) {
      return rewriter.notifyMatchFailure(op, why);
    };
    std::optional<ResidualNorm> ln2 = matchResidualNorm(op->getResult(0));
    if (!ln2)
      return fail("not a residual layer norm whose sum is read only by it");
    // One of the residual's operands is the FFN output read by it alone,
    // the other the first norm's output h.
    Value h, f;
    std::optional<Linear> ffn2;
    for (auto [cand, other] :
         {std::pair{ln2->rhs, ln2->lhs}, std::pair{ln2->lhs, ln2->rhs}}) {
      if (cand.hasOneUse() && (ffn2 = matchLinear(cand, false))) {
        f = cand;
        h = other;
        break;
      }
    }
    if (!ffn2 || ffn2->activation != Activation::None)
      return fail("the second residual reads no biased FFN output "
                  "projection");
    Value hidden = ffn2->input;
    if (!hidden.hasOneUse())
      return fail("the FFN's hidden activation has other users");
    std::optional<Linear> ffn1 = matchLinear(hidden, true);
    if (!ffn1 || ffn1->input != h)
      return fail("the FFN does not project the first norm's output");
    std::optional<ResidualNorm> ln1 = matchResidualNorm(h);
    if (!ln1)
      return fail("the FFN input is not a residual layer norm");
    // h feeds exactly the FFN's first projection and the second residual.
    if (!llvm::hasNItems(h.getUses(), 2))
      return fail("the first norm's output has other users");

    // The attention block: already fused, or its primitive chain.
    Value a, x;
    AttentionBlockParts block;
    bool found = false;
    for (auto [cand, other] :
         {std::pair{ln1->rhs, ln1->lhs}, std::pair{ln1->lhs, ln1->rhs}}) {
      Operation *def = cand.getDefiningOp();
      if (!def || !cand.hasOneUse())
        continue;
      if (auto fused = dyn_cast<FusedAttentionBlockOp>(def)) {
        block = AttentionBlockParts{
            fused.getInput(),
            fused.getWQkv(),
            fused.getWOut(),
            fused.getQkvBias(),
            fused.getOutBias(),
            fused.getCos(),
            fused.getSin(),
            fused.getAttnMask(),
            static_cast<int64_t>(fused.getNumHeads()),
            fused.getNumKvHeads() ? static_cast<int64_t>(*fused.getNumKvHeads())
                                  : static_cast<int64_t>(fused.getNumHeads()),
            fused.getMask(),
            fused.getWindowAttr(),
            fused.getScaleAttr(),
            fused.getRopeStyle()};
      } else if (isa<AddOp, MatmulOp, FusedMatmulBiasActOp>(def)) {
        FailureOr<AttentionBlockParts> m = matchAttentionBlock(rewriter, def);
        if (failed(m))
          continue;
        block = *m;
      } else {
        continue;
      }
      if (block.input != other)
        continue;
      a = cand;
      x = other;
      found = true;
      break;
    }
    if (!found)
      return fail("the first residual is not x + attention_block(x)");
    if (!block.qkvBias || !block.outBias)
      return fail("the fused layer needs both attention biases");
    if (block.cos)
      return fail("the fused layer has no rope");
    if (block.kvHeads != block.heads)
      return fail("the fused layer has no grouped-query heads");
    if (block.window || block.scale)
      return fail("the fused layer has no window nor explicit scale");
    if (ln1->epsilon != ln2->epsilon)
      return fail("the two norms' epsilons differ");

    // Shapes: FFN weights 2-D of [E, F] and [F, E]; the result is x's.
    auto xType = cast<RankedTensorType>(x.getType());
    auto w1 = cast<RankedTensorType>(ffn1->weight.getType());
    auto w2 = cast<RankedTensorType>(ffn2->weight.getType());
    int64_t e = xType.getDimSize(2);
    if (w1.getRank() != 2 || w2.getRank() != 2 || !w1.hasStaticShape() ||
        !w2.hasStaticShape() || w1.getDimSize(0) != e ||
        w2.getDimSize(0) != w1.getDimSize(1) || w2.getDimSize(1) != e ||
        h.getType() != xType || f.getType() != xType ||
        op->getResult(0).getType() != xType)
      return fail("the feed-forward's shapes are not those of the fused op");
    for (Value v : {ln1->gamma, ln1->beta, ln2->gamma, ln2->beta})
      if (v.getType() != RankedTensorType::get({e}, xType.getElementType()))
        return fail("the norms' gamma and beta are not 1-D of the features");

    rewriter.replaceOpWithNewOp<FusedTransformerLayerOp>(
        op, x, block.wQkv, block.qkvBias, block.wOut, block.outBias, ln1->gamma,
        ln1->beta, ffn1->weight, ffn1->bias, ffn2->weight, ffn2->bias,
        ln2->gamma, ln2->beta, block.attnMask,
        static_cast<uint64_t>(block.heads), block.mask, ln1->epsilon.getValue(),
        ffn1->activation);
    return success();
  }
};

struct FuseTransformerLayerPass
    : rlx::impl::FuseTransformerLayerPassBase<FuseTransformerLayerPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseTransformerLayerPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void rlx::populateFuseTransformerLayerPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseTransformerLayer<LayerNormOp>,
               FuseTransformerLayer<FusedResidualLayerNormOp>>(
      patterns.getContext());
}
