//===- TypeInference.cpp - shape rules shared by RLX ops ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/TypeInference.h"
#include "RLX/Dialect/MIR/IR/RLXDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::rlx;

std::string rlx::dimStr(int64_t d) {
  return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
}

std::string rlx::listStr(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  return s;
}

LogicalResult rlx::requireAttr(std::optional<Location> loc, StringRef opName,
                               Attribute attr, StringRef name) {
  if (attr)
    return success();
  return emitInferError(loc, opName, "requires attribute '", name, "'");
}

FailureOr<SmallVector<int64_t>>
rlx::broadcastShapes(std::optional<Location> loc, StringRef opName,
                     ArrayRef<ArrayRef<int64_t>> shapes,
                     ArrayRef<StringRef> names) {
  size_t rank = 0;
  for (ArrayRef<int64_t> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> result(rank, 1);
  // Which operand fixed each result dim to a size other than 1, for the
  // diagnostic.
  SmallVector<int> owner(rank, -1);
  for (auto [idx, shape] : llvm::enumerate(shapes)) {
    size_t offset = rank - shape.size();
    for (auto [i, d] : llvm::enumerate(shape)) {
      int64_t &r = result[offset + i];
      if (d == 1)
        continue;
      if (r == 1) {
        r = d;
        owner[offset + i] = idx;
        continue;
      }
      if (ShapedType::isDynamic(d))
        continue;
      if (ShapedType::isDynamic(r)) {
        r = d;
        owner[offset + i] = idx;
        continue;
      }
      if (r != d) {
        return emitInferError(loc, opName, "operands '", names[owner[offset + i]], "' and '", names[idx], "' are not broadcast-compatible: dim ", Twine(dimStr(r)), " vs ", Twine(dimStr(d)), " at result dim ", offset + i);
      }
    }
  }
  return result;
}

LogicalResult rlx::checkSameElementType(std::optional<Location> loc,
                                        StringRef opName,
                                        ValueRange values,
                                        ArrayRef<StringRef> names) {
  Type first = getElementTypeOrSelf(values.front().getType());
  for (auto [v, name] : llvm::zip(values.drop_front(), names.drop_front())) {
    Type t = getElementTypeOrSelf(v.getType());
    if (t != first)
      return emitInferError(loc, opName, "operand '", name, "' has element type ", t, " but '", names.front(), "' has ", first);
  }
  return success();
}

LogicalResult rlx::inferElementwiseResult(std::optional<Location> loc,
                                          StringRef opName,
                                          ValueRange operands,
                                          ArrayRef<StringRef> names,
                                          Type resultElementType,
                                          SmallVectorImpl<Type> &types) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : operands) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return emitInferError(loc, opName, "expects ranked tensor operands");
    shapes.push_back(t.getShape());
  }
  if (!resultElementType) {
    if (failed(checkSameElementType(loc, opName, operands, names)))
      return failure();
    resultElementType = getElementTypeOrSelf(operands.front().getType());
  }
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(loc, opName, shapes, names);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, resultElementType));
  return success();
}

FailureOr<int64_t> rlx::normalizeAxis(std::optional<Location> loc,
                                      StringRef opName, StringRef attrName,
                                      int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return emitInferError(loc, opName, "'", attrName, "' ", axis, " is out of range for rank ", rank, " (expected in [", -rank, ", ", rank, "))");
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
rlx::normalizeAxes(std::optional<Location> loc, StringRef opName,
                   StringRef attrName, ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axes) {
    FailureOr<int64_t> n = normalizeAxis(loc, opName, attrName, a, rank);
    if (failed(n))
      return failure();
    if (!seen.insert(*n).second) {
      return emitInferError(loc, opName, "'", attrName, "' names dim ", *n, " twice");
    }
    result.push_back(*n);
  }
  return result;
}

SmallVector<int64_t> rlx::positiveAxes(ArrayRef<int64_t> axes, int64_t rank) {
  return llvm::map_to_vector(axes,
                             [&](int64_t a) { return a < 0 ? a + rank : a; });
}

