//===- CompileOutputs.h - the files rlx-compile writes ----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What rlx-compile writes of a module its target's pipeline lowered: the
// relocatable object of an object target, the source and host description
// of a source target (TargetInfo::emitSource), and the kernel binaries a
// GPU target embedded (--gpu-binaries). Errors go to a tool's reporter,
// which prefixes the tool's name.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_COMPILEOUTPUTS_H
#define RLX_TOOLS_COMPILEOUTPUTS_H

#include "RLX/Target/TargetRegistry.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace rlx {

/// Translates `module` to an LLVM module named `name`, optimizes it at -O3
/// for `cpu` (an LLVM CPU name; empty: this machine's CPU, as
/// createHostTargetMachine takes it) and writes it to `path` as a
/// position-independent relocatable object.
LogicalResult writeObjectFile(ModuleOp module, StringRef name, StringRef cpu,
                              StringRef path,
                              llvm::function_ref<void(const Twine &)> error);

/// Writes `info`'s source of `module`: the kernels to `sourcePath`, the host
/// functions' description to `hostPath`.
LogicalResult writeSourceFiles(ModuleOp module, const TargetInfo &info,
                               StringRef sourcePath, StringRef hostPath,
                               llvm::function_ref<void(const Twine &)> error);

/// Writes the object of every gpu.binary of `module` to `dir`/NAME.EXT,
/// EXT being `extension` for a binary ("cubin", "hsaco", "spv"), "s" for
/// assembly and "fatbin" for the rest.
LogicalResult writeGPUBinaries(ModuleOp module, StringRef dir,
                               StringRef extension,
                               llvm::function_ref<void(const Twine &)> error);

/// Compiles `module` for the object target `info` as rlx-compile does:
/// every public function with a body an entry point, the target's pipeline
/// built from `flags` (with `hostDescription` non-empty, writing the
/// Vulkan pipeline's launches there on the way: HostDescription.h), the
/// kernel binaries written to `binaryDir` where non-empty
/// (writeGPUBinaries), and the object to `path` (writeObjectFile, named
/// `name`, for `cpu`). Fails after reporting, through `error` or as the
/// pipeline's diagnostics.
LogicalResult compileObjectFile(ModuleOp module, const TargetInfo &info,
                                const TargetCompileFlags &flags,
                                StringRef name, StringRef cpu, StringRef path,
                                StringRef binaryDir, StringRef hostDescription,
                                llvm::function_ref<void(const Twine &)> error);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_COMPILEOUTPUTS_H
