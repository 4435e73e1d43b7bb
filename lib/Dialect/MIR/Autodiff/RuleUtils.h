//===- RuleUtils.h - helpers shared by the differentiation rules -*- C++
//-*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The glue that turns a pair of free functions (VJP, JVP) into an external
// model of DifferentiableOpInterface, and the IR builders that most rules
// need: constants, unbroadcasting a cotangent, null-aware sums.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_MIR_AUTODIFF_RULEUTILS_H
#define RLX_LIB_DIALECT_MIR_AUTODIFF_RULEUTILS_H

#include "RLX/Dialect/MIR/IR/RLXAutodiffInterface.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

namespace mlir {
namespace rlx {
namespace autodiff {

template <typename OpT>
using Rule = LogicalResult (*)(OpT, OpBuilder &, ValueRange,
                               SmallVectorImpl<Value> &);

/// Whether the rules of an OpT give operand `index` its derivative.
template <typename OpT> using OperandPredicate = bool (*)(OpT, unsigned);

/// DifferentiableOpInterface for OpT from a VJP and a JVP function (and,
/// for ops with float operands the rules cannot differentiate, a predicate
/// naming those that they can).
template <typename OpT, Rule<OpT> Vjp, Rule<OpT> Jvp,
          OperandPredicate<OpT> HasDerivative = nullptr>
struct RuleModel : DifferentiableOpInterface::ExternalModel<
                       RuleModel<OpT, Vjp, Jvp, HasDerivative>, OpT> {
  LogicalResult buildVJP(Operation *op, OpBuilder &b, ValueRange cotangents,
                         SmallVectorImpl<Value> &out) const {
    return Vjp(cast<OpT>(op), b, cotangents, out);
  }
  LogicalResult buildJVP(Operation *op, OpBuilder &b, ValueRange tangents,
                         SmallVectorImpl<Value> &out) const {
    return Jvp(cast<OpT>(op), b, tangents, out);
  }
  bool hasOperandDerivative(Operation *op, unsigned index) const {
    return !HasDerivative || HasDerivative(cast<OpT>(op), index);
  }
};

template <typename OpT, Rule<OpT> Vjp, Rule<OpT> Jvp,
          OperandPredicate<OpT> HasDerivative = nullptr>
void attach(MLIRContext *ctx) {
  OpT::template attachInterface<RuleModel<OpT, Vjp, Jvp, HasDerivative>>(
      *ctx);
}

/// Whether values of `type` carry derivatives: float or complex tensors.
/// Complex cotangents follow PyTorch: the cotangent of z = a + ib is
/// dL/da + i dL/db (docs/RationaleAutodiff.md), so a rule's VJP is the
/// adjoint of its real-linear Jacobian: conjugated derivatives.
bool isDifferentiable(Type type);

/// A rank-0 constant `value` of `like`'s element type (a complex one has a
/// zero imaginary part); binary rlx ops broadcast it.
Value scalar(OpBuilder &b, Location loc, Type like, double value);

/// A tensor of type `type` filled with `value` (complex: with a zero
/// imaginary part): a constant for a static shape; for a dynamic one, the
/// value expanded with the dynamic sizes of `like` (same rank), or null
/// with an error at `loc` when there is no `like`.
Value splat(OpBuilder &b, Location loc, Type type, double value,
            Value like = {});

/// The complex conjugate of `v`; `v` itself when it is real.
Value conj(OpBuilder &b, Location loc, Value v);

/// `ct`, the cotangent of a value broadcast from `target`'s shape, summed
/// over the broadcast dims and reshaped to `target`.
Value unbroadcast(OpBuilder &b, Location loc, Value ct, Type target);

/// `v` broadcast to the type of `like` (itself when the types agree); the
/// dynamic sizes that `v` does not carry are read from `like`.
Value broadcastTo(OpBuilder &b, Location loc, Value v, Value like);

/// a + b where a null Value stands for zero.
Value addOrNull(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// a - b where a null Value stands for zero.
Value subOrNull(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// The JVP of an op linear in its float operands: the op itself applied
/// to the tangents (zeros for null ones; non-float operands unchanged).
LogicalResult linearJvp(Operation *op, OpBuilder &b, ValueRange tangents,
                        SmallVectorImpl<Value> &out);

/// `axis` in [0, rank) for an axis that may count from the end.
int64_t normalizeAxis(int64_t axis, int64_t rank);

/// `v` with the `axes` (sorted, of the result) reinserted as size-1 dims,
/// then broadcast to the shape of `full` (the value a reduction over
/// `axes` reduced).
Value expandReduced(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> axes,
                    Value full);

/// 1/n as a rank-0 tensor of `v`'s element type, n the number of elements
/// of `v` that a reduction over `axes` (sorted) combines: a constant when
/// those dims are static, else counted at run time.
Value reciprocalCount(OpBuilder &b, Location loc, Value v,
                      ArrayRef<int64_t> axes);

/// Builds a computation from values captured by the callee; returns its
/// outputs.
using Decomposition = function_ref<FailureOr<SmallVector<Value>>(OpBuilder &)>;

/// The cotangents of `inputs` through `decomposition` (built at `b`, then
/// differentiated op by op with their rules) given its outputs'
/// cotangents (null: zero). Rules of composite ops (attention's forward
/// rule, the second-order rules of the backward ops) are written this way.
LogicalResult vjpOf(OpBuilder &b, ValueRange inputs,
                    Decomposition decomposition, ValueRange cotangents,
                    SmallVectorImpl<Value> &inputCts);

/// The tangents of `decomposition`'s outputs given those of `inputs`
/// (null: zero).
LogicalResult jvpOf(OpBuilder &b, ValueRange inputs,
                    Decomposition decomposition, ValueRange tangents,
                    SmallVectorImpl<Value> &outputTs);

// One registration function per rule family (one file each).
void attachElementwiseRules(MLIRContext *ctx);
void attachReductionRules(MLIRContext *ctx);
void attachLinalgRules(MLIRContext *ctx);
void attachShapeRules(MLIRContext *ctx);
void attachNNRules(MLIRContext *ctx);
void attachControlFlowRules(MLIRContext *ctx);
void attachQuantRules(MLIRContext *ctx);
void attachConvRules(MLIRContext *ctx);
void attachFFTRules(MLIRContext *ctx);

} // namespace autodiff
} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_MIR_AUTODIFF_RULEUTILS_H
