//===- GPUMapLinalg.cpp - one gpu.launch per linalg op on buffers ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU front's schedules: a row group (consecutive ops over the same
// rows with a row reduction among them: softmax, the norms) becomes one
// kernel of one block per row (one subgroup per row for short rows),
// holding a row that fits and its statistics in registers across its ops;
// any other linalg.generic one kernel, one block per row for a row
// reduction, blocks of points x slices of the reduction for a column
// reduction of few points (then a second kernel that folds the blocks'
// partial values), else one thread per point (vector accesses where the
// innermost loop is contiguous in every operand that reads it). Subgroup size, access
// width and block limits come from the target description (the pass
// options), so the same schedules serve 32-lane warps and 64-lane
// wavefronts.
//
// Upstream's routes do not fit these schedules: `gpu-map-parallel-loops` +
// `convert-parallel-loops-to-gpu` map a reduction's row loop to one thread
// (each thread walks a row alone, every load uncoalesced), and tiling to
// scf.forall with thread mappings needs a partial-result buffer per row
// reduction (linalg::tileReductionUsingForall) that then has to be merged
// across threads through memory. Writing the kernels' loops here keeps the
// reduction in registers and shuffles and the loads 16 bytes wide.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUMAPLINALGPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {


Value cst(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

/// Splits the linear index `linear` into indices of `ranges` (row-major).
SmallVector<Value> delinearize(ImplicitLocOpBuilder &b, Value linear,
                               ArrayRef<int64_t> ranges) {
  SmallVector<Value> ivs(ranges.size());
  for (int64_t i = ranges.size() - 1; i >= 0; --i) {
    if (i == 0) {
      ivs[i] = linear;
      break;
    }
    ivs[i] = arith::RemUIOp::create(b, linear, cst(b, ranges[i]));
    linear = arith::DivUIOp::create(b, linear, cst(b, ranges[i]));
  }
  return ivs;
}

/// The indices of `operand` at loop point `ivs`.
SmallVector<Value> operandIndices(ImplicitLocOpBuilder &b, AffineMap map,
                                  ValueRange ivs) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    AffineExpr e = map.getResult(r);
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      indices.push_back(ivs[dim.getPosition()]);
    else
      indices.push_back(
          affine::AffineApplyOp::create(b, map.getSubMap({r}), ivs));
  }
  return indices;
}

/// How one generic is computed: its loop ranges and the number of
/// consecutive points of its innermost loop one thread handles (`lanes`,
/// 1 or 16 bytes' worth).
struct Schedule {
  linalg::GenericOp op;
  SmallVector<int64_t> ranges;
  int64_t lanes = 1;
};

/// True if operand `map` reads loop `d` only as its last, contiguous dim.
bool readsAsLastDim(AffineMap map, unsigned d) {
  if (!map.isFunctionOfDim(d))
    return true;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != d)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(d))
      return false;
  return true;
}

/// True if in `type` a multiple of `lanes` elements along the last dim is
/// as aligned as the buffer's base: the identity layout, or a strided view
/// (a slice of the columns, a transpose's source) whose last stride is 1
/// and whose offset and other strides are static multiples of `lanes`.
bool alignsLanes(MemRefType type, int64_t lanes) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % lanes != 0)
    return false;
  return llvm::all_of(ArrayRef(strides).drop_back(), [&](int64_t stride) {
    return !ShapedType::isDynamic(stride) && stride % lanes == 0;
  });
}

/// Lanes per thread along the innermost loop `d`: `vectorBytes` (the
/// target's access width, 16 on NVIDIA) of the widest element among the
/// operands that read `d`, if each has it as its contiguous last dim, a
/// multiple of the lanes in its buffer is an address aligned to
/// `vectorBytes` (alignsLanes; buffers start 16-byte aligned) and the
/// loop divides evenly. Operands that do not read `d` (a norm's f32 row
/// statistics next to its bf16 row) are loaded once per thread and do not
/// narrow the vectors.
int64_t vectorLanes(linalg::GenericOp op, unsigned d, int64_t range,
                    int64_t vectorBytes) {
  int64_t widest = 0;
  SmallVector<MemRefType> readers;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isFunctionOfDim(d))
      continue;
    // Complex and index elements have no bit width here: one lane.
    if (!type.getElementType().isIntOrFloat())
      return 1;
    unsigned bits = type.getElementTypeBitWidth();
    if (bits % 8)
      return 1;
    if (!readsAsLastDim(map, d))
      return 1;
    widest = std::max<int64_t>(widest, bits / 8);
    readers.push_back(type);
  }
  if (widest == 0)
    return 1;
  int64_t lanes = vectorBytes / widest;
  if (lanes == 1 || range % lanes != 0)
    return 1;
  // Each reader loads `lanes` elements: their address must be a multiple
  // of lanes elements from the buffer's base.
  for (MemRefType type : readers)
    if (!alignsLanes(type, lanes))
      return 1;
  return lanes;
}

/// Loads `operand` at `ivs` for `lanes` consecutive points of loop `d`: one
/// vector load split into lanes if the operand reads `d`, else one scalar
/// load shared by every lane.
SmallVector<Value> loadLanes(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                             OpOperand &operand, ValueRange ivs, unsigned d,
                             int64_t lanes) {
  Value source = operand.get();
  if (!isa<MemRefType>(source.getType()))
    return SmallVector<Value>(lanes, source);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> indices = operandIndices(b, map, ivs);
  if (lanes == 1 || !map.isFunctionOfDim(d))
    return SmallVector<Value>(lanes,
                              memref::LoadOp::create(b, source, indices));
  Type elem = cast<MemRefType>(source.getType()).getElementType();
  auto vecType = VectorType::get({lanes}, elem);
  Value vec = vector::LoadOp::create(
      b, vecType, source, indices, /*nontemporal=*/false,
      llvm::MaybeAlign(lanes * elem.getIntOrFloatBitWidth() / 8));
  SmallVector<Value> out;
  for (int64_t l = 0; l < lanes; ++l)
    out.push_back(vector::ExtractOp::create(b, vec, l));
  return out;
}

/// What the body of `op` gets for output `init`, which it does not read:
/// nothing is loaded. Poison, of any element type (complex included).
Value unusedOutput(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                   OpOperand &init) {
  return ub::PoisonOp::create(b, op.getMatchingBlockArgument(&init).getType());
}

/// Stores one lane value per point of loop `d` into `operand` at `ivs`.
void storeLanes(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                OpOperand &operand, ValueRange ivs, ArrayRef<Value> values) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> indices = operandIndices(b, map, ivs);
  if (values.size() == 1) {
    memref::StoreOp::create(b, values[0], operand.get(), indices);
    return;
  }
  auto vecType = VectorType::get({(int64_t)values.size()}, values[0].getType());
  Value vec = vector::FromElementsOp::create(b, vecType, values);
  vector::StoreOp::create(
      b, vec, operand.get(), indices, /*nontemporal=*/false,
      llvm::MaybeAlign(values.size() *
                       values[0].getType().getIntOrFloatBitWidth() / 8));
}

/// Clones the body of `op` at point `ivs` with its block arguments bound to
/// `args`; returns the yielded values.
SmallVector<Value> cloneBody(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                             ValueRange ivs, ValueRange args) {
  IRMapping mapping;
  Block *body = op.getBlock();
  mapping.map(body->getArguments(), args);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  return llvm::map_to_vector(
      body->getTerminator()->getOperands(),
      [&](Value v) { return mapping.lookupOrDefault(v); });
}

/// Computes `op` at `lanes` consecutive points of its innermost loop from
/// `ivs` on: lane l of every input (`ins`) and output (`outs`) value list
/// feeds one copy of the body. Returns, per result, its value per lane.
SmallVector<SmallVector<Value>>
cloneBodyPerLane(ImplicitLocOpBuilder &b, linalg::GenericOp op, ValueRange ivs,
                 unsigned innermost, int64_t lanes,
                 ArrayRef<SmallVector<Value>> ins,
                 ArrayRef<SmallVector<Value>> outs) {
  SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
  for (int64_t l = 0; l < lanes; ++l) {
    SmallVector<Value> laneIvs(ivs);
    if (l)
      laneIvs[innermost] = arith::AddIOp::create(b, ivs[innermost], cst(b, l));
    SmallVector<Value> args;
    for (auto &values : ins)
      args.push_back(values[l]);
    for (auto &values : outs)
      args.push_back(values[l]);
    for (auto [r, v] : llvm::enumerate(cloneBody(b, op, laneIvs, args)))
      results[r].push_back(v);
  }
  return results;
}

