//===- Legalize.cpp - rewrite or reject the ops a target lacks ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `--rlx-legalize="target=NAME"`: every rlx op the target does not claim is
// rewritten into ops it may claim where a rewrite exists (unfusing, and the
// patterns below), and every op still unclaimed afterwards is an error. A
// pattern runs only on ops the target lacks: claimed ops stay as written.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/IR/RegionUtils.h"
#include "RLX/Dialect/MIR/IR/TypeInference.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Targets.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_LEGALIZEPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

/// Whether every op of `region` (nested ones included) is free of side
/// effects, so that running it when its result is not needed is harmless.
static bool isSideEffectFree(Region &region) {
  for (Operation &op : region.getOps())
    if (!isMemoryEffectFree(&op))
      return false;
  return true;
}

namespace {

// dot_general(a, b) -> reshape(matmul(reshape(transpose(a)),
//                                     reshape(transpose(b))))
struct LegalizeDotGeneral : OpRewritePattern<DotGeneralOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DotGeneralOp op,
                                PatternRewriter &b) const override {
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape())
      return b.notifyMatchFailure(op, "needs static operand shapes");
    SmallVector<int64_t> lb =
        positiveAxes(op.getLhsBatchDims(), lhsType.getRank());
    SmallVector<int64_t> rb =
        positiveAxes(op.getRhsBatchDims(), rhsType.getRank());
    SmallVector<int64_t> lc =
        positiveAxes(op.getLhsContractingDims(), lhsType.getRank());
    SmallVector<int64_t> rc =
        positiveAxes(op.getRhsContractingDims(), rhsType.getRank());
    auto freeDims = [](int64_t rank, ArrayRef<int64_t> batch,
                       ArrayRef<int64_t> contracting) {
      SmallVector<int64_t> free;
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(batch, d) &&
            !llvm::is_contained(contracting, d))
          free.push_back(d);
      return free;
    };
    SmallVector<int64_t> lf = freeDims(lhsType.getRank(), lb, lc);
    SmallVector<int64_t> rf = freeDims(rhsType.getRank(), rb, rc);
    auto product = [](RankedTensorType type, ArrayRef<int64_t> dims) {
      int64_t n = 1;
      for (int64_t d : dims)
        n *= type.getDimSize(d);
      return n;
    };
    int64_t batch = product(lhsType, lb), m = product(lhsType, lf),
            k = product(lhsType, lc), n = product(rhsType, rf);
    // [batch..., free..., contracting...] and [batch..., contracting...,
    // free...], each as [B, M, K] / [B, K, N] (no B without batch dims).
    auto arrange = [&](Value v, RankedTensorType type,
                       SmallVector<int64_t> perm,
                       SmallVector<int64_t> shape) -> Value {
      if (!llvm::equal(perm, llvm::seq<int64_t>(0, type.getRank())))
        v = TransposeOp::create(b, op.getLoc(), v, perm);
      if (cast<RankedTensorType>(v.getType()).getShape() !=
          ArrayRef<int64_t>(shape))
        v = ReshapeOp::create(b, op.getLoc(), type.clone(shape), v);
      return v;
    };
    SmallVector<int64_t> lperm(lb), rperm(rb);
    llvm::append_range(lperm, lf);
    llvm::append_range(lperm, lc);
    llvm::append_range(rperm, rc);
    llvm::append_range(rperm, rf);
    SmallVector<int64_t> lshape = {m, k}, rshape = {k, n};
    if (!lb.empty()) {
      lshape.insert(lshape.begin(), batch);
      rshape.insert(rshape.begin(), batch);
    }
    Value lhs = arrange(op.getLhs(), lhsType, lperm, lshape);
    Value rhs = arrange(op.getRhs(), rhsType, rperm, rshape);
    Value y = MatmulOp::create(b, op.getLoc(), lhs, rhs, /*transpose_a=*/false,
                               /*transpose_b=*/false);
    if (y.getType() != resultType)
      y = ReshapeOp::create(b, op.getLoc(), resultType, y);
    b.replaceOp(op, y);
    return success();
  }
};

// if(p) {A} else {B} -> where(p, A, B), both regions inlined
struct LegalizeIf : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &b) const override {
    if (!isSideEffectFree(op.getThenRegion()) ||
        !isSideEffectFree(op.getElseRegion()))
      return b.notifyMatchFailure(op, "a region has side effects");
    SmallVector<Value> onTrue = cloneRegionBody(b, op.getThenRegion(), {});
    SmallVector<Value> onFalse = cloneRegionBody(b, op.getElseRegion(), {});
    SmallVector<Value> results;
    for (auto [t, f, result] : llvm::zip(onTrue, onFalse, op.getResults()))
      results.push_back(WhereOp::create(b, op.getLoc(), result.getType(),
                                        op.getCondition(), t, f));
    b.replaceOp(op, results);
    return success();
  }
};

