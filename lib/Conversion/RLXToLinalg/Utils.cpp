//===- Utils.cpp - helpers shared by the rlx-to-linalg patterns -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::rlx;

SmallVector<Value> rlx::getDynamicDims(OpBuilder &b, Location loc,
                                       Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> dims;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dims.push_back(tensor::DimOp::create(b, loc, tensor, i));
  return dims;
}

Value rlx::getDimSize(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

Value rlx::createBroadcastEmpty(OpBuilder &b, Location loc,
                                RankedTensorType type, ValueRange inputs) {
  SmallVector<Value> dynamic;
  int64_t rank = type.getRank();
  for (int64_t i = 0; i < rank; ++i) {
    if (!type.isDynamicDim(i))
      continue;
    Value size;
    for (Value input : inputs) {
      auto t = cast<RankedTensorType>(input.getType());
      int64_t j = i - (rank - t.getRank());
      if (j >= 0 && t.isDynamicDim(j)) {
        size = tensor::DimOp::create(b, loc, input, j);
        break;
      }
    }
    assert(size && "a dynamic result dim comes from a dynamic input dim");
    dynamic.push_back(size);
  }
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dynamic);
}

AffineMap rlx::getBroadcastMap(MLIRContext *ctx, RankedTensorType input,
                               ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  int64_t offset = rank - input.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t j = 0; j < input.getRank(); ++j) {
    int64_t d = input.getDimSize(j), r = resultShape[offset + j];
    if (d == 1 && r != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(offset + j, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value rlx::buildElementwiseGeneric(OpBuilder &b, Location loc,
                                   RankedTensorType resultType,
                                   ValueRange inputs, ScalarBodyBuilder body) {
  MLIRContext *ctx = b.getContext();
  Value init = createBroadcastEmpty(b, loc, resultType, inputs);
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(getBroadcastMap(
        ctx, cast<RankedTensorType>(input.getType()), resultType.getShape()));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return generic.getResult(0);
}

Value rlx::createScalarConstant(OpBuilder &b, Location loc, Type type,
                                double value) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, value));
  if (auto c = dyn_cast<ComplexType>(type)) {
    auto part = cast<FloatType>(c.getElementType());
    return complex::ConstantOp::create(
        b, loc, c,
        b.getArrayAttr({b.getFloatAttr(part, value), b.getFloatAttr(part, 0)}));
  }
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value rlx::createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                        ValueRange dynamicDims, Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicDims);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

bool rlx::isUnsignedElement(Type type) {
  return getElementTypeOrSelf(type).isUnsignedInteger();
}

Value rlx::castScalar(OpBuilder &b, Location loc, Value value, Type to,
                      bool fromUnsigned, bool toUnsigned) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (auto toComplex = dyn_cast<ComplexType>(to)) {
    Value real = castScalar(b, loc, value, toComplex.getElementType(),
                            fromUnsigned, false);
    Value zero = createScalarConstant(b, loc, toComplex.getElementType(), 0);
    return complex::CreateOp::create(b, loc, toComplex, real, zero);
  }
  if (auto fromComplex = dyn_cast<ComplexType>(from)) {
    // Non-zero means either part non-zero.
    if (to.isInteger(1))
      return complex::NotEqualOp::create(
          b, loc, value, createScalarConstant(b, loc, from, 0));
    return castScalar(b, loc, complex::ReOp::create(b, loc, value), to, false,
                      toUnsigned);
  }
  // Anything to i1 tests for non-zero.
  if (to.isInteger(1)) {
    Value zero = createScalarConstant(b, loc, from, 0);
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 zero);
  }
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat) {
    if (toUnsigned)
      return arith::FPToUIOp::create(b, loc, to, value);
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  // i1 counts as unsigned: true is 1.
  bool srcUnsigned = fromUnsigned || from.isInteger(1);
  if (toFloat) {
    if (srcUnsigned)
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw > tw)
    return arith::TruncIOp::create(b, loc, to, value);
  if (srcUnsigned)
    return arith::ExtUIOp::create(b, loc, to, value);
  return arith::ExtSIOp::create(b, loc, to, value);
}

