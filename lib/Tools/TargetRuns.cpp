//===- TargetRuns.cpp - running a program on a GPU target -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/TargetRuns.h"

#include "RLX/Target/TargetRegistry.h"
#include "RLX/Tools/CompileOutputs.h"
#include "RLX/Tools/ProgramRuns.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <optional>
#include <thread>

using namespace mlir;
using namespace mlir::rlx;
using runtime::NpyArray;

namespace {
/// What runs a target's programs.
struct TargetRunner {
  StringRef target;
  /// The runtime library the object links with (lib<runtime>.so).
  StringRef runtime;
  /// The runner in bin/, and the environment variable that overrides its
  /// path (as the test scripts set it); empty where this tool has none.
  StringRef runner;
  StringRef runnerVariable;
  /// The environment variable giving the device's subgroup size, asked of
  /// the runner (--print-subgroup-size) where unset; empty where the
  /// pipeline needs none.
  StringRef subgroupVariable;
  /// Where there is no runner: what runs the linked program instead.
  StringRef instead;
};

const TargetRunner kRunners[] = {
    {"vulkan", "rlx_vulkan_runtime", "rlx-vulkan-run", "RLX_VULKAN_RUN",
     "RLX_VULKAN_SUBGROUP_SIZE", ""},
    {"cuda", "rlx_cuda_runtime", "", "", "",
     "run it from Python with rlx.cuda (docs/CUDA.md), or link "
     "`rlx-compile --target=cuda`'s object with librlx_cuda_runtime"},
    {"rocm", "rlx_rocm_runtime", "", "", "",
     "link `rlx-compile --target=rocm`'s object with librlx_rocm_runtime "
     "into a program of your own, on a machine with ROCm (docs/ROCm.md)"},
};

const TargetRunner *lookupRunner(StringRef target) {
  for (const TargetRunner &runner : kRunners)
    if (runner.target == target)
      return &runner;
  return nullptr;
}

/// The runner's path: $<runnerVariable>, else bin/<runner>.
std::string runnerPath(const TargetRunner &runner, StringRef binDir) {
  if (std::optional<std::string> path =
          llvm::sys::Process::GetEnv(runner.runnerVariable))
    if (!path->empty())
      return *path;
  SmallString<256> path(binDir);
  llvm::sys::path::append(path, runner.runner);
  return std::string(path);
}

/// A folder of temporary files, removed with everything in it.
struct TemporaryDirectory {
  SmallString<128> path;
  ~TemporaryDirectory() {
    if (!path.empty())
      (void)llvm::sys::fs::remove_directories(path);
  }
  std::string file(const Twine &name) const {
    SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
};

/// The text of `path` ("" where it cannot be read).
std::string readText(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// What a child process did: its exit code (negative where it crashed or
/// did not start, with `message`), stdout and stderr.
struct ChildRun {
  int code = 0;
  std::string message, out, err;
};

/// Runs `program` with `args` (argv[0] added), stdout and stderr into
/// files of `dir` named after `tag`.
ChildRun runChild(StringRef program, ArrayRef<std::string> args,
                  const TemporaryDirectory &dir, StringRef tag) {
  std::vector<StringRef> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string out = dir.file(tag + ".out"), err = dir.file(tag + ".err");
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out),
                                          StringRef(err)};
  ChildRun run;
  run.code = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                       0, 0, &run.message);
  run.out = readText(out);
  run.err = readText(err);
  return run;
}

/// Reports a failed child `what` through `error`: its own "NAME: error: "
/// lines without the prefix, after `context`; its other stderr lines as
/// they are.
void reportChildFailure(const ChildRun &run, StringRef what,
                        const Twine &context,
                        llvm::function_ref<void(const Twine &)> error) {
  std::string prefix = (llvm::sys::path::filename(what) + ": error: ").str();
  bool reported = false;
  SmallVector<StringRef> lines;
  StringRef(run.err).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    if (line.consume_front(prefix)) {
      error(context + line);
      reported = true;
    } else {
      llvm::errs() << line << "\n";
    }
  }
  if (run.code < 0)
    error(context + what + " crashed" +
          (run.message.empty() ? "" : ": " + run.message));
  else if (!reported)
    error(context + what + " failed with exit code " + Twine(run.code));
}

/// "4x16xf32": a static tensor type as the runners take it.
std::string runnerType(RankedTensorType type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t d : type.getShape())
    os << d << "x";
  os << type.getElementType();
  return text;
}