/// A row reduction: all parallel loops first, then all reduction loops, one
/// result whose body is `combine(acc, f(inputs))` with `acc` used once and
/// a combiner with a neutral element and a shuffle-able type.
struct RowReduction {
  Operation *combiner;
  unsigned accOperand; // which operand of the combiner is the accumulator
  TypedAttr neutral;
};

/// The combiner of result `i` of the reduction `op`: its body yields
/// `combine(acc, f(inputs))` with the result's accumulator used once, by a
/// combiner with a neutral element and a shuffle-able type.
std::optional<RowReduction> matchCombiner(linalg::GenericOp op, unsigned i) {
  BlockArgument acc =
      op.getMatchingBlockArgument(&op.getDpsInitsMutable()[i]);
  Value yielded = op.getBlock()->getTerminator()->getOperand(i);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getNumOperands() != 2 || !acc.hasOneUse() ||
      combiner->getBlock() != op.getBlock())
    return std::nullopt;
  unsigned accOperand = combiner->getOperand(0) == acc ? 0 : 1;
  if (combiner->getOperand(accOperand) != acc)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  Type type = acc.getType();
  if (!neutral || !(type.isF32() || type.isF64() || type.isInteger(32) ||
                    type.isInteger(64)))
    return std::nullopt;
  return RowReduction{combiner, accOperand, *neutral};
}

std::optional<RowReduction> matchRowReduction(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  auto iterators = op.getIteratorTypesArray();
  unsigned firstReduction = op.getNumParallelLoops();
  for (auto [i, it] : llvm::enumerate(iterators))
    if ((i < firstReduction) != (it == utils::IteratorType::parallel))
      return std::nullopt;
  return matchCombiner(op, 0);
}

Value combine(ImplicitLocOpBuilder &b, const RowReduction &red, Value acc,
              Value x) {
  IRMapping mapping;
  mapping.map(red.combiner->getOperand(red.accOperand), acc);
  mapping.map(red.combiner->getOperand(1 - red.accOperand), x);
  return b.clone(*red.combiner, mapping)->getResult(0);
}

/// Combines `value` across the `subgroup` lanes of each subgroup (butterfly
/// shuffles: every lane ends with the total).
Value subgroupReduce(ImplicitLocOpBuilder &b, const RowReduction &red,
                     Value value, int64_t subgroup) {
  for (int32_t offset = subgroup / 2; offset > 0; offset /= 2) {
    Value other = gpu::ShuffleOp::create(b, value, offset, subgroup,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = combine(b, red, value, other);
  }
  return value;
}

int64_t product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

/// Creates a 1-D gpu.launch of `grid` x `block` before `op` and sets `b`
/// inside its body.
gpu::LaunchOp createLaunch(ImplicitLocOpBuilder &b, Operation *op, int64_t grid,
                           int64_t block, TypeRange workgroup = {}) {
  b.setInsertionPoint(op);
  Value one = cst(b, 1);
  auto launch = gpu::LaunchOp::create(
      b, cst(b, grid), one, one, cst(b, block), one, one,
      /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, ValueRange{}, workgroup);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(b);
  b.setInsertionPointToStart(&body);
  return launch;
}

/// The workgroup buffer of one word per subgroup that a row reduction of
/// `op` needs in a block of `block` threads.
MemRefType subgroupWordsType(linalg::GenericOp op, int64_t block,
                             int64_t subgroup) {
  Type accType = op.getBlock()->getArguments().back().getType();
  return MemRefType::get({block / subgroup}, accType, AffineMap(),
                         gpu::AddressSpaceAttr::get(
                             op.getContext(), gpu::AddressSpace::Workgroup));
}

/// At most this many steps along a row per thread keep the row in
/// registers (8 x 16 bytes per operand and thread).
constexpr int64_t kMaxHeldSteps = 8;

/// What the threads of a row group hold in registers: the values each
/// thread loaded or stored at its points of the row, so that a later op of
/// the group reads them again without going to memory, and the stores that
/// no memory read has seen yet, so that one the same thread overwrites at
/// the same point is dropped. A point is named by its buffer, the operand's
/// map (a projected permutation, so distinct steps are distinct addresses),
/// the lanes and the thread's step along the row. A row scalar (a map that
/// reads no column: a norm's statistics) is one value per row that every
/// thread holds; its key has the map on the row dims alone, one lane and
/// step -1, so that the ops of the group that write and read it (the
/// initial value, the reduction, the normalization) find one another.
struct RowRegisters {
  using Key = std::tuple<Value, AffineMap, int64_t, int64_t>;
  DenseMap<Key, SmallVector<Value>> values;
  DenseMap<Key, Operation *> unseenStores;

  /// Forgets what is held of `buffer`: it is read or written another way.
  void flush(Value buffer) {
    dropIf([&](const Key &k) { return std::get<0>(k) == buffer; });
  }

  /// A read from memory sees every store to `buffer` so far.
  void seen(Value buffer) {
    SmallVector<Key> keys;
    for (auto &entry : unseenStores)
      if (std::get<0>(entry.first) == buffer)
        keys.push_back(entry.first);
    for (const Key &k : keys)
      unseenStores.erase(k);
  }

  template <typename Pred> void dropIf(Pred pred) {
    SmallVector<Key> keys;
    for (auto &entry : values)
      if (pred(entry.first))
        keys.push_back(entry.first);
    for (auto &entry : unseenStores)
      if (pred(entry.first))
        keys.push_back(entry.first);
    for (const Key &k : keys) {
      values.erase(k);
      unseenStores.erase(k);
    }
  }
};

/// Whether `map` reads a loop past the `rowDims` row loops (else it
/// addresses one value per row).
bool readsColumns(AffineMap map, unsigned rowDims) {
  for (unsigned d = rowDims; d < map.getNumDims(); ++d)
    if (map.isFunctionOfDim(d))
      return true;
  return false;
}

/// The key of `operand` at step `step`, or nullopt where its points are
/// not tracked (a scalar operand, or a map that is no projected
/// permutation).
std::optional<RowRegisters::Key> heldKey(linalg::GenericOp op,
                                         OpOperand &operand, unsigned rowDims,
                                         int64_t lanes, int64_t step) {
  if (!isa<MemRefType>(operand.get().getType()))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isProjectedPermutation())
    return std::nullopt;
  if (!readsColumns(map, rowDims))
    return RowRegisters::Key{
        operand.get(),
        AffineMap::get(rowDims, 0, map.getResults(), map.getContext()), 1,
        -1};
  return RowRegisters::Key{operand.get(), map, lanes, step};
}

/// loadLanes through the registers of a row group.
SmallVector<Value> loadHeld(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                            OpOperand &operand, ValueRange ivs, unsigned d,
                            int64_t lanes, unsigned rowDims, RowRegisters &regs,
                            int64_t step) {
  std::optional<RowRegisters::Key> key =
      heldKey(op, operand, rowDims, lanes, step);
  if (!key) {
    if (isa<MemRefType>(operand.get().getType()))
      regs.flush(operand.get());
    return loadLanes(b, op, operand, ivs, d, lanes);
  }
  bool rowScalar = std::get<3>(*key) < 0;
  auto held = regs.values.find(*key);
  if (held != regs.values.end())
    return rowScalar ? SmallVector<Value>(lanes, held->second.front())
                     : held->second;
  regs.seen(operand.get());
  SmallVector<Value> loaded = loadLanes(b, op, operand, ivs, d, lanes);
  regs.values[*key] =
      rowScalar ? SmallVector<Value>{loaded.front()} : loaded;
  return loaded;
}

/// storeLanes through the registers of a row group. With `storeIf`, only
/// the threads where it holds store to memory (thread 0 for a row scalar
/// that every thread computed); all hold the values.
void storeHeld(ImplicitLocOpBuilder &b, linalg::GenericOp op,
               OpOperand &operand, ValueRange ivs, ArrayRef<Value> lanes,
               unsigned rowDims, RowRegisters &regs, int64_t step,
               Value storeIf = nullptr) {
  std::optional<RowRegisters::Key> key =
      heldKey(op, operand, rowDims, lanes.size(), step);
  Value buffer = operand.get();
  auto store = [&] {
    if (!storeIf) {
      storeLanes(b, op, operand, ivs, lanes);
      return &*std::prev(b.getInsertionPoint());
    }
    OpBuilder::InsertionGuard guard(b);
    auto guarded = scf::IfOp::create(b, storeIf, /*withElse=*/false);
    b.setInsertionPointToStart(guarded.thenBlock());
    storeLanes(b, op, operand, ivs, lanes);
    return &*std::prev(b.getInsertionPoint());
  };
  // A row scalar has one value per row.
  if (key && std::get<3>(*key) < 0 && lanes.size() != 1)
    key = std::nullopt;
  if (!key) {
    regs.flush(buffer);
    store();
    return;
  }
  // Points held under another map or lanes may be the ones written here.
  regs.dropIf([&](const RowRegisters::Key &k) {
    return std::get<0>(k) == buffer && (std::get<1>(k) != std::get<1>(*key) ||
                                        std::get<2>(k) != std::get<2>(*key));
  });
  auto unseen = regs.unseenStores.find(*key);
  if (unseen != regs.unseenStores.end())
    unseen->second->erase();
  regs.unseenStores[*key] = store();
  regs.values[*key] = SmallVector<Value>(lanes);
}

