//===- MapRowGroups.cpp - row reductions and row groups as kernels --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-gpu-map-linalg's row schedules: a row reduction as one block (or
// subgroup) per row, and a row group (consecutive ops over the same rows
// with a row reduction among them: softmax, the norms) as one kernel that
// holds a row that fits, and its statistics, in registers across its ops.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

#include <numeric>

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;
using namespace mlir::rlx::map_linalg;

/// At most this many steps along a row per thread keep the row in
/// registers (8 x 16 bytes per operand and thread).
constexpr int64_t kMaxHeldSteps = 8;

namespace {

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

} // namespace

/// Whether `map` reads a loop past the `rowDims` row loops (else it
/// addresses one value per row).
static bool readsColumns(AffineMap map, unsigned rowDims) {
  for (unsigned d = rowDims; d < map.getNumDims(); ++d)
    if (map.isFunctionOfDim(d))
      return true;
  return false;
}

/// The key of `operand` at step `step`, or nullopt where its points are
/// not tracked (a scalar operand, or a map that is no projected
/// permutation).
static std::optional<RowRegisters::Key> heldKey(linalg::GenericOp op,
                                                OpOperand &operand,
                                                unsigned rowDims, int64_t lanes,
                                                int64_t step) {
  if (!isa<MemRefType>(operand.get().getType()))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isProjectedPermutation())
    return std::nullopt;
  if (!readsColumns(map, rowDims))
    return RowRegisters::Key{
        operand.get(),
        AffineMap::get(rowDims, 0, map.getResults(), map.getContext()), 1, -1};
  return RowRegisters::Key{operand.get(), map, lanes, step};
}

/// loadLanes through the registers of a row group.
static SmallVector<Value> loadHeld(ImplicitLocOpBuilder &b,
                                   linalg::GenericOp op, OpOperand &operand,
                                   ValueRange ivs, unsigned d, int64_t lanes,
                                   unsigned rowDims, RowRegisters &regs,
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
  regs.values[*key] = rowScalar ? SmallVector<Value>{loaded.front()} : loaded;
  return loaded;
}

/// storeLanes through the registers of a row group. With `storeIf`, only
/// the threads where it holds store to memory (thread 0 for a row scalar
/// that every thread computed); all hold the values.
static void storeHeld(ImplicitLocOpBuilder &b, linalg::GenericOp op,
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
static DenseMap<OpOperand *, SmallVector<Value>>
rowScalarsBeforeLoop(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                     ArrayRef<OpOperand *> operands, ValueRange rowIvs,
                     int64_t lanes, RowRegisters &regs) {
  DenseMap<OpOperand *, SmallVector<Value>> held;
  unsigned rowDims = rowIvs.size();
  for (OpOperand *operand : operands) {
    if (!isa<MemRefType>(operand->get().getType()))
      continue;
    if (op.isDpsInit(operand) ||
        !op.getMatchingIndexingMap(operand).isProjectedPermutation() ||
        readsColumns(op.getMatchingIndexingMap(operand), rowDims)) {
      regs.flush(operand->get());
      continue;
    }
    SmallVector<Value> ivs(rowIvs);
    ivs.append(op.getNumLoops() - rowDims, indexConstant(b, 0));
    held[operand] = loadHeld(b, op, *operand, ivs, op.getNumLoops() - 1, lanes,
                             rowDims, regs, -1);
  }
  return held;
}

/// The steps along a row of `cols` points each thread of a `block` takes
/// if they fit in registers, else 0 (a loop over memory).
static int64_t heldSteps(int64_t cols, int64_t lanes, int64_t block) {
  if (cols % (block * lanes))
    return 0;
  int64_t steps = cols / (block * lanes);
  return steps <= kMaxHeldSteps ? steps : 0;
}

/// The column indices of step `step` of thread `tid` along a row.
static SmallVector<Value> stepIvs(ImplicitLocOpBuilder &b, ValueRange rowIvs,
                                  ArrayRef<int64_t> colRanges, Value tid,
                                  int64_t lanes, int64_t block, int64_t step) {
  Value stepOffset = indexConstant(b, step * block * lanes);
  Value threadOffset = arith::MulIOp::create(b, tid, indexConstant(b, lanes));
  Value col = arith::AddIOp::create(b, threadOffset, stepOffset);
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
static void emitRowReductionBody(ImplicitLocOpBuilder &b, const Schedule &s,
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
            arith::AddIOp::create(b, ivs[innermost], indexConstant(b, l));
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
    Value start = arith::MulIOp::create(b, tid, indexConstant(b, s.lanes));
    Value stride = indexConstant(b, block * s.lanes);
    Value end = indexConstant(b, cols);
    auto loop = scf::ForOp::create(b, start, end, stride, ValueRange{neutral});
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
  ivs.append(colRanges.size(), indexConstant(b, 0));
  // In a row group every thread reads the initial value before the
  // reduction's shuffles and barrier, which order it before thread 0's
  // store of the total (a later read could see the total).
  Value initial;
  if (regs)
    initial =
        loadHeld(b, op, init, ivs, innermost, 1, rowIvs.size(), *regs, -1)[0];
  partial = subgroupReduce(b, red, partial, subgroup);
  if (subgroups > 1) {
    Value lane = arith::RemUIOp::create(b, tid, indexConstant(b, subgroup));
    Value group = arith::DivUIOp::create(b, tid, indexConstant(b, subgroup));
    Value isLane0 = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane,
                                          indexConstant(b, 0));
    auto write = scf::IfOp::create(b, isLane0, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(write.thenBlock());
      memref::StoreOp::create(b, partial, smem, ValueRange{group});
    }
    gpu::BarrierOp::create(b);
    // Every subgroup reduces the per-subgroup words; only thread 0 stores.
    Value hasWord = inRange(b, lane, subgroups);
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
  Value isThread0 = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid,
                                          indexConstant(b, 0));
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
static int64_t rowBlockSize(int64_t cols, int64_t lanes, int64_t blockSize,
                            int64_t subgroup) {
  int64_t threadsNeeded = llvm::divideCeil(cols, lanes);
  return std::min<int64_t>(
      blockSize, llvm::divideCeil(threadsNeeded, subgroup) * subgroup);
}

void map_linalg::emitRowReduction(ImplicitLocOpBuilder &b, const Schedule &s,
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
static void emitRowElementwiseBody(ImplicitLocOpBuilder &b, const Schedule &s,
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
                                    indexConstant(b, 0)));
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
  Value start = arith::MulIOp::create(b, tid, indexConstant(b, s.lanes));
  Value stride = indexConstant(b, block * s.lanes);
  Value end = indexConstant(b, product(colRanges));
  auto loop = scf::ForOp::create(b, start, end, stride);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> ivs(rowIvs);
  llvm::append_range(ivs, delinearize(b, loop.getInductionVar(), colRanges));
  computeAt(ivs, -1);
}

/// True if `map` addresses the row dims 0..rowDims-1 as its leading
/// results and the other results depend on no row dim.
static bool staysInRow(AffineMap map, unsigned rowDims) {
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
static Value viewedBuffer(Value v) {
  return memref::skipViewLikeOps(cast<MemrefValue>(v));
}

/// A row group is one kernel whose workgroups each compute whole rows, with
/// nothing ordering them: a buffer one of its ops writes may be read only
/// in the row being computed, through the very view that was written (a
/// padded conv reading its padded copy at neighbouring rows, through the
/// whole buffer rather than the subview the copy wrote, would read rows
/// other workgroups have not written yet).
static bool isValidRowGroup(RowGroup &g) {
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

/// Whether `buffer` is an allocation that only the ops of `g`, the kernel
/// `launch` that replaces them and its deallocation use.
static bool isPrivateTo(Value buffer, RowGroup &g, gpu::LaunchOp launch) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return isa<memref::DeallocOp>(user) || launch->isAncestor(user) ||
           llvm::any_of(
               g.ops, [&](Schedule &s) { return s.op.getOperation() == user; });
  });
}