// while(x) {max_iterations = N} -> N steps of
//   active' = active && cond(x); x' = where(active', body(x), x)
struct LegalizeWhile : OpRewritePattern<WhileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WhileOp op, PatternRewriter &b) const override {
    std::optional<uint64_t> bound = op.getMaxIterations();
    if (!bound)
      return b.notifyMatchFailure(op, "no max_iterations to unroll to");
    if (!isSideEffectFree(op.getCond()) || !isSideEffectFree(op.getBody()))
      return b.notifyMatchFailure(op, "a region has side effects");
    SmallVector<Value> carried(op.getInits());
    Value active;
    for (uint64_t i = 0; i < *bound; ++i) {
      Value holds = cloneRegionBody(b, op.getCond(), carried).front();
      // active && holds, as where(active, holds, active).
      active = active ? WhereOp::create(b, op.getLoc(), holds.getType(), active,
                                        holds, active)
                            .getResult()
                      : holds;
      SmallVector<Value> next = cloneRegionBody(b, op.getBody(), carried);
      for (auto [i, step] : llvm::enumerate(next))
        carried[i] = WhereOp::create(b, op.getLoc(), carried[i].getType(),
                                     active, step, carried[i]);
    }
    b.replaceOp(op, carried);
    return success();
  }
};

/// Whether `operand` broadcasts to `result` only along leading dims: after
/// dropping its leading unit dims it equals the result's trailing dims (a
/// kernel indexing it by the flat result index modulo its size is right).
static bool isTrailingBroadcast(RankedTensorType operand,
                                RankedTensorType result) {
  ArrayRef<int64_t> shape = operand.getShape();
  while (!shape.empty() && shape.front() == 1)
    shape = shape.drop_front();
  ArrayRef<int64_t> tail = result.getShape().take_back(shape.size());
  return shape.size() <= tail.size() && llvm::equal(shape, tail) &&
         !llvm::any_of(shape, ShapedType::isDynamic);
}

/// The operands of the broadcasting elementwise `op` whose broadcast to the
/// result is not trailing.
static SmallVector<OpOperand *> nonTrailingOperands(Operation *op) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpOperand *> found;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = cast<RankedTensorType>(operand.get().getType());
    if (type.getShape() != result.getShape() &&
        !isTrailingBroadcast(type, result))
      found.push_back(&operand);
  }
  return found;
}

// add(x : 8x1, y : 8x16) -> add(expand(x) : 8x16, y), for targets whose
// kernels take only trailing broadcasts.
struct LegalizeBroadcast : RewritePattern {
  LegalizeBroadcast(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &b) const override {
    if (!isBroadcastingElementwise(op))
      return failure();
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    if (!result.hasStaticShape())
      return b.notifyMatchFailure(op, "dynamic result shape");
    SmallVector<OpOperand *> operands = nonTrailingOperands(op);
    if (operands.empty())
      return failure();
    b.modifyOpInPlace(op, [&] {
      for (OpOperand *operand : operands) {
        auto type = cast<RankedTensorType>(operand->get().getType());
        operand->set(ExpandOp::create(b, op->getLoc(),
                                      result.clone(type.getElementType()),
                                      operand->get()));
      }
    });
    return success();
  }
};

/// Whether an operand or result of `op` is a tensor of unknown shape.
static bool hasDynamicShape(Operation *op) {
  auto dynamic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && !shaped.hasStaticShape();
  };
  return llvm::any_of(op->getOperandTypes(), dynamic) ||
         llvm::any_of(op->getResultTypes(), dynamic);
}

struct LegalizePass : rlx::impl::LegalizePassBase<LegalizePass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<const TargetOps *> claims =
        lookupTarget(target, getOperation()->getLoc());
    if (failed(claims))
      return signalPassFailure();
    const TargetOps &ops = **claims;

    RewritePatternSet patterns(&getContext());
    populateLegalizePatterns(patterns);
    // Only the rewrites of ops that the target lacks.
    auto &native = patterns.getNativePatterns();
    llvm::erase_if(native, [&](const std::unique_ptr<RewritePattern> &p) {
      std::optional<OperationName> root = p->getRootKind();
      return !root || ops.claims(root->getStringRef());
    });
    // A rewrite that does not converge leaves ops to be reported below.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));

    if (!ops.generalBroadcast) {
      RewritePatternSet broadcasts(&getContext());
      broadcasts.add<LegalizeBroadcast>(&getContext());
      (void)applyPatternsGreedily(getOperation(), std::move(broadcasts));
    }

    bool lacking = false;
    getOperation()->walk([&](Operation *op) {
      if (!ops.generalBroadcast && isBroadcastingElementwise(op) &&
          !nonTrailingOperands(op).empty()) {
        op->emitError() << "target '" << target
                        << "' takes only trailing broadcasts, and this one "
                           "has a dynamic result shape to expand to";
        lacking = true;
      }
      if (!isa<RLXDialect>(op->getDialect()))
        return;
      if (!ops.claims(op->getName().getStringRef())) {
        op->emitError() << "'" << op->getName()
                        << "' is not supported by target '" << target << "'";
        lacking = true;
        return;
      }
      if (ops.staticShapes && hasDynamicShape(op)) {
        op->emitError() << "'" << op->getName()
                        << "' with a dynamic shape is not supported by "
                           "target '"
                        << target << "' (static shapes only)";
        lacking = true;
      }
    });
    if (lacking)
      signalPassFailure();
  }
};

} // namespace

void rlx::populateLegalizePatterns(RewritePatternSet &patterns) {
  populateUnfusePatterns(patterns);
  patterns.add<LegalizeDotGeneral, LegalizeIf, LegalizeWhile>(
      patterns.getContext());
}
