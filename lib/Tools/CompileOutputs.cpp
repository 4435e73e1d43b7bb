//===- CompileOutputs.cpp - the files rlx-compile writes ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/CompileOutputs.h"

#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Target/CPU/HostTarget.h"
#include "RLX/Tools/HostDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

LogicalResult
rlx::writeObjectFile(ModuleOp module, StringRef name, StringRef cpu,
                     StringRef path,
                     llvm::function_ref<void(const Twine &)> error) {
  auto tm = createHostTargetMachine(/*pic=*/true, cpu);
  if (!tm) {
    error(toString(tm.takeError()));
    return failure();
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, name);
  if (!llvmModule) {
    error("translation to LLVM IR failed");
    return failure();
  }
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  if (llvm::Error err =
          makeOptimizingTransformer(3, 0, tm->get())(llvmModule.get())) {
    error(toString(std::move(err)));
    return failure();
  }

  std::string message;
  auto output = openOutputFile(path, &message);
  if (!output) {
    error(message);
    return failure();
  }
  llvm::legacy::PassManager codegen;
  if ((*tm)->addPassesToEmitFile(codegen, output->os(), nullptr,
                                 llvm::CodeGenFileType::ObjectFile)) {
    error("this target cannot emit objects");
    return failure();
  }
  codegen.run(*llvmModule);
  output->keep();
  return success();
}

LogicalResult
rlx::writeSourceFiles(ModuleOp module, const TargetInfo &info,
                      StringRef sourcePath, StringRef hostPath,
                      llvm::function_ref<void(const Twine &)> error) {
  std::string message;
  auto source = openOutputFile(sourcePath, &message);
  auto host = source ? openOutputFile(hostPath, &message) : nullptr;
  if (!source || !host) {
    error(message);
    return failure();
  }
  if (failed(info.emitSource(module, source->os(), host->os())))
    return failure();
  source->keep();
  host->keep();
  return success();
}

LogicalResult
rlx::writeGPUBinaries(ModuleOp module, StringRef dir, StringRef extension,
                      llvm::function_ref<void(const Twine &)> error) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error(dir + ": " + ec.message());
    return failure();
  }
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      StringRef ext = "fatbin";
      if (object.getFormat() == gpu::CompilationTarget::Assembly)
        ext = "s";
      else if (object.getFormat() == gpu::CompilationTarget::Binary)
        ext = extension;
      SmallString<128> path(dir);
      llvm::sys::path::append(path, binary.getName() + "." + ext);
      std::string message;
      auto file = openOutputFile(path, &message);
      if (!file) {
        error(message);
        return failure();
      }
      file->os() << object.getObject().getValue();
      file->keep();
    }
  }
  return success();
}

LogicalResult
rlx::compileObjectFile(ModuleOp module, const TargetInfo &info,
                       const TargetCompileFlags &flags, StringRef name,
                       StringRef cpu, StringRef path, StringRef binaryDir,
                       StringRef hostDescription,
                       llvm::function_ref<void(const Twine &)> error) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      markCPUEntryPoint(fn);
  PassManager pm(module.getContext());
  if (failed(info.buildPipeline(pm, flags, error)))
    return failure();
  if (failed(hostDescription.empty()
                 ? pm.run(module)
                 : runWritingHostDescription(pm, module, hostDescription,
                                             error)))
    return failure();
  if (!binaryDir.empty() &&
      failed(writeGPUBinaries(module, binaryDir, info.binaryExtension, error)))
    return failure();
  return writeObjectFile(module, name, cpu, path, error);
}
