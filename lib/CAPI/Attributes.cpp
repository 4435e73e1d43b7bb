//===- Attributes.cpp - C API of RLX's attributes -------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "rlx-c/Attributes.h"

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"
#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

bool rlxAttributeIsAQuantScheme(MlirAttribute attr) {
  return isa<rlx::QuantSchemeAttr>(unwrap(attr));
}

MlirAttribute rlxQuantSchemeAttrGet(MlirContext ctx, MlirStringRef kind,
                                    int64_t blockSize) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<rlx::RLXDialect>();
  Location loc = UnknownLoc::get(context);
  std::optional<rlx::QuantKind> parsed = rlx::symbolizeQuantKind(unwrap(kind));
  if (!parsed) {
    emitError(loc) << "unknown quantization scheme '" << unwrap(kind) << "'";
    return {nullptr};
  }
  return wrap(rlx::QuantSchemeAttr::getChecked(
      [&] { return emitError(loc); }, context, *parsed, blockSize));
}

MlirStringRef rlxQuantSchemeAttrGetKind(MlirAttribute attr) {
  return wrap(
      rlx::stringifyQuantKind(cast<rlx::QuantSchemeAttr>(unwrap(attr)).getKind()));
}

int64_t rlxQuantSchemeAttrGetBlockSize(MlirAttribute attr) {
  return cast<rlx::QuantSchemeAttr>(unwrap(attr)).getEffectiveBlockSize();
}

bool rlxAttributeIsAPlan(MlirAttribute attr) {
  return isa<rlx::lir::PlanAttr>(unwrap(attr));
}

int64_t rlxPlanAttrGetArenaSize(MlirAttribute attr) {
  return cast<rlx::lir::PlanAttr>(unwrap(attr)).getArenaSize();
}

int64_t rlxPlanAttrGetAlignment(MlirAttribute attr) {
  return cast<rlx::lir::PlanAttr>(unwrap(attr)).getAlignment();
}

intptr_t rlxPlanAttrGetNumBuffers(MlirAttribute attr) {
  return cast<rlx::lir::PlanAttr>(unwrap(attr)).getBuffers().size();
}

RlxPlannedBuffer rlxPlanAttrGetBuffer(MlirAttribute attr, intptr_t pos) {
  auto buffer = cast<rlx::lir::BufferAttr>(
      cast<rlx::lir::PlanAttr>(unwrap(attr)).getBuffers()[pos]);
  return {buffer.getId(),    buffer.getOffset(), buffer.getSize(),
          buffer.getStart(), buffer.getEnd(),    buffer.getRoot().value_or(-1)};
}
