//===- GPUTileMatmul.cpp - matmuls tiled through workgroup memory ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-gpu-tile-matmul, the GPU front's schedule for matmuls where no library
// computes them: one workgroup per output block, a register tile of sums per
// thread, the reduction staged through workgroup memory (the classic shared
// memory SGEMM). rlx-gpu-map-linalg gives a matmul a subgroup per output
// (its row-reduction schedule, k being the row) or a thread per output,
// each reading its whole row of A and column of B from global memory; here
// each element loaded into workgroup memory serves tile-n (or tile-m)
// products and each value a thread reads from there serves thread-n (or
// thread-m) of its sums.
//
// Upstream's linalg tiling + promoteSubViews would stage the same blocks,
// but through memref.subview/memref.copy into workgroup buffers and
// scf.forall thread mappings, which the Vulkan path cannot take: its
// workgroup memory admits only loads and stores (rlx-vulkan-workgroup-allocs)
// and the copies would need their own thread distribution and edge masking.
// Written out here, the staging loads are coalesced along each operand's
// contiguous dim, converted to the accumulator type once, and masked only
// along the dims a tile does not divide.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUTILEMATMULPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// Vulkan guarantees 65535 workgroups along each grid dim
/// (maxComputeWorkGroupCount); CUDA's y and z have the same limit.
constexpr int64_t kMaxGrid = 65535;

struct Tiles {
  int64_t m, n, k, threadM, threadN;
  int64_t threadsM() const { return m / threadM; }
  int64_t threadsN() const { return n / threadN; }
  int64_t threads() const { return threadsM() * threadsN(); }
};

/// A matmul generic: loops [batch..., m, n, k], and how each operand's
/// element becomes the accumulator type (its arith.extf, or none).
struct Matmul {
  linalg::GenericOp op;
  SmallVector<int64_t> ranges;
  Type acc;
  bool extA = false, extB = false;
  unsigned dimM() const { return ranges.size() - 3; }
  unsigned dimN() const { return ranges.size() - 2; }
  unsigned dimK() const { return ranges.size() - 1; }
};

/// True if every result of `map` is a loop dim or the constant 0 (a
/// broadcast dim of size 1), `wanted` among them and `unwanted` not.
bool readsDims(AffineMap map, ArrayRef<unsigned> wanted, unsigned unwanted) {
  for (AffineExpr e : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() != 0)
        return false;
      continue;
    }
    if (!isa<AffineDimExpr>(e))
      return false;
  }
  auto reads = [&](unsigned d) {
    return map.isFunctionOfDim(d);
  };
  return llvm::all_of(wanted, reads) && !reads(unwanted);
}

/// `v` is the block argument `arg`, directly or through an arith.extf to
/// `acc`; sets `ext` to say which.
bool isOperand(Value v, BlockArgument arg, Type acc, bool &ext) {
  if (v == arg) {
    ext = false;
    return arg.getType() == acc;
  }
  auto extf = v.getDefiningOp<arith::ExtFOp>();
  ext = true;
  return extf && extf.getIn() == arg && extf.getType() == acc;
}

