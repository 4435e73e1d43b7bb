//===- RLXOpRegistration.cpp - register every RLX MIR op group ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

using namespace mlir;
using namespace mlir::rlx;

void RLXDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXControlFlowOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXLeafOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXElementwiseOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXReductionOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXLinalgOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXNNOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXShapeOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXConvOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXQuantOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXFusedOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXAutodiffOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "RLX/Dialect/MIR/IR/RLXBackwardOps.cpp.inc"
      >();
}
