//===- CPUStreamStores.cpp - non-temporal stores for row-group results ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM's loop vectorizer only emits a non-temporal vector store when it can
// prove the vector's alignment, which it cannot from a scalar loop over a
// memref (each scalar store is 4-byte aligned). So the ops whose writes
// should stream are vectorized here, where the buffer's alignment and
// shape are known, and their writes become aligned non-temporal
// `vector.store`s. Softmax, which reads its output row back, first gets
// the row staged on the stack so that its final write can stream, and
// prefetches its next rows from its compute-heavy op (exp). Everything
// else is left to LLVM as before.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUSTREAMSTORESPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// Bytes of one vector register: the tile width and the alignment the
/// streamed stores claim.
static constexpr int64_t kVectorBytes = 64;

/// The 64-byte aligned `memref.alloc` that `view` is (or is a view of),
/// if every view on the way starts the innermost dim at a whole number of
/// vectors (`lanes` elements) with unit stride, and the buffer's innermost
/// dim is a whole number of vectors: then every tile of `lanes` elements
/// starts on a 64-byte boundary.
static memref::AllocOp getAlignedRoot(Value view, int64_t lanes) {
  while (auto sub = view.getDefiningOp<memref::SubViewOp>()) {
    ArrayRef<int64_t> offsets = sub.getStaticOffsets();
    ArrayRef<int64_t> strides = sub.getStaticStrides();
    if (offsets.empty() || ShapedType::isDynamic(offsets.back()) ||
        offsets.back() % lanes != 0 || strides.back() != 1)
      return nullptr;
    view = sub.getSource();
  }
  auto alloc = view.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return nullptr;
  MemRefType type = alloc.getType();
  std::optional<uint64_t> alignment = alloc.getAlignment();
  if (!alignment || *alignment % kVectorBytes != 0 ||
      !type.getLayout().isIdentity() || !type.hasStaticShape() ||
      type.getRank() == 0 || type.getShape().back() % lanes != 0)
    return nullptr;
  return alloc;
}

/// Whether `op` reads what a reduction in its block computes: the op of a
/// row group (a norm) that writes the group's result, a row at a time,
/// after the reductions over that row. Its inputs are in L1 by then, so
/// the result's memory traffic is what is left to cut. Other elementwise
/// ops (beside a reduction or not) stream only with `elementwise`: on an
/// AMD EPYC (Zen 4) with upstream's erf expansion gelu 4096x4096 f32
/// measured 5.8 ms with LLVM's loop vectorizer and 7.4 ms streamed; on an
/// Intel Emerald Rapids with our own erf, 8.6 ms and 5.5 ms (the
/// non-temporal copy of the same bytes: 5.5 ms).
static bool isInRowGroup(linalg::GenericOp op) {
  return llvm::any_of(op->getBlock()->getOperations(), [&](Operation &other) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&other);
    return linalgOp && linalgOp.getNumReductionLoops() != 0 &&
           llvm::any_of(linalgOp.getDpsInits(), [&](Value init) {
             return llvm::is_contained(op.getDpsInputs(), init);
           });
  });
}

/// Whether `alloc` leaves the function as a result: its bytes are for the
/// caller, which reads them later, when a large result is out of the
/// caches anyway. (Streaming a buffer that is read again soon would be
/// correct, only slower: a core sees its own non-temporal stores.)
static bool isReturned(memref::AllocOp alloc) {
  return llvm::any_of(alloc->getUsers(),
                      [](Operation *user) { return isa<func::ReturnOp>(user); });
}

/// Locality hint of the prefetches of the next row (prefetchNextRows):
/// 3, into L1 (prefetcht0). layer_norm 4096x4096 f32, medians of 40 runs
/// alternating in one process: 3.77 ms with prefetcht0, 3.97 with
/// prefetcht2 (locality 1), 4.89 with ordinary stores and no prefetch.
static constexpr int64_t kPrefetchLocality = 3;

/// Whether an op after `op` in its block, other than the return, uses
/// `op`'s output (softmax's exp, which its sum reads): then `op` does not
/// write the group's result, and streaming its write would send to memory
/// a row that is read back.
static bool isReadLater(linalg::GenericOp op) {
  return llvm::any_of(op.getDpsInitOperand(0)->get().getUsers(),
                      [&](Operation *user) {
                        return !isa<func::ReturnOp>(user) &&
                               user->getBlock() == op->getBlock() &&
                               op->isBeforeInBlock(user);
                      });
}

