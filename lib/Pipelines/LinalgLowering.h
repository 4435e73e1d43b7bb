//===- LinalgLowering.h - rlx to linalg, planned or not ---------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_PIPELINES_LINALGLOWERING_H
#define RLX_LIB_PIPELINES_LINALGLOWERING_H

#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace rlx {

/// The step of the CPU and CUDA pipelines from rlx (MIR) to linalg on
/// tensors, canonicalized: with `arena`, every intermediate is first
/// planned into one arena (rlx-plan-memory, rlx-lower-lir) and each
/// kernel then computes into its planned buffer. Cross-op elementwise
/// fusion, which comes next, must stay off with `arena`: kernels run in
/// program order over reused bytes, and fusing a producer into a later
/// kernel would move its reads past writes planned after them.
void addLinalgLowering(OpPassManager &pm, bool arena);

} // namespace rlx
} // namespace mlir

#endif // RLX_LIB_PIPELINES_LINALGLOWERING_H
