//===- CUDAMmaMatmul.cpp - bf16/f16 matmuls on tensor cores (mma.sync) ---===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-cuda-mma-matmul, the CUDA target's generated tensor-core schedule,
// run before the GPU front's rlx-gpu-map-linalg: a row-major
// bf16 or f16 matmul accumulating in f32 runs as mma.sync m16n8k16
// (nvvm.mma.sync: upstream's nvgpu.mma.sync does not lower bf16, and its
// matmul rewrite takes no f32 accumulation). Each warp computes 16 x 32 of
// C (four 16 x 8 tiles sharing the A fragment), four warps a block of
// 64 x 32; every lane loads its fragments straight from global memory in
// mma.sync's register layout (no shared memory, no pipelining: a first
// step, far from the library's speed).
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CUDA/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CUDAMMAMATMULPASS
#include "RLX/Target/CUDA/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

constexpr int64_t kWarps = 4, kTilesN = 4;
constexpr int64_t kTileM = 16, kTileN = 8, kTileK = 16;

/// True if `op` is C(m, n) += ext(A(m, k)) * ext(B(k, n)) on static,
/// row-major buffers of bf16 or f16 (one type) and f32 C whose sizes the
/// block tiles divide.
bool matchMmaMatmul(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 3)
    return false;
  MLIRContext *ctx = op.getContext();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  SmallVector<AffineMap> maps = AffineMap::inferFromExprList(
      ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {k, n}, {m, n}}, ctx);
  if (op.getIndexingMapsArray() != maps ||
      op.getIteratorTypesArray() !=
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                        utils::IteratorType::parallel,
                                        utils::IteratorType::reduction})
    return false;
  auto a = cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto b = cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto c = cast<MemRefType>(op.getDpsInits()[0].getType());
  Type elem = a.getElementType();
  if (!(elem.isBF16() || elem.isF16()) || b.getElementType() != elem ||
      !c.getElementType().isF32())
    return false;
  for (MemRefType t : {a, b, c})
    if (!t.hasStaticShape() || !t.getLayout().isIdentity())
      return false;
  if (c.getDimSize(0) % (kWarps * kTileM) ||
      c.getDimSize(1) % (kTilesN * kTileN) || a.getDimSize(1) % kTileK)
    return false;
  // The body: out + ext(a) * ext(b).
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add.getLhs() != body->getArgument(2))
    return false;
  auto mul = add.getRhs().getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto extA = mul.getLhs().getDefiningOp<arith::ExtFOp>();
  auto extB = mul.getRhs().getDefiningOp<arith::ExtFOp>();
  return extA && extB && extA.getIn() == body->getArgument(0) &&
         extB.getIn() == body->getArgument(1) &&
         body->getOperations().size() == 5;
}