/// The device's subgroup size for a pipeline option ("" after reporting).
std::string subgroupSize(const TargetRunner &runner, StringRef path,
                         const TemporaryDirectory &dir,
                         llvm::function_ref<void(const Twine &)> error) {
  if (std::optional<std::string> size =
          llvm::sys::Process::GetEnv(runner.subgroupVariable))
    if (!size->empty())
      return *size;
  ChildRun run = runChild(path, {"--print-subgroup-size"}, dir, "subgroup");
  if (run.code != 0) {
    reportChildFailure(run, path, "--target=" + runner.target + ": ", error);
    return "";
  }
  return StringRef(run.out).trim().str();
}
} // namespace

std::string rlx::getToolBinDir(const char *argv0, void *mainAddress) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, mainAddress);
  return llvm::sys::path::parent_path(exe).str();
}

LogicalResult rlx::runOnTarget(ModuleOp module, func::FuncOp entry,
                               const TargetRunOptions &options,
                               const RunFiles &files, llvm::raw_ostream &os,
                               llvm::function_ref<void(const Twine &)> error) {
  StringRef target = options.target;
  const TargetInfo *info = lookupTargetInfo(target);
  if (!info) {
    error(unknownTargetMessage(target));
    return failure();
  }
  const TargetRunner *runner = lookupRunner(target);
  if (!runner || info->emitSource) {
    std::vector<std::string> runs = {"cpu"};
    for (const TargetRunner &r : kRunners)
      if (lookupTargetInfo(r.target))
        runs.push_back(r.target.str());
    error("rlx-run does not run --target=" + target + " programs (it runs " +
          llvm::join(runs, ", ") + "); compile them with rlx-compile");
    return failure();
  }
  std::string context = ("--target=" + target + ": ").str();

  // The entry function's tensors, before lowering replaces its signature:
  // the runners take static shapes.
  StringRef name = entry.getName();
  FunctionType type = entry.getFunctionType();
  SmallVector<RankedTensorType> argTypes, resultTypes;
  auto collect = [&](TypeRange types, StringRef what,
                     SmallVectorImpl<RankedTensorType> &into) -> bool {
    for (auto [i, t] : llvm::enumerate(types)) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor || !tensor.hasStaticShape()) {
        std::string text;
        llvm::raw_string_ostream typeOs(text);
        typeOs << t;
        error(context + "@" + name + "'s " + what + " #" + Twine(i) + " is " +
              text + "; a GPU target runs static tensor shapes only");
        return false;
      }
      into.push_back(tensor);
    }
    return true;
  };
  if (!collect(type.getInputs(), "argument", argTypes) ||
      !collect(type.getResults(), "result", resultTypes))
    return failure();
  FailureOr<std::vector<HostTensor>> args =
      bindArguments(name, argTypes, resultTypes.size(), {}, files, {}, error);
  if (failed(args))
    return failure();

  // The runtime, the linker and the runner, before compiling.
  SmallString<256> libDir(llvm::sys::path::parent_path(options.binDir));
  llvm::sys::path::append(libDir, "lib");
  SmallString<256> runtimePath(libDir);
  llvm::sys::path::append(runtimePath, "lib" + runner->runtime + ".so");
  if (!llvm::sys::fs::exists(runtimePath)) {
    error(context + "no runtime library " + runtimePath +
          " (the lib/ folder beside the tool's bin/)");
    return failure();
  }
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc) {
    error(context + "no C compiler 'cc' on PATH to link the program with lib" +
          runner->runtime + ".so");
    return failure();
  }
  std::string runnerExe;
  if (!runner->runner.empty()) {
    runnerExe = runnerPath(*runner, options.binDir);
    if (!llvm::sys::fs::can_execute(runnerExe)) {
      error(context + "no runner: '" + runnerExe + "' is not an executable" +
            " (set " + runner->runnerVariable + " to " + runner->runner +
            "'s path)");
      return failure();
    }
  }

  TemporaryDirectory dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("rlx-run", dir.path)) {
    error("cannot create a temporary folder: " + ec.message());
    return failure();
  }

  // Only the entry function and what it calls are compiled, as on the CPU:
  // the other public functions become private, and unused ones go.
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn != entry && fn.isPublic() && !fn.isExternal())
      fn.setPrivate();
  PassManager dce(module.getContext());
  dce.addPass(createSymbolDCEPass());
  if (failed(dce.run(module)))
    return failure();

  TargetCompileFlags flags;
  flags.pipelineOptions = options.pipelineOptions;
  if (!runner->subgroupVariable.empty() &&
      !StringRef(options.pipelineOptions).contains("subgroup-size=")) {
    std::string size = subgroupSize(*runner, runnerExe, dir, error);
    if (size.empty())
      return failure();
    flags.pipelineOptions =
        "subgroup-size=" + size + " " + flags.pipelineOptions;
  }
  std::string object = dir.file("program.o");
  if (failed(compileObjectFile(module, *info, flags, name, /*cpu=*/"", object,
                               /*binaryDir=*/"", /*hostDescription=*/"",
                               error)))
    return failure();
  std::string library = dir.file("libprogram.so");
  ChildRun link =
      runChild(*cc,
               {"-shared", "-o", library, object, ("-L" + libDir).str(),
                ("-l" + runner->runtime).str(), ("-Wl,-rpath," + libDir).str()},
               dir, "cc");
  if (link.code != 0) {
    llvm::errs() << link.err;
    error(context + "linking the program with " + *cc + " failed");
    return failure();
  }
  if (runnerExe.empty()) {
    error(context + "@" + name + " compiled and linked, but rlx-run has no " +
          "runner for " + target + " programs: " + runner->instead);
    return failure();
  }

  // The run: arguments and results as .npy files.
  std::vector<std::string> runnerArgs = {library, ("--entry=" + name).str()};
  for (auto [i, arg] : llvm::enumerate(*args)) {
    std::string path = dir.file("arg" + Twine(i) + ".npy"), message;
    if (!runtime::writeNpy(path, toNpy(arg), message)) {
      error(message);
      return failure();
    }
    runnerArgs.push_back("--arg=" + runnerType(argTypes[i]) + "=" + path);
  }
  for (auto [i, t] : llvm::enumerate(resultTypes))
    runnerArgs.push_back("--result=" + runnerType(t) + "=" +
                         dir.file("result" + Twine(i) + ".npy"));
  if (options.benchRuns > 0)
    runnerArgs.push_back("--time=" + std::to_string(options.benchRuns));
  ChildRun run = runChild(runnerExe, runnerArgs, dir, "run");
  if (run.code != 0) {
    reportChildFailure(run, runnerExe, context, error);
    return failure();
  }

  std::vector<HostTensor> results(resultTypes.size());
  for (auto [i, t] : llvm::enumerate(resultTypes)) {
    std::string path = dir.file("result" + Twine(i) + ".npy"), message;
    NpyArray array;
    if (!runtime::readNpy(path, array, message)) {
      error(context + message);
      return failure();
    }
    if (failed(
            fromNpy(array, t, "result #" + Twine(i), path, results[i], error)))
      return failure();
  }
  if (failed(writeResults(results, files.outputs, os, error)))
    return failure();
  // The runner's --time line, in rlx-run's --bench format.
  os << run.out;
  return success();
}