/// Rows per block of `blockSize` threads if every op of `g` fits its row
/// in the registers of one subgroup of `subgroup` lanes (a short row: 768
/// bf16 are 3 steps of 32 threads x 8 lanes), else 0. A subgroup per row
/// needs no workgroup memory or barrier in its reductions, and each thread
/// has several vector loads in flight.
static int64_t subgroupRowsPerBlock(RowGroup &g, int64_t blockSize,
                                    int64_t rows, int64_t subgroup) {
  for (Schedule &s : g.ops) {
    int64_t cols = product(ArrayRef(s.ranges).drop_front(g.rowDims));
    if (cols > 1 && !heldSteps(cols, s.lanes, subgroup))
      return 0;
  }
  return std::gcd(std::max<int64_t>(1, blockSize / subgroup), rows);
}

LogicalResult map_linalg::emitRowGroup(ImplicitLocOpBuilder &b, RowGroup &g,
                                       int64_t blockSize, bool subgroupRows,
                                       int64_t subgroup,
                                       int64_t sharedMemoryBytes) {
  ArrayRef<int64_t> rowRanges =
      ArrayRef(g.ops.front().ranges).take_front(g.rowDims);
  int64_t rows = product(rowRanges);
  // `block` threads work on a row, `rowsPerBlock` rows per thread block.
  int64_t block = subgroup;
  int64_t rowsPerBlock =
      subgroupRows ? subgroupRowsPerBlock(g, blockSize, rows, subgroup) : 0;
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
    Value subgroupInBlock =
        arith::DivUIOp::create(b, tid, indexConstant(b, subgroup));
    Value firstRow =
        arith::MulIOp::create(b, row, indexConstant(b, rowsPerBlock));
    row = arith::AddIOp::create(b, firstRow, subgroupInBlock);
    tid = arith::RemUIOp::create(b, tid, indexConstant(b, subgroup));
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

/// Whether `s` can join a row group over `rowDims` leading loops of ranges
/// `rowRanges`; sets its lanes.
static bool fitsRowGroup(Schedule &s, const std::optional<RowReduction> &red,
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

SmallVector<RowGroup> map_linalg::findRowGroups(func::FuncOp func,
                                                int64_t vectorBytes) {
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
