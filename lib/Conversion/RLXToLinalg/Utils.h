//===- Utils.h - helpers shared by the rlx-to-linalg patterns ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_RLXTOLINALG_UTILS_H
#define LIB_CONVERSION_RLXTOLINALG_UTILS_H

#include "RLX/Dialect/MIR/IR/AccumulatorType.h"
#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/IR/TypeInference.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace rlx {

/// `axis` (in [-rank, rank), verified) made non-negative. Takes int64_t so
/// that the unsigned accessors of I64Attr read back their sign.
inline int64_t positiveAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Builds the scalar body of a linalg.generic from its block arguments.
using ScalarBodyBuilder =
    function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// The sizes of `tensor`'s dynamic dims, as `tensor.dim` ops.
SmallVector<Value> getDynamicDims(OpBuilder &b, Location loc, Value tensor);

/// The size of dim `dim` of `tensor` as an index value (constant if static).
Value getDimSize(OpBuilder &b, Location loc, Value tensor, int64_t dim);

/// `input` (a static shape) viewed as `type` (a static shape of as many
/// elements), row-major: a collapse_shape, an expand_shape, or a pair of
/// them through the shapes' common refinement or through one dim; never
/// a tensor.reshape, whose shape operand lives in host memory.
Value reshapeStatic(OpBuilder &b, Location loc, Value input,
                    RankedTensorType type);

/// A `tensor.empty` of `type` whose dynamic dims are taken from `inputs`
/// broadcast NumPy-style (each dynamic result dim comes from an input that
/// has a dynamic dim at that aligned position).
Value createBroadcastEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                           ValueRange inputs);

/// The indexing map reading `input` (NumPy-broadcast against a result of
/// `resultRank` dims of `resultShape`): leading dims are dropped and static
/// size-1 dims that stretch read index 0.
AffineMap getBroadcastMap(MLIRContext *ctx, RankedTensorType input,
                          ArrayRef<int64_t> resultShape);

/// A `linalg.generic` computing `resultType` elementwise from `inputs` with
/// broadcasting; `body` maps the scalars of the inputs to the result's.
Value buildElementwiseGeneric(OpBuilder &b, Location loc,
                              RankedTensorType resultType, ValueRange inputs,
                              ScalarBodyBuilder body);

/// A `linalg.generic` writing a fresh tensor of `resultType` (dynamic dims
/// `dynamicDims`) through the identity map, reading `inputs` through
/// `inputMaps`, all loops parallel.
Value buildMappedGeneric(OpBuilder &b, Location loc,
                         RankedTensorType resultType, ValueRange dynamicDims,
                         ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                         ScalarBodyBuilder body);

/// Reduces `inputs` (all of the same shape, read through the identity map)
/// over the sorted dims `axes` into a tensor of `accType` without those
/// dims, starting from `init`; `combine` gets (input scalars..., acc) and
/// returns the new acc.
Value buildReduction(OpBuilder &b, Location loc, ValueRange inputs,
                     ArrayRef<int64_t> axes, Type accType, Value init,
                     ScalarBodyBuilder combine);

/// The map from a rank-`rank` iteration space to the dims not in `axes`.
AffineMap getDropDimsMap(MLIRContext *ctx, int64_t rank,
                         ArrayRef<int64_t> axes);

/// Dynamic sizes of `tensor`'s dims, skipping the dims in `axes`.
SmallVector<Value> getDynamicDimsExcept(OpBuilder &b, Location loc,
                                        Value tensor, ArrayRef<int64_t> axes);

/// The product of `tensor`'s dims in `axes` as a scalar of float `type`.
Value getCountAsFloat(OpBuilder &b, Location loc, Value tensor,
                      ArrayRef<int64_t> axes, Type type);

/// Offsets, sizes and unit strides covering all of `tensor` but `axis`,
/// where they are `offset` and `size`; static sizes stay attributes so
/// slices keep static types.
void sliceAlong(OpBuilder &b, Location loc, Value tensor, int64_t axis,
                OpFoldResult offset, OpFoldResult size,
                SmallVectorImpl<OpFoldResult> &offsets,
                SmallVectorImpl<OpFoldResult> &sizes,
                SmallVectorImpl<OpFoldResult> &strides);