SmallVector<int64_t> rlx::reduceShape(ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> axes, bool keepdim) {
  SmallVector<int64_t> result;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
      result.push_back(d);
    else if (keepdim)
      result.push_back(1);
  }
  return result;
}

LogicalResult rlx::checkRank(std::optional<Location> loc, StringRef opName,
                             StringRef name, ShapedType type, int64_t rank,
                             bool orMore) {
  int64_t actual = type.getRank();
  if (actual == rank || (orMore && actual > rank))
    return success();
  return emitInferError(loc, opName, "operand '", name, "' must have rank ", (orMore ? "at least " : ""), rank, ", got ", actual);
}

LogicalResult rlx::checkDim(std::optional<Location> loc, StringRef opName,
                            StringRef name, ShapedType type, int64_t dim,
                            int64_t expected, StringRef what) {
  int64_t actual = type.getDimSize(dim);
  if (dimsCompatible(actual, expected))
    return success();
  return emitInferError(loc, opName, "operand '", name, "' dim ", dim, " (", Twine(dimStr(actual)), ") must match ", what, " (", Twine(dimStr(expected)), ")");
}

FailureOr<SmallVector<int64_t>>
rlx::inferMatmulShape(std::optional<Location> loc, StringRef opName,
                      ShapedType lhs, ShapedType rhs, bool transposeLhs,
                      bool transposeRhs) {
  if (failed(checkRank(loc, opName, "lhs", lhs, 2, /*orMore=*/true)) ||
      failed(checkRank(loc, opName, "rhs", rhs, 2, /*orMore=*/true)))
    return failure();
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape();
  int64_t m = a[a.size() - (transposeLhs ? 1 : 2)];
  int64_t ka = a[a.size() - (transposeLhs ? 2 : 1)];
  int64_t kb = b[b.size() - (transposeRhs ? 1 : 2)];
  int64_t n = b[b.size() - (transposeRhs ? 2 : 1)];
  if (!dimsCompatible(ka, kb)) {
    return emitInferError(loc, opName, "contracting dims differ: 'lhs' has ", Twine(dimStr(ka)), ", 'rhs' has ", Twine(dimStr(kb)));
  }
  StringRef names[] = {"lhs", "rhs"};
  ArrayRef<int64_t> batches[] = {a.drop_back(2), b.drop_back(2)};
  FailureOr<SmallVector<int64_t>> batch =
      broadcastShapes(loc, opName, batches, names);
  if (failed(batch))
    return failure();
  SmallVector<int64_t> result = *batch;
  result.push_back(m);
  result.push_back(n);
  return result;
}

