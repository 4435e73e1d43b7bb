//===- TargetRegistry.h - the compilation targets, registered ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One registry of compilation targets, in the spirit of IREE's
// TargetBackend and Triton's per-vendor backends: each target's folder
// (lib/Target/<T>/<T>Target.cpp) registers what it is (its name, the rlx
// ops it claims, its GPU description, how its pipeline is built from
// rlx-compile's flags and how its output is emitted), and every place that
// needs a target (rlx-legalize, rlx-fuse, rlx-compile, the C API, Python)
// looks it up here by name, as registerAllPasses registers its passes
// (TargetInfo::registerPasses). Nothing outside a target's folder lists
// the targets but InitAllTargets.h (a line each, under the build's
// RLX_ENABLE_<TARGET> option: a target left out of the build is not
// registered) and the CMake lists; docs/Layout.md's checklist "adding a
// target" names each place.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_TARGETREGISTRY_H
#define RLX_TARGET_TARGETREGISTRY_H

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// The rlx ops a target claims and the rules rlx-legalize applies for it.
struct TargetOps {
  /// The target's name, as in `--target=` and `rlx-legalize target=`.
  std::string name;
  /// The claimed op names ("rlx.add", ...), sorted and unique.
  std::vector<StringRef> ops;
  /// Whether the target's elementwise kernels take any NumPy broadcast of
  /// their operands. When false they take only trailing broadcasts (an
  /// operand equal to the result's trailing dims, after dropping its
  /// leading unit dims), and `rlx-legalize` materializes the others with
  /// `rlx.expand`.
  bool generalBroadcast = true;
  /// Whether the target takes static shapes only: `rlx-legalize` reports
  /// a claimed op with a dynamic operand or result shape.
  bool staticShapes = false;

  /// Whether the target claims the op named `opName` ("rlx.fft").
  bool claims(StringRef opName) const;
};

/// rlx-compile's flags, as each target's pipeline builder reads them.
/// Flags that a target does not take are ignored by it.
struct TargetCompileFlags {
  /// More options of the target's named pipeline ("block-size=128").
  std::string pipelineOptions;
  /// The flag that gave them, for the error when they do not parse.
  std::string pipelineOptionsFlag = "--target-options";
  /// The chip (sm_90, gfx942), where given.
  std::optional<std::string> chip;
  /// The toolkit folder that compiles its kernels, where given.
  std::optional<std::string> toolkit;
  /// The GPU kernel choices, where given (they override pipelineOptions).
  std::optional<GPUMatmul> matmul;
  std::optional<GPUAttention> attention;
  std::optional<bool> dispatchReport;
  /// Whether f32/f64 matmuls call the BLAS at run time (the CPU).
  bool blas = false;
};

/// What a compilation target registers.
struct TargetInfo {
  /// The claims and legalization rules; `ops.name` is the target's name.
  TargetOps ops;
  /// One line saying what the target compiles for.
  std::string summary;
  /// The description the GPU front (--rlx-to-gpu) reads, with the target's
  /// default chip; none for the CPU.
  std::optional<GPUTargetDescription> gpu;
  /// Adds the target's pipeline for rlx-compile; a failure is reported
  /// through `error` ("bad --cuda-options", "unknown ROCm chip ...").
  std::function<LogicalResult(OpPassManager &, const TargetCompileFlags &,
                              llvm::function_ref<void(const Twine &)> error)>
      buildPipeline;
  /// Whether the compiled entry points take device buffers, the results as
  /// out-parameters the caller allocated (GPU targets), rather than host
  /// memrefs returning their results (the CPU).
  bool deviceEntryPoints = false;
  /// The file extension of the kernel binaries the pipeline embeds
  /// (rlx-compile --gpu-binaries): "cubin", "hsaco", "spv"; empty if none.
  std::string binaryExtension;
  /// For a target whose output is source text rather than an object (MSL):
  /// writes the lowered module's source to `source` and its host
  /// description to `host`. Null for object targets.
  std::function<LogicalResult(ModuleOp, raw_ostream &source,
                              raw_ostream &host)>
      emitSource;
  /// The extension of emitSource's output ("metal"); empty otherwise.
  std::string sourceExtension;
  /// Registers the target's passes and named pipelines with MLIR's pass
  /// registry (rlx-opt, the plugin), so that registerAllPasses needs no
  /// line per target.
  std::function<void()> registerPasses;
};

/// Parses `flags.pipelineOptions` into a target's pipeline `options` (the
/// parser's errors to llvm::errs(), then "bad <flag>" through `error`).
template <typename Options>
LogicalResult
parsePipelineFlags(Options &options, const TargetCompileFlags &flags,
                   llvm::function_ref<void(const Twine &)> error) {
  if (failed(options.parseFromString(flags.pipelineOptions, llvm::errs()))) {
    error("bad " + flags.pipelineOptionsFlag);
    return failure();
  }
  return success();
}

/// parsePipelineFlags, then the GPU kernel choices given as flags.
template <typename Options>
LogicalResult
parseGPUCompileFlags(Options &options, const TargetCompileFlags &flags,
                     llvm::function_ref<void(const Twine &)> error) {
  if (failed(parsePipelineFlags(options, flags, error)))
    return failure();
  if (flags.matmul)
    options.matmul = *flags.matmul;
  if (flags.attention)
    options.attention = *flags.attention;
  if (flags.dispatchReport)
    options.dispatchReport = *flags.dispatchReport;
  return success();
}

/// Registers `info` under `info.ops.name`; a second registration of the
/// same name is ignored, so each target's register function may run more
/// than once (tools and pipeline builders both call them).
void registerTarget(TargetInfo info);

/// The target registered as `name`, or null.
const TargetInfo *lookupTargetInfo(StringRef name);

/// The registered targets' names, in registration order.
std::vector<StringRef> registeredTargetNames();

/// Calls each registered target's registerPasses.
void registerTargetPasses();

/// "unknown target 'X' (registered: cpu, cuda, ...)".
std::string unknownTargetMessage(StringRef name);

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_TARGETREGISTRY_H
