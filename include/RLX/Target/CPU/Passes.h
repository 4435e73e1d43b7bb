//===- Passes.h - RLX CPU target passes -------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_CPU_PASSES_H
#define RLX_TARGET_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace rlx {

/// On an `scf.for`: its iterations are independent (each writes its own
/// part of what the loop writes). Set by the passes that build such loops
/// and know it; read by rlx-cpu-chunk-kernels.
constexpr llvm::StringLiteral kParallelLoopAttrName = "rlx.parallel_loop";

/// On a kernel function: its last two arguments are the range of iterations
/// it runs (rlx-cpu-chunk-kernels); rlx-cpu-call-thread-pool splits it.
constexpr llvm::StringLiteral kChunkedKernelAttrName = "rlx.chunked_kernel";

#define GEN_PASS_DECL
#include "RLX/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RLX/Target/CPU/Passes.h.inc"

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_CPU_PASSES_H
