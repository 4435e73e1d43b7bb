//===- ElementwiseRegions.cpp - elementwise chains into regions -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Groups a chain of elementwise rlx ops into one rlx.elementwise_region,
// whose body computes each element with the scalar arith / math op that
// the op's own lowering (RLXToLinalg) uses, and expands such a region
// back. Only ops whose scalar is one arith / math op on f32 / f64 are
// grouped, so each body op maps back to exactly one rlx op:
//
//   rlx.add/sub/mul/div/max/min     arith.addf/subf/mulf/divf/maximumf/minimumf
//   rlx.pow                          math.powf
//   rlx.exp/log/sqrt/rsqrt/tanh/sin/cos/tan/atan   math.<same>
//   rlx.neg/abs/round                arith.negf, math.absf, math.roundeven
//   rlx.cmp (float operands)         arith.cmpf (ordered; `ne` unordered)
//   rlx.where (float values)         arith.select
//   rlx.cast (between f32 and f64)   arith.extf / arith.truncf
//
// Every grouped op has the region's (static) shape; smaller operands are
// region inputs, which broadcast as they did for the op. A region has one
// result, so an op read outside its group stays out of it.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FORMELEMENTWISEREGIONSPASS
#define GEN_PASS_DEF_UNFUSEELEMENTWISEREGIONSPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

static bool isF32OrF64(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF32() || e.isF64();
}

/// Whether `op` is an elementwise rlx op of one f32/f64 arith / math
/// scalar with a static ranked result.
static bool isGroupable(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return false;
  if (isa<ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SinOp, CosOp, TanOp, AtanOp,
          NegOp, AbsOp, RoundOp, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp,
          PowOp>(op))
    return llvm::all_of(op->getOperandTypes(),
                        [&](Type t) {
                          return getElementTypeOrSelf(t) ==
                                 type.getElementType();
                        }) &&
           isF32OrF64(type);
  if (auto cmp = dyn_cast<CmpOp>(op))
    return isF32OrF64(cmp.getLhs().getType()) &&
           cmp.getLhs().getType() != Type() &&
           getElementTypeOrSelf(cmp.getRhs().getType()) ==
               getElementTypeOrSelf(cmp.getLhs().getType());
  if (auto where = dyn_cast<WhereOp>(op))
    return isF32OrF64(type) &&
           getElementTypeOrSelf(where.getOnTrue().getType()) ==
               type.getElementType() &&
           getElementTypeOrSelf(where.getOnFalse().getType()) ==
               type.getElementType();
  if (auto castOp = dyn_cast<CastOp>(op))
    return isF32OrF64(castOp.getInput().getType()) && isF32OrF64(type);
  return false;
}

static arith::CmpFPredicate toCmpF(CmpPredicate p) {
  switch (p) {
  case CmpPredicate::EQ:
    return arith::CmpFPredicate::OEQ;
  case CmpPredicate::NE:
    return arith::CmpFPredicate::UNE;
  case CmpPredicate::LT:
    return arith::CmpFPredicate::OLT;
  case CmpPredicate::LE:
    return arith::CmpFPredicate::OLE;
  case CmpPredicate::GT:
    return arith::CmpFPredicate::OGT;
  case CmpPredicate::GE:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown predicate");
}

static std::optional<CmpPredicate> fromCmpF(arith::CmpFPredicate p) {
  switch (p) {
  case arith::CmpFPredicate::OEQ:
    return CmpPredicate::EQ;
  case arith::CmpFPredicate::UNE:
    return CmpPredicate::NE;
  case arith::CmpFPredicate::OLT:
    return CmpPredicate::LT;
  case arith::CmpFPredicate::OLE:
    return CmpPredicate::LE;
  case arith::CmpFPredicate::OGT:
    return CmpPredicate::GT;
  case arith::CmpFPredicate::OGE:
    return CmpPredicate::GE;
  default:
    return std::nullopt;
  }
}

/// The scalar of groupable `op` on scalar operands `a`.
static Value buildScalar(OpBuilder &b, Location loc, Operation *op,
                         ValueRange a, Type element) {
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](ExpOp) { return math::ExpOp::create(b, loc, a[0]); })
      .Case([&](LogOp) { return math::LogOp::create(b, loc, a[0]); })
      .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, a[0]); })
      .Case([&](RsqrtOp) { return math::RsqrtOp::create(b, loc, a[0]); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, a[0]); })
      .Case([&](SinOp) { return math::SinOp::create(b, loc, a[0]); })
      .Case([&](CosOp) { return math::CosOp::create(b, loc, a[0]); })
      .Case([&](TanOp) { return math::TanOp::create(b, loc, a[0]); })
      .Case([&](AtanOp) { return math::AtanOp::create(b, loc, a[0]); })
      .Case([&](NegOp) { return arith::NegFOp::create(b, loc, a[0]); })
      .Case([&](AbsOp) { return math::AbsFOp::create(b, loc, a[0]); })
      .Case([&](RoundOp) { return math::RoundEvenOp::create(b, loc, a[0]); })
      .Case([&](AddOp) { return arith::AddFOp::create(b, loc, a[0], a[1]); })
      .Case([&](SubOp) { return arith::SubFOp::create(b, loc, a[0], a[1]); })
      .Case([&](MulOp) { return arith::MulFOp::create(b, loc, a[0], a[1]); })
      .Case([&](DivOp) { return arith::DivFOp::create(b, loc, a[0], a[1]); })
      .Case(
          [&](MaxOp) { return arith::MaximumFOp::create(b, loc, a[0], a[1]); })
      .Case(
          [&](MinOp) { return arith::MinimumFOp::create(b, loc, a[0], a[1]); })
      .Case([&](PowOp) { return math::PowFOp::create(b, loc, a[0], a[1]); })
      .Case([&](CmpOp cmp) {
        return arith::CmpFOp::create(b, loc, toCmpF(cmp.getPredicate()), a[0],
                                     a[1]);
      })
      .Case([&](WhereOp) {
        return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
      })
      .Case([&](CastOp) -> Value {
        Type from = a[0].getType();
        if (from == element)
          return a[0];
        if (element.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
          return arith::ExtFOp::create(b, loc, element, a[0]);
        return arith::TruncFOp::create(b, loc, element, a[0]);
      })
      .Default([](Operation *) { return Value(); });
}

