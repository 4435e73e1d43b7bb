//===- RLXControlFlowOps.cpp - sequence and control-flow ops ---===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLXAsmDirectives.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXControlFlowOps.cpp.inc"

/// Checks that `region` (named `name`) takes arguments of `argTypes` and
/// ends in an `rlx.yield` of `yieldTypes`.
static LogicalResult verifyRegionSignature(Operation *op, Region &region,
                                           StringRef name, TypeRange argTypes,
                                           TypeRange yieldTypes) {
  Block &block = region.front();
  if (block.getArgumentTypes() != argTypes) {
    InFlightDiagnostic diag = op->emitOpError("region '")
                              << name << "' must take (";
    llvm::interleaveComma(argTypes, diag);
    diag << ") but takes (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    return diag << ")";
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError("region '") << name << "' must end in rlx.yield";
  if (yield.getOperandTypes() != yieldTypes) {
    InFlightDiagnostic diag = op->emitOpError("region '")
                              << name << "' must yield (";
    llvm::interleaveComma(yieldTypes, diag);
    diag << ") but yields (";
    llvm::interleaveComma(yield.getOperandTypes(), diag);
    return diag << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verifyRegions() {
  // The common leading length of xs (or `length`).
  int64_t length = getLength() ? static_cast<int64_t>(*getLength())
                               : ShapedType::kDynamic;
  SmallVector<Type> argTypes(getInits().getTypes());
  for (auto [i, x] : llvm::enumerate(getXs())) {
    auto type = cast<RankedTensorType>(x.getType());
    if (type.getRank() < 1)
      return emitOpError("xs #") << i << " must have a leading axis to scan";
    int64_t d = type.getDimSize(0);
    if (!dimsCompatible(d, length))
      return emitOpError("xs #")
             << i << " has leading dim " << dimStr(d)
             << " but the scan length is " << dimStr(length);
    length = refineDim(length, d);
    argTypes.push_back(type.clone(type.getShape().drop_front()));
  }
  if (getXs().empty() && !getLength())
    return emitOpError("needs 'length' when it has no xs");
  if (getLength() && static_cast<int64_t>(*getLength()) < 0)
    return emitOpError("'length' must be non-negative, got ")
           << static_cast<int64_t>(*getLength());
  if (getNumResults() == 0)
    return emitOpError("must have at least one result (a carry or a "
                       "stacked output)");
  size_t numCarry = getInits().size();
  if (getNumResults() < numCarry)
    return emitOpError("has ") << getNumResults() << " results but "
                               << numCarry << " carried values";
  for (auto [i, init] : llvm::enumerate(getInits()))
    if (getResult(i).getType() != init.getType())
      return emitOpError("result #") << i << " has type "
                                     << getResult(i).getType()
                                     << " but carry #" << i << " has type "
                                     << init.getType();
  SmallVector<Type> yieldTypes(getInits().getTypes());
  for (auto [i, result] :
       llvm::enumerate(getResults().drop_front(numCarry))) {
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getRank() < 1 || !dimsCompatible(type.getDimSize(0), length))
      return emitOpError("stacked output #")
             << i << " (" << type << ") must have leading dim "
             << dimStr(length);
    yieldTypes.push_back(type.clone(type.getShape().drop_front()));
  }
  return verifyRegionSignature(*this, getBody(), "body", argTypes,
                               yieldTypes);
}

//===----------------------------------------------------------------------===//
// SelectiveScanOp
//===----------------------------------------------------------------------===//

LogicalResult SelectiveScanOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto u = cast<RankedTensorType>(adaptor.getU().getType());
  auto delta = cast<RankedTensorType>(adaptor.getDelta().getType());
  auto a = cast<RankedTensorType>(adaptor.getA().getType());
  auto b = cast<RankedTensorType>(adaptor.getB().getType());
  auto c = cast<RankedTensorType>(adaptor.getC().getType());
  auto d = cast<RankedTensorType>(adaptor.getD().getType());
  if (failed(checkSameElementType(
          loc, name, adaptor.getOperands(),
          {"u", "delta", "A", "B", "C", "D"})) ||
      failed(checkRank(loc, name, "u", u, 3)) ||
      failed(checkRank(loc, name, "delta", delta, 3)) ||
      failed(checkRank(loc, name, "A", a, 2)) ||
      failed(checkRank(loc, name, "B", b, 3)) ||
      failed(checkRank(loc, name, "C", c, 3)) ||
      failed(checkRank(loc, name, "D", d, 1)))
    return failure();
  // Each logical size (batch, channels, length, state) appears in several
  // operands; check every occurrence against the others, refining through
  // dynamic dims so that two static sizes never disagree unnoticed.
  struct Use {
    StringRef operand;
    RankedTensorType type;
    int64_t dim;
  };
  auto agree = [&](StringRef what, ArrayRef<Use> uses) -> LogicalResult {
    int64_t size = ShapedType::kDynamic;
    StringRef from;
    for (const Use &use : uses) {
      int64_t d = use.type.getDimSize(use.dim);
      if (!dimsCompatible(size, d))
        return emitInferError(loc, name, "operand '", use.operand, "' dim ",
                              use.dim, " (", d, ") must match the ", what,
                              " of '", from, "' (", size, ")");
      if (!ShapedType::isDynamic(d) && ShapedType::isDynamic(size)) {
        size = d;
        from = use.operand;
      }
    }
    return success();
  };
  if (failed(agree("batch", {{"u", u, 0}, {"delta", delta, 0},
                             {"B", b, 0}, {"C", c, 0}})) ||
      failed(agree("channels", {{"u", u, 1}, {"delta", delta, 1},
                                {"A", a, 0}, {"D", d, 0}})) ||
      failed(agree("length", {{"u", u, 2}, {"delta", delta, 2},
                              {"B", b, 2}, {"C", c, 2}})) ||
      failed(agree("state size", {{"A", a, 1}, {"B", b, 1}, {"C", c, 1}})))
    return failure();
  types.push_back(u);
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verifyRegions() {
  if (getCondition().getType().getRank() != 0)
    return emitOpError("'condition' must be a rank-0 tensor<i1>, got ")
           << getCondition().getType();
  if (failed(verifyRegionSignature(*this, getThenRegion(), "then", {},
                                   getResultTypes())))
    return failure();
  return verifyRegionSignature(*this, getElseRegion(), "else", {},
                               getResultTypes());
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

LogicalResult WhileOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  llvm::append_range(types, adaptor.getInits().getTypes());
  return success();
}

LogicalResult WhileOp::verifyRegions() {
  if (std::optional<uint64_t> bound = getMaxIterations();
      bound && static_cast<int64_t>(*bound) < 0)
    return emitOpError("'max_iterations' must be non-negative, got ")
           << static_cast<int64_t>(*bound);
  if (getInits().empty())
    return emitOpError("must carry at least one value");
  TypeRange carried = getInits().getTypes();
  Type predicate = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionSignature(*this, getCond(), "cond", carried,
                                   predicate)))
    return failure();
  return verifyRegionSignature(*this, getBody(), "body", carried, carried);
}

//===----------------------------------------------------------------------===//
// CustomFnOp
//===----------------------------------------------------------------------===//

LogicalResult CustomFnOp::verifyRegions() {
  TypeRange inputs = getInputs().getTypes(), results = getResultTypes();
  if (failed(verifyRegionSignature(*this, getFwd(), "fwd", inputs, results)))
    return failure();
  if (!getVjp().empty()) {
    if (!getVjp().hasOneBlock())
      return emitOpError("region 'vjp' must have one block");
    SmallVector<Type> args(inputs);
    llvm::append_range(args, results);
    llvm::append_range(args, results);
    if (failed(verifyRegionSignature(*this, getVjp(), "vjp", args, inputs)))
      return failure();
  }
  if (!getJvp().empty()) {
    if (!getJvp().hasOneBlock())
      return emitOpError("region 'jvp' must have one block");
    SmallVector<Type> args(inputs), yields(results);
    llvm::append_range(args, inputs);
    llvm::append_range(yields, results);
    if (failed(verifyRegionSignature(*this, getJvp(), "jvp", args, yields)))
      return failure();
  }
  return success();
}
