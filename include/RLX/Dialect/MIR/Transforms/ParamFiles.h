//===- ParamFiles.h - binding rlx.param to weight files ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tensors of safetensors and GGUF files (runtime::TensorFile) as the
// values of rlx.param ops, with renames: shared by --rlx-specialize-params
// and rlx-run --params so that both bind and check alike.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_PARAMFILES_H
#define RLX_DIALECT_MIR_TRANSFORMS_PARAMFILES_H

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Runtime/Common/TensorFile.h"

#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace rlx {

class ParamFiles {
public:
  /// Opens `paths` and reads `renames`, each "PARAM=TENSOR": param PARAM
  /// binds the file tensor TENSOR (others bind the tensor of their own
  /// name). On failure returns failure and sets `error`.
  static FailureOr<ParamFiles> open(ArrayRef<std::string> paths,
                                    ArrayRef<std::string> renames,
                                    std::string &error);

  bool empty() const { return files.empty(); }

  /// The file tensor that `name` binds (under the renames) and its file, or
  /// {null, null} when no file has it.
  std::pair<const runtime::TensorEntry *, const runtime::TensorFile *>
  lookup(StringRef name) const;

  /// Reads the tensor `param` binds as an array of the param's .npy dtype
  /// and shape (bf16 as f4, quantized GGUF types as their ui8 packed rows),
  /// checking the file's type and shape against the param's type and, for
  /// quantized types, against the schemes of the rlx.dequant_matmul ops
  /// that use the param as their weight. Errors are emitted at `param`,
  /// naming the param, the file and both types and shapes.
  FailureOr<runtime::NpyArray> read(ParamOp param) const;

private:
  std::vector<std::shared_ptr<runtime::TensorFile>> files;
  llvm::StringMap<std::string> renames;
};

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_TRANSFORMS_PARAMFILES_H
