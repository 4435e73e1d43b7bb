//===- ProgramRuns.h - running a compiled program from a tool ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What rlx-run does around an rlx::CPUProgram once its arguments are bound
// (ArgumentBinding.h): pick the entry function, run it and report the
// results (dtype, shape, checksum; .npy files), time it (--bench), and end
// as an error of the program when a compiled runtime check fails
// (--check-bounds). Errors go to a tool's reporter, which prefixes the
// tool's name.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_PROGRAMRUNS_H
#define RLX_TOOLS_PROGRAMRUNS_H

#include "RLX/Tools/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {

/// The function to run: the one named `name`, or where `name` is empty
/// `main`, or else the only public function with a body. Null after
/// reporting where there is none.
func::FuncOp findEntryFunction(ModuleOp module, StringRef name,
                               llvm::function_ref<void(const Twine &)> error);

/// Makes a failed runtime check of a program (--check-bounds), which prints
/// its message with puts and calls abort, end the process as an error of
/// the program (exit code 1, "TOOL: error: the program stopped on a failed
/// runtime check") instead of as a crash of `tool`. stdout becomes
/// line-buffered, so that the check's message is not lost in a pipe's
/// buffer.
void exitOnFailedRuntimeCheck(StringRef tool);

/// Runs `program` once on `args` and copies out every result.
FailureOr<std::vector<HostTensor>>
runProgram(CPUProgram &program, ArrayRef<TensorView> args,
           llvm::function_ref<void(const Twine &)> error);

/// Prints "allocations: N (bytes: ...)", the sizes of the program's
/// allocations since the log was last taken (rlx::host_allocator), and
/// empties the log.
void printAllocationLog(llvm::raw_ostream &os);

/// Prints "result #I: DTYPE SHAPE checksum SUM" for each of `results` (the
/// sum of the elements, real parts for complex), writing result #I to
/// `outputs[I]` where there is one.
LogicalResult writeResults(ArrayRef<HostTensor> results,
                           ArrayRef<std::string> outputs, llvm::raw_ostream &os,
                           llvm::function_ref<void(const Twine &)> error);

/// Times `runs` runs of `program` on `args` and prints "bench: N runs,
/// median X ms, min Y ms". The buffers the program allocates are no longer
/// poisoned (rlx::host_allocator::setPoison).
LogicalResult benchmark(CPUProgram &program, ArrayRef<TensorView> args,
                        unsigned runs, llvm::raw_ostream &os,
                        llvm::function_ref<void(const Twine &)> error);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_PROGRAMRUNS_H
