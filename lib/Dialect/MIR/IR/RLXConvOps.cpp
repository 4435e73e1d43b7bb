//===- RLXConvOps.cpp - convolution and pooling ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXConvOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

LogicalResult ConvOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type = inferConvType(
      loc, getOperationName(),
      cast<RankedTensorType>(adaptor.getInput().getType()),
      cast<RankedTensorType>(adaptor.getWeight().getType()), adaptor.getBias(),
      adaptor.getStridesAttr(), adaptor.getPaddingAttr(),
      adaptor.getDilationsAttr(), adaptor.getGroupsAttr());
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

//===----------------------------------------------------------------------===//
// ConvTranspose2DOp
//===----------------------------------------------------------------------===//

LogicalResult ConvTranspose2DOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  auto weight = cast<RankedTensorType>(adaptor.getWeight().getType());
  if (failed(checkSameElementType(loc, name, adaptor.getOperands(),
                                  {"input", "weight", "bias"})) ||
      failed(checkRank(loc, name, "input", input, 4)) ||
      failed(checkRank(loc, name, "weight", weight, 4)))
    return failure();
  FailureOr<ConvWindow> w = readConvWindow(
      loc, name, input, adaptor.getStridesAttr(), adaptor.getPaddingAttr(),
      adaptor.getDilationsAttr(), adaptor.getOutputPaddingAttr(), {});
  if (failed(w))
    return failure();
  int64_t groups = optionalInt(adaptor.getGroupsAttr()).value_or(1);
  int64_t cin = input.getDimSize(1);
  int64_t cout = ShapedType::isDynamic(weight.getDimSize(1))
                     ? ShapedType::kDynamic
                     : weight.getDimSize(1) * groups;
  if (failed(checkDim(loc, name, "weight", weight, 0, cin,
                      "the input channels")) ||
      failed(checkConvChannels(loc, name, groups, cin, cout, adaptor.getBias())))
    return failure();
  SmallVector<int64_t> shape = {input.getDimSize(0), cout};
  for (size_t i = 0; i < 2; ++i) {
    int64_t in = input.getDimSize(i + 2), k = weight.getDimSize(i + 2);
    int64_t op = w->outputPadding[i];
    if (op >= w->strides[i] && op >= w->dilations[i])
      return emitInferError(loc, name, "'output_padding' ", op,
                            " must be smaller than the stride or the "
                            "dilation of spatial dim ",
                            i);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t out = (in - 1) * w->strides[i] - w->padding[2 * i] -
                  w->padding[2 * i + 1] + w->dilations[i] * (k - 1) + op + 1;
    if (out < 1)
      return emitInferError(loc, name, "spatial dim ", i + 2,
                            ": the output size would be ", out);
    shape.push_back(out);
  }
  types.push_back(input.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

LogicalResult PoolOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(requireAttr(loc, name, adaptor.getKernelAttr(), "kernel")))
    return failure();
  ArrayRef<int64_t> kernel = adaptor.getKernel();
  if (input.getRank() == 3 || input.getRank() == 4) {
    if (kernel.size() != static_cast<size_t>(input.getRank() - 2))
      return emitInferError(loc, name, "'kernel' has ", kernel.size(),
                            " entries but the input has ",
                            input.getRank() - 2, " spatial dims");
    if (llvm::any_of(kernel, [](int64_t k) { return k < 1; }))
      return emitInferError(loc, name, "'kernel' entries must be positive");
  }
  FailureOr<ConvWindow> w = readConvWindow(loc, name, input, adaptor.getStridesAttr(),
                                   adaptor.getPaddingAttr(), nullptr, nullptr,
                                   kernel);
  if (failed(w))
    return failure();
  SmallVector<int64_t> shape(input.getShape().take_front(2));
  for (size_t i = 0; i < kernel.size(); ++i) {
    if (2 * std::max(w->padding[2 * i], w->padding[2 * i + 1]) > kernel[i])
      return emitInferError(loc, name, "'padding' of spatial dim ", i,
                            " must be at most half the kernel (", kernel[i],
                            ")");
    FailureOr<int64_t> out = convOutputSize(loc, name, i + 2,
                                          input.getDimSize(i + 2), kernel[i],
                                          *w, i);
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  types.push_back(input.clone(shape));
  return success();
}