/// If `op` is a row-major bf16/f16 matmul accumulating into f32 buffers
/// whose sizes the tiles divide, emits a gpu.launch before it computing it
/// with mma.sync (the caller erases `op`); fails, emitting nothing,
/// otherwise.
LogicalResult emitMmaMatmul(ImplicitLocOpBuilder &b, linalg::GenericOp op) {
  if (!matchMmaMatmul(op))
    return failure();
  MLIRContext *ctx = op.getContext();
  Value aBuf = op.getDpsInputs()[0], bBuf = op.getDpsInputs()[1],
        cBuf = op.getDpsInits()[0];
  auto cType = cast<MemRefType>(cBuf.getType());
  Type elem = cast<MemRefType>(aBuf.getType()).getElementType();
  int64_t sizeM = cType.getDimSize(0), sizeN = cType.getDimSize(1),
          sizeK = cast<MemRefType>(aBuf.getType()).getDimSize(1);
  int64_t blocksN = sizeN / (kTilesN * kTileN);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, v);
  };

  b.setInsertionPoint(op);
  Value one = idx(1);
  Value blockSize = idx(kWarps * 32);
  Value gridSize = idx(sizeM / (kWarps * kTileM) * blocksN);
  auto launch = gpu::LaunchOp::create(
      b, gridSize, one, one, blockSize, one, one,
      /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, ValueRange{}, TypeRange{});
  Block &launchBody = launch.getBody().front();
  b.setInsertionPointToEnd(&launchBody);
  gpu::TerminatorOp::create(b);
  b.setInsertionPointToStart(&launchBody);

  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, x, y);
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(b, x, idx(y));
  };
  Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
  Value warp = arith::DivUIOp::create(b, tid, idx(32));
  Value lane = arith::RemUIOp::create(b, tid, idx(32));
  Value g = arith::DivUIOp::create(b, lane, idx(4));
  Value t2 = mul(arith::RemUIOp::create(b, lane, idx(4)), 2);
  Value warpRow = mul(warp, kTileM);
  Value blockRow =
      mul(arith::DivUIOp::create(b, bid, idx(blocksN)), kWarps * kTileM);
  Value row0 = add(blockRow, warpRow);
  Value col0 =
      mul(arith::RemUIOp::create(b, bid, idx(blocksN)), kTilesN * kTileN);
  Value rowLo = add(row0, g), rowHi = add(rowLo, idx(8));

  // Accumulators, per tile j: C[rowLo][col..col+1], C[rowHi][col..col+1]
  // with col = col0 + 8j + 2t (mma.sync's C fragment).
  auto f32x2 = VectorType::get({2}, b.getF32Type());
  SmallVector<Value> cols, init;
  for (int64_t j = 0; j < kTilesN; ++j) {
    cols.push_back(add(col0, add(idx(j * kTileN), t2)));
    for (Value row : {rowLo, rowHi}) {
      Value pair =
          vector::LoadOp::create(b, f32x2, cBuf, ValueRange{row, cols[j]});
      for (int64_t e = 0; e < 2; ++e)
        init.push_back(vector::ExtractOp::create(b, pair, e));
    }
  }

  auto pairType = VectorType::get({2}, elem);
  bool bf16 = elem.isBF16();
  // An operand register: two elements, as i32 for bf16 (how nvvm.mma.sync
  // takes them), as vector<2xf16> for f16.
  auto reg = [&](Value pair) -> Value {
    if (!bf16)
      return pair;
    Value word = vector::BitCastOp::create(
        b, VectorType::get({1}, b.getI32Type()), pair);
    return vector::ExtractOp::create(b, word, 0);
  };
  Value step = idx(kTileK);
  Value upper = idx(sizeK);
  Value lower = idx(0);
  auto loop = scf::ForOp::create(b, lower, upper, step, init);
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = loop.getInductionVar();
  Value kLo = add(k0, t2), kHi = add(kLo, idx(8));
  // A fragment: rows g and g + 8, columns 2t (+1) and 2t + 8 (+1).
  SmallVector<Value> aRegs;
  for (auto [row, col] : {std::pair{rowLo, kLo}, std::pair{rowHi, kLo},
                          std::pair{rowLo, kHi}, std::pair{rowHi, kHi}})
    aRegs.push_back(
        reg(vector::LoadOp::create(b, pairType, aBuf, ValueRange{row, col})));
  auto resultType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(4, b.getF32Type()));
  NVVM::MMATypes ptx = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  SmallVector<Value> acc(loop.getRegionIterArgs());
  SmallVector<Value> next;
  for (int64_t j = 0; j < kTilesN; ++j) {
    // B fragment: rows 2t (+1) and 2t + 8 (+1), column g of the tile.
    Value col = add(col0, add(idx(j * kTileN), g));
    SmallVector<Value> bRegs;
    for (Value k : {kLo, kHi}) {
      Value x = memref::LoadOp::create(b, bBuf, ValueRange{k, col});
      Value y = memref::LoadOp::create(b, bBuf, ValueRange{add(k, one), col});
      bRegs.push_back(
          reg(vector::FromElementsOp::create(b, pairType, ValueRange{x, y})));
    }
    auto mma = NVVM::MmaOp::create(
        b, resultType, aRegs, bRegs, ArrayRef(acc).slice(4 * j, 4),
        ArrayRef<int64_t>{kTileM, kTileN, kTileK}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptx, ptx},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    for (int64_t e = 0; e < 4; ++e)
      next.push_back(LLVM::ExtractValueOp::create(b, mma, e));
  }
  scf::YieldOp::create(b, next);

  b.setInsertionPointAfter(loop);
  Value rows[] = {rowLo, rowHi};
  for (int64_t j = 0; j < kTilesN; ++j)
    for (auto [h, row] : llvm::enumerate(rows)) {
      Value pair = vector::FromElementsOp::create(
          b, f32x2,
          ValueRange{loop.getResult(4 * j + 2 * h),
                     loop.getResult(4 * j + 2 * h + 1)});
      vector::StoreOp::create(b, pair, cBuf, ValueRange{row, cols[j]});
    }
  return success();
}

struct CUDAMmaMatmulPass : rlx::impl::CUDAMmaMatmulPassBase<CUDAMmaMatmulPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Named contractions (linalg.matmul) are matched in their generic form,
    // as rlx-gpu-map-linalg would generalize them; one that does not
    // generalize is left for it to report.
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) && linalg::isaContractionOpInterface(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics) {
      ImplicitLocOpBuilder b(op.getLoc(), op);
      if (succeeded(emitMmaMatmul(b, op)))
        rewriter.eraseOp(op);
    }
  }
};

} // namespace