/// Matches C[batch, m, n] += ext(A[..m..k..]) * ext(B[..k..n..]) on static,
/// non-empty buffers with an f32 or f64 accumulator.
std::optional<Matmul> matchMatmul(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 3 ||
      op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray().back()))
    return std::nullopt;
  Matmul mm{op, op.getStaticLoopRanges()};
  if (llvm::any_of(mm.ranges, [](int64_t r) {
        return ShapedType::isDynamic(r) || r == 0;
      }))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned loops = mm.ranges.size();
  if (maps[2] != AffineMap::getMultiDimIdentityMap(loops, op.getContext())
                     .getMajorSubMap(loops - 1) ||
      !readsDims(maps[0], {mm.dimM(), mm.dimK()}, mm.dimN()) ||
      !readsDims(maps[1], {mm.dimK(), mm.dimN()}, mm.dimM()))
    return std::nullopt;
  for (Value buffer : op->getOperands())
    if (!cast<MemRefType>(buffer.getType()).hasStaticShape())
      return std::nullopt;

  // The body: out + ext(a) * ext(b), either operand order.
  Block *body = op.getBlock();
  // 16-bit accumulators (not what rlx.matmul lowers to) would need 16-bit
  // workgroup memory, which the Vulkan path does not lower for bf16.
  mm.acc = body->getArgument(2).getType();
  if (!(mm.acc.isF32() || mm.acc.isF64()) ||
      body->getOperations().size() > 5)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  Value product = add.getRhs();
  if (add.getLhs() != body->getArgument(2))
    product = add.getRhs() == body->getArgument(2) ? add.getLhs() : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return std::nullopt;
  BlockArgument a = body->getArgument(0), b = body->getArgument(1);
  if (isOperand(mul.getLhs(), a, mm.acc, mm.extA) &&
      isOperand(mul.getRhs(), b, mm.acc, mm.extB))
    return mm;
  if (isOperand(mul.getRhs(), a, mm.acc, mm.extA) &&
      isOperand(mul.getLhs(), b, mm.acc, mm.extB))
    return mm;
  return std::nullopt;
}

/// The tiles' checks that do not depend on an op.
LogicalResult checkTiles(func::FuncOp func, const Tiles &t,
                         int64_t maxThreads) {
  auto bad = [&]() { return func.emitError() << "rlx-gpu-tile-matmul: "; };
  if (t.m < 1 || t.n < 1 || t.k < 1 || t.threadM < 1 || t.threadN < 1)
    return bad() << "tile sizes must be positive";
  if (t.m % t.threadM || t.n % t.threadN)
    return bad() << "thread-m " << t.threadM << " / thread-n " << t.threadN
                 << " do not divide tile-m " << t.m << " / tile-n " << t.n;
  if (t.threads() > maxThreads)
    return bad() << t.threads() << " threads per block exceed the target's "
                 << "max-threads-per-block " << maxThreads;
  if ((t.m * t.k) % t.threads() || (t.k * t.n) % t.threads())
    return bad() << "the " << t.threads() << " threads do not divide the "
                 << t.m << " x " << t.k << " and " << t.k << " x " << t.n
                 << " blocks they stage";
  return success();
}

/// How one operand's block (`rows` x `tile-k`, rows being m for A and n
/// for B) is staged: where it lies in workgroup memory ([k][row], rows
/// padded) and which of row and k consecutive threads walk.
struct Staging {
  Value buffer, shared;
  AffineMap map;
  unsigned dimRow;
  int64_t rows, range, stride;
  bool ext, kContiguous, guardRow, guardK;
};

Value cst(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

Value inRange(ImplicitLocOpBuilder &b, Value v, int64_t bound) {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, v, cst(b, bound));
}

/// The operand's indices at loop point `ivs` (dims or the constant 0).
SmallVector<Value> indices(ImplicitLocOpBuilder &b, AffineMap map,
                           ArrayRef<Value> ivs) {
  SmallVector<Value> result;
  for (AffineExpr e : map.getResults())
    result.push_back(isa<AffineDimExpr>(e)
                         ? ivs[cast<AffineDimExpr>(e).getPosition()]
                         : cst(b, 0));
  return result;
}

/// One element of a thread's share of a staged block: its row and k within
/// the block, and its index in workgroup memory ([k][row]).
struct Slot {
  Value row, k, at;
};

/// This thread's share of a staged block: element e = tid + r * threads of
/// the block for each r.
SmallVector<Slot> shareOf(ImplicitLocOpBuilder &b, const Staging &s,
                          Value tid, int64_t threads, int64_t tileK) {
  int64_t fast = s.kContiguous ? tileK : s.rows;
  SmallVector<Slot> share;
  for (int64_t r = 0; r < s.rows * tileK / threads; ++r) {
    Value e = arith::AddIOp::create(b, tid, cst(b, r * threads));
    Value lo = arith::RemUIOp::create(b, e, cst(b, fast));
    Value hi = arith::DivUIOp::create(b, e, cst(b, fast));
    Value row = s.kContiguous ? hi : lo, k = s.kContiguous ? lo : hi;
    Value at = arith::AddIOp::create(
        b, arith::MulIOp::create(b, k, cst(b, s.stride)), row);
    share.push_back({row, k, at});
  }
  return share;
}

