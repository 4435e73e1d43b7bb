//===- Decompositions.h - composite rlx ops in primitives -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Norms and attention written with primitive rlx ops that have rules, so
// that vjpOf / jvpOf can differentiate them (and the dedicated backward
// ops, which are their VJPs) to any order.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_DIALECT_MIR_AUTODIFF_DECOMPOSITIONS_H
#define RLX_LIB_DIALECT_MIR_AUTODIFF_DECOMPOSITIONS_H

#include "RuleUtils.h"

namespace mlir {
namespace rlx {
namespace autodiff {

/// layer_norm(x, gamma, beta) over the last axis (beta may be null).
Value decomposeLayerNorm(OpBuilder &b, Location loc, Value x, Value gamma,
                         Value beta, double epsilon);

/// rms_norm(x, gamma) over the last axis.
Value decomposeRmsNorm(OpBuilder &b, Location loc, Value x, Value gamma,
                       double epsilon);

/// group_norm(x [N, C, ...], gamma, beta) with `groups` channel groups;
/// N may be dynamic, the other dims must be static.
Value decomposeGroupNorm(OpBuilder &b, Location loc, Value x, Value gamma,
                         Value beta, int64_t groups, double epsilon);

/// batch_norm_inference(x [N, C, ...], gamma, beta, mean, variance).
Value decomposeBatchNorm(OpBuilder &b, Location loc, Value x, Value gamma,
                         Value beta, Value mean, Value variance,
                         double epsilon);

/// The attributes of an rlx.attention.
struct AttentionAttrs {
  MaskKind mask;
  std::optional<int64_t> window;
  std::optional<double> scale;
};

/// rlx.attention(q, k, v [, mask]) with grouped-query heads, every mask
/// kind and zeros for fully masked rows; fails (with an error at `loc`)
/// on dynamic shapes.
FailureOr<Value> decomposeAttention(OpBuilder &b, Location loc, Value q,
                                    Value k, Value v, Value mask,
                                    const AttentionAttrs &attrs);

} // namespace autodiff
} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_DIALECT_MIR_AUTODIFF_DECOMPOSITIONS_H
