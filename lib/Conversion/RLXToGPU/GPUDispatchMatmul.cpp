//===- GPUDispatchMatmul.cpp - matmuls to the GPU runtime's library ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' kernel-dispatch policy on the GPU: each matmul that the runtime's
// library matmul computes (with its bias and activation as the epilogue;
// int8 products; fp8-weight products with the activations quantized at the
// call) is outlined into a private function tagged `rlx.library_matmul`
// (RuntimeKernels.h), which bufferizes like any other function; after
// bufferization, rlx-gpu-call-runtime-kernels replaces the calls by calls to
// the runtime's rlxGpuMatmul or rlxGpuMatmulFp8. Outlining at the MIR level
// keeps the bias and activation visible, which the linalg lowering expands.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

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
  /// For rlxGpuMatmulFp8: the weight's format ("e4m3", "e5m2") and the
  /// scaling ("tensor", "channel"); empty for rlxGpuMatmul.
  StringRef fp8Weight, fp8Scaling;
};

/// The float element types the library matmul takes (f32 accumulation in
/// each).
bool libraryElementType(Type t) { return t.isF32() || t.isBF16() || t.isF16(); }

/// `matmul(lhs, rhs)` (the operands as rlx.matmul's) as the library's
/// problem, or the reason it is not one.
FailureOr<LibraryMatmul> matchShapes(Value lhs, Value rhs, bool transposeA,
                                     bool transposeB, std::string &reason) {
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
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

/// Whether the float `lhs` and `result` are of one type the library takes.
bool matchFloatTypes(Value lhs, Value result, std::string &reason) {
  Type in = getElementTypeOrSelf(lhs.getType());
  Type out = getElementTypeOrSelf(result.getType());
  if (libraryElementType(out) && in == out)
    return true;
  llvm::raw_string_ostream(reason)
      << "element type " << out
      << " (the library matmul takes f32, bf16 and f16)";
  return false;
}

FailureOr<LibraryMatmul> match(Operation *op, std::string &reason) {
  if (auto mm = dyn_cast<MatmulOp>(op)) {
    if (!matchFloatTypes(mm.getLhs(), mm.getResult(), reason))
      return failure();
    FailureOr<LibraryMatmul> m =
        matchShapes(mm.getLhs(), mm.getRhs(), mm.getTransposeA(),
                    mm.getTransposeB(), reason);
    if (succeeded(m))
      setEpilogue(*m, /*bias=*/false, Activation::None);
    return m;
  }
  auto fused = cast<FusedMatmulBiasActOp>(op);
  if (!matchFloatTypes(fused.getLhs(), fused.getResult(), reason))
    return failure();
  FailureOr<LibraryMatmul> m =
      matchShapes(fused.getLhs(), fused.getRhs(), /*transposeA=*/false,
                  fused.getTransposeB(), reason);
  if (succeeded(m))
    setEpilogue(*m, fused.getBias() != nullptr, fused.getActivation());
  return m;
}

/// An int8 product as the library's (which multiplies the lhs by the
/// transposed rhs; the pass transposes operands in the other layout) with
/// K a multiple of `kMultiple`, or the reason it is not one.
FailureOr<LibraryMatmul> matchInt8(Int8MatmulOp op, int64_t kMultiple,
                                   std::string &reason) {
  FailureOr<LibraryMatmul> m = matchShapes(
      op.getLhs(), op.getRhs(), op.getTransposeA(), op.getTransposeB(), reason);
  if (failed(m))
    return failure();
  m->transposeA = false;
  m->transposeB = true;
  if (m->k % kMultiple != 0) {
    reason = "K = " + std::to_string(m->k) + ", not a multiple of " +
             std::to_string(kMultiple);
    return failure();
  }
  m->epilogue = "none";
  return m;
}

/// An fp8-weight dequant_matmul as rlxGpuMatmulFp8's problem, with K a
/// multiple of `kMultiple` and N of `nMultiple`, or the reason it is not
/// one (not an fp8 scheme: empty).
FailureOr<LibraryMatmul> matchFp8(DequantMatmulOp op, int64_t kMultiple,
                                  int64_t nMultiple, std::string &reason) {
  QuantKind kind = op.getScheme().getKind();
  if (kind != QuantKind::Fp8E4M3 && kind != QuantKind::Fp8E5M2)
    return failure();
  if (!matchFloatTypes(op.getInput(), op.getResult(), reason))
    return failure();
  auto x = cast<RankedTensorType>(op.getInput().getType());
  auto w = cast<RankedTensorType>(op.getWeight().getType());
  if (!x.hasStaticShape() || !w.hasStaticShape()) {
    reason = "dynamic shape";
    return failure();
  }
  LibraryMatmul m;
  m.n = w.getDimSize(0);
  m.k = w.getDimSize(1);
  m.m = x.getNumElements() / m.k;
  m.transposeB = true;
  m.epilogue = "none";
  if (m.k % kMultiple != 0 || m.n % nMultiple != 0) {
    reason = "K = " + std::to_string(m.k) + ", N = " + std::to_string(m.n) +
             " (the fp8 library needs K a multiple of " +
             std::to_string(kMultiple) + " and N of " +
             std::to_string(nMultiple) + ")";
    return failure();
  }
  if (m.m == 0) {
    reason = "an empty product";
    return failure();
  }
  m.fp8Weight = kind == QuantKind::Fp8E4M3 ? "e4m3" : "e5m2";
  // One splat scale is a per-tensor scale: the faster per-tensor kernels.
  DenseElementsAttr scale;
  bool splat = matchPattern(op.getParams().front(), m_Constant(&scale)) &&
               scale.isSplat();
  m.fp8Scaling = splat ? "tensor" : "channel";
  return m;
}

struct GPUDispatchMatmulPass
    : rlx::impl::GPUDispatchMatmulPassBase<GPUDispatchMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (fp8Activations && !fp8Library) {
      module.emitError("rlx-gpu-dispatch-matmul: fp8-activations needs a "
                       "runtime with fp8 matmuls (fp8-library)");
      return signalPassFailure();
    }
    if (int8KMultiple < 1 || fp8KMultiple < 1 || fp8NMultiple < 1) {
      module.emitError("rlx-gpu-dispatch-matmul: int8-k-multiple, "
                       "fp8-k-multiple and fp8-n-multiple must be positive");
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      auto fn = op->getParentOfType<func::FuncOp>();
      bool candidate = isa<MatmulOp, FusedMatmulBiasActOp>(op) ||
                       (int8Library && isa<Int8MatmulOp>(op)) ||
                       (fp8Activations && isa<DequantMatmulOp>(op));
      if (candidate && fn && !isInRuntimeKernelFunction(op))
        ops.push_back(op);
    });
    SymbolTable symbols(module);
    for (Operation *op : ops) {
      std::string reason;
      FailureOr<LibraryMatmul> mm = matchAny(op, reason);
      if (failed(mm)) {
        // A dequant_matmul of another scheme is no fp8 candidate.
        if (report && !reason.empty())
          op->emitRemark() << "matmul: generated kernel (" << reason << ")";
        continue;
      }
      if (report) {
        InFlightDiagnostic remark = op->emitRemark();
        remark << "matmul: library ";
        if (!mm->fp8Weight.empty())
          remark << "fp8 " << mm->fp8Weight << " per " << mm->fp8Scaling
                 << ", ";
        remark << getElementTypeOrSelf(op->getResult(0).getType()) << " "
               << mm->batch << "x" << mm->m << "x" << mm->n << "x" << mm->k
               << " (batch x m x n x k), epilogue " << mm->epilogue;
        if (mm->after != Activation::None)
          remark << ", then " << stringifyActivation(mm->after)
                 << " as a generated kernel";
      }
      if (auto int8 = dyn_cast<Int8MatmulOp>(op))
        op = transposeForLibrary(int8);
      outline(op, *mm, symbols);
    }
  }

  FailureOr<LibraryMatmul> matchAny(Operation *op, std::string &reason) {
    if (auto int8 = dyn_cast<Int8MatmulOp>(op))
      return matchInt8(int8, int8KMultiple, reason);
    if (auto dequant = dyn_cast<DequantMatmulOp>(op))
      return matchFp8(dequant, fp8KMultiple, fp8NMultiple, reason);
    return match(op, reason);
  }

  /// `op` with its lhs untransposed and its rhs transposed, as the library
  /// reads them: an operand in the other layout is transposed first.
  static Int8MatmulOp transposeForLibrary(Int8MatmulOp op) {
    if (!op.getTransposeA() && op.getTransposeB())
      return op;
    OpBuilder b(op);
    auto swapLast = [&](Value v) {
      int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
      SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
      std::swap(perm[rank - 2], perm[rank - 1]);
      return TransposeOp::create(b, op.getLoc(), v, perm).getResult();
    };
    Value lhs = op.getTransposeA() ? swapLast(op.getLhs()) : op.getLhs();
    Value rhs = op.getTransposeB() ? op.getRhs() : swapLast(op.getRhs());
    auto tn = Int8MatmulOp::create(b, op.getLoc(), lhs, rhs,
                                   /*transpose_a=*/false, /*transpose_b=*/true);
    op.getResult().replaceAllUsesWith(tn.getResult());
    op.erase();
    return tn;
  }

  /// Moves `op` (its activation left out when the library lacks it) into a
  /// private function tagged with the problem, called in its place.
  void outline(Operation *op, const LibraryMatmul &mm, SymbolTable &symbols) {
    OpBuilder b(op);
    SmallVector<NamedAttribute> problem = {
        b.getNamedAttr("epilogue", b.getStringAttr(mm.epilogue)),
        b.getNamedAttr("transpose_a", b.getBoolAttr(mm.transposeA)),
        b.getNamedAttr("transpose_b", b.getBoolAttr(mm.transposeB)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(mm.batch)),
        b.getNamedAttr("m", b.getI64IntegerAttr(mm.m)),
        b.getNamedAttr("n", b.getI64IntegerAttr(mm.n)),
        b.getNamedAttr("k", b.getI64IntegerAttr(mm.k))};
    if (!mm.fp8Weight.empty()) {
      problem.push_back(
          b.getNamedAttr("fp8_weight", b.getStringAttr(mm.fp8Weight)));
      problem.push_back(
          b.getNamedAttr("fp8_scaling", b.getStringAttr(mm.fp8Scaling)));
    }
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