namespace {

// a chain of groupable elementwise ops, all read inside the chain but the
// last -> rlx.elementwise_region of their scalars
struct FormElementwiseRegion : RewritePattern {
  FormElementwiseRegion(MLIRContext *context, unsigned maxOps)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxOps(maxOps) {}

  LogicalResult matchAndRewrite(Operation *root,
                                PatternRewriter &rewriter) const override {
    if (!isGroupable(root))
      return failure();
    auto type = cast<RankedTensorType>(root->getResult(0).getType());
    auto joins = [&](Operation *op) {
      return isGroupable(op) && op->getBlock() == root->getBlock() &&
             cast<RankedTensorType>(op->getResult(0).getType()).getShape() ==
                 type.getShape();
    };
    // An op whose readers may all take it into their region is left to
    // them.
    if (!root->use_empty() && llvm::all_of(root->getUsers(), joins))
      return rewriter.notifyMatchFailure(root,
                                         "left to the region of its readers");
    llvm::SetVector<Operation *> group;
    group.insert(root);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < group.size(); ++i) {
        for (Value v : group[i]->getOperands()) {
          Operation *def = v.getDefiningOp();
          if (!def || group.contains(def) || !joins(def) ||
              !llvm::all_of(def->getUsers(), [&](Operation *user) {
                return group.contains(user);
              }))
            continue;
          if (group.size() >= maxOps)
            break;
          group.insert(def);
          changed = true;
        }
      }
    }
    if (group.size() < 2)
      return rewriter.notifyMatchFailure(
          root, "no producer to group with (other readers, another shape or "
                "no elementwise producer)");
    SmallVector<Operation *> ops(group.begin(), group.end());
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    llvm::SetVector<Value> inputs;
    for (Operation *op : ops)
      for (Value v : op->getOperands())
        if (!group.contains(v.getDefiningOp()))
          inputs.insert(v);

    Location loc = root->getLoc();
    rewriter.setInsertionPoint(root);
    auto region = ElementwiseRegionOp::create(rewriter, loc, TypeRange{type},
                                              inputs.getArrayRef());
    SmallVector<Type> argTypes;
    SmallVector<Location> argLocs;
    for (Value v : inputs) {
      argTypes.push_back(getElementTypeOrSelf(v.getType()));
      argLocs.push_back(v.getLoc());
    }
    Block *block =
        rewriter.createBlock(&region.getBody(), {}, argTypes, argLocs);
    IRMapping map;
    map.map(inputs.getArrayRef(), block->getArguments());
    for (Operation *op : ops) {
      SmallVector<Value> scalars = llvm::map_to_vector(
          op->getOperands(), [&](Value v) { return map.lookup(v); });
      Type element = getElementTypeOrSelf(op->getResult(0).getType());
      map.map(op->getResult(0),
              buildScalar(rewriter, op->getLoc(), op, scalars, element));
    }
    Value last = map.lookup(root->getResult(0));
    YieldOp::create(rewriter, loc, ValueRange(last));
    rewriter.replaceOp(root, region->getResults());
    for (Operation *op : llvm::reverse(ops))
      if (op != root)
        rewriter.eraseOp(op);
    return success();
  }

  unsigned maxOps;
};

