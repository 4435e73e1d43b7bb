//===- Fuse.cpp - primitive rlx chains into fused ops ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The inverse of Unfuse.cpp: each pattern recognizes the exact chain that
// `--rlx-unfuse` builds for one fused op and replaces it by that op. A
// pattern is rooted at the last op of its chain and fires only where the
// fused op computes the same values as the chain: no intermediate result
// may have another reader (the fused op would hide it), and shapes, element
// types and attributes must be those the fused op expresses.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSEMATMULBIASACTPASS
#define GEN_PASS_DEF_FUSERESIDUALNORMPASS
#define GEN_PASS_DEF_FUSESWIGLUPASS
#define GEN_PASS_DEF_FUSEPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

static bool hasFloatElements(Value v) {
  return isa<FloatType>(getElementTypeOrSelf(v.getType()));
}

//===----------------------------------------------------------------------===//
// matmul → add(bias) → activation
//===----------------------------------------------------------------------===//

static Activation activationOf(ReluOp) { return Activation::Relu; }
static Activation activationOf(GeluOp op) {
  return op.getApproximate() == GeluApproximation::Tanh ? Activation::GeluTanh
                                                        : Activation::Gelu;
}
static Activation activationOf(SiluOp) { return Activation::Silu; }
static Activation activationOf(SigmoidOp) { return Activation::Sigmoid; }
static Activation activationOf(TanhOp) { return Activation::Tanh; }

/// The matmul and bias of `add` = matmul(x, w) + bias.
struct BiasAdd {
  MatmulOp matmul;
  Value bias;
};

/// Matches `add` (read by `root`, the op being rewritten) as matmul + bias
/// with the bias on either side: addition is commutative in floating point,
/// so the fused op's matmul + bias computes the same either way.
static FailureOr<BiasAdd> matchBiasAdd(PatternRewriter &rewriter,
                                       Operation *root, AddOp add) {
  MatmulOp matmul = add.getLhs().getDefiningOp<MatmulOp>();
  Value bias = add.getRhs();
  if (!matmul) {
    matmul = add.getRhs().getDefiningOp<MatmulOp>();
    bias = add.getLhs();
  }
  if (!matmul)
    return rewriter.notifyMatchFailure(root, "the add reads no matmul");
  if (!matmul->hasOneUse())
    return rewriter.notifyMatchFailure(root,
                                       "the matmul's result has other users");
  if (matmul.getTransposeA())
    return rewriter.notifyMatchFailure(
        root, "the fused op cannot express transpose_a");
  if (!hasFloatElements(matmul.getResult()))
    return rewriter.notifyMatchFailure(root, "the fused op needs floats");
  // The fused bias is 1-D over the output features; a bias that broadcasts
  // otherwise (or may, being dynamic) would change the sum's shape.
  auto out = cast<RankedTensorType>(matmul.getType());
  auto biasType = cast<RankedTensorType>(bias.getType());
  if (biasType.getRank() != 1 || !biasType.hasStaticShape() ||
      biasType.getDimSize(0) != out.getShape().back() || add.getType() != out)
    return rewriter.notifyMatchFailure(
        root, "the bias is not 1-D of the matmul's output features");
  return BiasAdd{matmul, bias};
}

namespace {

// act(matmul(x, w) + b) -> fused_matmul_bias_act(x, w, b) activation = act
template <typename ActOp> struct FuseMatmulBiasAct : OpRewritePattern<ActOp> {
  using OpRewritePattern<ActOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ActOp op,
                                PatternRewriter &rewriter) const override {
    auto add = op.getInput().template getDefiningOp<AddOp>();
    if (!add)
      return rewriter.notifyMatchFailure(op, "the activation reads no add");
    if (!add->hasOneUse())
      return rewriter.notifyMatchFailure(
          op, "the add's result has other users (it fuses alone)");
    FailureOr<BiasAdd> m = matchBiasAdd(rewriter, op, add);
    if (failed(m))
      return failure();
    rewriter.replaceOpWithNewOp<FusedMatmulBiasActOp>(
        op, m->matmul.getLhs(), m->matmul.getRhs(), m->bias, activationOf(op),
        m->matmul.getTransposeB());
    return success();
  }
};

// matmul(x, w) + b -> fused_matmul_bias_act(x, w, b) activation = none
struct FuseMatmulBias : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    // FuseMatmulBiasAct takes the activation along; fusing the add first
    // would leave the activation outside.
    if (op->hasOneUse() &&
        isa<ReluOp, GeluOp, SiluOp, SigmoidOp, TanhOp>(*op->user_begin()))
      return rewriter.notifyMatchFailure(op, "left to the activation");
    FailureOr<BiasAdd> m = matchBiasAdd(rewriter, op, op);
    if (failed(m))
      return failure();
    rewriter.replaceOpWithNewOp<FusedMatmulBiasActOp>(
        op, m->matmul.getLhs(), m->matmul.getRhs(), m->bias, Activation::None,
        m->matmul.getTransposeB());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// add → layer_norm / rms_norm