/// Loads this thread's share of the block at (row0, k0) in the accumulator
/// type, zero where it lies beyond the operand.
SmallVector<Value> loadShare(ImplicitLocOpBuilder &b, const Staging &s,
                             const Matmul &mm, SmallVector<Value> ivs,
                             ArrayRef<Slot> share, Value row0, Value k0) {
  SmallVector<Value> values;
  for (const Slot &slot : share) {
    ivs[s.dimRow] = arith::AddIOp::create(b, row0, slot.row);
    ivs[mm.dimK()] = arith::AddIOp::create(b, k0, slot.k);
    auto load = [&](ImplicitLocOpBuilder &b) -> Value {
      Value v = memref::LoadOp::create(b, s.buffer, indices(b, s.map, ivs));
      return s.ext ? arith::ExtFOp::create(b, mm.acc, v) : v;
    };
    Value guard;
    auto both = [&](Value c) {
      guard = guard ? arith::AndIOp::create(b, guard, c) : c;
    };
    if (s.guardRow)
      both(inRange(b, ivs[s.dimRow], s.range));
    if (s.guardK)
      both(inRange(b, ivs[mm.dimK()], mm.ranges[mm.dimK()]));
    if (!guard) {
      values.push_back(load(b));
      continue;
    }
    auto ifOp = scf::IfOp::create(b, mm.acc, guard, /*withElse=*/true);
    ImplicitLocOpBuilder then(b.getLoc(), ifOp.thenBlock(),
                              ifOp.thenBlock()->begin());
    scf::YieldOp::create(then, load(then));
    ImplicitLocOpBuilder other(b.getLoc(), ifOp.elseBlock(),
                               ifOp.elseBlock()->begin());
    scf::YieldOp::create(
        other, arith::ConstantOp::create(other, b.getFloatAttr(mm.acc, 0.0))
                   .getResult());
    values.push_back(ifOp.getResult(0));
  }
  return values;
}

/// Stores a share that loadShare loaded into `s.shared`.
void storeShare(ImplicitLocOpBuilder &b, const Staging &s,
                ArrayRef<Slot> share, ValueRange values) {
  for (auto [slot, value] : llvm::zip(share, values))
    memref::StoreOp::create(b, value, s.shared, slot.at);
}

/// Rows of a [k][row] block padded so that threads walking k store to
/// distinct banks (32 banks of 4 bytes): 32 / tile-k words.
int64_t paddedRows(int64_t rows, int64_t tileK, bool kContiguous) {
  return rows + (kContiguous ? std::max<int64_t>(1, 32 / tileK) : 0);
}

