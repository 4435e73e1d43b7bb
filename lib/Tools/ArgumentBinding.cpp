//===- ArgumentBinding.cpp - a run's arguments from files -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/ArgumentBinding.h"

#include "RLX/Dialect/MIR/Transforms/ParamFiles.h"
#include "RLX/Runtime/Common/BFloat16.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::rlx;
using runtime::NpyArray;

FailureOr<ParamTensors>
rlx::readParamTensors(func::FuncOp entry, const RunFiles &files,
                      llvm::function_ref<void(const Twine &)> error) {
  ParamTensors tensors;
  if (files.paramFiles.empty()) {
    if (!files.paramMap.empty()) {
      error("--param-map needs --params");
      return failure();
    }
    return tensors;
  }
  std::string message;
  FailureOr<ParamFiles> paramFiles =
      ParamFiles::open(files.paramFiles, files.paramMap, message);
  if (failed(paramFiles)) {
    error(message);
    return failure();
  }
  std::set<std::string> fromNpyFiles;
  for (const std::string &spec : files.params)
    fromNpyFiles.insert(spec.substr(0, spec.find('=')));
  WalkResult walk = entry.walk([&](ParamOp param) {
    std::string name = param.getName().str();
    if (fromNpyFiles.count(name) || tensors.count(name))
      return WalkResult::advance();
    FailureOr<NpyArray> array = paramFiles->read(param);
    if (failed(array))
      return WalkResult::interrupt();
    tensors.emplace(name, std::move(*array));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return tensors;
}

/// The --param files by param name, each checked to name a param of
/// @`function` (its params: `names`) once.
static FailureOr<std::map<std::string, std::string>>
paramPaths(StringRef function, ArrayRef<std::string> names,
           ArrayRef<std::string> specs,
           llvm::function_ref<void(const Twine &)> error) {
  std::map<std::string, std::string> paths;
  for (const std::string &spec : specs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      error("--param=" + spec + ": expected NAME=PATH.npy");
      return failure();
    }
    std::string param = spec.substr(0, eq);
    if (!llvm::is_contained(names, param)) {
      std::string known;
      if (!names.empty())
        known = " (its params: " + llvm::join(names, ", ") + ")";
      error("--param=" + spec + ": @" + function.str() +
            " has no rlx.param \"" + param + "\"" + known);
      return failure();
    }
    if (!paths.emplace(param, spec.substr(eq + 1)).second) {
      error("--param: \"" + param + "\" is given twice");
      return failure();
    }
  }
  return paths;
}

/// f16 bits of `f` in [-4, 4], by truncating the mantissa.
static uint16_t truncateToF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exp = int32_t((bits >> 23) & 0xFF) - 127 + 15;
  return exp <= 0 ? uint16_t(sign)
                  : uint16_t(sign | (exp << 10) | ((bits >> 13) & 0x3FF));
}

/// Random normal floats, integers in [0, 4), fair booleans; a dynamic
/// dimension has size 1.
static HostTensor randomTensor(RankedTensorType type, std::mt19937_64 &rng) {
  HostTensor t;
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? 1 : d);
  Type e = type.getElementType();
  auto *data = static_cast<uint8_t *>(t.reshape(e, shape));
  int64_t n = ShapedType::getNumElements(shape);
  int64_t bytes = getElementBytes(e);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> small(0, 3);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *p = data + i * bytes;
    if (e.isF32()) {
      float f = normal(rng);
      std::memcpy(p, &f, 4);
    } else if (e.isF64()) {
      double f = normal(rng);
      std::memcpy(p, &f, 8);
    } else if (e.isBF16()) {
      uint16_t h = runtime::floatToBF16(normal(rng));
      std::memcpy(p, &h, 2);
    } else if (e.isF16()) {
      uint16_t h = truncateToF16(std::clamp(normal(rng), -4.0, 4.0));
      std::memcpy(p, &h, 2);
    } else if (auto c = dyn_cast<ComplexType>(e)) {
      double parts[2] = {normal(rng), normal(rng)};
      if (c.getElementType().isF64()) {
        std::memcpy(p, parts, 16);
      } else {
        float narrow[2] = {float(parts[0]), float(parts[1])};
        std::memcpy(p, narrow, 8);
      }
    } else if (e.isInteger(1)) {
      *p = small(rng) & 1;
    } else {
      int64_t v = small(rng);
      std::memcpy(p, &v, bytes); // little-endian: low bytes first
    }
  }
  return t;
}

FailureOr<std::vector<HostTensor>>
rlx::bindArguments(const CPUProgram &program, const RunFiles &files,
                   const ParamTensors &fileParams,
                   llvm::function_ref<void(const Twine &)> error) {
  return bindArguments(program.getName(), program.getArgumentTypes(),
                       program.getResultTypes().size(),
                       program.getParamNames(), files, fileParams, error);
}

FailureOr<std::vector<HostTensor>>
rlx::bindArguments(StringRef function, ArrayRef<RankedTensorType> argTypes,
                   size_t numResults, ArrayRef<std::string> paramNames,
                   const RunFiles &files, const ParamTensors &fileParams,
                   llvm::function_ref<void(const Twine &)> error) {
  unsigned numOrdinary = argTypes.size() - paramNames.size();
  FailureOr<std::map<std::string, std::string>> npyParams =
      paramPaths(function, paramNames, files.params, error);
  if (failed(npyParams))
    return failure();
  if (files.inputs.size() > numOrdinary) {
    error(Twine(files.inputs.size()) + " inputs given but @" + function +
          " takes " + Twine(numOrdinary) + " arguments");
    return failure();
  }
  if (files.outputs.size() > numResults) {
    error(Twine(files.outputs.size()) + " outputs given but @" + function +
          " returns " + Twine(numResults) + " results");
    return failure();
  }

  // The inputs, then the params.
  std::mt19937_64 rng(files.seed);
  std::vector<HostTensor> args(argTypes.size());
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    std::string path, what = "argument #" + std::to_string(i);
    if (i < numOrdinary && i < files.inputs.size()) {
      path = files.inputs[i];
    } else if (i >= numOrdinary) {
      const std::string &param = paramNames[i - numOrdinary];
      what = "param \"" + param + "\" (" + what + ")";
      auto it = npyParams->find(param);
      if (it != npyParams->end())
        path = it->second;
      auto fromFile = fileParams.find(param);
      if (fromFile != fileParams.end()) {
        // Checked against the param's type when read.
        if (failed(fromNpy(fromFile->second, type, what, "--params", args[i],
                           error)))
          return failure();
        continue;
      }
    }
    if (path.empty()) {
      args[i] = randomTensor(type, rng);
      continue;
    }
    NpyArray array;
    std::string message;
    if (!runtime::readNpy(path, array, message)) {
      error((i >= numOrdinary ? what + ": " : "") + message);
      return failure();
    }
    if (failed(fromNpy(array, type, what, path, args[i], error)))
      return failure();
  }
  return args;
}
