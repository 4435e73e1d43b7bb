//===- ConvertRLXToLinalg.cpp - the convert-rlx-to-linalg pass ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CONVERTRLXTOLINALGPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

/// Unsigned integers become signless of the same width.
static Type toSignless(Type type) {
  if (auto i = dyn_cast<IntegerType>(type); i && !i.isSignless())
    return IntegerType::get(type.getContext(), i.getWidth());
  return type;
}

RLXToLinalgTypeConverter::RLXToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](IntegerType type) { return toSignless(type); });
  addConversion([](RankedTensorType type) {
    return type.clone(toSignless(type.getElementType()));
  });
  // Values whose type only lost its sign are the same bits.
  auto bitcast = [](OpBuilder &b, Type type, ValueRange inputs,
                    Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(bitcast);
  addTargetMaterialization(bitcast);
}

void rlx::populateRLXToLinalgConversionPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  populateElementwiseToLinalgPatterns(converter, patterns);
  populateShapeToTensorPatterns(converter, patterns);
  populateReductionToLinalgPatterns(converter, patterns);
  populateMatmulToLinalgPatterns(converter, patterns);
  populateNNToLinalgPatterns(converter, patterns);
  populateDecodeToLinalgPatterns(converter, patterns);
  populateQuantToLinalgPatterns(converter, patterns);
  populateFFTToLinalgPatterns(converter, patterns);
  populateSolveToLinalgPatterns(converter, patterns);
  populateConvToLinalgPatterns(converter, patterns);
  populateBackwardToLinalgPatterns(converter, patterns);
  populateControlFlowToSCFPatterns(converter, patterns);
  // Fused ops and selective_scan lower through rlx op chains.
  populateUnfusePatterns(patterns);
  populateSelectiveScanToScanPatterns(patterns);
}

namespace {
struct ConvertRLXToLinalgPass
    : rlx::impl::ConvertRLXToLinalgPassBase<ConvertRLXToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RLXToLinalgTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, complex::ComplexDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    target.addIllegalDialect<RLXDialect>();
    // The body of an elementwise region is cloned as it is.
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(ctx);
    populateRLXToLinalgConversionPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
