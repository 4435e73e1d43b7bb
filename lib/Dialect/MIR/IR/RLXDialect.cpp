//===- RLXDialect.cpp - RLX MIR dialect registration ----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

using namespace mlir;
using namespace mlir::rlx;

#include "RLX/Dialect/MIR/IR/RLXDialect.cpp.inc"

void RLXDialect::initialize() {
  registerAttributes();
  registerOps();
}

Operation *RLXDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