/// `tensor` with its elements cast to `elementType` (no-op when equal).
Value castTensor(OpBuilder &b, Location loc, Value tensor, Type elementType);

/// A contraction linalg.generic: init(acc) += lhs * rhs through `maps`
/// (lhs, rhs, init), with `iterators`.
Value buildContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       Value init, ArrayRef<AffineMap> maps,
                       ArrayRef<utils::IteratorType> iterators);

/// acc + x * y in acc's type (x and y are converted to it first): the body
/// of every contraction (matmul, dot_general, conv, attention).
Value multiplyAccumulate(OpBuilder &b, Location loc, Value acc, Value x,
                         Value y);

/// `lhs @ rhs` as rlx.matmul computes it (see MatmulToLinalg.cpp).
Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  bool transposeA, bool transposeB,
                  RankedTensorType resultType);

/// The f32 [n, k] weight that `packed` (i8 [n, k / block * block bytes])
/// holds in the packed-block `scheme` (GGUF or nvfp4, see GGUFDecode.cpp)
/// with its operands `params` (nvfp4's per-tensor scale); k is a multiple of
/// the block size.
Value buildPackedBlockDecode(OpBuilder &b, Location loc,
                             QuantSchemeAttr scheme, Value packed,
                             ValueRange params, int64_t n, int64_t k);

/// The e4m3fn value of the byte `bits` (i8) in f32: bias 7, subnormals at
/// exponent 0, no infinities, NaN for S.1111.111.
Value decodeE4M3FN(OpBuilder &b, Location loc, Value bits);

/// The row statistics of a stable softmax along `axis` of `input`: (max,
/// sum of exp(x - max)) in the accumulation type `acc`, both without
/// `axis`. -inf elements add 0 to the sum, so a fully masked row sums to 0.
std::pair<Value, Value> softmaxStats(OpBuilder &b, Location loc, Value input,
                                     int64_t axis, Type acc);

/// softmax(q k^T * scale + mask) of rlx.attention (q [B, H, S, D], k
/// [B, Hkv, Skv, D], static heads; see NNToLinalg.cpp) as [B, H, S, Skv] in
/// the accumulation type; masked entries and fully masked rows are 0.
/// `window` is the op's optional attribute.
Value buildAttentionProbs(OpBuilder &b, Location loc, Value q, Value k,
                          Value attnMask, MaskKind kind, IntegerAttr window,
                          double scale);

/// The stable softmax over the last axis of attention `scores` [B, H, S,
/// Skv] (in the accumulation type; dynamic dims `dynamicDims`) in which
/// masked entries are -inf: those and fully masked rows give 0, not NaN.
Value buildMaskedSoftmax(OpBuilder &b, Location loc, Value scores,
                         ValueRange dynamicDims);

/// `input` padded on its spatial dims (low/high pairs per dim) with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding, Value value);

/// The transposed 2-D convolution of the static NCHW `x` by `weight` [Cin,
/// Cout / groups, kh, kw] with the window `w` (see ConvToLinalg.cpp), as a
/// tensor of `accType` (static; its spatial size picks the output padding),
/// without bias.
Value buildConvTranspose2D(OpBuilder &b, Location loc, Value x, Value weight,
                           RankedTensorType accType, const ConvWindow &w,
                           int64_t groups);

/// A scalar constant of `type` (float, integer or complex with zero
/// imaginary part).
Value createScalarConstant(OpBuilder &b, Location loc, Type type,
                           double value);

/// `tensor` filled with the scalar `value` of its element type.
Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   ValueRange dynamicDims, Value value);

/// Converts scalar `value` from element type `from` to `to` as rlx.cast
/// does; `fromUnsigned` / `toUnsigned` give the signedness that the
/// signless types lost.
Value castScalar(OpBuilder &b, Location loc, Value value, Type to,
                 bool fromUnsigned, bool toUnsigned);

/// True when `type` (or its element type) is an unsigned integer.
bool isUnsignedElement(Type type);

} // namespace rlx
} // namespace mlir

#endif // LIB_CONVERSION_RLXTOLINALG_UTILS_H