/// Emits the gpu.launch computing `mm` before it (the caller erases it), or
/// fails, emitting nothing, where its grid is too large.
LogicalResult emitTiledMatmul(ImplicitLocOpBuilder &b, const Matmul &mm,
                              const Tiles &t) {
  linalg::GenericOp op = mm.op;
  int64_t sizeM = mm.ranges[mm.dimM()], sizeN = mm.ranges[mm.dimN()],
          sizeK = mm.ranges[mm.dimK()];
  int64_t batch = 1;
  for (unsigned d = 0; d < mm.dimM(); ++d)
    batch *= mm.ranges[d];
  int64_t gridX = llvm::divideCeil(sizeN, t.n),
          gridY = llvm::divideCeil(sizeM, t.m);
  if (gridX > kMaxGrid || gridY > kMaxGrid || batch > kMaxGrid)
    return failure();

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // An operand is walked along k by consecutive threads where k is its
  // last, contiguous dim.
  auto lastIsK = [&](AffineMap map) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
    return dim && dim.getPosition() == mm.dimK();
  };
  Staging sa{op.getDpsInputs()[0], {}, maps[0], mm.dimM(), t.m, sizeM, 0,
             mm.extA, lastIsK(maps[0]), sizeM % t.m != 0, sizeK % t.k != 0};
  Staging sb{op.getDpsInputs()[1], {}, maps[1], mm.dimN(), t.n, sizeN, 0,
             mm.extB, lastIsK(maps[1]), sizeN % t.n != 0, sizeK % t.k != 0};
  sa.stride = paddedRows(t.m, t.k, sa.kContiguous);
  sb.stride = paddedRows(t.n, t.k, sb.kContiguous);
  auto workgroup = gpu::AddressSpaceAttr::get(op.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Type sharedTypes[] = {
      MemRefType::get({t.k * sa.stride}, mm.acc, AffineMap(), workgroup),
      MemRefType::get({t.k * sb.stride}, mm.acc, AffineMap(), workgroup)};

  b.setInsertionPoint(op);
  Value one = cst(b, 1);
  auto launch = gpu::LaunchOp::create(
      b, cst(b, gridX), cst(b, gridY), cst(b, batch), cst(b, t.threads()), one,
      one, /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      ValueRange{}, sharedTypes);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(b);
  b.setInsertionPointToStart(&body);
  sa.shared = launch.getWorkgroupAttributions()[0];
  sb.shared = launch.getWorkgroupAttributions()[1];

  Value tid = launch.getThreadIds().x;
  Value threadRow = arith::DivUIOp::create(b, tid, cst(b, t.threadsN()));
  Value threadCol = arith::RemUIOp::create(b, tid, cst(b, t.threadsN()));
  Value row0 = arith::MulIOp::create(b, launch.getBlockIds().y, cst(b, t.m));
  Value col0 = arith::MulIOp::create(b, launch.getBlockIds().x, cst(b, t.n));
  // The batch ivs from block z, row-major; m, n and k are set per access.
  SmallVector<Value> ivs(mm.ranges.size(), cst(b, 0));
  Value z = launch.getBlockIds().z;
  for (int64_t d = int64_t(mm.dimM()) - 1; d >= 0; --d) {
    ivs[d] = d == 0 ? z : arith::RemUIOp::create(b, z, cst(b, mm.ranges[d]));
    if (d > 0)
      z = arith::DivUIOp::create(b, z, cst(b, mm.ranges[d]));
  }

  // The loop carries the sums and the next step's share of A and B, loaded
  // into registers while the current step's products run (the loads'
  // latency hides behind them).
  auto shareA = shareOf(b, sa, tid, t.threads(), t.k);
  auto shareB = shareOf(b, sb, tid, t.threads(), t.k);
  Value zero = arith::ConstantOp::create(b, b.getFloatAttr(mm.acc, 0.0));
  SmallVector<Value> init(t.threadM * t.threadN, zero);
  int64_t numSums = init.size(), numA = shareA.size();
  llvm::append_range(init, loadShare(b, sa, mm, ivs, shareA, row0, cst(b, 0)));
  llvm::append_range(init, loadShare(b, sb, mm, ivs, shareB, col0, cst(b, 0)));
  auto loop = scf::ForOp::create(b, cst(b, 0), cst(b, sizeK), cst(b, t.k),
                                 init);
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = loop.getInductionVar();
  ValueRange carried = loop.getRegionIterArgs();
  storeShare(b, sa, shareA, carried.slice(numSums, numA));
  storeShare(b, sb, shareB, carried.drop_front(numSums + numA));
  gpu::BarrierOp::create(b);
  Value nextK0 = arith::AddIOp::create(b, k0, cst(b, t.k));
  SmallVector<Type> shareTypes(carried.size() - numSums, mm.acc);
  auto prefetch = scf::IfOp::create(b, shareTypes, inRange(b, nextK0, sizeK),
                                    /*withElse=*/true);
  {
    ImplicitLocOpBuilder then(b.getLoc(), prefetch.thenBlock(),
                              prefetch.thenBlock()->begin());
    SmallVector<Value> next =
        loadShare(then, sa, mm, ivs, shareA, row0, nextK0);
    llvm::append_range(next,
                       loadShare(then, sb, mm, ivs, shareB, col0, nextK0));
    scf::YieldOp::create(then, next);
    ImplicitLocOpBuilder other(b.getLoc(), prefetch.elseBlock(),
                               prefetch.elseBlock()->begin());
    scf::YieldOp::create(other, SmallVector<Value>(shareTypes.size(), zero));
  }
  SmallVector<Value> sums(carried.take_front(numSums));
  for (int64_t kk = 0; kk < t.k; ++kk) {
    SmallVector<Value> as, bs;
    for (int64_t i = 0; i < t.threadM; ++i)
      as.push_back(memref::LoadOp::create(
          b, sa.shared,
          ValueRange{arith::AddIOp::create(
              b, threadRow, cst(b, kk * sa.stride + i * t.threadsM()))}));
    for (int64_t j = 0; j < t.threadN; ++j)
      bs.push_back(memref::LoadOp::create(
          b, sb.shared,
          ValueRange{arith::AddIOp::create(
              b, threadCol, cst(b, kk * sb.stride + j * t.threadsN()))}));
    for (int64_t i = 0; i < t.threadM; ++i)
      for (int64_t j = 0; j < t.threadN; ++j) {
        Value &sum = sums[i * t.threadN + j];
        sum = arith::AddFOp::create(b, sum,
                                    arith::MulFOp::create(b, as[i], bs[j]));
      }
  }
  // The next step's staging overwrites what this one read.
  gpu::BarrierOp::create(b);
  llvm::append_range(sums, prefetch.getResults());
  scf::YieldOp::create(b, sums);

  b.setInsertionPointAfter(loop);
  Value out = op.getDpsInits()[0];
  for (int64_t i = 0; i < t.threadM; ++i)
    for (int64_t j = 0; j < t.threadN; ++j) {
      ivs[mm.dimM()] = arith::AddIOp::create(
          b, row0, arith::AddIOp::create(b, threadRow, cst(b, i * t.threadsM())));
      ivs[mm.dimN()] = arith::AddIOp::create(
          b, col0, arith::AddIOp::create(b, threadCol, cst(b, j * t.threadsN())));
      SmallVector<Value> at(ivs.begin(), ivs.end() - 1);
      Value guard;
      if (sizeM % t.m)
        guard = inRange(b, at[mm.dimM()], sizeM);
      if (sizeN % t.n) {
        Value c = inRange(b, at[mm.dimN()], sizeN);
        guard = guard ? arith::AndIOp::create(b, guard, c) : c;
      }
      OpBuilder::InsertionGuard restore(b);
      if (guard) {
        auto ifOp = scf::IfOp::create(b, guard, /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
      }
      Value old = memref::LoadOp::create(b, out, at);
      Value sum = arith::AddFOp::create(b, old,
                                        loop.getResult(i * t.threadN + j));
      memref::StoreOp::create(b, sum, out, at);
    }
  return success();
}

struct GPUTileMatmulPass
    : rlx::impl::GPUTileMatmulPassBase<GPUTileMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    Tiles tiles{tileM, tileN, tileK, threadM, threadN};
    if (failed(checkTiles(func, tiles, maxThreadsPerBlock)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    // Named contractions are matched in their generic form, as
    // rlx-gpu-map-linalg would generalize them.
    SmallVector<linalg::LinalgOp> named;
    func.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) && linalg::isaContractionOpInterface(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<Matmul> matmuls;
    func.walk([&](linalg::GenericOp op) {
      if (std::optional<Matmul> mm = matchMatmul(op))
        matmuls.push_back(*mm);
    });
    for (Matmul &mm : matmuls) {
      int64_t bytes = (paddedRows(tiles.m, tiles.k, true) +
                       paddedRows(tiles.n, tiles.k, true)) *
                      tiles.k * mm.acc.getIntOrFloatBitWidth() / 8;
      if (bytes > sharedMemoryBytes) {
        mm.op->emitError() << "rlx-gpu-tile-matmul: the tiles need " << bytes
                           << " bytes of workgroup memory, more than the "
                           << "target's shared-memory-bytes "
                           << int64_t(sharedMemoryBytes);
        return signalPassFailure();
      }
      ImplicitLocOpBuilder b(mm.op.getLoc(), mm.op);
      if (succeeded(emitTiledMatmul(b, mm, tiles)))
        rewriter.eraseOp(mm.op);
    }
  }
};

} // namespace
