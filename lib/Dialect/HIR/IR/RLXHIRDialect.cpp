//===- RLXHIRDialect.cpp - the rlx_hir dialect ----------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/HIR/IR/RLXHIRDialect.h"
#include "RLX/Dialect/HIR/IR/RLXHIROps.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

using namespace mlir;
using namespace mlir::rlx::hir;

#include "RLX/Dialect/HIR/IR/RLXHIRDialect.cpp.inc"

void RLXHIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "RLX/Dialect/HIR/IR/RLXHIROps.cpp.inc"
      >();
}
