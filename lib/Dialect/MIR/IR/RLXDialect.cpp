//===- RLXDialect.cpp - RLX MIR dialect registration ----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#include "RLX/Dialect/MIR/IR/RLXDialect.cpp.inc"

namespace {
/// rlx ops compute on tensors without hidden state, and the regions of its
/// control-flow ops (if, while, scan, custom_fn) are single blocks closed by
/// rlx.yield, so any of them may be inlined anywhere, and any single-block
/// function body into those regions: `--inline` then folds the functions
/// that rlx-expand-autodiff generates into their callers.
struct RLXInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void RLXDialect::initialize() {
  registerAttributes();
  registerOps();
  addInterfaces<RLXInlinerInterface>();
}

Operation *RLXDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
