//===- RLXLIRDialect.cpp - the rlx_lir dialect ----------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"
#include "RLX/Dialect/LIR/IR/RLXLIROps.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rlx::lir;

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "RLX/Dialect/LIR/IR/RLXLIRAttrs.cpp.inc"

void RLXLIRDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "RLX/Dialect/LIR/IR/RLXLIRAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RLX/Dialect/LIR/IR/RLXLIROps.cpp.inc"
      >();
}

LogicalResult RLXLIRDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() != getWeightsAttrName())
    return success();
  if (!isa<WeightLayoutAttr>(attr.getValue()))
    return op->emitError() << "'" << getWeightsAttrName()
                           << "' must be a #rlx_lir.weights layout";
  return success();
}