/// Before a loop over the memory of a row: the row scalars among
/// `operands` come from the group's registers (or are loaded here, before
/// the loop, where later ops can reuse them); every other buffer the loop
/// reads or writes is forgotten. Returns each row scalar's lanes.
DenseMap<OpOperand *, SmallVector<Value>>
rowScalarsBeforeLoop(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                     ArrayRef<OpOperand *> operands, ValueRange rowIvs,
                     int64_t lanes, RowRegisters &regs) {
  DenseMap<OpOperand *, SmallVector<Value>> held;
  unsigned rowDims = rowIvs.size();
  for (OpOperand *operand : operands) {
    if (!isa<MemRefType>(operand->get().getType()))
      continue;
    if (op.isDpsInit(operand) || !op.getMatchingIndexingMap(operand)
                                         .isProjectedPermutation() ||
        readsColumns(op.getMatchingIndexingMap(operand), rowDims)) {
      regs.flush(operand->get());
      continue;
    }
    SmallVector<Value> ivs(rowIvs);
    ivs.append(op.getNumLoops() - rowDims, cst(b, 0));
    held[operand] = loadHeld(b, op, *operand, ivs, op.getNumLoops() - 1, lanes,
                             rowDims, regs, -1);
  }
  return held;
}

/// The steps along a row of `cols` points each thread of a `block` takes
/// if they fit in registers, else 0 (a loop over memory).
int64_t heldSteps(int64_t cols, int64_t lanes, int64_t block) {
  if (cols % (block * lanes))
    return 0;
  int64_t steps = cols / (block * lanes);
  return steps <= kMaxHeldSteps ? steps : 0;
}

/// The column indices of step `step` of thread `tid` along a row.
SmallVector<Value> stepIvs(ImplicitLocOpBuilder &b, ValueRange rowIvs,
                           ArrayRef<int64_t> colRanges, Value tid,
                           int64_t lanes, int64_t block, int64_t step) {
  Value col =
      arith::AddIOp::create(b, arith::MulIOp::create(b, tid, cst(b, lanes)),
                            cst(b, step * block * lanes));
  SmallVector<Value> ivs(rowIvs);
  llvm::append_range(ivs, delinearize(b, col, colRanges));
  return ivs;
}

