//===- MapLinalg.h - the schedules of rlx-gpu-map-linalg --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The schedules by which rlx-gpu-map-linalg (GPUMapLinalg.cpp) maps linalg
// generics on buffers to kernels, one file each, and the loop bodies they
// share. Private to lib/Conversion/RLXToGPU.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_RLXTOGPU_MAPLINALG_H
#define RLX_CONVERSION_RLXTOGPU_MAPLINALG_H

#include "KernelBuilder.h"

#include "RLX/Conversion/Passes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace rlx {
namespace map_linalg {

/// How one generic is computed: its loop ranges and the number of
/// consecutive points of its innermost loop one thread handles (`lanes`,
/// 1 or 16 bytes' worth).
struct Schedule {
  linalg::GenericOp op;
  SmallVector<int64_t> ranges;
  int64_t lanes = 1;
};

/// A row reduction: all parallel loops first, then all reduction loops, one
/// result whose body is `combine(acc, f(inputs))` with `acc` used once and
/// a combiner with a neutral element and a shuffle-able type.
struct RowReduction {
  Operation *combiner;
  unsigned accOperand; // which operand of the combiner is the accumulator
  TypedAttr neutral;
};

/// A row group: consecutive ops over the same rows (the leading loops),
/// at least one of them a row reduction, each reading what the others
/// write only within its own row. It runs as one kernel of one block (or,
/// for short rows, one subgroup) per row, the ops one after the other with a
/// barrier between two where memory orders them; a row that fits stays in
/// registers (RowRegisters), a longer one is re-read from the caches.
struct RowGroup {
  SmallVector<Schedule> ops;
  SmallVector<std::optional<RowReduction>> reductions;
  unsigned rowDims;
};

//===----------------------------------------------------------------------===//
// What the schedules share (MapLinalgBodies.cpp)
//===----------------------------------------------------------------------===//

/// The indices of `operand` at loop point `ivs`.
SmallVector<Value> operandIndices(ImplicitLocOpBuilder &b, AffineMap map,
                                  ValueRange ivs);

/// Lanes per thread along the innermost loop `d`: `vectorBytes` (the
/// target's access width, 16 bytes on most) of the widest element among the
/// operands that read `d`, if each has it as its contiguous last dim, a
/// multiple of the lanes in its buffer is an address aligned to
/// `vectorBytes` (alignsLanes; buffers start 16-byte aligned) and the
/// loop divides evenly. Operands that do not read `d` (a norm's f32 row
/// statistics next to its bf16 row) are loaded once per thread and do not
/// narrow the vectors.
int64_t vectorLanes(linalg::GenericOp op, unsigned d, int64_t range,
                    int64_t vectorBytes);

/// Loads `operand` at `ivs` for `lanes` consecutive points of loop `d`: one
/// vector load split into lanes if the operand reads `d`, else one scalar
/// load shared by every lane.
SmallVector<Value> loadLanes(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                             OpOperand &operand, ValueRange ivs, unsigned d,
                             int64_t lanes);

/// What the body of `op` gets for output `init`, which it does not read:
/// nothing is loaded. Poison, of any element type (complex included).
Value unusedOutput(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                   OpOperand &init);

/// Stores one lane value per point of loop `d` into `operand` at `ivs`.
void storeLanes(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                OpOperand &operand, ValueRange ivs, ArrayRef<Value> values);

/// Clones the body of `op` at point `ivs` with its block arguments bound to
/// `args`; returns the yielded values.
SmallVector<Value> cloneBody(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                             ValueRange ivs, ValueRange args);

/// Computes `op` at `lanes` consecutive points of its innermost loop from
/// `ivs` on: lane l of every input (`ins`) and output (`outs`) value list
/// feeds one copy of the body. Returns, per result, its value per lane.
SmallVector<SmallVector<Value>>
cloneBodyPerLane(ImplicitLocOpBuilder &b, linalg::GenericOp op, ValueRange ivs,
                 unsigned innermost, int64_t lanes,
                 ArrayRef<SmallVector<Value>> ins,
                 ArrayRef<SmallVector<Value>> outs);

/// The combiner of result `i` of the reduction `op`: its body yields
/// `combine(acc, f(inputs))` with the result's accumulator used once, by a
/// combiner with a neutral element and a shuffle-able type.
std::optional<RowReduction> matchCombiner(linalg::GenericOp op, unsigned i);

/// `op` as a row reduction (RowReduction), or nullopt.
std::optional<RowReduction> matchRowReduction(linalg::GenericOp op);

/// `red`'s combiner applied to `acc` and `x`.
Value combine(ImplicitLocOpBuilder &b, const RowReduction &red, Value acc,
              Value x);

/// Combines `value` across the `subgroup` lanes of each subgroup (butterfly
/// shuffles: every lane ends with the total).
Value subgroupReduce(ImplicitLocOpBuilder &b, const RowReduction &red,
                     Value value, int64_t subgroup);

/// The workgroup buffer of one word per subgroup that a row reduction of
/// `op` needs in a block of `block` threads.
MemRefType subgroupWordsType(linalg::GenericOp op, int64_t block,
                             int64_t subgroup);

//===----------------------------------------------------------------------===//
// Row reductions and row groups (MapRowGroups.cpp, PruneBarriers.cpp)
//===----------------------------------------------------------------------===//

/// One block per row of a row reduction.
void emitRowReduction(ImplicitLocOpBuilder &b, const Schedule &s,
                      const RowReduction &red, int64_t blockSize,
                      int64_t subgroup);

/// Greedy row groups of consecutive generics (allocations and constants
/// may lie between them).
SmallVector<RowGroup> findRowGroups(func::FuncOp func, int64_t vectorBytes);

/// One kernel for the row group `g`: a subgroup per row where the rows fit
/// (`subgroupRows`), else a block of up to `blockSize` threads per row. Fails,
/// with an error at the group's last op, if the workgroup memory of its
/// reductions exceeds `sharedMemoryBytes`.
LogicalResult emitRowGroup(ImplicitLocOpBuilder &b, RowGroup &g,
                           int64_t blockSize, bool subgroupRows,
                           int64_t subgroup, int64_t sharedMemoryBytes);

/// Erases the barriers of `removable` (at the top level of `body`) that
/// order no memory access: where no buffer that the threads touched since
/// the last barrier kept is written on one side and touched on the other
/// (softmax's max, sum and normalization, all held in registers).
void pruneBarriers(Block &body, ArrayRef<gpu::BarrierOp> removable);

//===----------------------------------------------------------------------===//
// Column reductions (MapColumnReductions.cpp)
//===----------------------------------------------------------------------===//

/// The combiners of a reduction whose innermost loop is parallel and whose
/// few points each reduce many values (a bias gradient: 768 sums of 4096
/// rows), one per result; nullopt for any other generic. One thread per
/// point would leave most of the GPU idle and walk each reduction alone.
std::optional<SmallVector<RowReduction>>
matchColumnReduction(const Schedule &s, int64_t blockSize, int64_t subgroup);

/// A column reduction: blocks of `subgroup` consecutive points (coalesced
/// along the innermost loop) x `blockSize / subgroup` slices of the
/// reduction, each block folding one of `chunks` chunks of the reduction
/// loops. The slices combine through workgroup memory; with one chunk the
/// block stores the result, else each chunk's partial values go to a
/// buffer that a second kernel (one thread per point) folds into the
/// outputs.
void emitColumnReduction(ImplicitLocOpBuilder &b, const Schedule &s,
                         ArrayRef<RowReduction> reds, int64_t blockSize,
                         int64_t subgroup);

//===----------------------------------------------------------------------===//
// One thread per point (MapPointwise.cpp)
//===----------------------------------------------------------------------===//

/// One thread per point of the parallel loops (times `lanes` consecutive
/// points of the innermost loop), looping over the reduction loops.
void emitPointwise(ImplicitLocOpBuilder &b, const Schedule &s,
                   int64_t blockSize);

//===----------------------------------------------------------------------===//
// Rewrites before the mapping (SplitRowReductions.cpp)
//===----------------------------------------------------------------------===//

/// Splits a row reduction of few long rows (a loss: the mean of a whole
/// batch of activations is one row, which one block would walk alone) in
/// two row reductions through a buffer of partial values: its outer
/// reduction loops become rows of the first (until there are 256 rows
/// or the next loop would leave rows shorter than a subgroup), which
/// reduces the inner loops into the buffer (filled with the combiner's
/// neutral value), and the second reduces the buffer into the output.
void splitLongRowReductions(func::FuncOp func, RewriterBase &rewriter,
                            int64_t subgroup);

/// Splits a row reduction of several results (a norm backward's two row
/// sums) into one generic per result, each with the part of the body its
/// result needs, so that each is a row reduction (one block or subgroup per
/// row, in a row group where it fits) instead of one thread walking each
/// row alone. Each generic reads the inputs again, from the caches where
/// they stay in a row group. Results that read one another's running
/// values stay together.
void splitRowReductionResults(func::FuncOp func, RewriterBase &rewriter);

} // namespace map_linalg
} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_RLXTOGPU_MAPLINALG_H