void rlx::listTargetDevices(StringRef binDir, llvm::raw_ostream &os) {
  for (StringRef target : registeredTargetNames()) {
    os << target << ": ";
    if (target == "cpu") {
      os << "this machine (" << llvm::sys::getHostCPUName() << ", "
         << std::thread::hardware_concurrency() << " threads)\n";
      continue;
    }
    const TargetRunner *runner = lookupRunner(target);
    if (!runner) {
      os << "not run by rlx-run (compile with rlx-compile --target=" << target
         << ")\n";
      continue;
    }
    if (runner->runner.empty()) {
      os << "no runner in rlx-run (programs compile and link; "
         << runner->instead << ")\n";
      continue;
    }
    std::string exe = runnerPath(*runner, binDir);
    if (!llvm::sys::fs::can_execute(exe)) {
      os << "no runner ('" << exe << "' is not an executable)\n";
      continue;
    }
    TemporaryDirectory dir;
    if (llvm::sys::fs::createUniqueDirectory("rlx-run", dir.path)) {
      os << "unknown (no temporary folder)\n";
      continue;
    }
    ChildRun device = runChild(exe, {"--print-device"}, dir, "device");
    if (device.code != 0) {
      os << "no device (" << StringRef(device.err).trim() << ")\n";
      continue;
    }
    os << StringRef(device.out).trim();
    ChildRun subgroup =
        runChild(exe, {"--print-subgroup-size"}, dir, "subgroup");
    if (subgroup.code == 0)
      os << ", subgroup size " << StringRef(subgroup.out).trim();
    os << " (" << runner->runner << ")\n";
  }
}
