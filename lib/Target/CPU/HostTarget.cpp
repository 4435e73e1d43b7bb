//===- HostTarget.cpp - the CPU that RLX compiles for ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/HostTarget.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::rlx::createHostTargetMachine(bool pic) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
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
