//===- FuseAttentionBlock.cpp - attention chains into one op --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Recognizes the chain that `--rlx-unfuse` builds for
// rlx.fused_attention_block: the QKV projection, its three head groups
// (narrow, reshape to heads, transpose), optional rope on q and k, the
// attention, the merge of the heads and the output projection. Every
// intermediate must be read by the chain only, and every shape and
// attribute must be the one the fused op implies.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "FusionMatchers.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSEATTENTIONBLOCKPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// `input @ weight (+ bias)`, as rlx.matmul (+ rlx.add) or as the
/// rlx.fused_matmul_bias_act without activation that FuseMatmulBias makes
/// of it.
struct Projection {
  Value input, weight, bias;
};
} // namespace

/// Matches `v` as a projection by a 2-D weight whose intermediate product
/// (if any) has no other reader.
static std::optional<Projection> matchProjection(Value v) {
  if (auto fused = v.getDefiningOp<FusedMatmulBiasActOp>()) {
    if (fused.getActivation() != Activation::None || fused.getTransposeB() ||
        cast<RankedTensorType>(fused.getRhs().getType()).getRank() != 2)
      return std::nullopt;
    return Projection{fused.getLhs(), fused.getRhs(), fused.getBias()};
  }
  Value bias;
  if (auto add = v.getDefiningOp<AddOp>()) {
    bias = add.getRhs();
    v = add.getLhs();
    auto biasType = cast<RankedTensorType>(bias.getType());
    if (!v.hasOneUse() || biasType.getRank() != 1 ||
        !biasType.hasStaticShape() || add.getType() != v.getType() ||
        biasType.getDimSize(0) !=
            cast<RankedTensorType>(v.getType()).getShape().back())
      return std::nullopt;
  }
  auto matmul = v.getDefiningOp<MatmulOp>();
  if (!matmul || matmul.getTransposeA() || matmul.getTransposeB() ||
      cast<RankedTensorType>(matmul.getRhs().getType()).getRank() != 2)
    return std::nullopt;
  return Projection{matmul.getLhs(), matmul.getRhs(), bias};
}

/// Matches `v` = transpose(reshape(narrow(qkv, 2, start, heads * d)),
/// [0, 2, 1, 3]) of type [B, heads, S, d], every step read once; returns
/// qkv.
static Value matchHeadGroup(Value v, int64_t start) {
  auto type = cast<RankedTensorType>(v.getType());
  auto transpose = v.getDefiningOp<TransposeOp>();
  if (!transpose || !transpose->hasOneUse() || type.getRank() != 4 ||
      transpose.getPermutation() != ArrayRef<int64_t>{0, 2, 1, 3})
    return Value();
  auto reshape = transpose.getInput().getDefiningOp<ReshapeOp>();
  if (!reshape || !reshape->hasOneUse())
    return Value();
  auto narrow = reshape.getInput().getDefiningOp<NarrowOp>();
  int64_t heads = type.getDimSize(1), d = type.getDimSize(3);
  if (!narrow || !narrow->hasOneUse() || narrow.getAxis() != 2 ||
      static_cast<int64_t>(narrow.getStart()) != start ||
      static_cast<int64_t>(narrow.getLength()) != heads * d)
    return Value();
  auto cols = cast<RankedTensorType>(narrow.getType());
  if (reshape.getType() !=
      cols.clone({cols.getDimSize(0), cols.getDimSize(1), heads, d}))
    return Value();
  return narrow.getInput();
}

