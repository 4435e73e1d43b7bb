//===- RLXToLinalg.h - rlx to linalg conversion -----------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
#define RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace rlx {

/// Maps unsigned integer element types (and tensors of them) to signless
/// ones of the same width; every other type is kept.
class RLXToLinalgTypeConverter : public TypeConverter {
public:
  RLXToLinalgTypeConverter();
};

/// Adds the patterns that lower rlx ops to linalg/tensor/arith/math/complex.
void populateRLXToLinalgConversionPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);

/// The step of the CPU pipeline and the GPU front from rlx (MIR) to linalg
/// on tensors, canonicalized: with `arena`, every intermediate is first
/// planned into one arena (rlx-plan-memory, rlx-lower-lir) and each
/// kernel then computes into its planned buffer. Cross-op elementwise
/// fusion, which comes next, must stay off with `arena`: kernels run in
/// program order over reused bytes, and fusing a producer into a later
/// kernel would move its reads past writes planned after them.
void addRLXToLinalgPipeline(OpPassManager &pm, bool arena);

} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
