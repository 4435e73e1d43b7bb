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
// scf.forall thread mappings, which not every target's kernel lowering
// takes (the Vulkan one admits only loads and stores of workgroup memory,
// rlx-vulkan-workgroup-allocs), and the copies would need their own thread
// distribution and edge masking.
// Written out here, the staging loads are coalesced along each operand's
// contiguous dim, converted to the accumulator type once, and masked only
// along the dims a tile does not divide.
//
// Where the target offers cooperative matrices (`cooperative-matrix`),
// 16-bit matmuls take the same k loop and staging (in f16) but compute
// per subgroup on 16 x 16 x 16 fragments: gpu.subgroup_mma_load_matrix
// from the staged blocks and gpu.subgroup_mma_compute, which upstream's
// convert-gpu-to-spirv lowers to SPV_KHR_cooperative_matrix.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "RLX/Conversion/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUTILEMATMULPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx::kernels;

namespace {

/// The most blocks a grid may have along x, y and z on the target
/// (`max-grid-x`, `-y`, `-z`: its description's maxGridSize).
using GridLimits = std::array<int64_t, 3>;

struct Tiles {
  int64_t m, n, k, threadM, threadN;
  int64_t threadsM() const { return m / threadM; }
  int64_t threadsN() const { return n / threadN; }
  int64_t threads() const { return threadsM() * threadsN(); }
};

/// A matmul generic: loops [batch..., m, n, k] and its accumulator type.
struct Matmul {
  linalg::GenericOp op;
  SmallVector<int64_t> ranges;
  Type acc;
  Value input(unsigned i) const { return op->getOperand(i); }
  Value output() const { return op->getOperand(2); }
  AffineMap map(unsigned i) const {
    linalg::GenericOp generic = op;
    return generic.getIndexingMapsArray()[i];
  }
  unsigned dimM() const { return ranges.size() - 3; }
  unsigned dimN() const { return ranges.size() - 2; }
  unsigned dimK() const { return ranges.size() - 1; }
};

/// True if every result of `map` is a loop dim or the constant 0 (a
/// broadcast dim of size 1).
bool readsDimsOrZeros(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return c.getValue() == 0;
    return isa<AffineDimExpr>(e);
  });
}

/// True if `map` reads dims or zeros, `wanted` among the dims and
/// `unwanted` not.
bool readsDims(AffineMap map, ArrayRef<unsigned> wanted, unsigned unwanted) {
  auto reads = [&](unsigned d) { return map.isFunctionOfDim(d); };
  return readsDimsOrZeros(map) && llvm::all_of(wanted, reads) &&
         !reads(unwanted);
}

