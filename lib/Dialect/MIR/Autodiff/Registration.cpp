//===- Registration.cpp - attach every differentiation rule ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Autodiff/Autodiff.h"
#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::rlx;

void rlx::registerDifferentiableOpModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, RLXDialect *) {
    autodiff::attachElementwiseRules(ctx);
    autodiff::attachReductionRules(ctx);
    autodiff::attachLinalgRules(ctx);
    autodiff::attachShapeRules(ctx);
    autodiff::attachNNRules(ctx);
    autodiff::attachControlFlowRules(ctx);
    autodiff::attachQuantRules(ctx);
    autodiff::attachConvRules(ctx);
    autodiff::attachFFTRules(ctx);
  });
}
