//===- rlx-translate.cpp - RLX translation driver -------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's translate driver with RLX's translations out of MLIR: the Metal
// back end's MSL (--rlx-to-msl) and host description (--rlx-to-metal-host).
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Metal/MSLEmitter.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::rlx::registerMetalTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "RLX translation driver\n"));
}
