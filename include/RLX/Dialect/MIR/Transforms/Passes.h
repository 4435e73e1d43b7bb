//===- Passes.h - rlx (MIR) transformation passes ---------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_PASSES_H
#define RLX_DIALECT_MIR_TRANSFORMS_PASSES_H

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

#define GEN_PASS_DECL
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"

/// `activation(x)` as its primitive op (`x` itself for none).
Value buildActivation(OpBuilder &b, Location loc, Value x,
                      Activation activation);

/// Patterns rewriting each fused op (and rlx.lora_matmul) into its
/// primitive chain.
void populateUnfusePatterns(RewritePatternSet &patterns);

/// int8 products from matmuls of dequantized values (rlx-quant-propagate).
void populateQuantPropagatePatterns(RewritePatternSet &patterns);

/// Patterns fusing matmul → add(bias) → activation into
/// rlx.fused_matmul_bias_act.
void populateFuseMatmulBiasActPatterns(RewritePatternSet &patterns);

/// Patterns fusing add → layer_norm / rms_norm into the residual norm ops.
void populateFuseResidualNormPatterns(RewritePatternSet &patterns);

/// Patterns fusing matmul, matmul → mul(silu(gate), up) into
/// rlx.fused_swiglu.
void populateFuseSwigluPatterns(RewritePatternSet &patterns);

/// Patterns fusing the QKV projection, head split, optional rope,
/// attention, head merge and output projection into
/// rlx.fused_attention_block.
void populateFuseAttentionBlockPatterns(RewritePatternSet &patterns);

/// The rewrites of `rlx-legalize`: unfusing every fused op, dot_general
/// into transpose/reshape/matmul, rlx.if into both regions and rlx.where,
/// and rlx.while unrolled to its max_iterations. `rlx-legalize` keeps only
/// those rooted at ops its target lacks.
void populateLegalizePatterns(RewritePatternSet &patterns);

/// rlx.selective_scan as an rlx.scan over the sequence (static shapes):
/// how it lowers, and how autodiff differentiates it (the scan unrolled).
void populateSelectiveScanToScanPatterns(RewritePatternSet &patterns);

/// Patterns fusing a whole BERT-style post-LN layer (primitive or partly
/// fused) into rlx.fused_transformer_layer.
void populateFuseTransformerLayerPatterns(RewritePatternSet &patterns);

/// Patterns merging matmuls of one input into one matmul of concatenated
/// weights followed by rlx.narrow.
void populateFuseSharedInputMatmulPatterns(RewritePatternSet &patterns);

/// Patterns moving a last-axis-keeping reshape before rlx.rms_norm.
void populateFuseRmsNormReshapePatterns(RewritePatternSet &patterns);

/// Patterns grouping chains of elementwise rlx ops (at most `maxOps` per
/// region) into rlx.elementwise_region.
void populateFormElementwiseRegionsPatterns(RewritePatternSet &patterns,
                                            unsigned maxOps = 16);

/// Patterns expanding rlx.elementwise_region back into rlx ops.
void populateUnfuseElementwiseRegionsPatterns(RewritePatternSet &patterns);

/// The families `rlx-fuse` applies when none is named: all but
/// elementwise-regions.
ArrayRef<StringRef> defaultFusionFamilies();

/// The fusion patterns of the families named in `families`
/// ("matmul-bias-act", "residual-norm", "swiglu", "attention-block",
/// "transformer-layer", "shared-input-matmul", "rms-norm-reshape",
/// "elementwise-regions"), or of all but elementwise-regions when it is
/// empty. Fails, adding nothing, on an unknown name.
LogicalResult populateFusionPatterns(RewritePatternSet &patterns,
                                     ArrayRef<std::string> families = {});

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_TRANSFORMS_PASSES_H