LogicalResult rlx::verifyAttentionAttrs(Operation *op, MaskKind kind,
                                        std::optional<uint64_t> window,
                                        std::optional<APFloat> scale,
                                        Value attnMask, Type floatType,
                                        ArrayRef<int64_t> scores) {
  if (scale && (scale->isZero() || scale->isNaN()))
    return op->emitOpError("'scale' must be non-zero");
  bool needsOperand = kind == MaskKind::Custom || kind == MaskKind::Bias;
  if (needsOperand && !attnMask)
    return op->emitOpError("mask kind '")
           << stringifyMaskKind(kind) << "' needs the 'attn_mask' operand";
  if (!needsOperand && attnMask)
    return op->emitOpError("mask kind '")
           << stringifyMaskKind(kind)
           << "' takes no 'attn_mask' operand (use 'custom' or 'bias')";
  if (kind == MaskKind::SlidingWindow) {
    if (!window)
      return op->emitOpError("mask kind 'sliding_window' needs 'window'");
    if (static_cast<int64_t>(*window) < 1)
      return op->emitOpError("'window' must be positive, got ")
             << static_cast<int64_t>(*window);
  } else if (window) {
    return op->emitOpError("'window' is only allowed with mask kind "
                           "'sliding_window', not '")
           << stringifyMaskKind(kind) << "'";
  }
  if (!attnMask)
    return success();
  auto type = cast<RankedTensorType>(attnMask.getType());
  Type expected = kind == MaskKind::Custom
                      ? Type(IntegerType::get(op->getContext(), 1))
                      : floatType;
  if (type.getElementType() != expected)
    return op->emitOpError("'attn_mask' of mask kind '")
           << stringifyMaskKind(kind) << "' must have element type "
           << expected << ", got " << type.getElementType();
  if (type.getRank() > 4)
    return op->emitOpError("'attn_mask' must have rank at most 4, got ")
           << type.getRank();
  ArrayRef<int64_t> shapes[] = {scores, type.getShape()};
  StringRef names[] = {"scores", "attn_mask"};
  FailureOr<SmallVector<int64_t>> b = broadcastShapes(
      op->getLoc(), op->getName().getStringRef(), shapes, names);
  if (failed(b))
    return failure();
  if (ArrayRef<int64_t>(*b) != scores && llvm::none_of(*b, ShapedType::isDynamic))
    return op->emitOpError("'attn_mask' ")
           << type << " must broadcast to the scores [B, H, S, Skv]";
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution windows
//===----------------------------------------------------------------------===//

/// Reads `attr` (named `name`) as a list of `count` entries, or `count`
/// copies of `fill` when it is empty; each entry must be at least `min`.
static FailureOr<SmallVector<int64_t>>
windowList(std::optional<Location> loc, StringRef opName, StringRef name,
           DenseI64ArrayAttr attr, size_t count, int64_t fill, int64_t min) {
  ArrayRef<int64_t> values = arrayOrEmpty(attr);
  if (values.empty())
    return SmallVector<int64_t>(count, fill);
  if (values.size() != count)
    return emitInferError(loc, opName, "'", name, "' has ", values.size(),
                          " entries but needs ", count);
  for (int64_t v : values)
    if (v < min)
      return emitInferError(loc, opName, "'", name, "' entries must be at least ",
                            min, ", got ", v);
  return SmallVector<int64_t>(values);
}

/// Checks the input rank (3 or 4: NCL or NCHW) and reads the window.
FailureOr<ConvWindow>
rlx::readConvWindow(std::optional<Location> loc, StringRef opName,
           RankedTensorType input, DenseI64ArrayAttr strides,
           DenseI64ArrayAttr padding, DenseI64ArrayAttr dilations,
           DenseI64ArrayAttr outputPadding, ArrayRef<int64_t> stridesFill) {
  if (input.getRank() != 3 && input.getRank() != 4)
    return emitInferError(loc, opName,
                          "operand 'input' must have rank 3 (NCL) or 4 "
                          "(NCHW), got ",
                          input.getRank());
  size_t spatial = input.getRank() - 2;
  ConvWindow w;
  FailureOr<SmallVector<int64_t>> s =
      windowList(loc, opName, "strides", strides, spatial, 1, 1);
  FailureOr<SmallVector<int64_t>> p =
      windowList(loc, opName, "padding", padding, 2 * spatial, 0, 0);
  FailureOr<SmallVector<int64_t>> d =
      windowList(loc, opName, "dilations", dilations, spatial, 1, 1);
  FailureOr<SmallVector<int64_t>> o =
      windowList(loc, opName, "output_padding", outputPadding, spatial, 0, 0);
  if (failed(s) || failed(p) || failed(d) || failed(o))
    return failure();
  w.strides = arrayOrEmpty(strides).empty() && !stridesFill.empty()
                  ? SmallVector<int64_t>(stridesFill)
                  : *s;
  w.padding = *p;
  w.dilations = *d;
  w.outputPadding = *o;
  return w;
}

/// Output size of a strided window over `in` (dynamic stays dynamic).
FailureOr<int64_t> rlx::convOutputSize(std::optional<Location> loc,
                                       StringRef opName, int64_t dim,
                                       int64_t in, int64_t k,
                                       const ConvWindow &w, size_t i) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k))
    return ShapedType::kDynamic;
  int64_t span = w.dilations[i] * (k - 1) + 1;
  int64_t padded = in + w.padding[2 * i] + w.padding[2 * i + 1];
  if (padded < span)
    return emitInferError(loc, opName, "spatial dim ", dim, ": the window (",
                          span, ") is larger than the padded input (", padded,
                          ")");
  return (padded - span) / w.strides[i] + 1;
}