FailureOr<AttentionBlockParts>
rlx::matchAttentionBlock(PatternRewriter &rewriter, Operation *op) {
  auto fail = [&](const char *why) {
    return rewriter.notifyMatchFailure(op, why);
  };
  if (op->getNumResults() != 1)
    return fail("not an output projection");
  std::optional<Projection> out = matchProjection(op->getResult(0));
  if (!out)
    return fail("not an output projection");
  // The head merge: reshape(transpose(a, [0, 2, 1, 3])) to [B, S, H D].
  auto merge = out->input.getDefiningOp<ReshapeOp>();
  if (!merge || !merge->hasOneUse())
    return fail("the projection does not read a merge of heads");
  auto back = merge.getInput().getDefiningOp<TransposeOp>();
  if (!back || !back->hasOneUse() ||
      back.getPermutation() != ArrayRef<int64_t>{0, 2, 1, 3})
    return fail("the projection does not read a merge of heads");
  auto attention = back.getInput().getDefiningOp<AttentionOp>();
  if (!attention || !attention->hasOneUse())
    return fail("the heads are not an attention's result");

  // Rope, when present, on both q and k with the same tables and style.
  Value q = attention.getQuery(), k = attention.getKey();
  auto qRope = q.getDefiningOp<RopeOp>();
  auto kRope = k.getDefiningOp<RopeOp>();
  Value cos, sin;
  RopeStyle style = RopeStyle::Neox;
  if (qRope || kRope) {
    if (!qRope || !kRope || !qRope->hasOneUse() || !kRope->hasOneUse() ||
        qRope.getCos() != kRope.getCos() ||
        qRope.getSin() != kRope.getSin() ||
        qRope.getStyle() != kRope.getStyle())
      return fail("rope differs between q and k");
    cos = qRope.getCos();
    sin = qRope.getSin();
    if (sin.getType() != cos.getType())
      return fail("rope's cos and sin differ in type");
    style = qRope.getStyle();
    q = qRope.getInput();
    k = kRope.getInput();
  }

  auto qType = cast<RankedTensorType>(q.getType());
  auto kType = cast<RankedTensorType>(k.getType());
  int64_t heads = qType.getDimSize(1), kvHeads = kType.getDimSize(1);
  int64_t d = qType.getDimSize(3);
  if (!qType.hasStaticShape() || !kType.hasStaticShape() ||
      kType.getDimSize(3) != d || attention.getValue().getType() != kType)
    return fail("q, k and v are not static head groups of one head dim");
  Value qkv = matchHeadGroup(q, 0);
  if (!qkv || matchHeadGroup(k, heads * d) != qkv ||
      matchHeadGroup(attention.getValue(), (heads + kvHeads) * d) != qkv)
    return fail("q, k and v are not the column blocks of one projection");
  // The narrows are the projection's only readers.
  if (!llvm::hasNItems(qkv.getUses(), 3))
    return fail("the QKV projection has other users");
  std::optional<Projection> in = matchProjection(qkv);
  if (!in)
    return fail("q, k and v do not come from a QKV projection");

  auto x = cast<RankedTensorType>(in->input.getType());
  auto wQkv = cast<RankedTensorType>(in->weight.getType());
  if (x.getRank() != 3 || !x.hasStaticShape() ||
      wQkv.getDimSize(1) != (heads + 2 * kvHeads) * d ||
      merge.getType() !=
          x.clone({x.getDimSize(0), x.getDimSize(1), heads * d}) ||
      !wQkv.hasStaticShape() || op->getResult(0).getType() != x)
    return fail("the block's shapes are not those of the fused op");
  // The fused op's rope tables are [S, D / 2] of the input's type.
  if (cos && cos.getType() != x.clone({x.getDimSize(1), d / 2}))
    return fail("rope tables of another shape than [S, D / 2]");
  return AttentionBlockParts{in->input,
                             in->weight,
                             out->weight,
                             in->bias,
                             out->bias,
                             cos,
                             sin,
                             attention.getAttnMask(),
                             heads,
                             kvHeads,
                             attention.getMask(),
                             attention.getWindowAttr(),
                             attention.getScaleAttr(),
                             style};
}

namespace {

// matmul(merge(attention(split(x @ wqkv + bq))), wout) + bo
//   -> fused_attention_block(x, wqkv, wout, bq, bo)
// Rooted at the output projection's last op: rlx.add, rlx.matmul or the
// fused_matmul_bias_act that FuseMatmulBias may have made of them.
template <typename RootOp>
struct FuseAttentionBlock : OpRewritePattern<RootOp> {
  // Above FuseMatmulBias, which would take the output projection's add.
  FuseAttentionBlock(MLIRContext *context)
      : OpRewritePattern<RootOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(RootOp op,
                                PatternRewriter &rewriter) const override {
    // A matmul whose bias add follows is left to the add's pattern.
    if constexpr (std::is_same_v<RootOp, MatmulOp>) {
      if (op->hasOneUse())
        if (auto add = dyn_cast<AddOp>(*op->user_begin()))
          if (matchProjection(add.getResult()))
            return rewriter.notifyMatchFailure(op,
                                               "left to the output bias add");
    }
    FailureOr<AttentionBlockParts> m = matchAttentionBlock(rewriter, op);
    if (failed(m))
      return failure();
    IntegerAttr kvHeadsAttr = m->kvHeads == m->heads
                                  ? IntegerAttr()
                                  : rewriter.getI64IntegerAttr(m->kvHeads);
    rewriter.template replaceOpWithNewOp<FusedAttentionBlockOp>(
        op, m->input, m->wQkv, m->wOut, m->qkvBias, m->outBias, m->cos,
        m->sin, m->attnMask, m->heads, kvHeadsAttr, m->mask, m->window,
        m->scale, m->ropeStyle);
    return success();
  }
};

struct FuseAttentionBlockPass
    : rlx::impl::FuseAttentionBlockPassBase<FuseAttentionBlockPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseAttentionBlockPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void rlx::populateFuseAttentionBlockPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseAttentionBlock<AddOp>, FuseAttentionBlock<MatmulOp>,
               FuseAttentionBlock<FusedMatmulBiasActOp>>(patterns.getContext());
}
