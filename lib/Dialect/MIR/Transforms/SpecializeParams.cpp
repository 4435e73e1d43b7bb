//===- SpecializeParams.cpp - rlx.param to constants from weight files ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/NpyDtype.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/ParamFiles.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Runtime/Common/BFloat16.h"
#include "RLX/Runtime/Common/Npy.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <cstring>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_SPECIALIZEPARAMSPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;
using mlir::rlx::runtime::NpyArray;

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// `array` (of the param's .npy dtype and shape) as the value of a constant
/// of the param's type.
static DenseElementsAttr toAttr(ParamOp param, NpyArray array) {
  auto type = cast<RankedTensorType>(param.getType());
  Type element = type.getElementType();
  int64_t n = array.numElements();
  if (element.isInteger(1)) {
    SmallVector<bool> bits(n);
    for (int64_t i = 0; i < n; ++i)
      bits[i] = array.data[i] != 0;
    return DenseElementsAttr::get(type, bits);
  }
  std::vector<uint8_t> bytes;
  if (element.isBF16()) {
    bytes.resize(2 * n);
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, array.data.data() + 4 * i, 4);
      uint16_t h = rlx::runtime::floatToBF16(f);
      std::memcpy(bytes.data() + 2 * i, &h, 2);
    }
  } else {
    bytes = std::move(array.data);
  }
  ArrayRef<char> raw(reinterpret_cast<const char *>(bytes.data()),
                     bytes.size());
  // A single element reads as a splat; the raw data of n elements has the
  // same size for n == 1, so both agree.
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

/// The contents of the .npy file `path` as the value of a constant of the
/// param's type; on failure an error at `param`.
static FailureOr<DenseElementsAttr> readNpyParam(ParamOp param,
                                                 const std::string &path) {
  auto type = cast<RankedTensorType>(param.getType());
  Type element = type.getElementType();
  std::string want = npyDtype(element);
  if (want.empty())
    return param.emitError("param \"")
           << param.getName() << "\" has element type " << element
           << ", which has no .npy dtype";
  if (!type.hasStaticShape())
    return param.emitError("param \"")
           << param.getName() << "\" has the dynamic type " << type
           << "; only static shapes can be specialized";
  NpyArray array;
  std::string error;
  if (!runtime::readNpy(path, array, error))
    return param.emitError("param \"")
           << param.getName() << "\": " << error;
  if (array.dtype != want || ArrayRef<int64_t>(array.shape) !=
                                 type.getShape())
    return param.emitError("param \"")
           << param.getName() << "\" of type " << type << " needs npy dtype '"
           << want << "' of shape " << shapeStr(type.getShape()) << ", but '"
           << path << "' holds dtype '" << array.dtype << "' of shape "
           << shapeStr(array.shape);
  return toAttr(param, std::move(array));
}

namespace {

struct SpecializeParamsPass
    : rlx::impl::SpecializeParamsPassBase<SpecializeParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    // One read per name; the verifier keeps one type per name and function,
    // and a type mismatch between functions is caught by readParam's check.
    llvm::StringMap<DenseElementsAttr> cache;
    llvm::StringSet<> failedNames; // reported once

    SmallVector<ParamOp> params;
    getOperation()->walk([&](ParamOp param) { params.push_back(param); });
    if (params.empty())
      return;
    std::string error;
    FailureOr<ParamFiles> weightFiles = ParamFiles::open(files, map, error);
    if (failed(weightFiles)) {
      getOperation().emitError("rlx-specialize-params: ") << error;
      return signalPassFailure();
    }
    if (weightFiles->empty() && dir.empty()) {
      params.front().emitError("rlx-specialize-params needs dir=PATH or "
                               "files=PATHS to bind param \"")
          << params.front().getName() << "\"";
      return signalPassFailure();
    }
    bool ok = true;
    for (ParamOp param : params) {
      // The files first; `dir` for what they do not hold. Without `dir`,
      // ParamFiles::read reports a name no file holds.
      bool inFiles = !weightFiles->empty() &&
                     (dir.empty() || weightFiles->lookup(param.getName()).first);
      if (failedNames.contains(param.getName()))
        continue;
      DenseElementsAttr value = cache.lookup(param.getName());
      if (!value || value.getType() != param.getType()) {
        FailureOr<DenseElementsAttr> read;
        if (inFiles) {
          FailureOr<NpyArray> array = weightFiles->read(param);
          read = failed(array) ? FailureOr<DenseElementsAttr>(failure())
                               : toAttr(param, std::move(*array));
        } else {
          SmallString<256> path(dir);
          llvm::sys::path::append(path, param.getName() + ".npy");
          read = readNpyParam(param, std::string(path));
        }
        if (failed(read)) {
          failedNames.insert(param.getName());
          ok = false;
          continue;
        }
        value = *read;
        cache[param.getName()] = value;
      }
      OpBuilder b(param);
      Value constant = ConstantOp::create(b, param.getLoc(), value);
      param.getResult().replaceAllUsesWith(constant);
      param.erase();
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