// rlx.elementwise_region -> one rlx op per scalar op of its body
struct UnfuseElementwiseRegion : OpRewritePattern<ElementwiseRegionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ElementwiseRegionOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    Block &body = op.getBody().front();
    if (op.getNumResults() != 1 || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs one static result");
    // Check first: no IR changes on failure.
    for (Operation &inner : body.without_terminator()) {
      bool known =
          isa<math::ExpOp, math::LogOp, math::SqrtOp, math::RsqrtOp,
              math::TanhOp, math::SinOp, math::CosOp, math::TanOp, math::AtanOp,
              arith::NegFOp, math::AbsFOp, math::RoundEvenOp, arith::AddFOp,
              arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::MaximumFOp,
              arith::MinimumFOp, math::PowFOp, arith::SelectOp, arith::ExtFOp,
              arith::TruncFOp>(inner);
      if (auto cmp = dyn_cast<arith::CmpFOp>(inner))
        known = fromCmpF(cmp.getPredicate()).has_value();
      if (!known || inner.getNumRegions() != 0 ||
          !llvm::all_of(inner.getAttrs(), [&](NamedAttribute a) {
            return isa<arith::CmpFOp>(inner) ||
                   (isa<arith::FastMathFlagsAttr>(a.getValue()) &&
                    cast<arith::FastMathFlagsAttr>(a.getValue()).getValue() ==
                        arith::FastMathFlags::none);
          }))
        return rewriter.notifyMatchFailure(
            op, "the body holds a scalar op with no one-op rlx form");
    }
    Value yielded = body.getTerminator()->getOperand(0);
    if (auto arg = dyn_cast<BlockArgument>(yielded))
      if (op.getInputs()[arg.getArgNumber()].getType() != type)
        return rewriter.notifyMatchFailure(op, "yields a broadcast input");

    Location loc = op.getLoc();
    IRMapping map;
    map.map(body.getArguments(), op.getInputs());
    for (Operation &inner : body.without_terminator()) {
      SmallVector<Value> a = llvm::map_to_vector(
          inner.getOperands(), [&](Value v) { return map.lookup(v); });
      Type result = type.clone(inner.getResult(0).getType());
      Value v =
          TypeSwitch<Operation *, Value>(&inner)
              .Case([&](math::ExpOp) {
                return ExpOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::LogOp) {
                return LogOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::SqrtOp) {
                return SqrtOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::RsqrtOp) {
                return RsqrtOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::TanhOp) {
                return TanhOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::SinOp) {
                return SinOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::CosOp) {
                return CosOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::TanOp) {
                return TanOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::AtanOp) {
                return AtanOp::create(rewriter, loc, a[0]);
              })
              .Case([&](arith::NegFOp) {
                return NegOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::AbsFOp) {
                return AbsOp::create(rewriter, loc, a[0]);
              })
              .Case([&](math::RoundEvenOp) {
                return RoundOp::create(rewriter, loc, a[0]);
              })
              .Case([&](arith::AddFOp) {
                return AddOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](arith::SubFOp) {
                return SubOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](arith::MulFOp) {
                return MulOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](arith::DivFOp) {
                return DivOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](arith::MaximumFOp) {
                return MaxOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](arith::MinimumFOp) {
                return MinOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](math::PowFOp) {
                return PowOp::create(rewriter, loc, a[0], a[1]);
              })
              .Case([&](arith::CmpFOp cmp) {
                return CmpOp::create(rewriter, loc,
                                     *fromCmpF(cmp.getPredicate()), a[0], a[1]);
              })
              .Case([&](arith::SelectOp) {
                return WhereOp::create(rewriter, loc, a[0], a[1], a[2]);
              })
              .Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *) {
                return CastOp::create(rewriter, loc, result, a[0]);
              })
              .Default([](Operation *) { return Value(); });
      map.map(inner.getResult(0), v);
    }
    rewriter.replaceOp(op, map.lookup(yielded));
    return success();
  }
};

struct FormElementwiseRegionsPass
    : rlx::impl::FormElementwiseRegionsPassBase<FormElementwiseRegionsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFormElementwiseRegionsPatterns(patterns, maxOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

struct UnfuseElementwiseRegionsPass
    : rlx::impl::UnfuseElementwiseRegionsPassBase<
          UnfuseElementwiseRegionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateUnfuseElementwiseRegionsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void rlx::populateFormElementwiseRegionsPatterns(RewritePatternSet &patterns,
                                                 unsigned maxOps) {
  patterns.add<FormElementwiseRegion>(patterns.getContext(), maxOps);
}

void rlx::populateUnfuseElementwiseRegionsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<UnfuseElementwiseRegion>(patterns.getContext());
}