//===----------------------------------------------------------------------===//

/// Where the fused op replacing `add` and the norm `root` reading it can be
/// created so that its sum dominates every other reader of the add: at
/// `root` when they all come after it, else at `add` when the norm's other
/// operands are available there; null when neither.
static Operation *residualNormPosition(AddOp add, Operation *root) {
  DominanceInfo dom;
  if (llvm::all_of(add->getUsers(), [&](Operation *user) {
        return user == root || dom.properlyDominates(root, user);
      }))
    return root;
  if (llvm::all_of(root->getOperands().drop_front(),
                   [&](Value v) { return dom.properlyDominates(v, add); }))
    return add;
  return nullptr;
}

static Operation *createResidualNorm(PatternRewriter &rewriter, AddOp add,
                                     LayerNormOp norm) {
  return FusedResidualLayerNormOp::create(
      rewriter, norm.getLoc(), add.getLhs(), add.getRhs(), norm.getGamma(),
      norm.getBeta(), norm.getEpsilonAttr());
}

static Operation *createResidualNorm(PatternRewriter &rewriter, AddOp add,
                                     RmsNormOp norm) {
  return FusedResidualRmsNormOp::create(rewriter, norm.getLoc(), add.getLhs(),
                                        add.getRhs(), norm.getGamma(),
                                        norm.getEpsilonAttr());
}

