//===- TypeInference.h - shape rules shared by RLX ops ----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shape rules that several RLX ops share (broadcasting, axis handling,
// reductions, matmul). Each `infer*` helper both checks its rule and computes
// result types; on a broken rule it emits one diagnostic at `loc` that names
// the op, the operand and the values involved, then fails. Ops call these
// from `inferReturnTypes`, so a parsed op, a built op and a verified op all
// go through the same check.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_TYPEINFERENCE_H
#define RLX_DIALECT_MIR_IR_TYPEINFERENCE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace rlx {

/// Emits `'<opName>' op <args...>` at `loc` when a location is given (type
/// inference without a location fails silently) and returns failure.
template <typename... Args>
LogicalResult emitInferError(std::optional<Location> loc, StringRef opName,
                          Args &&...args) {
  return emitOptionalError(loc, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

/// Null-safe reads of attributes inside `inferReturnTypes`: when an op is
/// parsed, default-valued attributes the text left out are still null there.
inline bool boolOr(BoolAttr attr, bool otherwise) {
  return attr ? attr.getValue() : otherwise;
}
inline ArrayRef<int64_t> arrayOrEmpty(DenseI64ArrayAttr attr) {
  return attr ? attr.asArrayRef() : ArrayRef<int64_t>();
}
inline std::optional<int64_t> optionalInt(IntegerAttr attr) {
  if (!attr)
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

/// Fails with "requires attribute '<name>'" when a required attribute is
/// missing (the generic form can leave it out).
LogicalResult requireAttr(std::optional<Location> loc, StringRef opName,
                          Attribute attr, StringRef name);

/// A dim for a diagnostic: its size, or `?` when dynamic.
std::string dimStr(int64_t d);

/// A list of integers for a diagnostic: `1, 0, 2`.
std::string listStr(ArrayRef<int64_t> values);

/// Broadcasts `shapes` NumPy-style. On mismatch names the operands from
/// `names` and the disagreeing dims.
FailureOr<SmallVector<int64_t>>
broadcastShapes(std::optional<Location> loc, StringRef opName,
                ArrayRef<ArrayRef<int64_t>> shapes, ArrayRef<StringRef> names);

/// Result type of an elementwise op over `operands` (named `names`): the
/// broadcast shape, with `resultElementType`, or the operands' common element
/// type when null (which must then agree).
LogicalResult inferElementwiseResult(std::optional<Location> loc,
                                     StringRef opName, ValueRange operands,
                                     ArrayRef<StringRef> names,
                                     Type resultElementType,
                                     SmallVectorImpl<Type> &types);

/// Checks `axis` in [-rank, rank) for operand `name` and returns it made
/// non-negative.
FailureOr<int64_t> normalizeAxis(std::optional<Location> loc, StringRef opName,
                                 StringRef attrName, int64_t axis,
                                 int64_t rank);

/// Normalizes a list of distinct axes (see normalizeAxis).
FailureOr<SmallVector<int64_t>>
normalizeAxes(std::optional<Location> loc, StringRef opName,
              StringRef attrName, ArrayRef<int64_t> axes, int64_t rank);

/// Verified `axes` of a rank-`rank` operand made non-negative (negative
/// axes count from the end).
SmallVector<int64_t> positiveAxes(ArrayRef<int64_t> axes, int64_t rank);

/// `shape` with the (normalized) `axes` dropped or, with `keepdim`, set to 1.
SmallVector<int64_t> reduceShape(ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> axes, bool keepdim);

/// True when two dims may be equal at run time (either dynamic or equal).
inline bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// The more static of two compatible dims.
inline int64_t refineDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? b : a;
}

/// Checks that operand `name` has rank `rank` (or, when `orMore`, at least).
LogicalResult checkRank(std::optional<Location> loc, StringRef opName,
                        StringRef name, ShapedType type, int64_t rank,
                        bool orMore = false);

/// Checks that dim `dim` of operand `name` may equal `expected` (from
/// `what`), e.g. "'gamma' dim 0 (512) must match the last dim of 'input'
/// (768)".
LogicalResult checkDim(std::optional<Location> loc, StringRef opName,
                       StringRef name, ShapedType type, int64_t dim,
                       int64_t expected, StringRef what);

/// Checks that operands share an element type.
LogicalResult checkSameElementType(std::optional<Location> loc,
                                   StringRef opName, ValueRange values,
                                   ArrayRef<StringRef> names);

/// Batched matmul result shape with optional transposes; leading dims
/// broadcast.
FailureOr<SmallVector<int64_t>>
inferMatmulShape(std::optional<Location> loc, StringRef opName,
                 ShapedType lhs, ShapedType rhs, bool transposeLhs,
                 bool transposeRhs);

/// The window of a convolution or pooling op with its defaults filled in:
/// one stride, dilation and output padding per spatial dim, and a low and
/// a high padding per spatial dim.
struct ConvWindow {
  SmallVector<int64_t> strides, padding, dilations, outputPadding;
};

/// Checks the input rank (3: NCL or 4: NCHW) and reads the window
/// attributes; empty lists take the defaults, and empty strides take
/// `stridesFill` when it is non-empty (pooling: the kernel).
FailureOr<ConvWindow>
readConvWindow(std::optional<Location> loc, StringRef opName,
               RankedTensorType input, DenseI64ArrayAttr strides,
               DenseI64ArrayAttr padding, DenseI64ArrayAttr dilations,
               DenseI64ArrayAttr outputPadding,
               ArrayRef<int64_t> stridesFill);

/// Output size of spatial dim `dim` (window index `i`) for input size `in`
/// and kernel size `k`; dynamic stays dynamic.
FailureOr<int64_t> convOutputSize(std::optional<Location> loc,
                                  StringRef opName, int64_t dim, int64_t in,
                                  int64_t k, const ConvWindow &w, size_t i);

/// Checks `groups` against the channel counts and `bias` (if any) is [cout].
LogicalResult checkConvChannels(std::optional<Location> loc, StringRef opName,
                                int64_t groups, int64_t cin, int64_t cout,
                                Value bias);

/// The result type of rlx.conv (shared with its backward ops' verifiers).
FailureOr<RankedTensorType>
inferConvType(std::optional<Location> loc, StringRef opName,
              RankedTensorType input, RankedTensorType weight, Value bias,
              DenseI64ArrayAttr strides, DenseI64ArrayAttr padding,
              DenseI64ArrayAttr dilations, IntegerAttr groups);

enum class MaskKind : uint32_t;

/// The attention attribute rules shared by rlx.attention, its backward and
/// the fused attention ops: `scale` is non-zero, `window` goes with
/// `sliding_window` only, the `attnMask` operand with `custom` (i1) and
/// `bias` (`floatType`) only, and it broadcasts to the `scores` shape
/// [B, H, S, Skv].
LogicalResult verifyAttentionAttrs(Operation *op, MaskKind kind,
                                   std::optional<uint64_t> window,
                                   std::optional<APFloat> scale,
                                   Value attnMask, Type floatType,
                                   ArrayRef<int64_t> scores);

/// The result type of an attention over (query, key, value) [B, H, S, D],
/// [B, Hkv, Skv, D], [B, Hkv, Skv, Dv] (shared with attention_backward).
FailureOr<RankedTensorType> inferAttentionType(std::optional<Location> loc,
                                               StringRef opName, Value query,
                                               Value key, Value value);

/// The result type [B, H, S, Dv] of rlx.decode_attention over (query, key
/// cache, value cache) [B, H, S, D], [B, max_seq, Hkv, D], [B, max_seq, Hkv,
/// Dv] and the rank-0 `length`.
FailureOr<RankedTensorType>
inferDecodeAttentionType(std::optional<Location> loc, StringRef opName,
                         Value query, Value keyCache, Value valueCache,
                         Value length);

/// The result type [B] x i64 (rank 0 for rank-1 logits) of rlx.sample over
/// float `logits` [B, V] or [V] and the rank-0 `seed`.
FailureOr<RankedTensorType> inferSampleType(std::optional<Location> loc,
                                            StringRef opName, Value logits,
                                            Value seed);

/// The result type [..., N] of rlx.lora_matmul over `input` [..., K],
/// `weight` [K, N], `loraA` [K, r] and `loraB` [r, N] (one float element
/// type).
FailureOr<RankedTensorType> inferLoraMatmulType(std::optional<Location> loc,
                                                StringRef opName, Value input,
                                                Value weight, Value loraA,
                                                Value loraB);

/// The result type [R, N] of rlx.grouped_matmul over `input` [R, K],
/// `weights` [E, K, N] (one float element type) and `expert` [R].
FailureOr<RankedTensorType> inferGroupedMatmulType(std::optional<Location> loc,
                                                   StringRef opName,
                                                   Value input, Value weights,
                                                   Value expert);

/// The result types [B, T, H, Dv] and [B, H, Dk, Dv] of rlx.gated_delta_net
/// over `query`, `key` [B, T, H, Dk], `value` [B, T, H, Dv], `gate`, `beta`
/// [B, T, H] and `state` [B, H, Dk, Dv] (one float element type).
LogicalResult inferGatedDeltaNetTypes(std::optional<Location> loc,
                                      StringRef opName, Value query, Value key,
                                      Value value, Value gate, Value beta,
                                      Value state,
                                      SmallVectorImpl<Type> &types);

/// The rank-0 loss type of a cross entropy of logits [N, C] against labels
/// [N] (shared with its backward).
FailureOr<RankedTensorType> inferCrossEntropyType(std::optional<Location> loc,
                                                  StringRef opName,
                                                  Value logits, Value labels);

/// Checks that the per-feature parameter `param` (named `name`) is 1-D of
/// `input`'s dim `dim` (described as `what`), with `input`'s element type.
LogicalResult verifyFeatureParam(Operation *op, Value input, Value param,
                                 StringRef name, int64_t dim, StringRef what);

/// The rule of every norm over the last axis: `input` has rank >= 1 and
/// `gamma` is 1-D of its last dim, with its element type.
LogicalResult verifyNormGamma(Operation *op, Value input, Value gamma);

/// Checks that `epsilon` is positive.
LogicalResult verifyEpsilon(Operation *op, APFloat epsilon);

/// Fails unless every operand is a ranked tensor. Custom parsers infer
/// result types before the operand type constraints are verified, so ops
/// whose assembly reads operand types as a plain list check this first.
LogicalResult requireRanked(std::optional<Location> loc, StringRef opName,
                            ValueRange operands);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_IR_TYPEINFERENCE_H
