//===- MSLTranslationRegistration.cpp - --rlx-to-msl, --rlx-to-metal-host -===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Metal/MSLEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

/// The dialects of the Metal pipeline's output, which both translations
/// read, and cf, whose branches the emitter reports.
static void registerDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  vector::VectorDialect>();
}

void rlx::registerMetalTranslations() {
  TranslateFromMLIRRegistration msl(
      "rlx-to-msl",
      "Write the gpu.module kernels (from --rlx-metal-pipeline) as Metal "
      "Shading Language",
      [](Operation *op, raw_ostream &os) { return translateToMSL(op, os); },
      registerDialects);
  TranslateFromMLIRRegistration host(
      "rlx-to-metal-host",
      "Write the host functions' buffers and kernel launches (from "
      "--rlx-metal-pipeline) as the JSON a Metal host program follows",
      [](Operation *op, raw_ostream &os) {
        return translateToMetalHostDescription(op, os);
      },
      registerDialects);
}