/// `v` is the block argument `arg`, directly or through an arith.extf to
/// `acc`.
bool isOperand(Value v, BlockArgument arg, Type acc) {
  if (v == arg)
    return arg.getType() == acc;
  auto extf = v.getDefiningOp<arith::ExtFOp>();
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
  // workgroup memory, which not every target lowers for bf16 (Vulkan's
  // does not).
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
  if (isOperand(mul.getLhs(), a, mm.acc) && isOperand(mul.getRhs(), b, mm.acc))
    return mm;
  if (isOperand(mul.getRhs(), a, mm.acc) && isOperand(mul.getLhs(), b, mm.acc))
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
/// for B) is staged: where it lies in workgroup memory (`[k][row]`, or
/// `[row][k]` where `kInner`, rows padded to `stride`), in which element
/// type, which of row and k consecutive threads walk, and how many
/// consecutive elements along it each of them loads at once (`lanes`).
struct Staging {
  Value buffer, shared;
  AffineMap map;
  unsigned dimRow;
  int64_t rows, range, stride, lanes;
  Type type;
  bool kContiguous, kInner, guardRow, guardK;
  /// Whether the block holds pairs of (bf16) elements as 32-bit words: the
  /// cooperative schedule's bf16 fragments (see emitCooperativeMatmul).
  bool pairs;
  /// Whether a load's lanes are loaded one by one (pairs of an operand
  /// that vector loads do not fit) rather than as one vector.
  bool gather;
  /// The type of a thread's load: `lanes` elements of `type`, or as pairs
  /// `lanes / 2` words.
  Type valueType() const {
    if (pairs)
      return VectorType::get({lanes / 2},
                             IntegerType::get(type.getContext(), 32));
    return lanes > 1 ? VectorType::get({lanes}, type) : type;
  }
  /// The elements of the block one element of `shared` holds (2 as pairs):
  /// its indices and strides are in them.
  int64_t perElement() const { return pairs ? 2 : 1; }
  /// The element type of `shared`.
  Type blockType() const {
    return pairs ? IntegerType::get(type.getContext(), 32) : type;
  }
};

/// The staging of operand `operand` (0: A, 1: B) of `mm` in `type`, as
/// `[k][row]` blocks; the caller sets the stride and layout.
Staging stagingOf(const Matmul &mm, unsigned operand, int64_t rows,
                  int64_t tileK, Type type) {
  AffineMap map = mm.map(operand);
  unsigned dimRow = operand == 0 ? mm.dimM() : mm.dimN();
  int64_t range = mm.ranges[dimRow], sizeK = mm.ranges[mm.dimK()];
  // An operand is walked along k by consecutive threads where k is its
  // last, contiguous dim.
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  bool kContiguous = last && last.getPosition() == mm.dimK();
  Staging s;
  s.buffer = mm.input(operand);
  s.map = map;
  s.dimRow = dimRow;
  s.rows = rows;
  s.range = range;
  s.stride = 0;
  s.lanes = 1;
  s.type = type;
  s.kContiguous = kContiguous;
  s.kInner = false;
  s.pairs = false;
  s.gather = false;
  s.guardRow = range % rows != 0;
  s.guardK = sizeK % tileK != 0;
  return s;
}

/// Moves `b` into an scf.if that keeps the output element at `at` (indexed
/// by `mm`'s dims) inside C along each dim that output blocks of `tileM` x
/// `tileN` do not divide; leaves `b` where it is when they divide both.
/// Callers restore the insertion point after the element's store.
void guardOutputElement(ImplicitLocOpBuilder &b, const Matmul &mm,
                        ArrayRef<Value> at, int64_t tileM, int64_t tileN) {
  int64_t sizeM = mm.ranges[mm.dimM()], sizeN = mm.ranges[mm.dimN()];
  Value guard;
  if (sizeM % tileM)
    guard = inRange(b, at[mm.dimM()], sizeM);
  if (sizeN % tileN) {
    Value c = inRange(b, at[mm.dimN()], sizeN);
    guard = guard ? arith::AndIOp::create(b, guard, c) : c;
  }
  if (!guard)
    return;
  auto ifOp = scf::IfOp::create(b, guard, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifOp.thenBlock());
}

/// `v` (a float or a vector of floats) converted to the float type `type`
/// elementwise: extended, rounded, or, from bf16 to f16 (same width, which
/// arith.extf and arith.truncf do not take), extended to f32 and rounded.
Value convertTo(ImplicitLocOpBuilder &b, Value v, Type type) {
  Type from = getElementTypeOrSelf(v.getType());
  unsigned fromBits = from.getIntOrFloatBitWidth(),
           toBits = type.getIntOrFloatBitWidth();
  if (from == type)
    return v;
  auto like = [&](Type element) -> Type {
    if (auto vector = dyn_cast<VectorType>(v.getType()))
      return vector.clone(element);
    return element;
  };
  if (fromBits < toBits)
    return arith::ExtFOp::create(b, like(type), v);
  if (fromBits == toBits)
    v = arith::ExtFOp::create(b, like(b.getF32Type()), v);
  return arith::TruncFOp::create(b, like(type), v);
}

/// The operand's indices at loop point `ivs` (dims or the constant 0).
SmallVector<Value> indices(ImplicitLocOpBuilder &b, AffineMap map,
                           ArrayRef<Value> ivs) {
  SmallVector<Value> result;
  for (AffineExpr e : map.getResults())
    result.push_back(isa<AffineDimExpr>(e)
                         ? ivs[cast<AffineDimExpr>(e).getPosition()]
                         : indexConstant(b, 0));
  return result;
}

/// One element of a thread's share of a staged block: its row and k within
/// the block, and its index in workgroup memory.
struct Slot {
  Value row, k, at;
};

/// This thread's share of a staged block: load e = tid + r * threads of
/// the block for each r, each of `s.lanes` consecutive elements along the
/// dim consecutive threads walk.
SmallVector<Slot> shareOf(ImplicitLocOpBuilder &b, const Staging &s,
                          Value tid, int64_t threads, int64_t tileK) {
  int64_t fast = (s.kContiguous ? tileK : s.rows) / s.lanes;
  SmallVector<Slot> share;
  for (int64_t r = 0; r < s.rows * tileK / s.lanes / threads; ++r) {
    Value e = arith::AddIOp::create(b, tid, indexConstant(b, r * threads));
    Value lanes = indexConstant(b, s.lanes);
    Value lo = arith::MulIOp::create(
        b, arith::RemUIOp::create(b, e, indexConstant(b, fast)), lanes);
    Value hi = arith::DivUIOp::create(b, e, indexConstant(b, fast));
    Value row = s.kContiguous ? hi : lo, k = s.kContiguous ? lo : hi;
    Value major = s.kInner ? row : k, minor = s.kInner ? k : row;
    Value at = arith::AddIOp::create(
        b, arith::MulIOp::create(b, major, indexConstant(b, s.stride)), minor);
    share.push_back({row, k, at});
  }
  return share;
}

/// What `load` loads (a `type`) at loop point `ivs` where that lies inside
/// the operand staged by `s` along the dims it may leave, else zero.
Value loadInRange(ImplicitLocOpBuilder &b, const Staging &s, const Matmul &mm,
                  ArrayRef<Value> ivs, Type type,
                  function_ref<Value(ImplicitLocOpBuilder &)> load) {
  Value guard;
  auto both = [&](Value c) {
    guard = guard ? arith::AndIOp::create(b, guard, c) : c;
  };
  if (s.guardRow)
    both(inRange(b, ivs[s.dimRow], s.range));
  if (s.guardK)
    both(inRange(b, ivs[mm.dimK()], mm.ranges[mm.dimK()]));
  if (!guard)
    return load(b);
  auto ifOp = scf::IfOp::create(b, type, guard, /*withElse=*/true);
  ImplicitLocOpBuilder then(b.getLoc(), ifOp.thenBlock(),
                            ifOp.thenBlock()->begin());
  scf::YieldOp::create(then, load(then));
  ImplicitLocOpBuilder other(b.getLoc(), ifOp.elseBlock(),
                             ifOp.elseBlock()->begin());
  scf::YieldOp::create(other, zeroOf(other, type));
  return ifOp.getResult(0);
}

/// Loads this thread's share of the block at (row0, k0) in the staged type,
/// zero where it lies beyond the operand: each of its loads as one vector
/// of `s.lanes`, or where `s.gather`, lane by lane (each under its own
/// guard) into one vector.
SmallVector<Value> loadShare(ImplicitLocOpBuilder &b, const Staging &s,
                             const Matmul &mm, SmallVector<Value> ivs,
                             ArrayRef<Slot> share, Value row0, Value k0) {
  Type elementType = getElementTypeOrSelf(s.buffer.getType());
  auto asStaged = [&](ImplicitLocOpBuilder &b, Value v) -> Value {
    v = convertTo(b, v, s.type);
    return s.pairs ? vector::BitCastOp::create(b, s.valueType(), v) : v;
  };
  SmallVector<Value> values;
  for (const Slot &slot : share) {
    ivs[s.dimRow] = arith::AddIOp::create(b, row0, slot.row);
    ivs[mm.dimK()] = arith::AddIOp::create(b, k0, slot.k);
    if (s.gather) {
      unsigned fast = s.kContiguous ? mm.dimK() : s.dimRow;
      SmallVector<Value> lanes;
      for (int64_t lane = 0; lane < s.lanes; ++lane) {
        SmallVector<Value> at(ivs);
        at[fast] = arith::AddIOp::create(b, at[fast], indexConstant(b, lane));
        lanes.push_back(
            loadInRange(b, s, mm, at, s.type, [&](ImplicitLocOpBuilder &b) {
              return convertTo(
                  b, memref::LoadOp::create(b, s.buffer, indices(b, s.map, at)),
                  s.type);
            }));
      }
      Value v = vector::FromElementsOp::create(
          b, VectorType::get({s.lanes}, s.type), lanes);
      values.push_back(asStaged(b, v));
      continue;
    }
    values.push_back(
        loadInRange(b, s, mm, ivs, s.valueType(), [&](ImplicitLocOpBuilder &b) {
          SmallVector<Value> at = indices(b, s.map, ivs);
          Value v = s.lanes > 1
                        ? vector::LoadOp::create(
                              b, VectorType::get({s.lanes}, elementType),
                              s.buffer, at)
                              .getResult()
                        : memref::LoadOp::create(b, s.buffer, at).getResult();
          return asStaged(b, v);
        }));
  }
  return values;
}

/// Stores a share that loadShare loaded into `s.shared`. Where a load has
/// several lanes, they run along the block's minor dim (only the
/// cooperative schedule, which stores each block along its operand's
/// contiguous dim, takes them), so they are stored as one vector; as
/// pairs, at the word of their first element (even: so are the lanes and
/// the stride).
void storeShare(ImplicitLocOpBuilder &b, const Staging &s,
                ArrayRef<Slot> share, ValueRange values) {
  assert((s.lanes == 1 || s.kInner == s.kContiguous) &&
         "a load's lanes must be consecutive in workgroup memory");
  assert((!s.pairs || s.lanes % 2 == 0) && "pairs need an even lane count");
  for (auto [slot, value] : llvm::zip(share, values)) {
    if (s.pairs)
      vector::StoreOp::create(
          b, value, s.shared,
          ValueRange{arith::DivUIOp::create(b, slot.at,
                                            indexConstant(b, s.perElement()))});
    else if (s.lanes > 1)
      vector::StoreOp::create(b, value, s.shared, slot.at);
    else
      memref::StoreOp::create(b, value, s.shared, slot.at);
  }
}

/// Rows of a [k][row] block padded so that threads walking k store to
/// distinct banks (32 banks of 4 bytes): 32 / tile-k words.
int64_t paddedRows(int64_t rows, int64_t tileK, bool kContiguous) {
  return rows + (kContiguous ? std::max<int64_t>(1, 32 / tileK) : 0);
}

/// A matmul's gpu.launch: one block per `tileM` x `tileN` block of the
/// output (grid x: column blocks, y: row blocks, z: the batch), with the
/// values each kernel starts from.
struct Launch {
  gpu::LaunchOp op;
  Value tid, row0, col0;
  /// The batch ivs from block z; m, n and k are set per access.
  SmallVector<Value> ivs;
};

/// The grid of one block per `tileM` x `tileN` block of `mm`'s output: x
/// column blocks, y row blocks, z the batch.
std::array<int64_t, 3> gridOf(const Matmul &mm, int64_t tileM, int64_t tileN) {
  int64_t gridX = llvm::divideCeil(mm.ranges[mm.dimN()], tileN);
  int64_t gridY = llvm::divideCeil(mm.ranges[mm.dimM()], tileM);
  return {gridX, gridY, product(ArrayRef(mm.ranges).take_front(mm.dimM()))};
}

/// The limit of `limits` that `grid` exceeds along some dim, or 0.
int64_t exceededLimit(const std::array<int64_t, 3> &grid,
                      const GridLimits &limits) {
  for (auto [size, limit] : llvm::zip(grid, limits))
    if (size > limit)
      return limit;
  return 0;
}

/// Creates the launch and leaves `b` at the start of its body, or fails,
/// emitting nothing, where its grid exceeds `limits`.
FailureOr<Launch> createMatmulLaunch(ImplicitLocOpBuilder &b, const Matmul &mm,
                                     int64_t tileM, int64_t tileN,
                                     int64_t threads, TypeRange sharedTypes,
                                     const GridLimits &limits) {
  std::array<int64_t, 3> grid = gridOf(mm, tileM, tileN);
  if (exceededLimit(grid, limits))
    return failure();
  Launch l;
  l.op = createLaunch(b, mm.op, grid, threads, sharedTypes);
  l.tid = l.op.getThreadIds().x;
  l.row0 =
      arith::MulIOp::create(b, l.op.getBlockIds().y, indexConstant(b, tileM));
  l.col0 =
      arith::MulIOp::create(b, l.op.getBlockIds().x, indexConstant(b, tileN));
  l.ivs.assign(mm.ranges.size(), indexConstant(b, 0));
  // The batch ivs from block z.
  for (auto [d, iv] : llvm::enumerate(delinearize(
           b, l.op.getBlockIds().z, ArrayRef(mm.ranges).take_front(mm.dimM()))))
    l.ivs[d] = iv;
  return l;
}

/// Computes a step's products from the staged blocks, given the sums so far;
/// returns the new sums.
using Products =
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, ValueRange)>;