/// Checks bias [cout] and the groups for input/weight channels.
LogicalResult rlx::checkConvChannels(std::optional<Location> loc,
                                   StringRef opName, int64_t groups,
                                   int64_t cin, int64_t cout, Value bias) {
  if (groups < 1)
    return emitInferError(loc, opName, "'groups' must be positive, got ",
                          groups);
  for (auto [what, c] : {std::pair<StringRef, int64_t>{"input channels", cin},
                         {"output channels", cout}})
    if (!ShapedType::isDynamic(c) && c % groups != 0)
      return emitInferError(loc, opName, "'groups' (", groups,
                            ") must divide the ", what, " (", c, ")");
  if (!bias)
    return success();
  auto type = cast<RankedTensorType>(bias.getType());
  if (failed(checkRank(loc, opName, "bias", type, 1)))
    return failure();
  return checkDim(loc, opName, "bias", type, 0, cout, "the output channels");
}

FailureOr<RankedTensorType>
rlx::inferConvType(std::optional<Location> loc, StringRef name,
                   RankedTensorType input, RankedTensorType weight, Value bias,
                   DenseI64ArrayAttr strides, DenseI64ArrayAttr padding,
                   DenseI64ArrayAttr dilations, IntegerAttr groupsAttr) {
  if (input.getElementType() != weight.getElementType())
    return emitInferError(loc, name, "operand 'weight' has element type ",
                          weight.getElementType(), " but 'input' has ",
                          input.getElementType());
  if (bias && getElementTypeOrSelf(bias.getType()) != input.getElementType())
    return emitInferError(loc, name, "operand 'bias' has element type ",
                          getElementTypeOrSelf(bias.getType()),
                          " but 'input' has ", input.getElementType());
  FailureOr<ConvWindow> w = readConvWindow(loc, name, input, strides, padding,
                                           dilations, nullptr, {});
  if (failed(w) ||
      failed(checkRank(loc, name, "weight", weight, input.getRank())))
    return failure();
  int64_t groups = optionalInt(groupsAttr).value_or(1);
  int64_t cin = input.getDimSize(1), cout = weight.getDimSize(0);
  if (failed(checkConvChannels(loc, name, groups, cin, cout, bias)) ||
      failed(checkDim(loc, name, "weight", weight, 1,
                      ShapedType::isDynamic(cin) ? cin : cin / groups,
                      "input channels / groups")))
    return failure();
  SmallVector<int64_t> shape = {input.getDimSize(0), cout};
  for (int64_t i = 2; i < input.getRank(); ++i) {
    FailureOr<int64_t> out = convOutputSize(
        loc, name, i, input.getDimSize(i), weight.getDimSize(i), *w, i - 2);
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  return input.clone(shape);
}

LogicalResult rlx::verifyEpsilon(Operation *op, APFloat epsilon) {
  if (!epsilon.isNegative() && !epsilon.isZero() && !epsilon.isNaN())
    return success();
  return op->emitOpError("'epsilon' must be positive, got ")
         << epsilon.convertToDouble();
}

/// The operand rules of an attention of `query` [B, H, S, D] over `key`
/// [B, ., ., D] and `value` [B, ., ., Dv] (named `names`): one element type,
/// rank 4, the query's batch and head dim, and the value's dims 1 and 2
/// those of the key (described as `what1` and `what2`).
static LogicalResult checkAttentionOperands(std::optional<Location> loc,
                                            StringRef name, Value query,
                                            Value key, Value value,
                                            ArrayRef<StringRef> names,
                                            StringRef what1, StringRef what2) {
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  auto v = cast<RankedTensorType>(value.getType());
  return failure(
      failed(checkSameElementType(loc, name, {query, key, value}, names)) ||
      failed(checkRank(loc, name, names[0], q, 4)) ||
      failed(checkRank(loc, name, names[1], k, 4)) ||
      failed(checkRank(loc, name, names[2], v, 4)) ||
      failed(checkDim(loc, name, names[1], k, 0, q.getDimSize(0),
                      "the batch of 'query'")) ||
      failed(checkDim(loc, name, names[2], v, 0, q.getDimSize(0),
                      "the batch of 'query'")) ||
      failed(checkDim(loc, name, names[1], k, 3, q.getDimSize(3),
                      "the head dim of 'query'")) ||
      failed(checkDim(loc, name, names[2], v, 1, k.getDimSize(1), what1)) ||
      failed(checkDim(loc, name, names[2], v, 2, k.getDimSize(2), what2)));
}

FailureOr<RankedTensorType> rlx::inferAttentionType(std::optional<Location> loc,
                                                   StringRef name, Value query,
                                                   Value key, Value value) {
  if (failed(checkAttentionOperands(loc, name, query, key, value,
                                    {"query", "key", "value"},
                                    "the heads of 'key'",
                                    "the length of 'key'")))
    return failure();
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  auto v = cast<RankedTensorType>(value.getType());
  int64_t heads = q.getDimSize(1), kvHeads = k.getDimSize(1);
  if (!ShapedType::isDynamic(heads) && !ShapedType::isDynamic(kvHeads) &&
      (kvHeads == 0 || heads % kvHeads != 0))
    return emitInferError(loc, name, "query heads (", heads,
                          ") must be a multiple of key/value heads (",
                          kvHeads, ")");
  return q.clone({q.getDimSize(0), heads, q.getDimSize(2), v.getDimSize(3)});
}

FailureOr<RankedTensorType>
rlx::inferDecodeAttentionType(std::optional<Location> loc, StringRef name,
                              Value query, Value keyCache, Value valueCache,
                              Value length) {
  if (failed(checkAttentionOperands(loc, name, query, keyCache, valueCache,
                                    {"query", "key_cache", "value_cache"},
                                    "the max_seq of 'key_cache'",
                                    "the kv heads of 'key_cache'")) ||
      failed(checkRank(loc, name, "length", cast<ShapedType>(length.getType()),
                       0)))
    return failure();
  auto q = cast<RankedTensorType>(query.getType());
  auto v = cast<RankedTensorType>(valueCache.getType());
  return q.clone(
      {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2), v.getDimSize(3)});
}