/// Lanes of one vector for `op`, if its write should stream: the result
/// of a row group, or with `elementwise` of any elementwise op.
static std::optional<int64_t>
getStreamLanes(linalg::GenericOp op, int64_t minBytes, bool elementwise) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || (!elementwise && !isInRowGroup(op)))
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isIdentity() ||
      op.payloadUsesValueFromOperand(init) || isReadLater(op))
    return std::nullopt;
  auto type = cast<MemRefType>(init->get().getType());
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t lanes = kVectorBytes * 8 / element.getIntOrFloatBitWidth();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || ShapedType::isDynamic(ranges.back()) ||
      ranges.back() % lanes != 0)
    return std::nullopt;
  memref::AllocOp root = getAlignedRoot(init->get(), lanes);
  if (!root || !isReturned(root))
    return std::nullopt;
  MemRefType rootType = root.getType();
  int64_t bytes = rootType.getNumElements() *
                  rootType.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes < minBytes)
    return std::nullopt;
  return lanes;
}

/// The buffer that `view` is a view of through rank-preserving, unit
/// stride subviews, with `indices` (into `view`) turned into indices into
/// it by adding the offsets of the views on the way; null for other views.
static Value getRootIndices(OpBuilder &b, Location loc, Value view,
                            SmallVectorImpl<Value> &indices) {
  while (auto sub = view.getDefiningOp<memref::SubViewOp>()) {
    if (sub.getSourceType().getRank() != sub.getType().getRank() ||
        !llvm::all_of(sub.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }))
      return nullptr;
    for (auto [index, offset] :
         llvm::zip_equal(indices, sub.getMixedOffsets()))
      index = arith::AddIOp::create(
          b, loc, index, getValueOrCreateConstantIndexOp(b, loc, offset));
    view = sub.getSource();
  }
  return view;
}

/// The row views of other buffers that the row group of `op` reads: the
/// inputs of the linalg ops in its block shaped like its output row, on
/// buffers of more than one row.
static SmallVector<Value> getGroupRowInputs(linalg::GenericOp op) {
  auto rowType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  SmallVector<Value> rows;
  if (rowType.getRank() < 2)
    return rows;
  int64_t rowDim = rowType.getRank() - 2;
  for (Operation &other : op->getBlock()->getOperations()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&other);
    if (!linalgOp)
      continue;
    for (Value input : linalgOp.getDpsInputs()) {
      auto type = dyn_cast<MemRefType>(input.getType());
      auto view = input.getDefiningOp<memref::SubViewOp>();
      if (!type || !view || type.getShape() != rowType.getShape() ||
          view.getSourceType().getDimSize(rowDim) == 1 ||
          llvm::is_contained(rows, input))
        continue;
      rows.push_back(input);
    }
  }
  return rows;
}

