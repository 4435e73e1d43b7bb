//===- RLXQuantOps.cpp - quantization ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXQuantOps.cpp.inc"

/// Checks per-tensor or per-channel scales and zero points against `input`.
static LogicalResult verifyAffineParams(Operation *op, RankedTensorType input,
                                        ArrayRef<float> scales,
                                        ArrayRef<int64_t> zeroPoints,
                                        std::optional<uint64_t> axisAttr) {
  int64_t expected = 1;
  if (axisAttr) {
    FailureOr<int64_t> axis =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(), "axis",
                      static_cast<int64_t>(*axisAttr), input.getRank());
    if (failed(axis))
      return failure();
    expected = input.getDimSize(*axis);
  }
  for (auto [name, size] :
       {std::pair<StringRef, size_t>{"scales", scales.size()},
        {"zero_points", zeroPoints.size()}})
    if (!ShapedType::isDynamic(expected) &&
        static_cast<int64_t>(size) != expected)
      return op->emitOpError("'")
             << name << "' has " << size << " entries but needs " << expected
             << (axisAttr ? " (the size of the 'axis' dim)"
                          : " (per-tensor: no 'axis')");
  for (float s : scales)
    if (!(s > 0.0f))
      return op->emitOpError("'scales' must be positive, got ") << s;
  for (int64_t z : zeroPoints)
    if (z < -128 || z > 127)
      return op->emitOpError("'zero_points' must lie in [-128, 127], got ")
             << z;
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  types.push_back(type.clone(IntegerType::get(context, 8)));
  return success();
}

LogicalResult QuantizeOp::verify() {
  return verifyAffineParams(*this, getInput().getType(), getScales(),
                            getZeroPoints(), getAxis());
}

LogicalResult DequantizeOp::verify() {
  return verifyAffineParams(*this, getInput().getType(), getScales(),
                            getZeroPoints(), getAxis());
}

//===----------------------------------------------------------------------===//
// FakeQuantizeOp
//===----------------------------------------------------------------------===//

LogicalResult FakeQuantizeOp::verify() {
  int64_t bits = getBits();
  if (bits < 2 || bits > 16)
    return emitOpError("'bits' must be in [2, 16], got ") << bits;
  RankedTensorType input = getInput().getType();
  int64_t rank = 0, size = 1;
  if (std::optional<uint64_t> axisAttr = getAxis()) {
    FailureOr<int64_t> axis =
        normalizeAxis(getLoc(), getOperationName(), "axis",
                      static_cast<int64_t>(*axisAttr), input.getRank());
    if (failed(axis))
      return failure();
    rank = 1;
    size = input.getDimSize(*axis);
  }
  if (getScale().getType().getElementType() != input.getElementType())
    return emitOpError("'scale' has element type ")
           << getScale().getType().getElementType() << " but 'input' has "
           << input.getElementType();
  for (auto [name, value] : {std::pair<StringRef, Value>{"scale", getScale()},
                             {"zero_point", getZeroPoint()}}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (failed(checkRank(getLoc(), getOperationName(), name, type, rank)))
      return failure();
    if (rank == 1 && failed(checkDim(getLoc(), getOperationName(), name, type,
                                     0, size, "the size of the 'axis' dim")))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DequantMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult DequantMatmulOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto scheme = adaptor.getSchemeAttr();
  if (failed(requireAttr(loc, name, scheme, "scheme")))
    return failure();
  auto x = cast<RankedTensorType>(adaptor.getInput().getType());
  auto w = cast<RankedTensorType>(adaptor.getWeight().getType());
  if (failed(checkRank(loc, name, "input", x, 1, /*orMore=*/true)) ||
      failed(checkRank(loc, name, "weight", w, 2)))
    return failure();
  StringRef kind = stringifyQuantKind(scheme.getKind());
  unsigned needed = scheme.getNumParamOperands();
  if (adaptor.getParams().size() != needed)
    return emitInferError(loc, name, "scheme '", kind, "' takes ", needed,
                          " scale/zero-point operands, got ",
                          adaptor.getParams().size());
  // int8 schemes store signed bytes; int4, fp8 and GGUF store raw bytes.
  bool signedBytes = scheme.getKind() == QuantKind::Int8Block ||
                     scheme.getKind() == QuantKind::Int8BlockAsym;
  if (w.getElementType().isUnsignedInteger() == signedBytes)
    return emitInferError(loc, name, "scheme '", kind, "' packs its weight as ",
                          signedBytes ? "i8" : "ui8", ", got ",
                          w.getElementType());
  int64_t k = x.getShape().back(), n = w.getDimSize(0);
  int64_t block = scheme.getEffectiveBlockSize();
  if (block > 0 && !ShapedType::isDynamic(k) && k % block != 0)
    return emitInferError(loc, name, "the reduction dim of 'input' (", k,
                          ") must be a multiple of the block size ", block);
  if (failed(checkDim(loc, name, "weight", w, 1, scheme.getPackedRowBytes(k),
                      "the packed row size for the reduction dim of 'input'")))
    return failure();
  // Scales (and zero points) are per output row and block, or per row.
  for (auto [i, p] : llvm::enumerate(adaptor.getParams())) {
    auto type = cast<RankedTensorType>(p.getType());
    StringRef pname = i == 0 ? "scale" : "zero_point";
    if (!type.getElementType().isF32())
      return emitInferError(loc, name, "operand '", pname,
                            "' must have element type f32, got ",
                            type.getElementType());
    bool perBlock = block > 0;
    if (failed(checkRank(loc, name, pname, type, perBlock ? 2 : 1)) ||
        failed(checkDim(loc, name, pname, type, 0, n,
                        "the output rows of 'weight'")))
      return failure();
    if (perBlock &&
        failed(checkDim(loc, name, pname, type, 1,
                        ShapedType::isDynamic(k) ? k : k / block,
                        "the blocks per row")))
      return failure();
  }
  SmallVector<int64_t> shape(x.getShape().drop_back());
  shape.push_back(n);
  types.push_back(x.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Int8MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult Int8MatmulOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  auto lhs = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(adaptor.getRhs().getType());
  FailureOr<SmallVector<int64_t>> shape = inferMatmulShape(
      loc, getOperationName(), lhs, rhs,
      boolOr(adaptor.getTransposeAAttr(), false),
      boolOr(adaptor.getTransposeBAttr(), false));
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, IntegerType::get(context, 32)));
  return success();
}