/// The reduction of one row (`rowIvs`) by the `block` threads of a block:
/// strided per-thread partial values, then shuffles within each subgroup of
/// `subgroup` lanes and one word of `smem` per subgroup (no `smem` for a
/// single subgroup); thread 0 stores the
/// row's result. In a row group (`regs`), a row that fits is folded in
/// straight-line code through the group's registers, and every thread
/// holds the result.
void emitRowReductionBody(ImplicitLocOpBuilder &b, const Schedule &s,
                          const RowReduction &red, int64_t block,
                          int64_t subgroup, ValueRange rowIvs, Value tid,
                          Value smem, RowRegisters *regs = nullptr) {
  linalg::GenericOp op = s.op;
  ArrayRef<int64_t> colRanges = ArrayRef(s.ranges).drop_front(rowIvs.size());
  int64_t cols = product(colRanges);
  int64_t subgroups = block / subgroup;
  Type accType = op.getBlock()->getArguments().back().getType();
  Value neutral = arith::ConstantOp::create(b, red.neutral);
  unsigned innermost = s.ranges.size() - 1;

  // Folds the lanes at `ivs` into `acc`.
  auto fold = [&](ValueRange ivs, Value acc,
                  ArrayRef<SmallVector<Value>> inputs) {
    for (int64_t l = 0; l < s.lanes; ++l) {
      SmallVector<Value> laneIvs(ivs);
      if (l)
        laneIvs[innermost] =
            arith::AddIOp::create(b, ivs[innermost], cst(b, l));
      SmallVector<Value> args;
      for (auto &lanes : inputs)
        args.push_back(lanes[l]);
      args.push_back(acc);
      acc = cloneBody(b, op, laneIvs, args)[0];
    }
    return acc;
  };

  // Each thread folds points tid*lanes, tid*lanes + block*lanes, ...
  Value partial;
  if (int64_t steps = regs ? heldSteps(cols, s.lanes, block) : 0) {
    partial = neutral;
    for (int64_t step = 0; step < steps; ++step) {
      SmallVector<Value> ivs =
          stepIvs(b, rowIvs, colRanges, tid, s.lanes, block, step);
      SmallVector<SmallVector<Value>> inputs;
      for (OpOperand *in : op.getDpsInputOperands())
        inputs.push_back(loadHeld(b, op, *in, ivs, innermost, s.lanes,
                                  rowIvs.size(), *regs, step));
      partial = fold(ivs, partial, inputs);
    }
  } else {
    DenseMap<OpOperand *, SmallVector<Value>> held;
    if (regs)
      held = rowScalarsBeforeLoop(b, op, op.getDpsInputOperands(), rowIvs,
                                  s.lanes, *regs);
    Value start = arith::MulIOp::create(b, tid, cst(b, s.lanes));
    auto loop = scf::ForOp::create(
        b, start, cst(b, cols), cst(b, block * s.lanes), ValueRange{neutral});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> ivs = rowIvs;
    llvm::append_range(ivs, delinearize(b, loop.getInductionVar(), colRanges));
    SmallVector<SmallVector<Value>> inputs;
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto it = held.find(in);
      inputs.push_back(it != held.end()
                           ? it->second
                           : loadLanes(b, op, *in, ivs, innermost, s.lanes));
    }
    scf::YieldOp::create(b, fold(ivs, loop.getRegionIterArgs()[0], inputs));
    partial = loop.getResult(0);
  }
  // The output map reads parallel loops only; pad ivs for the map.
  OpOperand &init = op.getDpsInitsMutable()[0];
  SmallVector<Value> ivs = rowIvs;
  ivs.append(colRanges.size(), cst(b, 0));
  // In a row group every thread reads the initial value before the
  // reduction's shuffles and barrier, which order it before thread 0's
  // store of the total (a later read could see the total).
  Value initial;
  if (regs)
    initial = loadHeld(b, op, init, ivs, innermost, 1, rowIvs.size(), *regs,
                       -1)[0];
  partial = subgroupReduce(b, red, partial, subgroup);
  if (subgroups > 1) {
    Value lane = arith::RemUIOp::create(b, tid, cst(b, subgroup));
    Value group = arith::DivUIOp::create(b, tid, cst(b, subgroup));
    Value isLane0 =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, cst(b, 0));
    auto write = scf::IfOp::create(b, isLane0, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(write.thenBlock());
      memref::StoreOp::create(b, partial, smem, ValueRange{group});
    }
    gpu::BarrierOp::create(b);
    // Every subgroup reduces the per-subgroup words; only thread 0 stores.
    Value hasWord = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lane,
                                          cst(b, subgroups));
    auto read = scf::IfOp::create(b, accType, hasWord, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(read.thenBlock());
      scf::YieldOp::create(
          b, ValueRange{memref::LoadOp::create(b, smem, ValueRange{lane})});
      b.setInsertionPointToStart(read.elseBlock());
      scf::YieldOp::create(b, neutral);
    }
    partial = subgroupReduce(b, red, read.getResult(0), subgroup);
  }
  // Every thread now has the row's total.
  Value isThread0 =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, cst(b, 0));
  if (regs) {
    // In a row group every thread combines it with the initial value and
    // holds the result for the group's later ops; thread 0 stores it.
    unsigned rowDims = rowIvs.size();
    storeHeld(b, op, init, ivs, {combine(b, red, initial, partial)}, rowDims,
              *regs, -1, isThread0);
    return;
  }
  auto store = scf::IfOp::create(b, isThread0, /*withElse=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  initial = loadLanes(b, op, init, ivs, innermost, 1)[0];
  storeLanes(b, op, init, ivs, {combine(b, red, initial, partial)});
  b.setInsertionPointAfter(store);
}

/// Threads per block for a row of `cols` points handled `lanes` at a time:
/// whole subgroups, at most `blockSize`.
int64_t rowBlockSize(int64_t cols, int64_t lanes, int64_t blockSize,
                     int64_t subgroup) {
  int64_t threadsNeeded = llvm::divideCeil(cols, lanes);
  return std::min<int64_t>(
      blockSize, llvm::divideCeil(threadsNeeded, subgroup) * subgroup);
}

/// One block per row of a row reduction.
void emitRowReduction(ImplicitLocOpBuilder &b, const Schedule &s,
                      const RowReduction &red, int64_t blockSize,
                      int64_t subgroup) {
  linalg::GenericOp op = s.op;
  unsigned numParallel = op.getNumParallelLoops();
  ArrayRef<int64_t> rowRanges = ArrayRef(s.ranges).take_front(numParallel);
  int64_t cols = product(ArrayRef(s.ranges).drop_front(numParallel));
  int64_t block = rowBlockSize(cols, s.lanes, blockSize, subgroup);
  gpu::LaunchOp launch = createLaunch(b, op, product(rowRanges), block,
                                      {subgroupWordsType(op, block, subgroup)});
  SmallVector<Value> rowIvs = delinearize(b, launch.getBlockIds().x, rowRanges);
  emitRowReductionBody(b, s, red, block, subgroup, rowIvs,
                       launch.getThreadIds().x,
                       launch.getWorkgroupAttributions()[0]);
}

/// An elementwise op over one row (`rowIvs`, its leading loops) by the
/// `block` threads of a block, `lanes` consecutive points per thread: in
/// straight-line code through the group's registers (`regs`) where the row
/// fits, else a loop over memory.
void emitRowElementwiseBody(ImplicitLocOpBuilder &b, const Schedule &s,
                            int64_t block, ValueRange rowIvs, Value tid,
                            RowRegisters &regs) {
  linalg::GenericOp op = s.op;
  ArrayRef<int64_t> colRanges = ArrayRef(s.ranges).drop_front(rowIvs.size());
  unsigned innermost = s.ranges.size() - 1;
  unsigned rowDims = rowIvs.size();

  // Row scalars that a loop over memory reads from registers.
  DenseMap<OpOperand *, SmallVector<Value>> heldInLoop;

  // Computes the op at `ivs` (step `step` if held, else -1); only threads
  // where `storeIf` holds store.
  auto computeAt = [&](ValueRange ivs, int64_t step, Value storeIf = {}) {
    auto load = [&](OpOperand &operand) {
      if (step >= 0)
        return loadHeld(b, op, operand, ivs, innermost, s.lanes, rowDims, regs,
                        step);
      auto held = heldInLoop.find(&operand);
      return held != heldInLoop.end()
                 ? held->second
                 : loadLanes(b, op, operand, ivs, innermost, s.lanes);
    };
    SmallVector<SmallVector<Value>> ins, outs;
    for (OpOperand *in : op.getDpsInputOperands())
      ins.push_back(load(*in));
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (op.getMatchingBlockArgument(&init).use_empty()) {
        outs.push_back(SmallVector<Value>(s.lanes, unusedOutput(b, op, init)));
        continue;
      }
      outs.push_back(load(init));
    }
    SmallVector<SmallVector<Value>> results =
        cloneBodyPerLane(b, op, ivs, innermost, s.lanes, ins, outs);
    for (auto [init, lanes] : llvm::zip(op.getDpsInitsMutable(), results)) {
      if (step < 0)
        storeLanes(b, op, init, ivs, lanes);
      else
        storeHeld(b, op, init, ivs, lanes, rowDims, regs, step, storeIf);
    }
  };

  // An op on row scalars alone (the initial value of a reduction): every
  // thread computes and holds it, thread 0 stores it.
  if (colRanges.empty()) {
    computeAt(rowIvs, 0,
              arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid,
                                    cst(b, 0)));
    return;
  }
  int64_t steps = heldSteps(product(colRanges), s.lanes, block);
  if (steps) {
    for (int64_t step = 0; step < steps; ++step)
      computeAt(stepIvs(b, rowIvs, colRanges, tid, s.lanes, block, step), step);
    return;
  }
  heldInLoop = rowScalarsBeforeLoop(
      b, op,
      llvm::map_to_vector(op->getOpOperands(),
                          [](OpOperand &operand) { return &operand; }),
      rowIvs, s.lanes, regs);
  Value start = arith::MulIOp::create(b, tid, cst(b, s.lanes));
  auto loop = scf::ForOp::create(b, start, cst(b, product(colRanges)),
                                 cst(b, block * s.lanes));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> ivs(rowIvs);
  llvm::append_range(ivs, delinearize(b, loop.getInductionVar(), colRanges));
  computeAt(ivs, -1);
}

/// A row group: consecutive ops over the same rows (the leading loops),
/// at least one of them a row reduction, each reading what the others
/// write only within its own row. It runs as one kernel of one block (or,
/// for short rows, one warp) per row, the ops one after the other with a
/// barrier between two where memory orders them; a row that fits stays in
/// registers (RowRegisters), a longer one is re-read from the caches.
struct RowGroup {
  SmallVector<Schedule> ops;
  SmallVector<std::optional<RowReduction>> reductions;
  unsigned rowDims;
};

/// True if `map` addresses the row dims 0..rowDims-1 as its leading
/// results and the other results depend on no row dim.
bool staysInRow(AffineMap map, unsigned rowDims) {
  if (map.getNumResults() < rowDims)
    return false;
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    AffineExpr e = map.getResult(r);
    if (r < rowDims) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || dim.getPosition() != r)
        return false;
      continue;
    }
    for (unsigned d = 0; d < rowDims; ++d)
      if (e.isFunctionOfDim(d))
        return false;
  }
  return true;
}

/// The buffer `v` is a view of (itself if none).
Value viewedBuffer(Value v) {
  return memref::skipViewLikeOps(cast<MemrefValue>(v));
}

/// A row group is one kernel whose workgroups each compute whole rows, with
/// nothing ordering them: a buffer one of its ops writes may be read only
/// in the row being computed, through the very view that was written (a
/// padded conv reading its padded copy at neighbouring rows, through the
/// whole buffer rather than the subview the copy wrote, would read rows
/// other workgroups have not written yet).
bool isValidRowGroup(RowGroup &g) {
  if (g.ops.size() < 2 ||
      llvm::none_of(g.reductions, [](auto &r) { return r.has_value(); }))
    return false;
  llvm::SmallPtrSet<Value, 8> written, writtenBuffers;
  for (Schedule &s : g.ops)
    for (Value init : s.op.getDpsInits()) {
      written.insert(init);
      writtenBuffers.insert(viewedBuffer(init));
    }
  for (Schedule &s : g.ops)
    for (OpOperand &operand : s.op->getOpOperands()) {
      Value v = operand.get();
      if (written.contains(v)) {
        if (!staysInRow(s.op.getMatchingIndexingMap(&operand), g.rowDims))
          return false;
      } else if (writtenBuffers.contains(viewedBuffer(v))) {
        return false;
      }
    }
  return true;
}

/// The buffers an op and the ops in it read and write.
struct MemoryAccesses {
  llvm::SmallDenseSet<Value, 4> reads, writes;
  bool unknown = false;

  void add(Operation *top) {
    top->walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::IsTerminator>() ||
          op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      auto iface = dyn_cast<MemoryEffectOpInterface>(op);
      if (!iface) {
        unknown |= !isMemoryEffectFree(op);
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (MemoryEffects::EffectInstance &effect : effects) {
        if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                effect.getEffect()))
          continue;
        if (!effect.getValue())
          unknown = true;
        else if (isa<MemoryEffects::Read>(effect.getEffect()))
          reads.insert(effect.getValue());
        else
          writes.insert(effect.getValue());
      }
    });
  }

  void add(const MemoryAccesses &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    unknown |= other.unknown;
  }

  /// Whether `later` may touch memory that these accesses touched, with a
  /// write on either side (then a barrier must order them).
  bool conflictsWith(const MemoryAccesses &later) const {
    if (unknown || later.unknown)
      return true;
    auto meets = [](auto &a, auto &b) {
      return llvm::any_of(a, [&](Value v) { return b.contains(v); });
    };
    return meets(writes, later.reads) || meets(writes, later.writes) ||
           meets(reads, later.writes);
  }
};

/// Erases the barriers of `removable` (at the top level of `body`) that
/// order no memory access: where no buffer that the threads touched since
/// the last barrier kept is written on one side and touched on the other
/// (softmax's max, sum and normalization, all held in registers).
void pruneBarriers(Block &body, ArrayRef<gpu::BarrierOp> removable) {
  SmallVector<MemoryAccesses> segments(1);
  SmallVector<gpu::BarrierOp> barriers;
  for (Operation &op : body) {
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op)) {
      barriers.push_back(barrier);
      segments.emplace_back();
      continue;
    }
    segments.back().add(&op);
  }
  MemoryAccesses sinceBarrier = segments.front();
  for (auto [barrier, next] :
       llvm::zip(barriers, ArrayRef(segments).drop_front())) {
    if (llvm::is_contained(removable, barrier) &&
        !sinceBarrier.conflictsWith(next)) {
      barrier.erase();
      sinceBarrier.add(next);
      continue;
    }
    sinceBarrier = next;
  }
}

/// Whether `buffer` is an allocation that only the ops of `g`, the kernel
/// `launch` that replaces them and its deallocation use.
bool isPrivateTo(Value buffer, RowGroup &g, gpu::LaunchOp launch) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return isa<memref::DeallocOp>(user) || launch->isAncestor(user) ||
           llvm::any_of(g.ops,
                        [&](Schedule &s) { return s.op.getOperation() == user; });
  });
}

/// Rows per block of `blockSize` threads if every op of `g` fits its row
/// in the registers of one subgroup of `subgroup` lanes (a short row: 768
/// bf16 are 3 steps of 32 threads x 8 lanes), else 0. A subgroup per row
/// needs no workgroup memory or barrier in its reductions, and each thread
/// has several vector loads in flight.
int64_t subgroupRowsPerBlock(RowGroup &g, int64_t blockSize, int64_t rows,
                             int64_t subgroup) {
  for (Schedule &s : g.ops) {
    int64_t cols = product(ArrayRef(s.ranges).drop_front(g.rowDims));
    if (cols > 1 && !heldSteps(cols, s.lanes, subgroup))
      return 0;
  }
  return std::gcd(std::max<int64_t>(1, blockSize / subgroup), rows);
}

/// One kernel for the row group `g`: a subgroup per row where the rows fit
/// (`warpRows`), else a block of up to `blockSize` threads per row. Fails,
/// with an error at the group's last op, if the workgroup memory of its
/// reductions exceeds `sharedMemoryBytes`.
LogicalResult emitRowGroup(ImplicitLocOpBuilder &b, RowGroup &g,
                           int64_t blockSize, bool warpRows, int64_t subgroup,
                           int64_t sharedMemoryBytes) {
  ArrayRef<int64_t> rowRanges =
      ArrayRef(g.ops.front().ranges).take_front(g.rowDims);
  int64_t rows = product(rowRanges);
  // `block` threads work on a row, `rowsPerBlock` rows per thread block.
  int64_t block = subgroup;
  int64_t rowsPerBlock =
      warpRows ? subgroupRowsPerBlock(g, blockSize, rows, subgroup) : 0;
  if (!rowsPerBlock) {
    rowsPerBlock = 1;
    for (Schedule &s : g.ops) {
      int64_t cols = product(ArrayRef(s.ranges).drop_front(g.rowDims));
      block = std::max(block, rowBlockSize(cols, s.lanes, blockSize, subgroup));
    }
  }
  SmallVector<Type> smemTypes;
  int64_t smemBytes = 0;
  if (block > subgroup)
    for (auto [s, red] : llvm::zip(g.ops, g.reductions))
      if (red) {
        MemRefType type = subgroupWordsType(s.op, block, subgroup);
        smemTypes.push_back(type);
        smemBytes += type.getNumElements() *
                     llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      }
  if (smemBytes > sharedMemoryBytes)
    return g.ops.back().op.emitError()
           << "rlx-gpu-map-linalg: the row group's reductions need "
           << smemBytes << " bytes of workgroup memory, more than the "
           << "target's " << sharedMemoryBytes;
  // At the last op: allocations between the ops dominate it.
  gpu::LaunchOp launch = createLaunch(b, g.ops.back().op, rows / rowsPerBlock,
                                      block * rowsPerBlock, smemTypes);
  Value tid = launch.getThreadIds().x;
  Value row = launch.getBlockIds().x;
  if (rowsPerBlock > 1) {
    // One statement per op: argument evaluation order is unspecified, and
    // the ops' order must not depend on the compiler.
    Value subgroupInBlock = arith::DivUIOp::create(b, tid, cst(b, subgroup));
    Value firstRow = arith::MulIOp::create(b, row, cst(b, rowsPerBlock));
    row = arith::AddIOp::create(b, firstRow, subgroupInBlock);
    tid = arith::RemUIOp::create(b, tid, cst(b, subgroup));
  }
  SmallVector<Value> rowIvs = delinearize(b, row, rowRanges);
  unsigned nextSmem = 0;
  RowRegisters regs;
  SmallVector<gpu::BarrierOp> betweenOps;
  for (auto [s, red] : llvm::zip(g.ops, g.reductions)) {
    if (red)
      emitRowReductionBody(
          b, s, *red, block, subgroup, rowIvs, tid,
          block > subgroup
              ? Value(launch.getWorkgroupAttributions()[nextSmem++])
              : Value(),
          &regs);
    else
      emitRowElementwiseBody(b, s, block, rowIvs, tid, regs);
    betweenOps.push_back(gpu::BarrierOp::create(b));
  }
  // What no memory read has seen by the end, in a buffer nobody else
  // uses (the row statistics), is never read.
  for (auto &[key, store] : regs.unseenStores)
    if (isPrivateTo(std::get<0>(key), g, launch))
      store->erase();
  pruneBarriers(launch.getBody().front(), betweenOps);
  return success();
}

/// One thread per point of the parallel loops (times `lanes` consecutive
/// points of the innermost loop), looping over the reduction loops.
void emitPointwise(ImplicitLocOpBuilder &b, const Schedule &s,
                   int64_t blockSize) {
  linalg::GenericOp op = s.op;
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
  unsigned innermost = s.ranges.size() - 1;
  SmallVector<int64_t> threadRanges;
  for (unsigned d : parallel)
    threadRanges.push_back(d == innermost ? s.ranges[d] / s.lanes
                                          : s.ranges[d]);
  int64_t points = product(threadRanges);
  int64_t grid = std::max<int64_t>(1, llvm::divideCeil(points, blockSize));
  gpu::LaunchOp launch = createLaunch(b, op, grid, std::min(points, blockSize));
  Value id = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, launch.getBlockIds().x, launch.getBlockSize().x),
      launch.getThreadIds().x);
  Value inRange =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, id, cst(b, points));
  auto guard = scf::IfOp::create(b, inRange, /*withElse=*/false);
  b.setInsertionPointToStart(guard.thenBlock());

  SmallVector<Value> ivs(s.ranges.size(), cst(b, 0));
  for (auto [d, iv] : llvm::zip(parallel, delinearize(b, id, threadRanges)))
    ivs[d] = d == innermost && s.lanes > 1
                 ? arith::MulIOp::create(b, iv, cst(b, s.lanes))
                 : iv;

  // Outputs are loaded once per point and carried through the reduction
  // loops; an elementwise body that ignores its output reads none.
  SmallVector<SmallVector<Value>> outs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (reduction.empty() && op.getMatchingBlockArgument(&init).use_empty()) {
      outs.push_back(SmallVector<Value>(s.lanes, unusedOutput(b, op, init)));
      continue;
    }
    outs.push_back(loadLanes(b, op, init, ivs, innermost, s.lanes));
  }

  auto computeAt = [&](ImplicitLocOpBuilder &b, ValueRange pointIvs,
                       ArrayRef<SmallVector<Value>> current) {
    SmallVector<SmallVector<Value>> inputs;
    for (OpOperand *in : op.getDpsInputOperands())
      inputs.push_back(loadLanes(b, op, *in, pointIvs, innermost, s.lanes));
    return cloneBodyPerLane(b, op, pointIvs, innermost, s.lanes, inputs,
                            current);
  };

  if (reduction.empty()) {
    outs = computeAt(b, ivs, outs);
  } else {
    // Nested loops over the reduction dims (lanes is 1 here), carrying the
    // outputs.
    SmallVector<Value> carried;
    for (auto &lanes : outs)
      carried.push_back(lanes[0]);
    SmallVector<scf::ForOp> loops;
    for (unsigned d : reduction) {
      auto loop = scf::ForOp::create(b, cst(b, 0), cst(b, s.ranges[d]),
                                     cst(b, 1), carried);
      if (!loops.empty())
        scf::YieldOp::create(b, loop.getResults());
      b.setInsertionPointToStart(loop.getBody());
      ivs[d] = loop.getInductionVar();
      carried = llvm::to_vector_of<Value>(loop.getRegionIterArgs());
      loops.push_back(loop);
    }
    SmallVector<SmallVector<Value>> current;
    for (Value v : carried)
      current.push_back({v});
    SmallVector<Value> next;
    for (auto &lanes : computeAt(b, ivs, current))
      next.push_back(lanes[0]);
    scf::YieldOp::create(b, next);
    b.setInsertionPointAfter(loops.front());
    for (auto [r, v] : llvm::enumerate(loops.front().getResults()))
      outs[r] = {v};
  }
  for (auto [init, lanes] : llvm::zip(op.getDpsInitsMutable(), outs))
    storeLanes(b, op, init, ivs, lanes);
}

