//===- RLXHIROps.cpp - rlx_hir verifiers ----------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The verifiers check what a block's own description states (ranks, the
// dims that must agree, the result type). The shape rules of the attention
// inside a block are the fused op's, checked when --rlx-lower-hir builds it.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/HIR/IR/RLXHIROps.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::hir;

#define GET_OP_CLASSES
#include "RLX/Dialect/HIR/IR/RLXHIROps.cpp.inc"

namespace {

/// Checks named operands for rank and equal dims, with the op's name and
/// the operands' names in each diagnostic.
class BlockChecker {
public:
  explicit BlockChecker(Operation *op) : op(op) {}

  LogicalResult rank(Value v, StringRef name, int64_t rank) {
    int64_t actual = type(v).getRank();
    if (actual == rank)
      return success();
    return op->emitOpError() << "expects '" << name << "' of rank " << rank
                             << ", got rank " << actual;
  }

  LogicalResult minRank(Value v, StringRef name, int64_t rank) {
    if (type(v).getRank() >= rank)
      return success();
    return op->emitOpError() << "expects '" << name << "' of rank >= " << rank
                             << ", got " << type(v);
  }

  /// dim `i` of `a` equals dim `j` of `b` (negative: from the end); a
  /// dynamic dim matches anything.
  LogicalResult sameDim(Value a, StringRef aName, int64_t i, Value b,
                        StringRef bName, int64_t j) {
    int64_t x = dim(a, i), y = dim(b, j);
    if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y)
      return success();
    return op->emitOpError()
           << "expects dim " << i << " of '" << aName << "' (" << x
           << ") to equal dim " << j << " of '" << bName << "' (" << y << ")";
  }

  LogicalResult sameElement(ValueRange values) {
    Type element = type(op->getOperand(0)).getElementType();
    for (Value v : values)
      if (type(v).getElementType() != element)
        return op->emitOpError() << "expects every float operand and the "
                                    "result to have element type "
                                 << element << ", got " << v.getType();
    return success();
  }

  LogicalResult result(ArrayRef<int64_t> shape) {
    auto actual = type(op->getResult(0));
    auto expected =
        RankedTensorType::get(shape, type(op->getOperand(0)).getElementType());
    if (succeeded(verifyCompatibleShape(actual, expected)) &&
        actual.getElementType() == expected.getElementType())
      return success();
    return op->emitOpError() << "result type " << actual
                             << " does not match the expected " << expected;
  }

  static RankedTensorType type(Value v) {
    return cast<RankedTensorType>(v.getType());
  }
  static int64_t dim(Value v, int64_t i) {
    auto t = type(v);
    return t.getDimSize(i < 0 ? t.getRank() + i : i);
  }
  /// `v`'s shape without its last dim, then `last`.
  static SmallVector<int64_t> withLast(Value v, int64_t last) {
    SmallVector<int64_t> shape(type(v).getShape().drop_back());
    shape.push_back(last);
    return shape;
  }

private:
  Operation *op;
};

} // namespace

LogicalResult LinearOp::verify() {
  BlockChecker c(*this);
  SmallVector<Value> floats = {getInput(), getWeight(), getResult()};
  if (getBias())
    floats.push_back(getBias());
  if (failed(c.minRank(getInput(), "input", 2)) ||
      failed(c.rank(getWeight(), "weight", 2)) ||
      failed(c.sameDim(getInput(), "input", -1, getWeight(), "weight", 0)) ||
      failed(c.sameElement(floats)))
    return failure();
  if (getBias() &&
      (failed(c.rank(getBias(), "bias", 1)) ||
       failed(c.sameDim(getBias(), "bias", 0, getWeight(), "weight", 1))))
    return failure();
  return c.result(
      BlockChecker::withLast(getInput(), BlockChecker::dim(getWeight(), 1)));
}

LogicalResult MlpOp::verify() {
  BlockChecker c(*this);
  if (failed(c.minRank(getInput(), "input", 2)) ||
      failed(c.rank(getW1(), "w1", 2)) || failed(c.rank(getB1(), "b1", 1)) ||
      failed(c.rank(getW2(), "w2", 2)) || failed(c.rank(getB2(), "b2", 1)) ||
      failed(c.sameDim(getInput(), "input", -1, getW1(), "w1", 0)) ||
      failed(c.sameDim(getB1(), "b1", 0, getW1(), "w1", 1)) ||
      failed(c.sameDim(getW2(), "w2", 0, getW1(), "w1", 1)) ||
      failed(c.sameDim(getB2(), "b2", 0, getW2(), "w2", 1)) ||
      failed(c.sameElement(getOperation()->getOperands())))
    return failure();
  return c.result(
      BlockChecker::withLast(getInput(), BlockChecker::dim(getW2(), 1)));
}

