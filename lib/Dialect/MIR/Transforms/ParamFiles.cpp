//===- ParamFiles.cpp - binding rlx.param to weight files -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/ParamFiles.h"
#include "RLX/Dialect/MIR/IR/NpyDtype.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using runtime::NpyArray;
using runtime::TensorEntry;
using runtime::TensorFile;

FailureOr<ParamFiles> ParamFiles::open(ArrayRef<std::string> paths,
                                       ArrayRef<std::string> renames,
                                       std::string &error) {
  ParamFiles result;
  for (const std::string &spec : renames) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      error = "bad param rename '" + spec + "': expected PARAM=TENSOR";
      return failure();
    }
    if (!result.renames.try_emplace(spec.substr(0, eq), spec.substr(eq + 1))
             .second) {
      error = "param \"" + spec.substr(0, eq) + "\" is renamed twice";
      return failure();
    }
  }
  for (const std::string &path : paths) {
    std::unique_ptr<TensorFile> file = TensorFile::open(path, error);
    if (!file)
      return failure();
    result.files.push_back(std::move(file));
  }
  return result;
}

std::pair<const TensorEntry *, const TensorFile *>
ParamFiles::lookup(StringRef name) const {
  auto it = renames.find(name);
  std::string tensor = it == renames.end() ? name.str() : it->second;
  for (const auto &file : files)
    if (const TensorEntry *entry = file->find(tensor))
      return {entry, file.get()};
  return {nullptr, nullptr};
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  return "[" + llvm::join(llvm::map_range(shape, [](int64_t d) {
                            return std::to_string(d);
                          }),
                          ", ") +
         "]";
}

/// "Q4_0 [16, 256] (packed as ui8 [16, 144])" or "F32 [4, 8]".
static std::string describe(const TensorEntry &entry) {
  std::string s = entry.fileType + " " + shapeStr(entry.shape);
  if (!entry.scheme.empty())
    s += " (packed as ui8 " + shapeStr(entry.arrayShape) + ")";
  return s;
}

FailureOr<NpyArray> ParamFiles::read(ParamOp param) const {
  StringRef name = param.getName();
  auto [entry, file] = lookup(name);
  if (!entry) {
    auto it = renames.find(name);
    std::string tensor = it == renames.end() ? name.str() : it->second;
    SmallVector<std::string> paths;
    for (const auto &f : files)
      paths.push_back("'" + f->getPath() + "'");
    return param.emitError("param \"")
           << name << "\": no tensor \"" << tensor << "\" in "
           << llvm::join(paths, ", ");
  }
  auto type = cast<RankedTensorType>(param.getType());
  Type element = type.getElementType();
  auto mismatch = [&]() {
    return param.emitError("param \"")
           << name << "\" of type " << type << " cannot bind tensor \""
           << entry->name << "\" of '" << file->getPath() << "' ("
           << file->getFormat() << "): " << describe(*entry);
  };
  if (!type.hasStaticShape())
    return param.emitError("param \"")
           << name << "\" has the dynamic type " << type
           << "; only static shapes can be bound to file tensors";
  // bf16 params take BF16 tensors only (both exchange f4 arrays); a
  // quantized tensor's packed rows bind ui8 params.
  bool bf16 = entry->fileType == "BF16";
  if (entry->dtype.empty() || npyDtype(element) != entry->dtype ||
      element.isBF16() != bf16 ||
      ArrayRef<int64_t>(entry->arrayShape) != type.getShape())
    return mismatch();
  if (!entry->scheme.empty()) {
    for (Operation *user : param->getUsers()) {
      auto matmul = dyn_cast<DequantMatmulOp>(user);
      if (!matmul || matmul.getWeight() != param.getResult())
        continue;
      StringRef scheme = stringifyQuantKind(matmul.getScheme().getKind());
      if (scheme != entry->scheme) {
        InFlightDiagnostic diag = mismatch();
        diag << ", which is scheme " << entry->scheme << ", not the "
             << scheme << " of its rlx.dequant_matmul";
        diag.attachNote(matmul.getLoc()) << "used here";
        return failure();
      }
    }
  }
  NpyArray array;
  std::string error;
  if (!file->read(*entry, array, error))
    return param.emitError("param \"") << name << "\": " << error;
  return array;
}