FailureOr<RankedTensorType> rlx::inferSampleType(std::optional<Location> loc,
                                                 StringRef name, Value logits,
                                                 Value seed) {
  auto type = cast<RankedTensorType>(logits.getType());
  Type element = type.getElementType();
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element))
    return emitInferError(loc, name,
                          "operand 'logits' must have a float element type "
                          "(f16, bf16, f32 or f64), got ",
                          element);
  if (type.getRank() != 1 && type.getRank() != 2)
    return emitInferError(
        loc, name,
        "operand 'logits' must have rank 1 ([V]) or 2 ([B, V]), got ",
        type.getRank());
  if (failed(checkRank(loc, name, "seed", cast<ShapedType>(seed.getType()), 0)))
    return failure();
  SmallVector<int64_t> shape(type.getShape().drop_back());
  return RankedTensorType::get(shape, IntegerType::get(type.getContext(), 64));
}

FailureOr<RankedTensorType>
rlx::inferLoraMatmulType(std::optional<Location> loc, StringRef name,
                         Value input, Value weight, Value loraA, Value loraB) {
  auto x = cast<RankedTensorType>(input.getType());
  auto w = cast<RankedTensorType>(weight.getType());
  auto a = cast<RankedTensorType>(loraA.getType());
  auto b = cast<RankedTensorType>(loraB.getType());
  if (failed(checkSameElementType(loc, name, {input, weight, loraA, loraB},
                                  {"input", "weight", "lora_a", "lora_b"})) ||
      failed(checkRank(loc, name, "input", x, 1, /*orMore=*/true)) ||
      failed(checkRank(loc, name, "weight", w, 2)) ||
      failed(checkRank(loc, name, "lora_a", a, 2)) ||
      failed(checkRank(loc, name, "lora_b", b, 2)))
    return failure();
  int64_t k = x.getDimSize(x.getRank() - 1);
  if (failed(
          checkDim(loc, name, "weight", w, 0, k, "the last dim of 'input'")) ||
      failed(
          checkDim(loc, name, "lora_a", a, 0, k, "the last dim of 'input'")) ||
      failed(checkDim(loc, name, "lora_b", b, 0, a.getDimSize(1),
                      "the rank (dim 1) of 'lora_a'")) ||
      failed(checkDim(loc, name, "lora_b", b, 1, w.getDimSize(1),
                      "the output dim (dim 1) of 'weight'")))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  shape.back() = refineDim(w.getDimSize(1), b.getDimSize(1));
  return x.clone(shape);
}

