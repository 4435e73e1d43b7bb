//===- HostTensor.cpp - a tool's tensors and their .npy form --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/HostTensor.h"

#include "RLX/Dialect/MIR/IR/NpyDtype.h"
#include "RLX/Runtime/Common/BFloat16.h"
#include "RLX/Runtime/Common/HostMemory.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::rlx;
using runtime::NpyArray;

void *rlx::allocateTensorStorage(size_t bytes) {
  void *p = runtime::allocateHostMemory(
      64, std::max<size_t>((bytes + 63) / 64 * 64, 64));
  if (!p)
    llvm::report_bad_alloc_error("rlx-run: out of memory for a tensor");
  return p;
}

void *HostTensor::reshape(Type type, ArrayRef<int64_t> newShape) {
  elementType = type;
  shape.assign(newShape.begin(), newShape.end());
  int64_t n = 1;
  for (int64_t d : newShape)
    n *= d;
  bytes.resize(n * getElementBytes(type));
  return bytes.data();
}

std::vector<TensorView> rlx::viewTensors(MutableArrayRef<HostTensor> tensors) {
  std::vector<TensorView> views;
  for (HostTensor &t : tensors)
    views.push_back({t.bytes.data(), {t.shape.begin(), t.shape.end()}});
  return views;
}

std::string rlx::formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

LogicalResult rlx::fromNpy(const NpyArray &a, RankedTensorType type,
                           const Twine &what, const Twine &path, HostTensor &t,
                           llvm::function_ref<void(const Twine &)> error) {
  Type element = type.getElementType();
  std::string want = npyDtype(element);
  bool shapeOk = a.shape.size() == size_t(type.getRank());
  for (int64_t i = 0; shapeOk && i < type.getRank(); ++i)
    shapeOk = type.isDynamicDim(i) || type.getDimSize(i) == a.shape[i];
  if (a.dtype != want || !shapeOk) {
    std::string typeStr;
    llvm::raw_string_ostream os(typeStr);
    os << type;
    error(what + " expects " + typeStr + " (npy dtype '" + want + "'), but '" +
          path + "' holds dtype '" + a.dtype + "' of shape " +
          formatShape(a.shape));
    return failure();
  }
  t.elementType = element;
  t.shape = a.shape;
  if (!element.isBF16()) {
    t.bytes.assign(a.data.begin(), a.data.end());
    return success();
  }
  int64_t n = a.numElements();
  t.bytes.resize(2 * n);
  runtime::floatsToBF16(a.data.data(), t.bytes.data(), n);
  return success();
}

NpyArray rlx::toNpy(const HostTensor &t) {
  NpyArray a;
  a.dtype = npyDtype(t.elementType);
  a.shape = t.shape;
  if (!t.elementType.isBF16()) {
    a.data.assign(t.bytes.begin(), t.bytes.end());
    return a;
  }
  int64_t n = t.bytes.size() / 2;
  a.data.resize(4 * n);
  runtime::bf16ToFloats(t.bytes.data(), a.data.data(), n);
  return a;
}
