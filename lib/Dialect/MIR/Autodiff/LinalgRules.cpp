//===- LinalgRules.cpp - VJP/JVP of matmul and dense_solve ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// dot_general has no rule of its own: --rlx-expand-autodiff legalizes it
// into transpose/reshape/matmul first (as it unfuses fused ops).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

/// `x` [.., M, C] (static, of rank 3 or more, not transposed) as its
/// [L * M, C] rows, or null: a matmul's operand whose rows all meet one
/// rank-2 weight.
static Value flattenRows(OpBuilder &b, Location loc, Value x, bool transposed) {
  auto type = cast<RankedTensorType>(x.getType());
  if (transposed || type.getRank() < 3 || !type.hasStaticShape())
    return nullptr;
  int64_t cols = type.getShape().back();
  return ReshapeOp::create(
      b, loc, type.clone({type.getNumElements() / cols, cols}), x);
}

// C = op(A) op(B) with op = identity or swapping the last two dims. The
// cotangents dop(A) = dC op(B)^H and dop(B) = op(A)^H dC are folded into
// one matmul each by choosing its transpose flags (the conjugates only
// matter for complex matrices); batch dims that were broadcast are summed
// away.
static LogicalResult matmulVjp(MatmulOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value a = conj(b, loc, op.getLhs()), w = conj(b, loc, op.getRhs());
  Value dc = ct[0];
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  Value da = ta ? MatmulOp::create(b, loc, w, dc, /*transpose_a=*/tb, true)
                : MatmulOp::create(b, loc, dc, w, false, /*transpose_b=*/!tb);
  Value dw;
  bool sharedWeight =
      cast<RankedTensorType>(op.getRhs().getType()).getRank() == 2;
  Value rows = sharedWeight ? flattenRows(b, loc, a, ta) : Value();
  if (rows) {
    // A weight shared by every row of an [.., M, K] input: its cotangent is
    // one product over all L * M rows, not L products summed afterwards (an
    // [L, K, N] intermediate and a reduction over L).
    Value dcRows = flattenRows(b, loc, dc, /*transposed=*/false);
    dw = tb ? MatmulOp::create(b, loc, dcRows, rows, true, false)
            : MatmulOp::create(b, loc, rows, dcRows, true, false);
  } else {
    dw = tb ? MatmulOp::create(b, loc, dc, a, true, /*transpose_b=*/ta)
            : MatmulOp::create(b, loc, a, dc, /*transpose_a=*/!ta, false);
  }
  out.push_back(unbroadcast(b, loc, da, op.getLhs().getType()));
  out.push_back(unbroadcast(b, loc, dw, op.getRhs().getType()));
  return success();
}

static LogicalResult matmulJvp(MatmulOp op, OpBuilder &b, ValueRange t,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  Value sum;
  if (t[0])
    sum = MatmulOp::create(b, loc, t[0], op.getRhs(), ta, tb);
  if (t[1])
    sum = addOrNull(b, loc, sum,
                    MatmulOp::create(b, loc, op.getLhs(), t[1], ta, tb));
  out.push_back(broadcastTo(b, loc, sum, op.getResult()));
  return success();
}

/// `m` with its last two dims swapped.
static Value transposeLast2(OpBuilder &b, Location loc, Value m) {
  int64_t rank = cast<RankedTensorType>(m.getType()).getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 1], perm[rank - 2]);
  return TransposeOp::create(b, loc, m, perm);
}

// X = A^-1 B: dB = A^-T dX, dA = -dB X^T.
static LogicalResult solveVjp(DenseSolveOp op, OpBuilder &b, ValueRange ct,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value db =
      DenseSolveOp::create(b, loc, transposeLast2(b, loc, op.getA()), ct[0]);
  Value da = NegOp::create(
      b, loc, MatmulOp::create(b, loc, db, op.getResult(), false, true));
  out.push_back(unbroadcast(b, loc, da, op.getA().getType()));
  out.push_back(unbroadcast(b, loc, db, op.getB().getType()));
  return success();
}

// dX = A^-1 (dB - dA X)
static LogicalResult solveJvp(DenseSolveOp op, OpBuilder &b, ValueRange t,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value rhs = subOrNull(
      b, loc, t[1],
      t[0] ? Value(MatmulOp::create(b, loc, t[0], op.getResult())) : Value());
  rhs = broadcastTo(b, loc, rhs, op.getResult());
  out.push_back(DenseSolveOp::create(b, loc, op.getA(), rhs));
  return success();
}

void autodiff::attachLinalgRules(MLIRContext *ctx) {
  attach<MatmulOp, matmulVjp, matmulJvp>(ctx);
  attach<DenseSolveOp, solveVjp, solveJvp>(ctx);
}
