//===- GPUDispatchMatmul.cpp - matmuls to the GPU runtime's library ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' kernel-dispatch policy on the GPU: each matmul that the runtime's
// library matmul computes (with its bias and activation as the epilogue) is
// outlined into a private function tagged `rlx.library_matmul`
// (RuntimeKernels.h), which bufferizes like any other function; after
// bufferization, rlx-gpu-call-runtime-kernels replaces the calls by calls to
// the runtime's rlxGpuMatmul. Outlining at the MIR level keeps the bias and
// activation visible, which the linalg lowering expands.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUDISPATCHMATMULPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// A matmul as the library computes it: `batch` row-major products of
/// m x k and k x n, with an epilogue; `after` is an activation the library
/// lacks, applied to its result by a generated kernel.
struct LibraryMatmul {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool transposeA = false, transposeB = false;
  StringRef epilogue;
  Activation after = Activation::None;
};

/// The element types the library matmul takes (f32 accumulation in each).
bool libraryElementType(Type t) { return t.isF32() || t.isBF16() || t.isF16(); }

/// `matmul(lhs, rhs)` (the operands as rlx.matmul's) as the library's
/// problem, or the reason it is not one.
FailureOr<LibraryMatmul> matchShapes(Value lhs, Value rhs, bool transposeA,
                                     bool transposeB, Value result,
                                     std::string &reason) {
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  auto out = cast<RankedTensorType>(result.getType());
  if (!libraryElementType(out.getElementType()) ||
      lt.getElementType() != out.getElementType()) {
    llvm::raw_string_ostream(reason)
        << "element type " << out.getElementType()
        << " (the library matmul takes f32, bf16 and f16)";
    return failure();
  }
  if (!lt.hasStaticShape() || !rt.hasStaticShape()) {
    reason = "dynamic shape";
    return failure();
  }
  ArrayRef<int64_t> ls = lt.getShape(), rs = rt.getShape();
  LibraryMatmul mm;
  mm.transposeA = transposeA;
  mm.transposeB = transposeB;
  mm.n = transposeB ? rs[rs.size() - 2] : rs.back();
  mm.k = transposeB ? rs.back() : rs[rs.size() - 2];
  if (rs.size() == 2 && !transposeA) {
    // A weight shared by every row: the lhs's leading dims are rows of one
    // product.
    mm.m = lt.getNumElements() / mm.k;
  } else if (ls.size() == rs.size() && ls.drop_back(2) == rs.drop_back(2)) {
    mm.m = transposeA ? ls.back() : ls[ls.size() - 2];
    for (int64_t d : ls.drop_back(2))
      mm.batch *= d;
  } else {
    reason = "batch dims that broadcast";
    return failure();
  }
  if (mm.m * mm.n * mm.k * mm.batch == 0) {
    reason = "an empty product";
    return failure();
  }
  return mm;
}

/// The library's epilogue for an optional bias and `activation`: ReLU and
/// the tanh GELU are epilogues; another activation runs after the call.
void setEpilogue(LibraryMatmul &mm, bool bias, Activation activation) {
  switch (activation) {
  case Activation::None:
    mm.epilogue = bias ? "bias" : "none";
    return;
  case Activation::Relu:
    mm.epilogue = bias ? "relu_bias" : "relu";
    return;
  case Activation::GeluTanh:
    mm.epilogue = bias ? "gelu_bias" : "gelu";
    return;
  default:
    mm.epilogue = bias ? "bias" : "none";
    mm.after = activation;
  }
}

FailureOr<LibraryMatmul> match(Operation *op, std::string &reason) {
  if (auto mm = dyn_cast<MatmulOp>(op)) {
    FailureOr<LibraryMatmul> m =
        matchShapes(mm.getLhs(), mm.getRhs(), mm.getTransposeA(),
                    mm.getTransposeB(), mm.getResult(), reason);
    if (succeeded(m))
      setEpilogue(*m, /*bias=*/false, Activation::None);
    return m;
  }
  auto fused = cast<FusedMatmulBiasActOp>(op);
  FailureOr<LibraryMatmul> m =
      matchShapes(fused.getLhs(), fused.getRhs(), /*transposeA=*/false,
                  fused.getTransposeB(), fused.getResult(), reason);
  if (succeeded(m))
    setEpilogue(*m, fused.getBias() != nullptr, fused.getActivation());
  return m;
}

struct GPUDispatchMatmulPass
    : rlx::impl::GPUDispatchMatmulPassBase<GPUDispatchMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      auto fn = op->getParentOfType<func::FuncOp>();
      if (isa<MatmulOp, FusedMatmulBiasActOp>(op) && fn &&
          !isInRuntimeKernelFunction(op))
        ops.push_back(op);
    });
    SymbolTable symbols(module);
    for (Operation *op : ops) {
      std::string reason;
      FailureOr<LibraryMatmul> mm = match(op, reason);
      if (failed(mm)) {
        if (report)
          op->emitRemark() << "matmul: generated kernel (" << reason << ")";
        continue;
      }
      if (report) {
        InFlightDiagnostic remark = op->emitRemark();
        remark << "matmul: library "
               << getElementTypeOrSelf(op->getResult(0).getType()) << " "
               << mm->batch << "x" << mm->m << "x" << mm->n << "x" << mm->k
               << " (batch x m x n x k), epilogue " << mm->epilogue;
        if (mm->after != Activation::None)
          remark << ", then " << stringifyActivation(mm->after)
                 << " as a generated kernel";
      }
      outline(op, *mm, symbols);
    }
  }

  /// Moves `op` (its activation left out when the library lacks it) into a
  /// private function tagged with the problem, called in its place.
  void outline(Operation *op, const LibraryMatmul &mm, SymbolTable &symbols) {
    OpBuilder b(op);
    NamedAttribute problem[] = {
        b.getNamedAttr("epilogue", b.getStringAttr(mm.epilogue)),
        b.getNamedAttr("transpose_a", b.getBoolAttr(mm.transposeA)),
        b.getNamedAttr("transpose_b", b.getBoolAttr(mm.transposeB)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(mm.batch)),
        b.getNamedAttr("m", b.getI64IntegerAttr(mm.m)),
        b.getNamedAttr("n", b.getI64IntegerAttr(mm.n)),
        b.getNamedAttr("k", b.getI64IntegerAttr(mm.k))};
    IRMapping clones;
    func::CallOp call = outlineForRuntimeKernel(
        op, op->getOperands(), op->getResults(), "rlx_library_matmul",
        kLibraryMatmulTag, b.getDictionaryAttr(problem), symbols, clones);
    Value result = call.getResult(0);
    if (mm.after != Activation::None) {
      cast<FusedMatmulBiasActOp>(clones.lookup(op))
          .setActivation(Activation::None);
      b.setInsertionPointAfter(call);
      result = buildActivation(b, op->getLoc(), result, mm.after);
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
};

} // namespace
