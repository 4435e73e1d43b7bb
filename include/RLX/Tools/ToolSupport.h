//===- ToolSupport.h - what the RLX tools start from ------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The prologue of the tools' main functions, once: the dialect registry
// every RLX tool reads programs with (rlx-opt, rlx-reduce, rlx-lsp-server)
// and the context of the tools that compile them (rlx-run, rlx-compile).
// The tools' .npy I/O is the runtime's (RLX/Runtime/Common/Npy.h), with bf16
// tensors carried as float32 (RLX/Runtime/Common/BFloat16.h): the runners
// that link no MLIR (rlx-vulkan-run, rlx-metal-cpu-run) share it.
//
// The rest of the tools' plumbing has a header each beside this one:
// rlx-run's (HostTensor.h, ArgumentBinding.h, ProgramRuns.h) and
// rlx-compile's (CompileOutputs.h, EntryPointHeader.h, HostDescription.h,
// TargetList.h), so that their main functions are flags and calls.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_TOOLSUPPORT_H
#define RLX_TOOLS_TOOLSUPPORT_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace mlir {
namespace rlx {

/// Registers what an RLX tool reads and writes: upstream MLIR's dialects
/// and extensions, their translations to LLVM IR (gpu-module-to-binary and
/// rlx-compile translate to LLVM IR) and RLX's dialects with their
/// differentiation rules (RLX/InitAllDialects.h).
void registerToolDialects(DialectRegistry &registry);

/// The context of a tool that compiles RLX programs: every target of the
/// build registered (RLX/InitAllTargets.h; idempotent), and every dialect of
/// registerToolDialects loaded.
std::unique_ptr<MLIRContext> createToolContext();

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_TOOLSUPPORT_H