namespace {

// norm(x + r) -> fused_residual_norm(x, r) (result, sum)
template <typename NormOp> struct FuseResidualNorm : OpRewritePattern<NormOp> {
  using OpRewritePattern<NormOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(NormOp op,
                                PatternRewriter &rewriter) const override {
    auto add = op.getInput().template getDefiningOp<AddOp>();
    if (!add)
      return rewriter.notifyMatchFailure(op, "the norm reads no add");
    // The fused op's input, residual and sum share one type: the add must
    // not broadcast.
    Type type = add.getType();
    if (add.getLhs().getType() != type || add.getRhs().getType() != type)
      return rewriter.notifyMatchFailure(op, "the residual add broadcasts");
    // The sum is a result of the fused op, so other readers of the add
    // keep reading it, provided the fused op comes before them.
    Operation *position = residualNormPosition(add, op);
    if (!position)
      return rewriter.notifyMatchFailure(
          op, "no position dominates every reader of the sum");
    rewriter.setInsertionPoint(position);
    Operation *fused = createResidualNorm(rewriter, add, op);
    rewriter.replaceOp(op, fused->getResult(0));
    rewriter.replaceOp(add, fused->getResult(1));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// matmul, matmul → mul(silu(gate), up)
//===----------------------------------------------------------------------===//

/// The silu operand of `op` and its other operand, in either order:
/// multiplication is commutative in floating point, so both orders compute
/// the fused op's silu(gate) * up. Null silu when neither operand is one.
static std::pair<SiluOp, Value> siluTimesUp(MulOp op) {
  if (auto silu = op.getLhs().getDefiningOp<SiluOp>())
    return {silu, op.getRhs()};
  return {op.getRhs().getDefiningOp<SiluOp>(), op.getLhs()};
}

// silu(matmul(x, wg)) * matmul(x, wu) -> fused_swiglu(x, wg, wu)
struct FuseSwiglu : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    auto [silu, upValue] = siluTimesUp(op);
    if (!silu)
      return rewriter.notifyMatchFailure(op, "the mul reads no silu");
    auto gate = silu.getInput().getDefiningOp<MatmulOp>();
    auto up = upValue.getDefiningOp<MatmulOp>();
    if (!gate || !up)
      return rewriter.notifyMatchFailure(op, "gate or up is not a matmul");
    if (!gate->hasOneUse() || !silu->hasOneUse() || !up->hasOneUse())
      return rewriter.notifyMatchFailure(
          op, "an intermediate result has other users");
    if (gate.getLhs() != up.getLhs())
      return rewriter.notifyMatchFailure(op, "the matmuls read different "
                                             "inputs");
    if (gate.getTransposeA() || gate.getTransposeB() || up.getTransposeA() ||
        up.getTransposeB())
      return rewriter.notifyMatchFailure(
          op, "the fused op cannot express transposes");
    // 2-D weights of one static type give gate and up one shape, so the
    // mul neither broadcasts nor may at run time.
    auto wg = cast<RankedTensorType>(gate.getRhs().getType());
    if (wg.getRank() != 2 || !wg.hasStaticShape() ||
        up.getRhs().getType() != wg || op.getType() != gate.getType())
      return rewriter.notifyMatchFailure(
          op, "the weights are not 2-D of one static shape");
    rewriter.replaceOpWithNewOp<FusedSwigluOp>(op, gate.getLhs(), gate.getRhs(),
                                               up.getRhs());
    return success();
  }
};

/// The narrow `value` of the last axis of a matmul result as (matmul,
/// start, length); null matmul when `value` is not one.
static std::tuple<MatmulOp, int64_t, int64_t> matmulColumns(Value value) {
  auto narrow = value.getDefiningOp<NarrowOp>();
  if (!narrow)
    return {};
  auto matmul = narrow.getInput().getDefiningOp<MatmulOp>();
  int64_t rank = cast<RankedTensorType>(narrow.getType()).getRank();
  // The I64Attr accessor is unsigned; axes count from the end when negative.
  auto axis = static_cast<int64_t>(narrow.getAxis());
  if (!matmul || (axis != rank - 1 && axis != -1))
    return {};
  return {matmul, narrow.getStart(), narrow.getLength()};
}

/// Columns [start, start + length) of the 2-D weight `w`: the concat
/// operand that holds exactly them when `w` is a concat along axis 1
/// (what rlx-fuse-shared-input-matmul writes), else an rlx.narrow of `w`
/// (a strided view once lowered, not a copy).
static Value weightColumns(PatternRewriter &rewriter, Location loc, Value w,
                           int64_t start, int64_t length) {
  auto concat = w.getDefiningOp<ConcatOp>();
  if (concat && (static_cast<int64_t>(concat.getAxis()) == 1 ||
                 static_cast<int64_t>(concat.getAxis()) == -1)) {
    int64_t offset = 0;
    for (Value part : concat.getInputs()) {
      int64_t width = cast<RankedTensorType>(part.getType()).getDimSize(1);
      if (offset == start && width == length)
        return part;
      offset += width;
    }
  }
  return NarrowOp::create(rewriter, loc, w, /*axis=*/1, start, length);
}

// silu(narrow(m, 0, F)) * narrow(m, F, F) with m = matmul(x, w), w [E, 2F]
// (one matmul of the gate and up weights side by side, as
// rlx-fuse-shared-input-matmul or a merged gate_up projection writes it)
// -> fused_swiglu(x, w[:, :F], w[:, F:])
struct FuseSwigluConcatenated : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    auto [silu, upValue] = siluTimesUp(op);
    if (!silu)
      return rewriter.notifyMatchFailure(op, "the mul reads no silu");
    auto [gate, gateStart, gateLength] = matmulColumns(silu.getInput());
    auto [up, upStart, upLength] = matmulColumns(upValue);
    if (!gate || !up)
      return rewriter.notifyMatchFailure(
          op, "gate or up is not a narrow of matmul columns");
    if (gate != up)
      return rewriter.notifyMatchFailure(
          op, "gate and up are columns of different matmuls");
    if (!silu->hasOneUse() || !silu.getInput().hasOneUse() ||
        !upValue.hasOneUse())
      return rewriter.notifyMatchFailure(
          op, "an intermediate result has other users");
    if (gate.getTransposeA() || gate.getTransposeB())
      return rewriter.notifyMatchFailure(
          op, "the fused op cannot express transposes");
    auto w = cast<RankedTensorType>(gate.getRhs().getType());
    if (w.getRank() != 2 || !w.hasStaticShape() || gateLength != upLength ||
        op.getType() != silu.getType())
      return rewriter.notifyMatchFailure(
          op, "the weights are not 2-D of one static shape");
    // Other narrows of the matmul keep it alive; it then is computed
    // twice, which the fusion must not do silently.
    if (!llvm::all_of(gate->getUsers(), [&](Operation *user) {
          return user == silu.getInput().getDefiningOp() ||
                 user == upValue.getDefiningOp();
        }))
      return rewriter.notifyMatchFailure(
          op, "an intermediate result has other users");
    Location loc = op.getLoc();
    Value wg = weightColumns(rewriter, loc, gate.getRhs(), gateStart,
                             gateLength);
    Value wu = weightColumns(rewriter, loc, gate.getRhs(), upStart, upLength);
    rewriter.replaceOpWithNewOp<FusedSwigluOp>(op, gate.getLhs(), wg, wu);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Passes
//===----------------------------------------------------------------------===//

/// Applies the patterns that `populate` adds to `op`.
static LogicalResult applyFamily(Operation *op,
                                 void (*populate)(RewritePatternSet &)) {
  RewritePatternSet patterns(op->getContext());
  populate(patterns);
  return applyPatternsGreedily(op, std::move(patterns));
}

namespace {

struct FuseMatmulBiasActPass
    : rlx::impl::FuseMatmulBiasActPassBase<FuseMatmulBiasActPass> {
  void runOnOperation() override {
    if (failed(applyFamily(getOperation(), populateFuseMatmulBiasActPatterns)))
      signalPassFailure();
  }
};

struct FuseResidualNormPass
    : rlx::impl::FuseResidualNormPassBase<FuseResidualNormPass> {
  void runOnOperation() override {
    if (failed(applyFamily(getOperation(), populateFuseResidualNormPatterns)))
      signalPassFailure();
  }
};

struct FuseSwigluPass : rlx::impl::FuseSwigluPassBase<FuseSwigluPass> {
  void runOnOperation() override {
    if (failed(applyFamily(getOperation(), populateFuseSwigluPatterns)))
      signalPassFailure();
  }
};

struct FusePass : rlx::impl::FusePassBase<FusePass> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    SmallVector<std::string> families(patterns.begin(), patterns.end());
    if (!target.empty()) {
      FailureOr<const TargetOps *> claims =
          lookupTarget(target, UnknownLoc::get(context));
      if (failed(claims))
        return failure();
      // Only the families whose fused ops the target claims (an unknown
      // family name stays, to be reported below).
      families = familiesForTarget(**claims, families);
      if (families.empty()) {
        frozenPatterns = FrozenRewritePatternSet(std::move(set));
        return success();
      }
    }
    if (failed(populateFusionPatterns(set, families)))
      return emitError(UnknownLoc::get(context),
                       "'patterns' names an unknown fusion pattern family "
                       "(known: matmul-bias-act, residual-norm, swiglu, "
                       "attention-block, transformer-layer, "
                       "shared-input-matmul, rms-norm-reshape, "
                       "elementwise-regions)");
    frozenPatterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }
  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      signalPassFailure();
  }

  FrozenRewritePatternSet frozenPatterns;
};

} // namespace

void rlx::populateFuseMatmulBiasActPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseMatmulBiasAct<ReluOp>, FuseMatmulBiasAct<GeluOp>,
               FuseMatmulBiasAct<SiluOp>, FuseMatmulBiasAct<SigmoidOp>,
               FuseMatmulBiasAct<TanhOp>, FuseMatmulBias>(
      patterns.getContext());
}

void rlx::populateFuseResidualNormPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseResidualNorm<LayerNormOp>, FuseResidualNorm<RmsNormOp>>(
      patterns.getContext());
}

void rlx::populateFuseSwigluPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseSwiglu, FuseSwigluConcatenated>(patterns.getContext());
}

ArrayRef<StringRef> rlx::defaultFusionFamilies() {
  static const StringRef families[] = {
      "matmul-bias-act",   "residual-norm",       "swiglu",
      "attention-block",   "transformer-layer",   "shared-input-matmul",
      "rms-norm-reshape"};
  return families;
}

LogicalResult rlx::populateFusionPatterns(RewritePatternSet &patterns,
                                          ArrayRef<std::string> families) {
  using Populate = void (*)(RewritePatternSet &);
  static const std::pair<StringRef, Populate> all[] = {
      {"matmul-bias-act", populateFuseMatmulBiasActPatterns},
      {"residual-norm", populateFuseResidualNormPatterns},
      {"swiglu", populateFuseSwigluPatterns},
      {"attention-block", populateFuseAttentionBlockPatterns},
      {"transformer-layer", populateFuseTransformerLayerPatterns},
      {"shared-input-matmul", populateFuseSharedInputMatmulPatterns},
      {"rms-norm-reshape", populateFuseRmsNormReshapePatterns},
      {"elementwise-regions", [](RewritePatternSet &set) {
         populateFormElementwiseRegionsPatterns(set);
       }}};
  if (families.empty()) {
    for (auto [name, populate] : all)
      if (llvm::is_contained(defaultFusionFamilies(), name))
        populate(patterns);
    return success();
  }
  SmallVector<Populate> chosen;
  for (const std::string &family : families) {
    const auto *it = llvm::find_if(
        all, [&](const auto &entry) { return entry.first == family; });
    if (it == std::end(all))
      return failure();
    if (!llvm::is_contained(chosen, it->second))
      chosen.push_back(it->second);
  }
  for (Populate populate : chosen)
    populate(patterns);
  return success();
}