/// A column reduction needs fewer points than this to be split across the
/// threads of blocks: with more, one thread per point fills the GPU.
constexpr int64_t kMaxColumnPoints = 32768;
/// Blocks a split column reduction aims at (a few per multiprocessor of a
/// large GPU), and the fewest reduction points each thread folds.
constexpr int64_t kColumnBlocks = 512;
constexpr int64_t kMinFoldsPerThread = 16;

/// The combiners of a reduction whose innermost loop is parallel and whose
/// few points each reduce many values (a bias gradient: 768 sums of 4096
/// rows), one per result; nullopt for any other generic. One thread per
/// point would leave most of the GPU idle and walk each reduction alone.
std::optional<SmallVector<RowReduction>>
matchColumnReduction(const Schedule &s, int64_t blockSize, int64_t subgroup) {
  linalg::GenericOp op = s.op;
  if (op.getNumReductionLoops() == 0 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::parallel)
    return std::nullopt;
  int64_t points = 1, folds = 1;
  for (auto [range, it] : llvm::zip(s.ranges, op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? points : folds) *= range;
  if (points >= kMaxColumnPoints ||
      folds < 2 * kMinFoldsPerThread * (blockSize / subgroup))
    return std::nullopt;
  SmallVector<RowReduction> combiners;
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
    std::optional<RowReduction> red = matchCombiner(op, i);
    if (!red)
      return std::nullopt;
    combiners.push_back(*red);
  }
  return combiners;
}

