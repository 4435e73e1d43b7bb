//===- HostTarget.cpp - the CPU that RLX compiles for ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/HostTarget.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::rlx::createHostTargetMachine(bool pic, llvm::StringRef cpu) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  if (!cpu.empty()) {
    const llvm::Target *target = nullptr;
    std::string error;
    target = llvm::TargetRegistry::lookupTarget(
        builder->getTargetTriple(), error);
    if (!target)
      return llvm::createStringError(error);
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(builder->getTargetTriple(), "", ""));
    if (!info || !info->isCPUStringValid(cpu))
      return llvm::createStringError(
          "unknown CPU '" + cpu + "' for " +
          builder->getTargetTriple().str());
    builder->setCPU(cpu.str());
    builder->setFeatures("");
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  builder->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Fast;
  // LLVM tunes Intel's AVX-512 cores to vectorize with 256-bit registers
  // (prefer-256-bit: 512-bit code lowers their clock when it is mixed with
  // other work). RLX's kernels are long vector loops that run alone, and
  // the CPU passes tile for 512-bit registers where the host has them.
  builder->getFeatures().AddFeature("prefer-256-bit", false);
  if (pic)
    builder->setRelocationModel(llvm::Reloc::PIC_);
  return builder->createTargetMachine();
}