LogicalResult SwigluOp::verify() {
  BlockChecker c(*this);
  if (failed(c.minRank(getInput(), "input", 2)) ||
      failed(c.rank(getWGate(), "w_gate", 2)) ||
      failed(c.rank(getWUp(), "w_up", 2)) ||
      failed(c.rank(getWDown(), "w_down", 2)) ||
      failed(c.sameDim(getInput(), "input", -1, getWGate(), "w_gate", 0)) ||
      failed(c.sameDim(getWUp(), "w_up", 0, getWGate(), "w_gate", 0)) ||
      failed(c.sameDim(getWUp(), "w_up", 1, getWGate(), "w_gate", 1)) ||
      failed(c.sameDim(getWDown(), "w_down", 0, getWGate(), "w_gate", 1)) ||
      failed(c.sameElement(getOperation()->getOperands())))
    return failure();
  return c.result(
      BlockChecker::withLast(getInput(), BlockChecker::dim(getWDown(), 1)));
}

LogicalResult EmbeddingOp::verify() {
  BlockChecker c(*this);
  if (failed(c.rank(getTable(), "table", 2)))
    return failure();
  SmallVector<int64_t> shape(BlockChecker::type(getIds()).getShape());
  shape.push_back(BlockChecker::dim(getTable(), 1));
  return c.result(shape);
}

/// The norms: result and input of one type, gamma (and beta) 1-D of the
/// last dim.
static LogicalResult verifyNorm(Operation *op, Value input, ValueRange params,
                                ArrayRef<StringRef> names) {
  BlockChecker c(op);
  if (failed(c.minRank(input, "input", 1)) ||
      failed(c.sameElement(op->getOperands())))
    return failure();
  for (auto [p, name] : llvm::zip(params, names))
    if (failed(c.rank(p, name, 1)) ||
        failed(c.sameDim(p, name, 0, input, "input", -1)))
      return failure();
  return c.result(BlockChecker::type(input).getShape());
}

LogicalResult hir::LayerNormOp::verify() {
  return verifyNorm(*this, getInput(), {getGamma(), getBeta()},
                    {"gamma", "beta"});
}

LogicalResult hir::RmsNormOp::verify() {
  return verifyNorm(*this, getInput(), {getGamma()}, {"gamma"});
}

LogicalResult AttentionBlockOp::verify() {
  BlockChecker c(*this);
  if (failed(c.rank(getInput(), "input", 3)) ||
      failed(c.rank(getWQkv(), "w_qkv", 2)) ||
      failed(c.rank(getWOut(), "w_out", 2)))
    return failure();
  if (getNumHeads() == 0)
    return emitOpError("expects num_heads >= 1");
  return c.result(BlockChecker::type(getInput()).getShape());
}

LogicalResult TransformerLayerOp::verify() {
  BlockChecker c(*this);
  unsigned expected;
  if (getStyle() == "bert")
    expected = 12;
  else if (getStyle() == "llama")
    expected = 9;
  else
    return emitOpError("expects style \"bert\" or \"llama\", got \"")
           << getStyle() << "\"";
  if (getWeights().size() != expected)
    return emitOpError("with style \"")
           << getStyle() << "\" expects " << expected << " weights, got "
           << getWeights().size();
  if (failed(c.rank(getInput(), "input", 3)))
    return failure();
  if (getNumHeads() == 0)
    return emitOpError("expects num_heads >= 1");
  // The layer has no window attribute and no mask operand.
  if (getMask() != MaskKind::None && getMask() != MaskKind::Causal)
    return emitOpError("supports mask \"none\" or \"causal\", got \"")
           << getMaskAttr().getValue() << "\"";
  if (getStyle() == "bert" && getNumKvHeadsAttr())
    return emitOpError("with style \"bert\" has one key/value head per "
                       "query head; 'num_kv_heads' is for \"llama\"");
  return c.result(BlockChecker::type(getInput()).getShape());
}

LogicalResult ConvBlockOp::verify() {
  BlockChecker c(*this);
  if (failed(c.rank(getInput(), "input", 4)) ||
      failed(c.rank(getWeight(), "weight", 4)) ||
      failed(c.sameElement(getOperation()->getOperands())))
    return failure();
  // Named arrays: the views a braced ValueRange or ArrayRef would hold die
  // before the loop body runs.
  Value params[] = {getGamma(), getBeta()};
  StringRef names[] = {"gamma", "beta"};
  for (auto [p, name] : llvm::zip(params, names))
    if (failed(c.rank(p, name, 1)) ||
        failed(c.sameDim(p, name, 0, getWeight(), "weight", 0)))
      return failure();
  // The convolution's own rules (channels, bias, window), as rlx.conv.
  FailureOr<RankedTensorType> conv =
      inferConvType(getLoc(), getOperationName(), getInput().getType(),
                    getWeight().getType(), getBias(), getStridesAttr(),
                    getPaddingAttr(), getDilationsAttr(), IntegerAttr());
  if (failed(conv))
    return failure();
  int64_t groups = getNumGroups(), channels = conv->getDimSize(1);
  if (groups < 1 || (!ShapedType::isDynamic(channels) && channels % groups))
    return emitOpError("expects num_groups (")
           << groups << ") to be positive and divide the " << channels
           << " output channels";
  return c.result(conv->getShape());
}
