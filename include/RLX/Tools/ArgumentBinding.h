//===- ArgumentBinding.h - a run's arguments from files ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How rlx-run binds the arguments of a compiled program (rlx::CPUProgram):
// the ordinary arguments in order to --input .npy files, each param to the
// --param .npy file of its name or to a tensor of the --params safetensors
// and GGUF files (read and checked by rlx::ParamFiles, as
// --rlx-specialize-params files=... reads them), and what no file gives to
// random values from --seed. Errors go to a tool's reporter, which prefixes
// the tool's name.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_ARGUMENTBINDING_H
#define RLX_TOOLS_ARGUMENTBINDING_H

#include "RLX/Tools/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>

namespace mlir {
namespace rlx {

/// The files a run reads its arguments from and writes its results to, as
/// a tool's flags give them.
struct RunFiles {
  /// The .npy files of the first ordinary arguments, in order (--input).
  ArrayRef<std::string> inputs;
  /// The .npy files of the first results, in order (--output).
  ArrayRef<std::string> outputs;
  /// "NAME=PATH.npy": the file of the param NAME (--param).
  ArrayRef<std::string> params;
  /// The safetensors and GGUF files of the params no --param names
  /// (--params), the first file holding a name winning.
  ArrayRef<std::string> paramFiles;
  /// "PARAM=TENSOR": param PARAM binds the --params tensor TENSOR
  /// (--param-map).
  ArrayRef<std::string> paramMap;
  /// The seed of the random values of the arguments no file gives.
  unsigned seed = 0;
};

/// Tensors of --params files by the name of the param they bind.
using ParamTensors = std::map<std::string, runtime::NpyArray>;

/// The --params tensors of the rlx.params of `entry` that no --param names:
/// read before compiling, while the rlx.param ops are there to check
/// against (and to report at).
FailureOr<ParamTensors>
readParamTensors(func::FuncOp entry, const RunFiles &files,
                 llvm::function_ref<void(const Twine &)> error);

/// The arguments of `program`, bound as the file comment says, with
/// `fileParams` from readParamTensors. Checks first that each --param names
/// a param of the program once, and that no more inputs and outputs are
/// given than the program has arguments and results.
FailureOr<std::vector<HostTensor>>
bindArguments(const CPUProgram &program, const RunFiles &files,
              const ParamTensors &fileParams,
              llvm::function_ref<void(const Twine &)> error);

/// The same for a program not compiled in this process (rlx-run
/// --target=vulkan): @`function`, of arguments `argTypes` (the last
/// `paramNames.size()` of them the params) and `numResults` results.
FailureOr<std::vector<HostTensor>>
bindArguments(StringRef function, ArrayRef<RankedTensorType> argTypes,
              size_t numResults, ArrayRef<std::string> paramNames,
              const RunFiles &files, const ParamTensors &fileParams,
              llvm::function_ref<void(const Twine &)> error);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_ARGUMENTBINDING_H