FailureOr<RankedTensorType>
rlx::inferGroupedMatmulType(std::optional<Location> loc, StringRef name,
                            Value input, Value weights, Value expert) {
  auto x = cast<RankedTensorType>(input.getType());
  auto w = cast<RankedTensorType>(weights.getType());
  auto e = cast<RankedTensorType>(expert.getType());
  if (failed(checkSameElementType(loc, name, {input, weights},
                                  {"input", "weights"})) ||
      failed(checkRank(loc, name, "input", x, 2)) ||
      failed(checkRank(loc, name, "weights", w, 3)) ||
      failed(checkRank(loc, name, "expert", e, 1)) ||
      failed(checkDim(loc, name, "weights", w, 1, x.getDimSize(1),
                      "the last dim of 'input'")) ||
      failed(checkDim(loc, name, "expert", e, 0, x.getDimSize(0),
                      "the rows of 'input'")))
    return failure();
  return x.clone(
      {refineDim(x.getDimSize(0), e.getDimSize(0)), w.getDimSize(2)});
}

LogicalResult rlx::inferGatedDeltaNetTypes(std::optional<Location> loc,
                                           StringRef name, Value query,
                                           Value key, Value value, Value gate,
                                           Value beta, Value state,
                                           SmallVectorImpl<Type> &types) {
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  auto v = cast<RankedTensorType>(value.getType());
  auto g = cast<RankedTensorType>(gate.getType());
  auto bt = cast<RankedTensorType>(beta.getType());
  auto s = cast<RankedTensorType>(state.getType());
  if (failed(checkSameElementType(
          loc, name, {query, key, value, gate, beta, state},
          {"query", "key", "value", "gate", "beta", "state"})) ||
      failed(checkRank(loc, name, "query", q, 4)) ||
      failed(checkRank(loc, name, "key", k, 4)) ||
      failed(checkRank(loc, name, "value", v, 4)) ||
      failed(checkRank(loc, name, "gate", g, 3)) ||
      failed(checkRank(loc, name, "beta", bt, 3)) ||
      failed(checkRank(loc, name, "state", s, 4)))
    return failure();
  // [B, T, H] of the query, which key, value, gate and beta share.
  StringRef lead[] = {"the batch of 'query'", "the length of 'query'",
                      "the heads of 'query'"};
  StringRef names[] = {"key", "value", "gate", "beta"};
  RankedTensorType types4[] = {k, v, g, bt};
  for (int64_t i = 0; i < 3; ++i)
    for (auto [operand, type] : llvm::zip(names, types4))
      if (failed(
              checkDim(loc, name, operand, type, i, q.getDimSize(i), lead[i])))
        return failure();
  int64_t batch = q.getDimSize(0), heads = q.getDimSize(2);
  int64_t dk = refineDim(q.getDimSize(3), k.getDimSize(3));
  if (failed(checkDim(loc, name, "key", k, 3, q.getDimSize(3),
                      "the head dim of 'query'")) ||
      failed(
          checkDim(loc, name, "state", s, 0, batch, "the batch of 'query'")) ||
      failed(
          checkDim(loc, name, "state", s, 1, heads, "the heads of 'query'")) ||
      failed(
          checkDim(loc, name, "state", s, 2, dk, "the head dim of 'query'")) ||
      failed(checkDim(loc, name, "state", s, 3, v.getDimSize(3),
                      "the head dim of 'value'")))
    return failure();
  // Each dim from whichever operand fixes it.
  auto refine = [](ArrayRef<int64_t> dims) {
    int64_t d = ShapedType::kDynamic;
    for (int64_t x : dims)
      d = refineDim(d, x);
    return d;
  };
  int64_t b = refine({batch, k.getDimSize(0), v.getDimSize(0), g.getDimSize(0),
                      bt.getDimSize(0), s.getDimSize(0)});
  int64_t t = refine({q.getDimSize(1), k.getDimSize(1), v.getDimSize(1),
                      g.getDimSize(1), bt.getDimSize(1)});
  int64_t h = refine({heads, k.getDimSize(2), v.getDimSize(2), g.getDimSize(2),
                      bt.getDimSize(2), s.getDimSize(1)});
  int64_t d = refine({dk, s.getDimSize(2)});
  int64_t dv = refine({v.getDimSize(3), s.getDimSize(3)});
  types.push_back(q.clone({b, t, h, dv}));
  types.push_back(q.clone({b, h, d, dv}));
  return success();
}