Value rlx::buildMappedGeneric(OpBuilder &b, Location loc,
                              RankedTensorType resultType,
                              ValueRange dynamicDims, ValueRange inputs,
                              ArrayRef<AffineMap> inputMaps,
                              ScalarBodyBuilder body) {
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType(),
                                       dynamicDims);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args.drop_back()));
      });
  return generic.getResult(0);
}

AffineMap rlx::getDropDimsMap(MLIRContext *ctx, int64_t rank,
                              ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(axes, i))
      exprs.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

SmallVector<Value> rlx::getDynamicDimsExcept(OpBuilder &b, Location loc,
                                             Value tensor,
                                             ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> dims;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i) && !llvm::is_contained(axes, i))
      dims.push_back(tensor::DimOp::create(b, loc, tensor, i));
  return dims;
}

Value rlx::buildReduction(OpBuilder &b, Location loc, ValueRange inputs,
                          ArrayRef<int64_t> axes, Type accType, Value init,
                          ScalarBodyBuilder combine) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(inputs.front().getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(axes, i))
      shape.push_back(type.getDimSize(i));
  auto accTensor = RankedTensorType::get(shape, accType);
  Value filled =
      createFilled(b, loc, accTensor,
                   getDynamicDimsExcept(b, loc, inputs.front(), axes), init);
  SmallVector<AffineMap> maps(inputs.size(), b.getMultiDimIdentityMap(rank));
  maps.push_back(getDropDimsMap(ctx, rank, axes));
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i)
    iterators.push_back(llvm::is_contained(axes, i)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, accTensor, inputs, filled, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, args));
      });
  return generic.getResult(0);
}

Value rlx::getCountAsFloat(OpBuilder &b, Location loc, Value tensor,
                           ArrayRef<int64_t> axes, Type type) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t a : axes)
    count = arith::MulIOp::create(b, loc, count, getDimSize(b, loc, tensor, a));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return arith::SIToFPOp::create(b, loc, type, asInt);
}

Value rlx::multiplyAccumulate(OpBuilder &b, Location loc, Value acc, Value x,
                              Value y) {
  Type type = acc.getType();
  x = castScalar(b, loc, x, type, false, false);
  y = castScalar(b, loc, y, type, false, false);
  if (isa<FloatType>(type))
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, x, y));
  if (isa<ComplexType>(type))
    return complex::AddOp::create(b, loc, acc,
                                  complex::MulOp::create(b, loc, x, y));
  return arith::AddIOp::create(b, loc, acc,
                               arith::MulIOp::create(b, loc, x, y));
}

Value rlx::castTensor(OpBuilder &b, Location loc, Value tensor,
                      Type elementType) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == elementType)
    return tensor;
  return buildElementwiseGeneric(
      b, loc, type.clone(elementType), tensor,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return castScalar(nb, nloc, args[0], elementType, false, false);
      });
}

Value rlx::buildContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                            Value init, ArrayRef<AffineMap> maps,
                            ArrayRef<utils::IteratorType> iterators) {
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{lhs, rhs}, init, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, multiplyAccumulate(nb, l, args[2], args[0], args[1]));
             })
      .getResult(0);
}

/// Offsets, sizes and unit strides covering all of `tensor` but `axis`,
/// where they are `offset` and `size`.
void rlx::sliceAlong(OpBuilder &b, Location loc, Value tensor, int64_t axis,
                     OpFoldResult offset, OpFoldResult size,
                     SmallVectorImpl<OpFoldResult> &offsets,
                     SmallVectorImpl<OpFoldResult> &sizes,
                     SmallVectorImpl<OpFoldResult> &strides) {
  auto type = cast<RankedTensorType>(tensor.getType());
  for (int64_t i = 0; i < type.getRank(); ++i) {
    offsets.push_back(i == axis ? offset : b.getIndexAttr(0));
    if (i == axis)
      sizes.push_back(size);
    else if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, tensor, i).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
    strides.push_back(b.getIndexAttr(1));
  }
}