/// Prefetches, at the start of `body` (a tile starting at column
/// `tileStart` of the row), the cache line at column `tileStart + offset`
/// of the next row of each of `rows` in its buffer (the last row
/// prefetches itself). While this row is finished from the caches, the
/// next is on its way from memory for the group's first pass over it,
/// which otherwise waits for it.
static void prefetchNextRows(RewriterBase &rewriter, Block *body,
                             Value tileStart, ArrayRef<Value> rows,
                             int64_t offset = 0) {
  for (Value row : rows) {
    Location loc = row.getLoc();
    rewriter.setInsertionPointToStart(body);
    Value column = tileStart;
    if (offset)
      column = arith::AddIOp::create(
          rewriter, loc, tileStart,
          arith::ConstantIndexOp::create(rewriter, loc, offset));
    auto type = cast<MemRefType>(row.getType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(type.getRank(), zero);
    indices.back() = column;
    Value root = getRootIndices(rewriter, loc, row, indices);
    if (!root || !cast<MemRefType>(root.getType()).getLayout().isIdentity())
      continue;
    int64_t rowDim = type.getRank() - 2;
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::SubIOp::create(
        rewriter, loc, memref::DimOp::create(rewriter, loc, root, rowDim),
        one);
    Value next = arith::AddIOp::create(rewriter, loc, indices[rowDim], one);
    indices[rowDim] = arith::MinUIOp::create(rewriter, loc, next, last);
    memref::PrefetchOp::create(rewriter, loc, root, indices,
                               /*isWrite=*/false, kPrefetchLocality,
                               /*isDataCache=*/true);
  }
}

/// Replaces `write`, which covers its whole tile (the vectorizer writes a
/// static tile at indices 0 and leaves in_bounds unset), with a
/// non-temporal, 64-byte aligned `vector.store` into the tile's root
/// buffer. The store indexes the root directly because upstream's folding
/// of stores through subviews (in rlx-cpu-lower-vectors) rebuilds them
/// without their `nontemporal` and `alignment` attributes.
static LogicalResult streamWrite(RewriterBase &rewriter,
                                 vector::TransferWriteOp write) {
  VectorType type = write.getVectorType();
  auto tile = dyn_cast<MemRefType>(write.getShapedType());
  if (!tile || write.getMask() ||
      !write.getPermutationMap().isMinorIdentity() ||
      tile.getShape() != type.getShape() ||
      !llvm::all_of(write.getIndices(),
                    [](Value i) { return isZeroInteger(i); }))
    return failure();
  Location loc = write.getLoc();
  rewriter.setInsertionPoint(write);
  SmallVector<Value> indices(write.getIndices());
  Value base = getRootIndices(rewriter, loc, write.getBase(), indices);
  if (!base)
    return failure();
  auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
  Value value =
      vector::ShapeCastOp::create(rewriter, loc, flat, write.getVector());
  rewriter.replaceOpWithNewOp<vector::StoreOp>(
      write, value, base, indices, /*nontemporal=*/true,
      llvm::MaybeAlign(kVectorBytes));
  return success();
}

/// Largest row that stageReadBackRow stages on the stack.
static constexpr int64_t kMaxStagedRowBytes = 64 * 1024;

/// Softmax's row group writes exp into the output row, reads the row back
/// (its sum) and scales it in place: the output's lines are read from
/// memory before they are written (write-allocate), and the in-place
/// scaling cannot stream. When the final write would stream, this stages
/// the row instead: `op` (the exp) writes a scratch row on the stack,
/// allocated once at the function's entry, the later ops of the group read
/// it there, and the last one (the scaling) reads it and writes the output
/// row, which then streams like a norm's result. Returns that last op, or
/// null where the group is left as it was.
static linalg::GenericOp stageReadBackRow(RewriterBase &rewriter,
                                          linalg::GenericOp op,
                                          int64_t minBytes) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !isInRowGroup(op) ||
      !isReadLater(op))
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  Value row = init->get();
  auto rowType = dyn_cast<MemRefType>(row.getType());
  if (!rowType || rowType.getRank() == 0 || !rowType.hasStaticShape() ||
      op.payloadUsesValueFromOperand(init) ||
      !op.getMatchingIndexingMap(init).isIdentity())
    return nullptr;
  Type element = rowType.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return nullptr;
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  int64_t lanes = kVectorBytes / elementBytes;
  if (rowType.getNumElements() * elementBytes > kMaxStagedRowBytes ||
      rowType.getShape().back() % lanes != 0)
    return nullptr;
  // The output row is only reached through `row` (the root's one view; it
  // is otherwise only returned), and no other iteration of an enclosing
  // loop runs at the same time (the scratch row is shared).
  memref::AllocOp root = getAlignedRoot(row, lanes);
  if (!root || !isReturned(root) ||
      root.getType().getNumElements() * elementBytes < minBytes ||
      row.getDefiningOp() == nullptr ||
      llvm::any_of(root->getUsers(),
                   [&](Operation *user) {
                     return user != row.getDefiningOp() &&
                            !isa<func::ReturnOp>(user);
                   }) ||
      op->getParentOfType<scf::ForallOp>() ||
      op->getParentOfType<scf::ParallelOp>())
    return nullptr;
  // The row's later users: linalg ops of the block reading it, the last
  // one elementwise and writing it in place from its own elements.
  SmallVector<OpOperand *> reads;
  linalg::GenericOp last;
  for (OpOperand &use : row.getUses()) {
    Operation *user = use.getOwner();
    if (user == op)
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || user->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(user) || !generic.hasPureBufferSemantics())
      return nullptr;
    if (generic.isDpsInput(&use)) {
      reads.push_back(&use);
      continue;
    }
    if (last || generic.getNumDpsInits() != 1 ||
        generic.getNumReductionLoops() != 0 ||
        !generic.getMatchingIndexingMap(&use).isIdentity() ||
        !generic.payloadUsesValueFromOperand(&use))
      return nullptr;
    last = generic;
  }
  if (!last || llvm::any_of(reads, [&](OpOperand *read) {
        return read->getOwner() != last &&
               last->isBeforeInBlock(read->getOwner());
      }))
    return nullptr;

  auto func = op->getParentOfType<func::FuncOp>();
  rewriter.setInsertionPointToStart(&func.getBody().front());
  auto scratchType = MemRefType::get(rowType.getShape(), element);
  Value scratch = memref::AllocaOp::create(rewriter, op.getLoc(),
                                           scratchType,
                                           rewriter.getI64IntegerAttr(
                                               kVectorBytes));
  rewriter.modifyOpInPlace(op, [&] { init->set(scratch); });
  for (OpOperand *read : reads)
    rewriter.modifyOpInPlace(read->getOwner(), [&] { read->set(scratch); });
  // The last op reads the staged row as one more input, where it read its
  // output, and writes the output row without reading it.
  SmallVector<Value> inputs(last.getDpsInputs());
  inputs.push_back(scratch);
  SmallVector<AffineMap> maps = last.getIndexingMapsArray();
  maps.insert(maps.end() - 1, maps.back());
  rewriter.setInsertionPoint(last);
  auto staged = linalg::GenericOp::create(
      rewriter, last.getLoc(), TypeRange{}, inputs, ValueRange{row}, maps,
      last.getIteratorTypesArray());
  Block *oldBody = last.getBody();
  SmallVector<Type> argTypes(oldBody->getArgumentTypes());
  argTypes.push_back(argTypes.back());
  SmallVector<Location> argLocs(argTypes.size(), last.getLoc());
  Block *body = rewriter.createBlock(&staged.getRegion(), {}, argTypes,
                                     argLocs);
  rewriter.mergeBlocks(oldBody, body,
                       body->getArguments().drop_back());
  rewriter.eraseOp(last);
  return staged;
}

