//===- FusionMatchers.h - matchers shared by fusion patterns ----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Matchers that more than one fusion pattern family uses, and the parts of
// an attention block that fusion matches and unfusing builds from (private
// to RLXMIRTransforms).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_MIR_TRANSFORMS_FUSIONMATCHERS_H
#define LIB_DIALECT_MIR_TRANSFORMS_FUSIONMATCHERS_H

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace rlx {

/// The operands and attributes of an rlx.fused_attention_block: what a
/// primitive attention chain computes, and what unfusing rebuilds it from.
struct AttentionBlockParts {
  Value input, wQkv, wOut, qkvBias, outBias, cos, sin, attnMask;
  int64_t heads, kvHeads;
  MaskKind mask;
  IntegerAttr window;
  FloatAttr scale;
  RopeStyle ropeStyle;
};

/// Matches `op` (rlx.add, rlx.matmul or rlx.fused_matmul_bias_act) as the
/// output projection of the attention chain that `--rlx-unfuse` builds
/// for rlx.fused_attention_block, every intermediate read by the chain
/// only. Reports why not on `op` through `rewriter`.
FailureOr<AttentionBlockParts> matchAttentionBlock(PatternRewriter &rewriter,
                                                   Operation *op);

} // namespace rlx
} // namespace mlir

#endif // LIB_DIALECT_MIR_TRANSFORMS_FUSIONMATCHERS_H