/// A column reduction: blocks of `subgroup` consecutive points (coalesced
/// along the innermost loop) x `blockSize / subgroup` slices of the
/// reduction, each block folding one of `chunks` chunks of the reduction
/// loops. The slices combine through workgroup memory; with one chunk the
/// block stores the result, else each chunk's partial values go to a
/// buffer that a second kernel (one thread per point) folds into the
/// outputs.
void emitColumnReduction(ImplicitLocOpBuilder &b, const Schedule &s,
                         ArrayRef<RowReduction> reds, int64_t blockSize,
                         int64_t subgroup) {
  linalg::GenericOp op = s.op;
  SmallVector<unsigned> parallel, reduction;
  SmallVector<int64_t> pointRanges, foldRanges;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool isParallel = it == utils::IteratorType::parallel;
    (isParallel ? parallel : reduction).push_back(i);
    (isParallel ? pointRanges : foldRanges).push_back(s.ranges[i]);
  }
  int64_t points = product(pointRanges), folds = product(foldRanges);
  int64_t slices = blockSize / subgroup;
  int64_t pointBlocks = llvm::divideCeil(points, subgroup);
  int64_t chunks = std::clamp<int64_t>(
      llvm::divideCeil(kColumnBlocks, pointBlocks), 1,
      std::max<int64_t>(1, folds / (slices * kMinFoldsPerThread)));
  int64_t chunkFolds = llvm::divideCeil(folds, chunks);
  chunks = llvm::divideCeil(folds, chunkFolds);

  SmallVector<Type> accTypes;
  SmallVector<Type> slicesTypes;
  auto workgroup =
      gpu::AddressSpaceAttr::get(op.getContext(), gpu::AddressSpace::Workgroup);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Type acc = op.getMatchingBlockArgument(&init).getType();
    accTypes.push_back(acc);
    slicesTypes.push_back(
        MemRefType::get({slices, subgroup}, acc, AffineMap(), workgroup));
  }
  // The partial values of each chunk, [chunk, point], when there are
  // several chunks.
  SmallVector<Value> partials;
  b.setInsertionPoint(op);
  if (chunks > 1)
    for (Type acc : accTypes)
      partials.push_back(memref::AllocOp::create(
          b, MemRefType::get({chunks, points}, acc)));

  auto neutrals = [&] {
    return llvm::map_to_vector(reds, [&](const RowReduction &red) -> Value {
      return arith::ConstantOp::create(b, red.neutral);
    });
  };
  // The loop point of output point `point` (the reduction loops at 0: the
  // outputs do not read them).
  auto pointIvs = [&](Value point) {
    SmallVector<Value> ivs(s.ranges.size(), cst(b, 0));
    for (auto [d, iv] : llvm::zip(parallel, delinearize(b, point, pointRanges)))
      ivs[d] = iv;
    return ivs;
  };
  // Folds the initial value of every output at `ivs` into `values` and
  // stores the results.
  auto storeOutputs = [&](ValueRange ivs, ValueRange values) {
    for (auto [init, red, v] :
         llvm::zip(op.getDpsInitsMutable(), reds, values)) {
      Value initial = loadLanes(b, op, init, ivs, 0, 1)[0];
      storeLanes(b, op, init, ivs, {combine(b, red, initial, v)});
    }
  };

  gpu::LaunchOp launch =
      createLaunch(b, op, pointBlocks * chunks, blockSize, slicesTypes);
  Value tid = launch.getThreadIds().x, bid = launch.getBlockIds().x;
  Value lane = arith::RemUIOp::create(b, tid, cst(b, subgroup));
  Value slice = arith::DivUIOp::create(b, tid, cst(b, subgroup));
  Value chunk = arith::DivUIOp::create(b, bid, cst(b, pointBlocks));
  Value point = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, arith::RemUIOp::create(b, bid, cst(b, pointBlocks)),
                            cst(b, subgroup)),
      lane);
  Value inRange =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, point, cst(b, points));
  SmallVector<Value> ivs = pointIvs(point);
  // Each thread folds points start, start + slices, ... of its chunk.
  auto fold = scf::IfOp::create(b, accTypes, inRange, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fold.thenBlock());
    Value first = arith::MulIOp::create(b, chunk, cst(b, chunkFolds));
    Value end = arith::MinUIOp::create(
        b, arith::AddIOp::create(b, first, cst(b, chunkFolds)),
        cst(b, folds));
    auto loop = scf::ForOp::create(b, arith::AddIOp::create(b, first, slice),
                                   end, cst(b, slices), neutrals());
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> loopIvs = ivs;
    for (auto [d, iv] : llvm::zip(
             reduction, delinearize(b, loop.getInductionVar(), foldRanges)))
      loopIvs[d] = iv;
    SmallVector<Value> args;
    for (OpOperand *in : op.getDpsInputOperands())
      args.push_back(loadLanes(b, op, *in, loopIvs, 0, 1)[0]);
    llvm::append_range(args, loop.getRegionIterArgs());
    scf::YieldOp::create(b, cloneBody(b, op, loopIvs, args));
    b.setInsertionPointAfter(loop);
    scf::YieldOp::create(b, loop.getResults());
    b.setInsertionPointToStart(fold.elseBlock());
    scf::YieldOp::create(b, neutrals());
  }
  ValueRange slicesMem = launch.getWorkgroupAttributions();
  for (auto [v, mem] : llvm::zip(fold.getResults(), slicesMem))
    memref::StoreOp::create(b, v, mem, ValueRange{slice, lane});
  gpu::BarrierOp::create(b);
  Value isSlice0 =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, slice, cst(b, 0));
  auto store = scf::IfOp::create(
      b, arith::AndIOp::create(b, isSlice0, inRange), /*withElse=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  SmallVector<Value> totals;
  for (auto [red, mem] : llvm::zip(reds, slicesMem)) {
    Value total = memref::LoadOp::create(b, mem, ValueRange{cst(b, 0), lane});
    for (int64_t j = 1; j < slices; ++j)
      total = combine(b, red, total,
                      memref::LoadOp::create(b, mem, ValueRange{cst(b, j), lane}));
    totals.push_back(total);
  }
  if (chunks == 1) {
    storeOutputs(ivs, totals);
    return;
  }
  for (auto [total, buffer] : llvm::zip(totals, partials))
    memref::StoreOp::create(b, total, buffer, ValueRange{chunk, point});

  // One thread per point folds the chunks' partial values.
  int64_t block = std::min(points, blockSize);
  gpu::LaunchOp finish =
      createLaunch(b, op, llvm::divideCeil(points, block), block);
  Value id = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, finish.getBlockIds().x, cst(b, block)),
      finish.getThreadIds().x);
  auto guard = scf::IfOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, id, cst(b, points)),
      /*withElse=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  auto loop = scf::ForOp::create(b, cst(b, 0), cst(b, chunks), cst(b, 1),
                                 neutrals());
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next;
    for (auto [red, buffer, acc] :
         llvm::zip(reds, partials, loop.getRegionIterArgs()))
      next.push_back(combine(
          b, red, acc,
          memref::LoadOp::create(b, buffer,
                                 ValueRange{loop.getInductionVar(), id})));
    scf::YieldOp::create(b, next);
  }
  storeOutputs(pointIvs(id), loop.getResults());
  b.setInsertionPoint(op);
  for (Value buffer : partials)
    memref::DeallocOp::create(b, buffer);
}

/// Whether `s` can join a row group over `rowDims` leading loops of ranges
/// `rowRanges`; sets its lanes.
bool fitsRowGroup(Schedule &s, const std::optional<RowReduction> &red,
                  unsigned rowDims, ArrayRef<int64_t> rowRanges,
                  int64_t vectorBytes) {
  linalg::GenericOp op = s.op;
  if (s.ranges.size() < rowDims ||
      ArrayRef(s.ranges).take_front(rowDims) != rowRanges)
    return false;
  if (red ? op.getNumParallelLoops() != rowDims
          : op.getNumReductionLoops() != 0)
    return false;
  unsigned innermost = s.ranges.size() - 1;
  s.lanes = s.ranges.size() > rowDims
                ? vectorLanes(op, innermost, s.ranges[innermost], vectorBytes)
                : 1;
  return true;
}

/// Greedy row groups of consecutive generics (allocations and constants
/// may lie between them).
SmallVector<RowGroup> findRowGroups(func::FuncOp func, int64_t vectorBytes) {
  SmallVector<RowGroup> groups;
  func.walk([&](Block *block) {
    RowGroup current;
    current.rowDims = 0;
    auto flush = [&] {
      if (isValidRowGroup(current))
        groups.push_back(current);
      current = RowGroup();
      current.rowDims = 0;
    };
    for (Operation &op : *block) {
      if (isa<memref::AllocOp, arith::ConstantOp>(op))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || !generic.hasPureBufferSemantics()) {
        flush();
        continue;
      }
      Schedule s{generic, generic.getStaticLoopRanges()};
      if (s.ranges.empty() || llvm::any_of(s.ranges, ShapedType::isDynamic)) {
        flush();
        continue;
      }
      std::optional<RowReduction> red = matchRowReduction(generic);
      // The first reduction fixes the rows; elementwise ops before it wait.
      if (current.rowDims == 0 && red) {
        unsigned rowDims = generic.getNumParallelLoops();
        ArrayRef<int64_t> rowRanges = ArrayRef(s.ranges).take_front(rowDims);
        bool allFit = llvm::all_of(current.ops, [&](Schedule &prev) {
          return fitsRowGroup(prev, std::nullopt, rowDims, rowRanges,
                              vectorBytes);
        });
        if (!allFit)
          flush();
        current.rowDims = rowDims;
      }
      if (current.rowDims == 0) {
        if (generic.getNumReductionLoops() != 0) {
          flush();
          continue;
        }
        current.ops.push_back(s);
        current.reductions.push_back(std::nullopt);
        continue;
      }
      SmallVector<int64_t> rowRanges(
          ArrayRef(current.ops.empty() ? s.ranges : current.ops.front().ranges)
              .take_front(current.rowDims));
      if (!fitsRowGroup(s, red, current.rowDims, rowRanges, vectorBytes)) {
        flush();
        // It may start the next group.
        if (red) {
          current.rowDims = generic.getNumParallelLoops();
          fitsRowGroup(s, red, current.rowDims,
                       ArrayRef(s.ranges).take_front(current.rowDims),
                       vectorBytes);
        } else if (generic.getNumReductionLoops() != 0) {
          continue;
        }
      }
      current.ops.push_back(s);
      current.reductions.push_back(red);
    }
    flush();
  });
  return groups;
}

/// A row reduction of fewer rows than this, each longer than
/// kMinSplitRowFolds, is split in two (splitLongRowReductions).
constexpr int64_t kMinRows = 256;
constexpr int64_t kMinSplitRowFolds = 65536;

/// Splits a row reduction of few long rows (a loss: the mean of a whole
/// batch of activations is one row, which one block would walk alone) in
/// two row reductions through a buffer of partial values: its outer
/// reduction loops become rows of the first (until there are kMinRows rows
/// or the next loop would leave rows shorter than a subgroup), which
/// reduces the inner loops into the buffer (filled with the combiner's
/// neutral value), and the second reduces the buffer into the output.
void splitLongRowReductions(func::FuncOp func, RewriterBase &rewriter,
                            int64_t subgroup) {
  SmallVector<std::pair<linalg::GenericOp, RowReduction>> generics;
  func.walk([&](linalg::GenericOp op) {
    std::optional<RowReduction> red = matchRowReduction(op);
    if (!op.hasPureBufferSemantics() || !red ||
        !op.getMatchingIndexingMap(&op.getDpsInitsMutable()[0])
             .isProjectedPermutation())
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return;
    unsigned numParallel = op.getNumParallelLoops();
    if (product(ArrayRef(ranges).take_front(numParallel)) < kMinRows &&
        product(ArrayRef(ranges).drop_front(numParallel)) >= kMinSplitRowFolds)
      generics.emplace_back(op, *red);
  });
  for (auto &entry : generics) {
    // Named, not bound: a lambda below captures them.
    linalg::GenericOp op = entry.first;
    const RowReduction &red = entry.second;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    unsigned numLoops = ranges.size(), numParallel = op.getNumParallelLoops();
    int64_t rows = product(ArrayRef(ranges).take_front(numParallel));
    int64_t folds = product(ArrayRef(ranges).drop_front(numParallel));
    // The loops [numParallel, split) become rows of the first reduction.
    unsigned split = numParallel;
    while (split + 1 < numLoops && rows < kMinRows &&
           folds / ranges[split] >= subgroup) {
      rows *= ranges[split];
      folds /= ranges[split];
      ++split;
    }
    if (split == numParallel)
      continue;
    OpOperand &init = op.getDpsInitsMutable()[0];
    Type acc = op.getMatchingBlockArgument(&init).getType();
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // The partial values: the output's dims, then the split loops.
    AffineMap outMap = op.getMatchingIndexingMap(&init);
    SmallVector<int64_t> partialShape;
    SmallVector<AffineExpr> partialExprs(outMap.getResults());
    for (AffineExpr e : outMap.getResults())
      partialShape.push_back(ranges[cast<AffineDimExpr>(e).getPosition()]);
    for (unsigned d = numParallel; d < split; ++d) {
      partialShape.push_back(ranges[d]);
      partialExprs.push_back(getAffineDimExpr(d, ctx));
    }
    Value partial = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(partialShape, acc));
    Value neutral = arith::ConstantOp::create(rewriter, loc, red.neutral);
    linalg::FillOp::create(rewriter, loc, neutral, partial);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = numParallel; d < split; ++d)
      iterators[d] = utils::IteratorType::parallel;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps.back() = AffineMap::get(numLoops, 0, partialExprs, ctx);
    auto first = linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, op.getDpsInputs(), ValueRange{partial},
        maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), first.getRegion(),
                                first.getRegion().end());
    // The second reduction: the output's loops, then the split ones.
    unsigned outRank = outMap.getNumResults();
    unsigned secondLoops = partialShape.size();
    SmallVector<utils::IteratorType> secondIterators(
        outRank, utils::IteratorType::parallel);
    secondIterators.append(secondLoops - outRank,
                           utils::IteratorType::reduction);
    AffineMap all = rewriter.getMultiDimIdentityMap(secondLoops);
    AffineMap outputs = AffineMap::get(
        secondLoops, 0, all.getResults().take_front(outRank), ctx);
    linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, ValueRange{partial}, ValueRange{init.get()},
        ArrayRef<AffineMap>{all, outputs},
        secondIterators, [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping mapping;
          mapping.map(red.combiner->getOperand(red.accOperand), args[1]);
          mapping.map(red.combiner->getOperand(1 - red.accOperand), args[0]);
          linalg::YieldOp::create(b, l,
                                  b.clone(*red.combiner, mapping)->getResult(0));
        });
    memref::DeallocOp::create(rewriter, loc, partial);
    rewriter.eraseOp(op);
  }
}

/// Splits a row reduction of several results (a norm backward's two row
/// sums) into one generic per result, each with the part of the body its
/// result needs, so that each is a row reduction (one block or subgroup per
/// row, in a row group where it fits) instead of one thread walking each
/// row alone. Each generic reads the inputs again, from the caches where
/// they stay in a row group. Results that read one another's running
/// values stay together.
void splitRowReductionResults(func::FuncOp func, RewriterBase &rewriter) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) {
    if (op.getNumDpsInits() < 2 || !op.hasPureBufferSemantics() ||
        op.getNumReductionLoops() == 0)
      return;
    unsigned firstReduction = op.getNumParallelLoops();
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if ((i < firstReduction) != (it == utils::IteratorType::parallel))
        return;
    SmallVector<Operation *> combiners;
    for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
      std::optional<RowReduction> red = matchCombiner(op, i);
      if (!red)
        return;
      combiners.push_back(red->combiner);
    }
    // No result's value may depend on another's combiner.
    for (auto [i, combiner] : llvm::enumerate(combiners)) {
      SetVector<Operation *> slice;
      BackwardSliceOptions options;
      options.filter = [&](Operation *o) { return o->getBlock() == op.getBlock(); };
      (void)getBackwardSlice(combiner, &slice, options);
      for (auto [j, other] : llvm::enumerate(combiners))
        if (i != j && slice.contains(other))
          return;
    }
    generics.push_back(op);
  });
  for (linalg::GenericOp op : generics) {
    rewriter.setInsertionPoint(op);
    SmallVector<Value> inputs = op.getDpsInputs();
    SmallVector<AffineMap> maps = llvm::map_to_vector(
        op.getDpsInputOperands(),
        [&](OpOperand *in) { return op.getMatchingIndexingMap(in); });
    Block *body = op.getBlock();
    for (OpOperand &init : op.getDpsInitsMutable()) {
      unsigned i = init.getOperandNumber() - op.getNumDpsInputs();
      Value yielded = body->getTerminator()->getOperand(i);
      SetVector<Operation *> slice;
      BackwardSliceOptions options;
      options.filter = [&](Operation *o) { return o->getBlock() == body; };
      options.inclusive = true;
      (void)getBackwardSlice(yielded, &slice, options);
      SmallVector<AffineMap> resultMaps = maps;
      resultMaps.push_back(op.getMatchingIndexingMap(&init));
      linalg::GenericOp::create(
          rewriter, op.getLoc(), TypeRange{}, inputs, ValueRange{init.get()},
          resultMaps, op.getIteratorTypesArray(),
          [&](OpBuilder &b, Location loc, ValueRange args) {
            IRMapping mapping;
            mapping.map(body->getArguments().take_front(inputs.size()),
                        args.drop_back());
            mapping.map(op.getMatchingBlockArgument(&init), args.back());
            for (Operation &inner : body->without_terminator())
              if (slice.contains(&inner))
                b.clone(inner, mapping);
            linalg::YieldOp::create(b, loc, mapping.lookup(yielded));
          });
    }
    rewriter.eraseOp(op);
  }
}

struct GPUMapLinalgPass : rlx::impl::GPUMapLinalgPassBase<GPUMapLinalgPass> {
  using Base::Base;

  /// The kernels' shapes need whole subgroups of a power-of-two size in a
  /// block the target allows, and one subgroup must reduce the per-subgroup
  /// words of a block.
  LogicalResult checkTarget(func::FuncOp func) {
    auto bad = [&]() {
      return func.emitError() << "rlx-gpu-map-linalg: ";
    };
    // Plain values: a pass option streams into a diagnostic as a character.
    int64_t subgroupSize = this->subgroupSize, vectorBytes = this->vectorBytes,
            blockSize = this->blockSize,
            maxThreadsPerBlock = this->maxThreadsPerBlock;
    if (subgroupSize < 1 || !llvm::isPowerOf2_64(subgroupSize))
      return bad() << "subgroup-size " << subgroupSize
                   << " is not a power of two";
    if (vectorBytes < 1 || !llvm::isPowerOf2_64(vectorBytes))
      return bad() << "vector-bytes " << vectorBytes
                   << " is not a power of two";
    if (blockSize < subgroupSize || blockSize % subgroupSize != 0)
      return bad() << "block-size " << blockSize
                   << " is not a multiple of subgroup-size " << subgroupSize;
    if (blockSize > maxThreadsPerBlock)
      return bad() << "block-size " << blockSize
                   << " exceeds the target's max-threads-per-block "
                   << maxThreadsPerBlock;
    if (blockSize / subgroupSize > subgroupSize)
      return bad() << "block-size " << blockSize << " has more than "
                   << subgroupSize << " subgroups of " << subgroupSize
                   << " lanes (their partial values are reduced by one "
                      "subgroup)";
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(checkTarget(func)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());

    splitLongRowReductions(func, rewriter, subgroupSize);
    // Copies and named ops become generics.
    SmallVector<Operation *> toGeneralize;
    func.walk([&](Operation *op) {
      if (isa<memref::CopyOp>(op) ||
          (isa<linalg::LinalgOp>(op) && !isa<linalg::GenericOp>(op)))
        toGeneralize.push_back(op);
    });
    for (Operation *op : toGeneralize) {
      rewriter.setInsertionPoint(op);
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        linalg::makeMemRefCopyOp(rewriter, copy.getLoc(), copy.getSource(),
                                 copy.getTarget());
        rewriter.eraseOp(copy);
        continue;
      }
      if (failed(linalg::generalizeNamedOp(rewriter,
                                           cast<linalg::LinalgOp>(op)))) {
        op->emitError("rlx-gpu-map-linalg: cannot generalize this op");
        return signalPassFailure();
      }
    }

    splitRowReductionResults(func, rewriter);
    if (fuseRows) {
      for (RowGroup &g : findRowGroups(func, vectorBytes)) {
        ImplicitLocOpBuilder b(g.ops.back().op.getLoc(), g.ops.back().op);
        if (failed(emitRowGroup(b, g, blockSize, warpRows, subgroupSize,
                                sharedMemoryBytes)))
          return signalPassFailure();
        for (Schedule &s : g.ops)
          rewriter.eraseOp(s.op);
      }
    }

    // Pre-order: a generic is mapped (with the loads its body makes from
    // captured buffers, as rope's does) before those loads are seen.
    WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                           -> WalkResult {
      if (isa<memref::LoadOp, memref::StoreOp>(op) &&
          !op->getParentOfType<gpu::LaunchOp>())
        return op->emitError(
            "rlx-gpu-map-linalg: host code reads or writes a device buffer");
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic)
        return WalkResult::advance();
      if (!generic.hasPureBufferSemantics())
        return op->emitError("rlx-gpu-map-linalg: expects buffers (run "
                             "bufferization first)");
      Schedule s{generic, generic.getStaticLoopRanges()};
      if (llvm::any_of(s.ranges, ShapedType::isDynamic))
        return op->emitError(
            "rlx-gpu-map-linalg: dynamic shapes are not supported yet");
      if (s.ranges.empty())
        s.ranges.push_back(1);
      ImplicitLocOpBuilder b(op->getLoc(), op);
      unsigned innermost = s.ranges.size() - 1;
      std::optional<RowReduction> red = matchRowReduction(generic);
      bool innermostParallel = generic.getNumLoops() > 0 &&
                               generic.getIteratorTypesArray()[innermost] ==
                                   utils::IteratorType::parallel;
      if (red && s.ranges[innermost] >= subgroupSize) {
        s.lanes =
            vectorLanes(generic, innermost, s.ranges[innermost], vectorBytes);
        emitRowReduction(b, s, *red, blockSize, subgroupSize);
      } else if (std::optional<SmallVector<RowReduction>> columns =
                     matchColumnReduction(s, blockSize, subgroupSize)) {
        emitColumnReduction(b, s, *columns, blockSize, subgroupSize);
      } else {
        if (generic.getNumReductionLoops() == 0 && innermostParallel)
          s.lanes =
              vectorLanes(generic, innermost, s.ranges[innermost], vectorBytes);
        emitPointwise(b, s, blockSize);
      }
      rewriter.eraseOp(op);
      return WalkResult::skip();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    // Allocations whose accesses all went to registers are not needed.
    SmallVector<memref::AllocOp> unused;
    func.walk([&](memref::AllocOp alloc) {
      if (llvm::all_of(alloc->getUsers(), llvm::IsaPred<memref::DeallocOp>))
        unused.push_back(alloc);
    });
    for (memref::AllocOp alloc : unused) {
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        rewriter.eraseOp(user);
      rewriter.eraseOp(alloc);
    }

    // Host allocations become device allocations.
    func.walk([&](Operation *op) {
      rewriter.setInsertionPoint(op);
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        rewriter.replaceOpWithNewOp<gpu::AllocOp>(
            alloc, alloc.getType(), /*asyncToken=*/Type(), ValueRange{},
            alloc.getDynamicSizes(), alloc.getSymbolOperands());
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        rewriter.replaceOpWithNewOp<gpu::DeallocOp>(
            dealloc, /*asyncToken=*/Type(), ValueRange{}, dealloc.getMemref());
    });
  }
};

} // namespace
