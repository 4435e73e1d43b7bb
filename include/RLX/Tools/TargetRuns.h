//===- TargetRuns.h - running a program on a GPU target ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-run --target=vulkan|cuda|rocm: the program is compiled as
// rlx-compile compiles it (compileObjectFile, CompileOutputs.h), linked
// into a shared library with the system's `cc` against the target's
// runtime (lib/librlx_<target>_runtime.so beside the tool's bin/), and run
// by the target's runner (bin/rlx-vulkan-run) in a child process: the
// Vulkan driver may load an LLVM of its own (lavapipe loads LLVM 15),
// which must not meet the compiler's in one process. The arguments are
// bound as on the CPU (ArgumentBinding.h) and travel to the runner as
// .npy files; the results come back as .npy files and are reported as on
// the CPU (ProgramRuns.h); --bench's line is the same. The cuda and rocm
// targets have no runner in this tool: their programs compile and link,
// then the run is an error that says what runs them.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_TARGETRUNS_H
#define RLX_TOOLS_TARGETRUNS_H

#include "RLX/Tools/ArgumentBinding.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {

/// How a tool runs a program on a target other than the CPU.
struct TargetRunOptions {
  /// The registered target ("vulkan").
  std::string target;
  /// More options of the target's named pipeline (rlx-compile's
  /// --target-options); for vulkan, the device's subgroup size is added
  /// unless given.
  std::string pipelineOptions;
  /// Time this many runs after the checked one (--bench); 0: none.
  unsigned benchRuns = 0;
  /// The tool's bin/ folder, where the runners are; the runtimes are in
  /// bin/../lib.
  std::string binDir;
};

/// The bin/ folder of the running tool (from its argv[0] and an address in
/// it, as llvm::sys::fs::getMainExecutable takes them).
std::string getToolBinDir(const char *argv0, void *mainAddress);

/// Compiles `module`'s `entry` for `options.target`, links and runs it as
/// the file comment says, binding its arguments from `files` and writing
/// the results' report (and --bench's line) to `os` as rlx-run does on the
/// CPU. Params (--param, --params) are the CPU's. Fails after reporting
/// through `error`.
LogicalResult runOnTarget(ModuleOp module, func::FuncOp entry,
                          const TargetRunOptions &options,
                          const RunFiles &files, llvm::raw_ostream &os,
                          llvm::function_ref<void(const Twine &)> error);

/// Prints one line per registered target: the device a program runs on
/// (what the target's runner reports), or why there is none.
void listTargetDevices(StringRef binDir, llvm::raw_ostream &os);

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_TARGETRUNS_H
