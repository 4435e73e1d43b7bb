//===- Autodiff.h - reverse and forward differentiation of rlx --*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The differentiation of a straight-line rlx function through the ops'
// DifferentiableOpInterface rules, for `--rlx-expand-autodiff` and for
// compilers that build gradient programs themselves.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_AUTODIFF_AUTODIFF_H
#define RLX_DIALECT_MIR_AUTODIFF_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace rlx {

/// Adds a registry extension attaching every rule (the external models of
/// DifferentiableOpInterface) to the rlx dialect.
void registerDifferentiableOpModels(DialectRegistry &registry);

/// Turns `fn` (one block, returning one rank-0 float loss) into a function
/// returning the loss followed by its gradient with respect to each
/// argument in `wrt` (indices in [0, #args)): appends the reverse sweep.
/// A `wrt` argument that does not reach the loss gets zeros, or an error
/// when `unusedIsError`. Errors are reported on the op that has no rule
/// (with a note at `user`, the op that asked for the derivative).
LogicalResult appendGradient(func::FuncOp fn, ArrayRef<int64_t> wrt,
                             bool unusedIsError, Operation *user);

/// Turns `fn` (one block) into a function taking one tangent per argument
/// after its arguments (of the same types) and returning its results
/// followed by their tangents: appends the forward tangent computation.
LogicalResult appendTangents(func::FuncOp fn, Operation *user);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_AUTODIFF_AUTODIFF_H