/// The k loop of both schedules: it carries the sums and the next step's
/// share of A and B, loaded into registers while the current step's
/// products run (the loads' latency hides behind them). Each step stores
/// the share into workgroup memory, and the products run between two
/// barriers. Returns the loop, whose first results are the sums.
scf::ForOp emitStagedLoop(ImplicitLocOpBuilder &b, const Matmul &mm,
                          const Launch &l, const Staging &sa, const Staging &sb,
                          int64_t threads, int64_t tileK, ValueRange sums,
                          Products products) {
  int64_t sizeK = mm.ranges[mm.dimK()];
  auto shareA = shareOf(b, sa, l.tid, threads, tileK);
  auto shareB = shareOf(b, sb, l.tid, threads, tileK);
  SmallVector<Value> init(sums);
  int64_t numSums = init.size(), numA = shareA.size();
  llvm::append_range(
      init, loadShare(b, sa, mm, l.ivs, shareA, l.row0, indexConstant(b, 0)));
  llvm::append_range(
      init, loadShare(b, sb, mm, l.ivs, shareB, l.col0, indexConstant(b, 0)));
  Value step = indexConstant(b, tileK);
  Value upper = indexConstant(b, sizeK);
  Value lower = indexConstant(b, 0);
  auto loop = scf::ForOp::create(b, lower, upper, step, init);
  OpBuilder::InsertionGuard restore(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = loop.getInductionVar();
  ValueRange carried = loop.getRegionIterArgs();
  storeShare(b, sa, shareA, carried.slice(numSums, numA));
  storeShare(b, sb, shareB, carried.drop_front(numSums + numA));
  gpu::BarrierOp::create(b);
  Value nextK0 = arith::AddIOp::create(b, k0, indexConstant(b, tileK));
  SmallVector<Type> shareTypes(numA, sa.valueType());
  shareTypes.append(shareB.size(), sb.valueType());
  auto prefetch = scf::IfOp::create(b, shareTypes, inRange(b, nextK0, sizeK),
                                    /*withElse=*/true);
  {
    ImplicitLocOpBuilder then(b.getLoc(), prefetch.thenBlock(),
                              prefetch.thenBlock()->begin());
    SmallVector<Value> next =
        loadShare(then, sa, mm, l.ivs, shareA, l.row0, nextK0);
    llvm::append_range(next,
                       loadShare(then, sb, mm, l.ivs, shareB, l.col0, nextK0));
    scf::YieldOp::create(then, next);
    ImplicitLocOpBuilder other(b.getLoc(), prefetch.elseBlock(),
                               prefetch.elseBlock()->begin());
    SmallVector<Value> zeros(numA, zeroOf(other, sa.valueType()));
    zeros.append(shareB.size(), zeroOf(other, sb.valueType()));
    scf::YieldOp::create(other, zeros);
  }
  SmallVector<Value> next = products(b, carried.take_front(numSums));
  // The next step's staging overwrites what this one read.
  gpu::BarrierOp::create(b);
  llvm::append_range(next, prefetch.getResults());
  scf::YieldOp::create(b, next);
  return loop;
}

/// Emits the gpu.launch computing `mm` on the CUDA cores before it (the
/// caller erases it), or fails, emitting nothing, where its grid is too
/// large.
LogicalResult emitTiledMatmul(ImplicitLocOpBuilder &b, const Matmul &mm,
                              const Tiles &t, const GridLimits &limits) {
  Staging sa = stagingOf(mm, 0, t.m, t.k, mm.acc);
  Staging sb = stagingOf(mm, 1, t.n, t.k, mm.acc);
  sa.stride = paddedRows(t.m, t.k, sa.kContiguous);
  sb.stride = paddedRows(t.n, t.k, sb.kContiguous);
  Type sharedTypes[] = {workgroupMemRefType({t.k * sa.stride}, mm.acc),
                        workgroupMemRefType({t.k * sb.stride}, mm.acc)};
  FailureOr<Launch> launch =
      createMatmulLaunch(b, mm, t.m, t.n, t.threads(), sharedTypes, limits);
  if (failed(launch))
    return failure();
  Launch &l = *launch;
  sa.shared = l.op.getWorkgroupAttributions()[0];
  sb.shared = l.op.getWorkgroupAttributions()[1];
  Value threadRow =
      arith::DivUIOp::create(b, l.tid, indexConstant(b, t.threadsN()));
  Value threadCol =
      arith::RemUIOp::create(b, l.tid, indexConstant(b, t.threadsN()));

  auto products = [&](ImplicitLocOpBuilder &b, ValueRange carried) {
    SmallVector<Value> sums(carried);
    for (int64_t kk = 0; kk < t.k; ++kk) {
      SmallVector<Value> as, bs;
      for (int64_t i = 0; i < t.threadM; ++i)
        as.push_back(memref::LoadOp::create(
            b, sa.shared,
            ValueRange{arith::AddIOp::create(
                b, threadRow,
                indexConstant(b, kk * sa.stride + i * t.threadsM()))}));
      for (int64_t j = 0; j < t.threadN; ++j)
        bs.push_back(memref::LoadOp::create(
            b, sb.shared,
            ValueRange{arith::AddIOp::create(
                b, threadCol,
                indexConstant(b, kk * sb.stride + j * t.threadsN()))}));
      for (int64_t i = 0; i < t.threadM; ++i)
        for (int64_t j = 0; j < t.threadN; ++j) {
          Value &sum = sums[i * t.threadN + j];
          sum = arith::AddFOp::create(b, sum,
                                      arith::MulFOp::create(b, as[i], bs[j]));
        }
    }
    return sums;
  };
  SmallVector<Value> zeros(t.threadM * t.threadN, zeroOf(b, mm.acc));
  scf::ForOp loop =
      emitStagedLoop(b, mm, l, sa, sb, t.threads(), t.k, zeros, products);

  b.setInsertionPointAfter(loop);
  Value out = mm.output();
  SmallVector<Value> ivs(l.ivs);
  for (int64_t i = 0; i < t.threadM; ++i)
    for (int64_t j = 0; j < t.threadN; ++j) {
      ivs[mm.dimM()] = arith::AddIOp::create(
          b, l.row0,
          arith::AddIOp::create(b, threadRow,
                                indexConstant(b, i * t.threadsM())));
      ivs[mm.dimN()] = arith::AddIOp::create(
          b, l.col0,
          arith::AddIOp::create(b, threadCol,
                                indexConstant(b, j * t.threadsN())));
      SmallVector<Value> at(ivs.begin(), ivs.end() - 1);
      OpBuilder::InsertionGuard restore(b);
      guardOutputElement(b, mm, at, t.m, t.n);
      Value old = memref::LoadOp::create(b, out, at);
      Value sum = arith::AddFOp::create(b, old,
                                        loop.getResult(i * t.threadN + j));
      memref::StoreOp::create(b, sum, out, at);
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Cooperative matrices
//===----------------------------------------------------------------------===//

/// The one fragment shape the schedule uses: M x N x K = 16 x 16 x 16, the
/// shape that devices with cooperative matrices offer for f16 x f16 -> f32
/// at subgroup scope (NVIDIA's driver among them).
constexpr int64_t kFragment = 16;

/// Pads the rows of a staged 16-bit block by 8 elements: cooperative loads
/// need rows (and fragment starts) aligned to 16 bytes
/// (VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986), and the shift of
/// 4 banks per row spreads a fragment's rows over the banks.
constexpr int64_t kCoopPad = 8;

/// The cooperative schedule's shape: a `m` x `n` block per workgroup of
/// `subgroupsM` x `subgroupsN` subgroups, each computing an
/// (m / subgroupsM) x (n / subgroupsN) part of it as 16 x 16 fragments.
struct CoopTiles {
  int64_t m, n, k, subgroupsM, subgroupsN, subgroupSize;
  int64_t subgroups() const { return subgroupsM * subgroupsN; }
  int64_t threads() const { return subgroups() * subgroupSize; }
  int64_t fragmentsM() const { return m / subgroupsM / kFragment; }
  int64_t fragmentsN() const { return n / subgroupsN / kFragment; }
  /// The most workgroup memory a matmul's blocks take (16-bit elements,
  /// the larger of the two layouts) with the f32 fragment per subgroup of
  /// the guarded epilogue.
  int64_t sharedBytes() const {
    auto block = [&](int64_t rows) {
      return std::max(rows * (k + kCoopPad), k * (rows + kCoopPad)) * 2;
    };
    return block(m) + block(n) + subgroups() * kFragment * kFragment * 4;
  }
};

/// `t` with its block halved along m and n while the half still covers the
/// matmul's extent (rounded up to fragments) and splits among the same
/// subgroups and threads: attention's 128 x 64 products would otherwise
/// compute half a 128 x 128 block of zeros.
CoopTiles fitTiles(CoopTiles t, int64_t sizeM, int64_t sizeN) {
  auto fits = [&](int64_t half, int64_t size, int64_t subgroups) {
    return half >= static_cast<int64_t>(llvm::alignTo(size, kFragment)) &&
           half % (subgroups * kFragment) == 0 &&
           (half * t.k) % t.threads() == 0;
  };
  while (fits(t.m / 2, sizeM, t.subgroupsM))
    t.m /= 2;
  while (fits(t.n / 2, sizeN, t.subgroupsN))
    t.n /= 2;
  return t;
}

/// The operand types the device runs on cooperative matrices
/// (`cooperative-matrix`).
struct CoopOffer {
  bool f16 = false, bf16 = false, bf16AsF16 = false;
  bool any() const { return f16 || bf16 || bf16AsF16; }
};

LogicalResult parseOffer(func::FuncOp func, ArrayRef<std::string> entries,
                         CoopOffer &offer) {
  for (const std::string &entry : entries) {
    if (entry == "f16")
      offer.f16 = true;
    else if (entry == "bf16")
      offer.bf16 = true;
    else if (entry == "bf16-as-f16")
      offer.bf16AsF16 = true;
    else
      return func.emitError()
             << "rlx-gpu-tile-matmul: unknown cooperative-matrix entry '"
             << entry << "' (expected f16, bf16 or bf16-as-f16)";
  }
  return success();
}

/// The cooperative tiles' checks that do not depend on an op.
LogicalResult checkCoopTiles(func::FuncOp func, const CoopTiles &t,
                             int64_t maxThreads, int64_t sharedBytes) {
  auto bad = [&]() { return func.emitError() << "rlx-gpu-tile-matmul: "; };
  if (t.m < 1 || t.n < 1 || t.k < 1 || t.subgroupsM < 1 || t.subgroupsN < 1 ||
      t.subgroupSize < 1)
    return bad() << "cooperative tile sizes must be positive";
  if (t.m % (t.subgroupsM * kFragment) || t.n % (t.subgroupsN * kFragment) ||
      t.k % kFragment)
    return bad() << "coop-tile-m " << t.m << " / coop-tile-n " << t.n
                 << " / coop-tile-k " << t.k << " are not multiples of "
                 << kFragment << " x coop-subgroups-m " << t.subgroupsM << " / "
                 << kFragment << " x coop-subgroups-n " << t.subgroupsN << " / "
                 << kFragment;
  if (t.threads() > maxThreads)
    return bad() << t.threads() << " threads per cooperative block exceed "
                 << "the target's max-threads-per-block " << maxThreads;
  if ((t.m * t.k) % t.threads() || (t.k * t.n) % t.threads() ||
      (kFragment * kFragment) % t.subgroupSize)
    return bad() << "the " << t.threads() << " threads do not divide the "
                 << t.m << " x " << t.k << " and " << t.k << " x " << t.n
                 << " blocks they stage (or the " << t.subgroupSize
                 << " lanes a 16 x 16 fragment)";
  if (t.sharedBytes() > sharedBytes)
    return bad() << "the cooperative tiles need " << t.sharedBytes()
                 << " bytes of workgroup memory, more than the target's "
                 << "shared-memory-bytes " << sharedBytes;
  return success();
}

/// How many consecutive elements each thread loads at once when staging
/// `s`: 4 (8 bytes of 16-bit elements), else 2, where the operand is a
/// row-major buffer whose last dim is the one threads walk, the block and
/// the operand's extent along it are multiples (so every load is aligned
/// and lies wholly inside or outside an edge), and the threads divide the
/// block's loads; else 1. Fewer, wider loads cut the staging's
/// instructions, and the registers of the next step's share: the
/// cooperative kernel is bound by its staging.
int64_t loadLanes(const Matmul &mm, const Staging &s, int64_t tileK,
                  int64_t threads) {
  auto type = cast<MemRefType>(s.buffer.getType());
  auto last = dyn_cast<AffineDimExpr>(s.map.getResults().back());
  unsigned fastDim = s.kContiguous ? mm.dimK() : s.dimRow;
  if (!type.getLayout().isIdentity() || !last || last.getPosition() != fastDim)
    return 1;
  int64_t block = s.kContiguous ? tileK : s.rows;
  for (int64_t lanes : {4, 2})
    if (block % lanes == 0 && mm.ranges[fastDim] % lanes == 0 &&
        (s.rows * tileK / lanes) % threads == 0)
      return lanes;
  return 1;
}

/// The cooperative schedule's stagings of `mm`'s operands converted to
/// `staged` for tiles `t`. Each block is stored along its operand's
/// contiguous dim, so that consecutive threads store consecutive elements
/// (the fragments' layout, row- or column-major, follows); bf16 ones as
/// pairs, gathered where vector loads do not fit.
std::pair<Staging, Staging> coopStagings(const Matmul &mm, const CoopTiles &t,
                                         Type staged) {
  Staging sa = stagingOf(mm, 0, t.m, t.k, staged);
  Staging sb = stagingOf(mm, 1, t.n, t.k, staged);
  for (Staging *s : {&sa, &sb}) {
    s->kInner = s->kContiguous;
    s->stride = (s->kInner ? t.k : s->rows) + kCoopPad;
    s->lanes = loadLanes(mm, *s, t.k, t.threads());
    s->pairs = staged.isBF16();
    // Pairs that vector loads do not fit (an odd extent along the
    // contiguous dim, another layout) are gathered element by element
    // (the blocks, whole fragments, have an even extent along every dim).
    if (s->pairs && s->lanes % 2 && (s->rows * t.k / 2) % t.threads() == 0) {
      s->lanes = 2;
      s->gather = true;
    }
  }
  return {sa, sb};
}

/// The 16-bit type `mm`'s operands are converted to for cooperative
/// matrices with tiles `t`, or null with `why` set where the offer does
/// not cover them: f16, or for bf16 bf16 itself (`bf16`, where both
/// operands can be staged as pairs: the threads divide the blocks' pairs)
/// or f16 (`bf16-as-f16`). f32 and f64 matmuls are not meant
/// for them: `why` stays empty. An f32 operand beside a 16-bit one
/// (attention's probabilities times V, the probabilities being computed
/// in f32) is rounded to the other's type as well: the result is 16-bit
/// anyway.
Type coopType(const Matmul &mm, const CoopOffer &offer, const CoopTiles &t,
              std::string &why) {
  Type a = cast<MemRefType>(mm.input(0).getType()).getElementType();
  Type b = cast<MemRefType>(mm.input(1).getType()).getElementType();
  if (a.getIntOrFloatBitWidth() != 16 && b.getIntOrFloatBitWidth() != 16)
    return {};
  // The 16-bit operand type (both's where both are 16-bit).
  Type half = a.getIntOrFloatBitWidth() == 16 ? a : b;
  Type other = half == a ? b : a;
  if (!mm.acc.isF32() || !(other == half || other.isF32()) ||
      !(half.isF16() || half.isBF16())) {
    why = "its operands are not f16 or bf16 (or one of them f32) with an "
          "f32 accumulator";
    return {};
  }
  if (half.isF16() && offer.f16)
    return half;
  if (half.isBF16() && offer.bf16) {
    auto [sa, sb] = coopStagings(mm, t, half);
    if (sa.lanes % 2 == 0 && sb.lanes % 2 == 0)
      return half;
  }
  if (half.isBF16() && offer.bf16AsF16)
    return Float16Type::get(half.getContext());
  why = half.isF16() ? "f16 is not in cooperative-matrix"
        : offer.bf16 ? "bf16 fragments are staged in pairs of elements, "
                       "which the threads do not divide the blocks into "
                       "(bf16-as-f16 takes it)"
                     : "bf16 is not in cooperative-matrix (bf16 or "
                       "bf16-as-f16 takes it)";
  return {};
}

/// The zero fill of `mm`'s output just before it (the accumulator's
/// initialization that linalg's `out +=` adds to), or null.
linalg::FillOp zeroFillOf(const Matmul &mm) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(mm.op->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInits()[0] != mm.output() ||
      !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return {};
  return fill;
}

/// The elementwise generic that reads a matmul's C right after it (bias,
/// activation, the cast to the result's type), which the cooperative
/// kernel computes as it stores the sums: C then never goes to memory.
struct Epilogue {
  linalg::GenericOp op;
  /// C's position among the generic's inputs.
  unsigned input;
  /// C's allocation, erased with its deallocations.
  memref::AllocOp alloc;
};

/// The epilogue of `mm`, whose C was just zero-filled (`fill`): the generic
/// right after it, all loops parallel over C's shape, reading C once in
/// order and its other inputs at dims or constant 0 (a bias along n), and
/// writing another row-major buffer in order with a body of arith ops that
/// does not read its output; C is an allocation nothing else uses.
std::optional<Epilogue> epilogueOf(const Matmul &mm, linalg::FillOp fill) {
  auto alloc = mm.output().getDefiningOp<memref::AllocOp>();
  auto op = dyn_cast_or_null<linalg::GenericOp>(mm.op->getNextNode());
  if (!fill || !alloc || !op || !op.hasPureBufferSemantics() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      op.getNumLoops() != mm.ranges.size() - 1)
    return std::nullopt;
  Value out = op.getDpsInits()[0];
  auto outType = cast<MemRefType>(out.getType());
  if (!outType.getLayout().isIdentity() ||
      outType.getShape() !=
          cast<MemRefType>(mm.output().getType()).getShape() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return std::nullopt;
  // Other blocks still read A and B while one stores its outputs.
  if (out == mm.input(0) || out == mm.input(1) || out == mm.output())
    return std::nullopt;
  std::optional<unsigned> input;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (operand->get() == mm.output()) {
      if (input || !map.isIdentity())
        return std::nullopt;
      input = operand->getOperandNumber();
      continue;
    }
    // A broadcast read of the output's buffer would race with its stores.
    if (!readsDimsOrZeros(map) || (operand->get() == out && !map.isIdentity()))
      return std::nullopt;
  }
  if (!input)
    return std::nullopt;
  // Arithmetic only: an epilogue with transcendental math (GELU's tanh)
  // runs better as its own kernel at full occupancy than between the
  // fragments' barriers (on the H100, the bias-GELU matmul of bench/gpu
  // took 0.412 ms fused, 0.369 ms apart; a plain bf16 matmul's rounding
  // fused 0.315 ms, apart 0.377).
  for (Operation &payload : op.getBody()->without_terminator())
    if (!isPure(&payload) || !isa<arith::ArithDialect>(payload.getDialect()))
      return std::nullopt;
  for (Operation *user : alloc->getUsers())
    if (user != mm.op && user != op && user != fill &&
        !isa<memref::DeallocOp>(user))
      return std::nullopt;
  return Epilogue{op, *input, alloc};
}

/// Computes `epilogue`'s body at C's element `element`, whose sum is `sum`,
/// and stores the result into its output.
void emitEpilogueElement(ImplicitLocOpBuilder &b, const Epilogue &epilogue,
                         ArrayRef<Value> element, Value sum) {
  linalg::GenericOp op = epilogue.op;
  Block *body = op.getBody();
  IRMapping values;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    unsigned i = operand->getOperandNumber();
    values.map(
        body->getArgument(i),
        i == epilogue.input
            ? sum
            : memref::LoadOp::create(
                  b, operand->get(),
                  indices(b, op.getMatchingIndexingMap(operand), element))
                  .getResult());
  }
  for (Operation &payload : body->without_terminator())
    b.clone(payload, values);
  Value result = values.lookup(body->getTerminator()->getOperand(0));
  memref::StoreOp::create(b, result, op.getDpsInits()[0], element);
}

/// Emits the gpu.launch computing `mm` on cooperative matrices before it
/// (the caller erases it), with its operands staged in `staged` (f16 or
/// bf16), or
/// fails, emitting nothing, where its grid is too large. With `overwrite`
/// (C was just zero-filled, and the caller erases the fill) the sums are
/// stored into C rather than added to it: every element of C is stored
/// once, and neither the fill nor the reads of C cost a pass over it. With
/// an `epilogue` (which needs `overwrite`), each sum goes through it to its
/// output instead of into C.
LogicalResult emitCooperativeMatmul(ImplicitLocOpBuilder &b, const Matmul &mm,
                                    const CoopTiles &t, Type staged,
                                    bool overwrite, const Epilogue *epilogue,
                                    const GridLimits &limits) {
  int64_t sizeM = mm.ranges[mm.dimM()], sizeN = mm.ranges[mm.dimN()];
  Value out = mm.output();
  // C's fragments are loaded and stored whole where the tiles divide it, it
  // is a plain row-major buffer and no epilogue computes on them;
  // otherwise each goes through workgroup memory to guarded scalar
  // accesses.
  bool direct = !epilogue && sizeM % t.m == 0 && sizeN % t.n == 0 &&
                cast<MemRefType>(out.getType()).getLayout().isIdentity();
  auto [sa, sb] = coopStagings(mm, t, staged);
  // bf16 blocks hold pairs of elements as 32-bit words, indexed and
  // strided in words: gpu.subgroup_mma_load_matrix takes no bf16 or i16
  // memref. Their fragments are f16-typed until the target's kernel
  // lowering retypes the loads from integer memory as bf16 (gpu.mma_matrix
  // has no bf16; a target that offers `bf16` does so).
  MLIRContext *context = mm.op->getContext();
  auto blockSize = [&](const Staging &s) {
    return (s.kInner ? s.rows : t.k) * s.stride / s.perElement();
  };
  SmallVector<Type> sharedTypes = {
      workgroupMemRefType({blockSize(sa)}, sa.blockType()),
      workgroupMemRefType({blockSize(sb)}, sb.blockType())};
  if (!direct)
    sharedTypes.push_back(
        workgroupMemRefType({t.subgroups() * kFragment * kFragment}, mm.acc));
  FailureOr<Launch> launch =
      createMatmulLaunch(b, mm, t.m, t.n, t.threads(), sharedTypes, limits);
  if (failed(launch))
    return failure();
  Launch &l = *launch;
  sa.shared = l.op.getWorkgroupAttributions()[0];
  sb.shared = l.op.getWorkgroupAttributions()[1];

  // Subgroup s computes rows [rowBase, rowBase + m / subgroupsM) and columns
  // [colBase, colBase + n / subgroupsN) of the block. Its id is the
  // SubgroupId builtin: not every target promises that a subgroup is
  // consecutive invocations (Vulkan does not), and a cooperative op's pointer
  // must be the same on all its lanes.
  Value subgroup = gpu::SubgroupIdOp::create(
      b, b.getIntegerAttr(b.getIndexType(), t.subgroups()));
  Value rowsPerSubgroup = indexConstant(b, t.m / t.subgroupsM);
  Value subgroupRow =
      arith::DivUIOp::create(b, subgroup, indexConstant(b, t.subgroupsN));
  Value rowBase = arith::MulIOp::create(b, subgroupRow, rowsPerSubgroup);
  Value colsPerSubgroup = indexConstant(b, t.n / t.subgroupsN);
  Value subgroupCol =
      arith::RemUIOp::create(b, subgroup, indexConstant(b, t.subgroupsN));
  Value colBase = arith::MulIOp::create(b, subgroupCol, colsPerSubgroup);
  auto rowOf = [&](int64_t i) {
    return arith::AddIOp::create(b, rowBase, indexConstant(b, i * kFragment));
  };
  auto colOf = [&](int64_t j) {
    return arith::AddIOp::create(b, colBase, indexConstant(b, j * kFragment));
  };
  Type fragment = sa.pairs ? Float16Type::get(context) : staged;
  auto aType = gpu::MMAMatrixType::get({kFragment, kFragment}, fragment, "AOp");
  auto bType = gpu::MMAMatrixType::get({kFragment, kFragment}, fragment, "BOp");
  auto cType = gpu::MMAMatrixType::get({kFragment, kFragment}, mm.acc, "COp");
  auto lead = [&](int64_t stride) { return b.getIndexAttr(stride); };
  auto unitIf = [&](bool set) {
    return set ? UnitAttr::get(context) : nullptr;
  };
  // The fragment of C at block rows/columns (i, j), as C's indices.
  SmallVector<Value> ivs(l.ivs);
  auto outIndices = [&](int64_t i, int64_t j) {
    ivs[mm.dimM()] = arith::AddIOp::create(b, l.row0, rowOf(i));
    ivs[mm.dimN()] = arith::AddIOp::create(b, l.col0, colOf(j));
    return SmallVector<Value>(ivs.begin(), ivs.end() - 1);
  };

  // The sums start from C itself where its fragments are loaded whole
  // (linalg's out +=), else from zero and are added to C at the end (or
  // stored where C was zero).
  SmallVector<Value> sums;
  Value zero =
      gpu::SubgroupMmaConstantMatrixOp::create(b, cType, zeroOf(b, mm.acc));
  for (int64_t i = 0; i < t.fragmentsM(); ++i)
    for (int64_t j = 0; j < t.fragmentsN(); ++j)
      sums.push_back(direct && !overwrite
                         ? gpu::SubgroupMmaLoadMatrixOp::create(
                               b, cType, out, outIndices(i, j), lead(sizeN),
                               /*transpose=*/nullptr)
                               .getResult()
                         : zero);

  // A's fragment (i, kk) lies at [row][k] (row-major) or [k][row]
  // (column-major); B's (kk, j) at [k][col] (row-major) or [col][k]; as
  // words where the blocks hold pairs (the stride and the fragments'
  // starts are even).
  auto fragmentAt = [&](const Staging &s, Value row, int64_t kk) -> Value {
    Value major = s.kInner ? row : indexConstant(b, kk);
    Value minor = s.kInner ? indexConstant(b, kk) : row;
    Value at = arith::AddIOp::create(
        b, arith::MulIOp::create(b, major, indexConstant(b, s.stride)), minor);
    return s.pairs
               ? arith::DivUIOp::create(b, at, indexConstant(b, s.perElement()))
               : at;
  };
  auto products = [&](ImplicitLocOpBuilder &b, ValueRange carried) {
    SmallVector<Value> next(carried);
    for (int64_t kk = 0; kk < t.k; kk += kFragment) {
      SmallVector<Value> as, bs;
      for (int64_t i = 0; i < t.fragmentsM(); ++i)
        as.push_back(gpu::SubgroupMmaLoadMatrixOp::create(
            b, aType, sa.shared, ValueRange{fragmentAt(sa, rowOf(i), kk)},
            lead(sa.stride / sa.perElement()), unitIf(!sa.kInner)));
      for (int64_t j = 0; j < t.fragmentsN(); ++j)
        bs.push_back(gpu::SubgroupMmaLoadMatrixOp::create(
            b, bType, sb.shared, ValueRange{fragmentAt(sb, colOf(j), kk)},
            lead(sb.stride / sb.perElement()), unitIf(sb.kInner)));
      for (int64_t i = 0; i < t.fragmentsM(); ++i)
        for (int64_t j = 0; j < t.fragmentsN(); ++j) {
          Value &sum = next[i * t.fragmentsN() + j];
          sum = gpu::SubgroupMmaComputeOp::create(b, as[i], bs[j], sum,
                                                  /*a_transpose=*/nullptr,
                                                  /*b_transpose=*/nullptr);
        }
    }
    return next;
  };
  scf::ForOp loop =
      emitStagedLoop(b, mm, l, sa, sb, t.threads(), t.k, sums, products);

  b.setInsertionPointAfter(loop);
  if (direct) {
    for (int64_t i = 0; i < t.fragmentsM(); ++i)
      for (int64_t j = 0; j < t.fragmentsN(); ++j)
        gpu::SubgroupMmaStoreMatrixOp::create(
            b, loop.getResult(i * t.fragmentsN() + j), out, outIndices(i, j),
            lead(sizeN), /*transpose=*/nullptr);
    return success();
  }
  // Each fragment goes through the subgroup's part of workgroup memory;
  // its lanes then add (or store) it into C, or compute the epilogue on
  // it, element by element, under the guards.
  Value scratch = l.op.getWorkgroupAttributions()[2];
  Value base = arith::MulIOp::create(b, subgroup,
                                     indexConstant(b, kFragment * kFragment));
  Value lane = gpu::LaneIdOp::create(
      b, b.getIntegerAttr(b.getIndexType(), t.subgroupSize));
  for (int64_t i = 0; i < t.fragmentsM(); ++i)
    for (int64_t j = 0; j < t.fragmentsN(); ++j) {
      gpu::SubgroupMmaStoreMatrixOp::create(
          b, loop.getResult(i * t.fragmentsN() + j), scratch, ValueRange{base},
          lead(kFragment), /*transpose=*/nullptr);
      gpu::BarrierOp::create(b);
      SmallVector<Value> corner = outIndices(i, j);
      for (int64_t e = 0; e < kFragment * kFragment; e += t.subgroupSize) {
        Value at = arith::AddIOp::create(b, lane, indexConstant(b, e));
        SmallVector<Value> element(corner);
        element[mm.dimM()] = arith::AddIOp::create(
            b, corner[mm.dimM()],
            arith::DivUIOp::create(b, at, indexConstant(b, kFragment)));
        element[mm.dimN()] = arith::AddIOp::create(
            b, corner[mm.dimN()],
            arith::RemUIOp::create(b, at, indexConstant(b, kFragment)));
        OpBuilder::InsertionGuard restore(b);
        guardOutputElement(b, mm, element, t.m, t.n);
        Value sum = memref::LoadOp::create(
            b, scratch, ValueRange{arith::AddIOp::create(b, base, at)});
        if (epilogue) {
          emitEpilogueElement(b, *epilogue, element, sum);
          continue;
        }
        if (!overwrite)
          sum = arith::AddFOp::create(
              b, memref::LoadOp::create(b, out, element), sum);
        memref::StoreOp::create(b, sum, out, element);
      }
      // The next fragment overwrites what the lanes read.
      gpu::BarrierOp::create(b);
    }
  return success();
}

struct GPUTileMatmulPass
    : rlx::impl::GPUTileMatmulPassBase<GPUTileMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    Tiles tiles{tileM, tileN, tileK, threadM, threadN};
    CoopTiles coop{coopTileM,      coopTileN,      coopTileK,
                   coopSubgroupsM, coopSubgroupsN, subgroupSize};
    CoopOffer offer;
    GridLimits limits = {maxGridX, maxGridY, maxGridZ};
    if (failed(checkTiles(func, tiles, maxThreadsPerBlock)) ||
        failed(parseOffer(func, cooperativeMatrix, offer)) ||
        (offer.any() && failed(checkCoopTiles(func, coop, maxThreadsPerBlock,
                                              sharedMemoryBytes))))
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
      ImplicitLocOpBuilder b(mm.op.getLoc(), mm.op);
      if (offer.any()) {
        std::string why;
        CoopTiles fitted =
            fitTiles(coop, mm.ranges[mm.dimM()], mm.ranges[mm.dimN()]);
        if (Type staged = coopType(mm, offer, fitted, why)) {
          linalg::FillOp fill = zeroFillOf(mm);
          std::optional<Epilogue> epilogue = epilogueOf(mm, fill);
          if (succeeded(emitCooperativeMatmul(b, mm, fitted, staged,
                                              /*overwrite=*/bool(fill),
                                              epilogue ? &*epilogue : nullptr,
                                              limits))) {
            rewriter.eraseOp(mm.op);
            if (fill)
              rewriter.eraseOp(fill);
            if (epilogue) {
              rewriter.eraseOp(epilogue->op);
              for (Operation *user :
                   llvm::make_early_inc_range(epilogue->alloc->getUsers()))
                rewriter.eraseOp(user);
              rewriter.eraseOp(epilogue->alloc);
            }
            continue;
          }
          why = "its grid exceeds " +
                std::to_string(
                    exceededLimit(gridOf(mm, fitted.m, fitted.n), limits)) +
                " blocks along a dim";
        }
        if (!why.empty())
          mm.op->emitRemark() << "rlx-gpu-tile-matmul: not on cooperative "
                              << "matrices: " << why;
      }
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
      if (succeeded(emitTiledMatmul(b, mm, tiles, limits)))
        rewriter.eraseOp(mm.op);
    }
  }
};

} // namespace