/// Cache lines of a prefetching op's output row per tile
/// (prefetchFromTiles): four lines, so that the tile's loop, which LLVM
/// vectorizes, runs four vectors between prefetches. Softmax 4096x4096
/// f32 (C driver, the variants alternating in one process, medians): no
/// prefetch 5.22 ms, four lines 4.71 (200 runs each); one line a tile 6.0
/// against 5.2 without (30 runs: the tile loop's overhead every vector).
static constexpr int64_t kPrefetchTileLines = 4;

/// Whether `op` should prefetch the next rows of its row group although
/// its write does not stream: softmax's exp, which writes the output row
/// (or the row staged for it) that the group's sum and scaling read back.
/// It is the group's long
/// compute pass, during which memory is otherwise idle, while the group's
/// first pass over the next row (its max) waits for memory. Like a
/// streamed op: an elementwise `linalg.generic` on buffers in a row group,
/// one output, whose root buffer holds at least `minBytes` (a smaller one
/// stays in the caches), with rows that are whole tiles.
static bool isPrefetchOnly(linalg::GenericOp op, int64_t minBytes) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !isInRowGroup(op) ||
      !isReadLater(op))
    return false;
  Value root = op.getDpsInitOperand(0)->get();
  while (auto sub = root.getDefiningOp<memref::SubViewOp>())
    root = sub.getSource();
  auto rootType = cast<MemRefType>(root.getType());
  Type element = rootType.getElementType();
  if (!rootType.hasStaticShape() || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0 ||
      rootType.getNumElements() * element.getIntOrFloatBitWidth() / 8 <
          minBytes)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t lanes = kVectorBytes * 8 / element.getIntOrFloatBitWidth();
  return ranges.size() >= 2 && !ShapedType::isDynamic(ranges.back()) &&
         ranges.back() % (lanes * kPrefetchTileLines) == 0;
}

/// Tiles `op` to `size` along its innermost loop and a single iteration of
/// every other loop, in place of `op`.
static FailureOr<linalg::TiledLinalgOp>
tileInnermost(RewriterBase &rewriter, linalg::GenericOp op, int64_t size) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes.back() = size;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(
      rewriter, op, linalg::LinalgTilingOptions().setTileSizes(sizes));
  if (succeeded(tiled))
    rewriter.eraseOp(op);
  return tiled;
}

