//===- CPUDispatchBLAS.cpp - matmuls as calls to a CBLAS gemm -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' kernel-dispatch policy: where a vendor library beats generated
// code, call it. On the CPU that is a BLAS gemm for float contractions.
// Each contraction on buffers whose k is one loop becomes a loop over its
// batch dims (and over all but one of its m and n dims) around a call to
// `rlx_cpu_sgemm` / `rlx_cpu_dgemm`; the runtime (lib/Runtime/CPU/CPUBlas.cpp)
// reads the strides and calls cblas_?gemm with C += A B. int8 products
// summed in i32 (rlx.int8_matmul) call `rlx_cpu_gemm_s8`, our AVX-512 VNNI
// kernel (lib/Runtime/CPU/CPUGemmS8.cpp): no BLAS has an int8 gemm. Where
// B is a constant global (a weight after rlx-specialize-params) and its
// view is the same at every iteration, they call
// `rlx_cpu_gemm_s8_constant_b` instead with a slot of their own (a mutable
// i64 global, zero at first) in which the runtime keeps B packed after the
// first call.
//
//===----------------------------------------------------------------------===//

#include "GemmLoops.h"
#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUDISPATCHBLASPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using rlx::GemmLoops;

namespace {

/// The 2-D view of `operand` at the current outer iteration whose dims are
/// the loops (`row`, `col`): a rank-reducing subview, transposed when the
/// operand stores them the other way round.
Value gemmView(OpBuilder &b, Location loc, Value operand, AffineMap map,
               unsigned row, unsigned col, ArrayRef<Value> outerIvs,
               ArrayRef<unsigned> outer) {
  auto type = cast<MemRefType>(operand.getType());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<unsigned> kept;
  SmallVector<int64_t> keptShape;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    strides.push_back(b.getIndexAttr(1));
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (dim && (dim.getPosition() == row || dim.getPosition() == col)) {
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(memref::getMixedSize(b, loc, operand, i));
      kept.push_back(dim.getPosition());
      keptShape.push_back(type.getDimSize(i));
      continue;
    }
    sizes.push_back(b.getIndexAttr(1));
    if (!dim) {
      offsets.push_back(b.getIndexAttr(0));
      continue;
    }
    auto it = llvm::find(outer, dim.getPosition());
    offsets.push_back(outerIvs[it - outer.begin()]);
  }
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      keptShape, type, offsets, sizes, strides);
  Value view = memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType),
                                         operand, offsets, sizes, strides);
  if (kept.front() != row) {
    AffineMap swap =
        AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, b.getContext());
    view = memref::TransposeOp::create(b, loc, view, AffineMapAttr::get(swap));
  }
  auto anyStrides = MemRefType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             {ShapedType::kDynamic, ShapedType::kDynamic}));
  return memref::CastOp::create(b, loc, anyStrides, view);
}