FailureOr<RankedTensorType>
rlx::inferCrossEntropyType(std::optional<Location> loc, StringRef name,
                           Value logits, Value labels) {
  auto l = cast<RankedTensorType>(logits.getType());
  auto y = cast<RankedTensorType>(labels.getType());
  if (failed(checkRank(loc, name, "logits", l, 2)) ||
      failed(checkRank(loc, name, "labels", y, 1)) ||
      failed(checkDim(loc, name, "labels", y, 0, l.getDimSize(0),
                      "the batch dim of 'logits'")))
    return failure();
  return l.clone(ArrayRef<int64_t>{});
}

LogicalResult rlx::requireRanked(std::optional<Location> loc, StringRef name,
                                 ValueRange operands) {
  for (auto [i, v] : llvm::enumerate(operands))
    if (!isa<RankedTensorType>(v.getType()))
      return emitInferError(loc, name, "operand #", i,
                            " must be a ranked tensor, got ", v.getType());
  return success();
}

/// Checks that the per-feature parameter `param` (named `name`) is 1-D of
/// `input`'s dim `dim`, with `input`'s element type.
LogicalResult rlx::verifyFeatureParam(Operation *op, Value input,
                                        Value param, StringRef name,
                                        int64_t dim, StringRef what) {
  auto in = cast<RankedTensorType>(input.getType());
  auto type = cast<RankedTensorType>(param.getType());
  Location loc = op->getLoc();
  StringRef opName = op->getName().getStringRef();
  if (failed(checkSameElementType(loc, opName, {input, param},
                                  {"input", name})) ||
      failed(checkRank(loc, opName, name, type, 1)))
    return failure();
  return checkDim(loc, opName, name, type, 0, in.getDimSize(dim), what);
}

LogicalResult rlx::verifyNormGamma(Operation *op, Value input, Value gamma) {
  auto in = cast<RankedTensorType>(input.getType());
  if (failed(checkRank(op->getLoc(), op->getName().getStringRef(), "input",
                       in, 1, /*orMore=*/true)))
    return failure();
  return verifyFeatureParam(op, input, gamma, "gamma", in.getRank() - 1,
                            "the last dim of 'input'");
}