/// Tiles `op` to kPrefetchTileLines cache lines of its output along its
/// innermost loop, each tile starting with a prefetch of each line of the
/// next row of every row its group reads. The tile stays a linalg op,
/// which LLVM's loop vectorizer compiles as before (linalg::vectorize's
/// code for exp is slower).
static void prefetchFromTiles(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<Value> rows = getGroupRowInputs(op);
  if (rows.empty())
    return;
  auto type = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  int64_t lanes = kVectorBytes * 8 / type.getElementTypeBitWidth();
  FailureOr<linalg::TiledLinalgOp> tiled =
      tileInnermost(rewriter, op, lanes * kPrefetchTileLines);
  if (failed(tiled))
    return;
  Value tileStart = tiled->loops.back()->getRegion(0).getArgument(0);
  for (int64_t line = kPrefetchTileLines - 1; line >= 0; --line)
    prefetchNextRows(rewriter, tiled->op->getBlock(), tileStart, rows,
                     line * lanes);
}

namespace {
struct CPUStreamStoresPass
    : rlx::impl::CPUStreamStoresPassBase<CPUStreamStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // A staged group prefetches from the op that writes the staged row
    // (its long compute pass), not from its streamed last op.
    llvm::SmallPtrSet<Operation *, 4> stagedWriters, stagedLast;
    if (stageRows) {
      SmallVector<linalg::GenericOp> readBack;
      getOperation().walk([&](linalg::GenericOp op) {
        if (isReadLater(op))
          readBack.push_back(op);
      });
      for (linalg::GenericOp op : readBack)
        if (linalg::GenericOp last = stageReadBackRow(rewriter, op, minBytes)) {
          stagedWriters.insert(op);
          stagedLast.insert(last);
        }
    }
    SmallVector<std::pair<linalg::GenericOp, int64_t>> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<int64_t> lanes =
              getStreamLanes(op, minBytes, elementwise))
        candidates.push_back({op, *lanes});
    });
    bool streamed = false;
    for (auto [op, lanes] : candidates) {
      SmallVector<Value> rows;
      if (prefetch && !stagedLast.contains(op))
        rows = getGroupRowInputs(op);
      // One tile is one vector along the innermost loop.
      FailureOr<linalg::TiledLinalgOp> tiled =
          tileInnermost(rewriter, op, lanes);
      if (failed(tiled))
        continue;
      Operation *tile = tiled->op;
      Block *body = tile->getBlock();
      if (failed(linalg::vectorize(rewriter, tile)))
        continue;
      rewriter.eraseOp(tile);
      SmallVector<vector::TransferWriteOp> writes;
      body->walk([&](vector::TransferWriteOp w) { writes.push_back(w); });
      for (vector::TransferWriteOp write : writes)
        streamed |= succeeded(streamWrite(rewriter, write));
      prefetchNextRows(rewriter, body,
                       tiled->loops.back()->getRegion(0).getArgument(0), rows);
    }
    if (prefetch) {
      SmallVector<linalg::GenericOp> prefetching;
      // A staged row is on the stack: the size that counts is the
      // group's result's, which staging checked.
      getOperation().walk([&](linalg::GenericOp op) {
        if (isPrefetchOnly(op, stagedWriters.contains(op) ? 0 : minBytes))
          prefetching.push_back(op);
      });
      for (linalg::GenericOp op : prefetching)
        prefetchFromTiles(rewriter, op);
    }
    if (!streamed)
      return;
    // Streamed stores are weakly ordered: x86's total store order does not
    // cover them, so a caller that hands the result to another thread
    // with a release store (a plain store on x86) could publish it before
    // the streamed bytes are visible. A store fence before each return
    // orders them first; once per call, it costs nothing next to the
    // megabytes just written. On x86 that is sfence: LLVM emits a
    // sequentially consistent fence as `lock or`, which the architecture
    // does not promise to order non-temporal stores with.
    bool x86 = llvm::Triple(llvm::sys::getProcessTriple()).isX86();
    getOperation().walk([&](func::ReturnOp ret) {
      rewriter.setInsertionPoint(ret);
      if (x86)
        LLVM::CallIntrinsicOp::create(
            rewriter, ret.getLoc(),
            rewriter.getStringAttr("llvm.x86.sse.sfence"), ValueRange{});
      else
        LLVM::FenceOp::create(rewriter, ret.getLoc(),
                              LLVM::AtomicOrdering::seq_cst);
    });
  }
};
} // namespace
