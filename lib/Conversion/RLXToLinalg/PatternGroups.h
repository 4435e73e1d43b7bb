//===- PatternGroups.h - the rlx-to-linalg pattern groups -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One populate function per file of patterns; populateRLXToLinalg... calls
// them all.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_RLXTOLINALG_PATTERNGROUPS_H
#define LIB_CONVERSION_RLXTOLINALG_PATTERNGROUPS_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace rlx {

void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateShapeToTensorPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateReductionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateMatmulToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateNNToLinalgPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns);
void populateDecodeToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateQuantToLinalgPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateConvToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateControlFlowToSCFPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
void populateFFTToLinalgPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateSolveToLinalgPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateBackwardToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

} // namespace rlx
} // namespace mlir

#endif // LIB_CONVERSION_RLXTOLINALG_PATTERNGROUPS_H