/// Whether `buffer` is (a view of) a constant global: memory the program
/// never writes, so that its contents are the same at every call.
bool isConstantGlobal(Value buffer, SymbolTable &symbols) {
  // memref.transpose is a view too, but not a ViewLikeOpInterface.
  while (true) {
    if (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
      buffer = view.getViewSource();
    else if (auto transpose = buffer.getDefiningOp<memref::TransposeOp>())
      buffer = transpose.getIn();
    else
      break;
  }
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return false;
  auto global = symbols.lookup<memref::GlobalOp>(get.getName());
  return global && global.getConstant();
}

struct CPUDispatchBLASPass
    : rlx::impl::CPUDispatchBLASPassBase<CPUDispatchBLASPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::GenericOp, GemmLoops>> gemms;
    module.walk([&](linalg::GenericOp op) {
      if (!op.hasPureBufferSemantics())
        return;
      std::optional<GemmLoops> loops = rlx::matchGemmLoops(op);
      if (!loops)
        return;
      bool isFloat =
          isa<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0].getType()));
      if (isFloat ? floatGemms : int8Gemms)
        gemms.emplace_back(op, *loops);
    });
    SymbolTable symbols(module);
    for (auto &[op, loops] : gemms) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      // One slot holds B packed from one view: B's view must not move with
      // the outer loops (a broadcast B does not; a batched one does).
      bool constantB =
          element.isInteger(32) &&
          isConstantGlobal(op.getDpsInputs()[1], symbols) &&
          llvm::none_of(loops.outer, [&](unsigned d) {
            return maps[1].isFunctionOfDim(d);
          });
      FlatSymbolRefAttr callee = declareGemm(module, element, constantB);
      Value slot;
      if (constantB)
        slot = createSlot(b, loc, module, symbols);
      SmallVector<Range, 4> ranges =
          cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
      SmallVector<Value> lbs, ubs, steps;
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      for (unsigned d : loops.outer) {
        lbs.push_back(zero);
        ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[d].size));
        steps.push_back(one);
      }
      auto emitCall = [&](OpBuilder &nb, Location l, ValueRange ivs) {
        SmallVector<Value> ivList(ivs.begin(), ivs.end());
        Value a = gemmView(nb, l, op.getDpsInputs()[0], maps[0], loops.m,
                           loops.k, ivList, loops.outer);
        Value bm = gemmView(nb, l, op.getDpsInputs()[1], maps[1], loops.k,
                            loops.n, ivList, loops.outer);
        Value c = gemmView(nb, l, op.getDpsInits()[0], maps[2], loops.m,
                           loops.n, ivList, loops.outer);
        SmallVector<Value> args = {a, bm, c};
        if (slot)
          args.push_back(slot);
        func::CallOp::create(nb, l, callee, TypeRange{}, args);
      };
      if (loops.outer.empty())
        emitCall(b, loc, {});
      else
        scf::buildLoopNest(b, loc, lbs, ubs, steps, emitCall);
      op.erase();
    }
  }

  /// A fresh zero i64 global for one call site of
  /// rlx_cpu_gemm_s8_constant_b, and its memref in the function.
  Value createSlot(OpBuilder &b, Location loc, ModuleOp module,
                   SymbolTable &symbols) {
    auto type = MemRefType::get({1}, b.getI64Type());
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto global = memref::GlobalOp::create(
        top, loc, "rlx_gemm_s8_slot", top.getStringAttr("private"), type,
        DenseElementsAttr::get(RankedTensorType::get({1}, b.getI64Type()),
                               b.getI64IntegerAttr(0)),
        /*constant=*/false, /*alignment=*/nullptr);
    symbols.insert(global);
    return memref::GetGlobalOp::create(b, loc, type, global.getSymName());
  }

  /// Declares `rlx_cpu_sgemm`, `rlx_cpu_dgemm`, `rlx_cpu_gemm_s8` or
  /// `rlx_cpu_gemm_s8_constant_b` (with a C interface taking three 2-D
  /// strided memrefs, and the slot for the last) once per module.
  FlatSymbolRefAttr declareGemm(ModuleOp module, Type element,
                                bool constantB) {
    StringRef name = element.isF32()   ? "rlx_cpu_sgemm"
                     : element.isF64() ? "rlx_cpu_dgemm"
                     : constantB       ? "rlx_cpu_gemm_s8_constant_b"
                                       : "rlx_cpu_gemm_s8";
    MLIRContext *ctx = module.getContext();
    if (!module.lookupSymbol(name)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      auto viewOf = [&](Type t) {
        return MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic}, t,
                               StridedLayoutAttr::get(ctx, ShapedType::kDynamic,
                                                      {ShapedType::kDynamic,
                                                       ShapedType::kDynamic}));
      };
      Type input = element.isInteger(32) ? b.getI8Type() : element;
      SmallVector<Type> params = {viewOf(input), viewOf(input),
                                  viewOf(element)};
      if (constantB)
        params.push_back(MemRefType::get({1}, b.getI64Type()));
      auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                     FunctionType::get(ctx, params, {}));
      fn.setPrivate();
      fn->setAttr("llvm.emit_c_interface", UnitAttr::get(ctx));
    }
    return FlatSymbolRefAttr::get(ctx, name);
  }
};

} // namespace
