//===- HostTarget.h - the CPU that RLX compiles for -------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-run (JIT) and rlx-compile (objects) generate code for the host CPU
// with the same settings, made in one place.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_PIPELINES_HOSTTARGET_H
#define RLX_PIPELINES_HOSTTARGET_H

#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mlir {
namespace rlx {

/// A target machine for the host's CPU and features at the highest
/// optimization level, contracting a multiply and an add into one fused
/// multiply-add (as -ffp-contract=fast: one rounding instead of two, which
/// the tests' tolerances allow and the norms' and softmax's inner loops
/// need to run at the speed of memory). `pic` asks for position-independent
/// code (objects linked into shared libraries). A non-empty `cpu` (an LLVM
/// CPU name for the host's architecture, e.g. "x86-64-v4" or
/// "sapphirerapids") compiles for that CPU and its features instead of the
/// host's: objects for another machine.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(bool pic, llvm::StringRef cpu = "");

} // namespace rlx
} // namespace mlir

#endif // RLX_PIPELINES_HOSTTARGET_H
