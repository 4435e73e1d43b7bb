//===- TargetList.cpp - rlx-compile --list-targets ------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/TargetList.h"

#include "RLX/Target/TargetRegistry.h"

using namespace mlir;

void rlx::printTargets(llvm::raw_ostream &os) {
  for (StringRef name : registeredTargetNames()) {
    const TargetInfo *info = lookupTargetInfo(name);
    os << name << ": " << info->summary << "\n";
    os << "  output: "
       << (info->emitSource ? "source (." + info->sourceExtension + ")"
                            : std::string("object"))
       << ", entry points on "
       << (info->deviceEntryPoints ? "device buffers" : "host memrefs") << ", "
       << (info->ops.staticShapes ? "static" : "static and dynamic")
       << " shapes\n";
    if (info->gpu)
      os << "  gpu: subgroup " << info->gpu->subgroupSize << ", "
         << info->gpu->maxThreadsPerBlock << " threads and "
         << info->gpu->sharedMemoryBytes << " bytes of shared memory a block, "
         << info->gpu->vectorBytes << "-byte accesses\n";
    os << "  claims " << info->ops.ops.size() << " ops\n";
  }
}
