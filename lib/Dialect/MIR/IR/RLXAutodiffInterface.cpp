//===- RLXAutodiffInterface.cpp - differentiation rules -------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXAutodiffInterface.h"

#include "RLX/Dialect/MIR/IR/RLXAutodiffInterface.cpp.inc"
