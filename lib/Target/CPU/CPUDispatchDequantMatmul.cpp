//===- CPUDispatchDequantMatmul.cpp - GGUF matmuls as runtime calls -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An f32 rlx.dequant_matmul of a GGUF scheme runs on the CPU runtime's
// rlx_cpu_dequant_matmul (lib/Runtime/CPU/CPUDequantMatmul.cpp), which
// decodes the weight tile by tile in the cache: the linalg lowering writes
// the whole decoded weight to memory first, 4 bytes per weight where the
// packed one has 0.5 to 1, and a decoder at batch 1 is bound by the bytes
// it reads. As on the GPU (rlx-gpu-dispatch-matmul), the dispatch takes two
// steps: before the linalg lowering the op moves into a private function
// tagged with the scheme, which lowers and bufferizes like any other; after
// bufferization, rlx-cpu-call-dequant-matmul replaces that function's body
// by the runtime call. Its callers are untouched, and without the second
// pass the function still computes the product.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/BufferAddress.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Runtime/CPU/CPUDequantMatmul.h"
#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUOUTLINEDEQUANTMATMULPASS
#define GEN_PASS_DEF_CPUCALLDEQUANTMATMULPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// The tag of a function outlined for rlx_cpu_dequant_matmul: its scheme's
/// RlxCpuDequantScheme code.
constexpr llvm::StringLiteral kDequantMatmulTag = "rlx.cpu_dequant_matmul";
constexpr llvm::StringLiteral kRuntimeFunction = "rlx_cpu_dequant_matmul";

/// The runtime's code for `kind`, if it decodes it.
std::optional<int32_t> runtimeScheme(QuantKind kind) {
  switch (kind) {
  case QuantKind::GgufQ4_0:
    return RLX_CPU_DEQUANT_Q4_0;
  case QuantKind::GgufQ8_0:
    return RLX_CPU_DEQUANT_Q8_0;
  case QuantKind::GgufQ4K:
    return RLX_CPU_DEQUANT_Q4_K;
  case QuantKind::GgufQ5K:
    return RLX_CPU_DEQUANT_Q5_K;
  case QuantKind::GgufQ6K:
    return RLX_CPU_DEQUANT_Q6_K;
  case QuantKind::GgufQ8K:
    return RLX_CPU_DEQUANT_Q8_K;
  default:
    return std::nullopt;
  }
}

/// The [M, K] type `op`'s input is multiplied as (leading dims folded into
/// M), or null where the runtime cannot take the op: f32 only, K and N
/// static, and a rank above 2 only with static leading dims.
RankedTensorType rowsType(DequantMatmulOp op) {
  auto x = cast<RankedTensorType>(op.getInput().getType());
  auto w = cast<RankedTensorType>(op.getWeight().getType());
  if (!x.getElementType().isF32() || x.getRank() < 2 ||
      ShapedType::isDynamic(x.getShape().back()) || w.isDynamicDim(0))
    return nullptr;
  ArrayRef<int64_t> leading = x.getShape().drop_back();
  if (x.getRank() > 2 && ShapedType::isDynamicShape(leading))
    return nullptr;
  int64_t m =
      leading.size() == 1 ? leading[0] : ShapedType::getNumElements(leading);
  return RankedTensorType::get({m, x.getShape().back()}, x.getElementType());
}

struct CPUOutlineDequantMatmulPass
    : rlx::impl::CPUOutlineDequantMatmulPassBase<CPUOutlineDequantMatmulPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<DequantMatmulOp> ops;
    module.walk([&](DequantMatmulOp op) {
      auto fn = op->getParentOfType<func::FuncOp>();
      if (fn && !fn->hasAttr(kDequantMatmulTag) &&
          runtimeScheme(op.getScheme().getKind()) && rowsType(op))
        ops.push_back(op);
    });
    // One function per scheme and types: a model's layers share a few.
    llvm::DenseMap<std::pair<Attribute, Type>, func::FuncOp> outlined;
    for (DequantMatmulOp op : ops) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      RankedTensorType rows = rowsType(op);
      auto result = cast<RankedTensorType>(op.getType());
      auto rowsResult =
          RankedTensorType::get({rows.getDimSize(0), result.getShape().back()},
                                result.getElementType());
      auto type =
          b.getFunctionType({rows, op.getWeight().getType()}, {rowsResult});
      func::FuncOp &fn = outlined[{op.getScheme(), type}];
      if (!fn)
        fn = outline(op, type, symbols);
      Value x = op.getInput();
      if (x.getType() != rows)
        x = ReshapeOp::create(b, loc, rows, x);
      auto call =
          func::CallOp::create(b, loc, fn, ValueRange{x, op.getWeight()});
      Value y = call.getResult(0);
      if (y.getType() != result)
        y = ReshapeOp::create(b, loc, result, y);
      op.replaceAllUsesWith(y);
      op.erase();
    }
  }

  /// A private function of `type` computing `op`'s product on [M, K] rows,
  /// tagged with its scheme, before `op`'s function.
  func::FuncOp outline(DequantMatmulOp op, FunctionType type,
                       SymbolTable &symbols) {
    auto parent = op->getParentOfType<func::FuncOp>();
    OpBuilder b(parent);
    Location loc = op.getLoc();
    std::string name =
        ("rlx_dequant_matmul_" + stringifyQuantKind(op.getScheme().getKind()))
            .str();
    auto fn = func::FuncOp::create(b, loc, name, type);
    fn.setPrivate();
    symbols.insert(fn);
    fn->setAttr(kDequantMatmulTag,
                b.getI32IntegerAttr(*runtimeScheme(op.getScheme().getKind())));
    Block *body = fn.addEntryBlock();
    b.setInsertionPointToStart(body);
    auto product = DequantMatmulOp::create(
        b, loc, type.getResult(0), body->getArgument(0), body->getArgument(1),
        ValueRange{}, op.getScheme());
    func::ReturnOp::create(b, loc, product.getResult());
    return fn;
  }
};

struct CPUCallDequantMatmulPass
    : rlx::impl::CPUCallDequantMatmulPassBase<CPUCallDequantMatmulPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>()) {
      auto scheme = fn->getAttrOfType<IntegerAttr>(kDequantMatmulTag);
      if (!scheme)
        continue;
      if (failed(callRuntime(fn, scheme.getInt())))
        return signalPassFailure();
      fn->removeAttr(kDequantMatmulTag);
    }
  }

  /// Replaces the body of `fn` (x [M, K], packed [N, bytes]) -> [M, N] on
  /// identity-layout buffers by a fresh result buffer that
  /// rlx_cpu_dequant_matmul fills.
  LogicalResult callRuntime(func::FuncOp fn, int32_t scheme) {
    FunctionType type = fn.getFunctionType();
    auto isRowMajor = [](Type t) {
      auto memref = dyn_cast<MemRefType>(t);
      return memref && memref.getRank() == 2 && memref.getLayout().isIdentity();
    };
    if (fn.isExternal() || type.getNumInputs() != 2 ||
        type.getNumResults() != 1 ||
        !llvm::all_of(type.getInputs(), isRowMajor) ||
        !isRowMajor(type.getResult(0)))
      return fn.emitOpError("tagged ")
             << kDequantMatmulTag
             << " must take two row-major 2-D buffers and return one "
                "(run after bufferization)";
    Block &body = fn.front();
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
      op.dropAllDefinedValueUses();
      op.erase();
    }
    auto b = OpBuilder::atBlockEnd(&body);
    Location loc = fn.getLoc();
    Value x = body.getArgument(0), packed = body.getArgument(1);
    auto resultType = cast<MemRefType>(type.getResult(0));
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, x, 0));
    Value out = memref::AllocOp::create(b, loc, resultType, dynamicSizes,
                                        b.getI64IntegerAttr(64));
    auto extent = [&](Value buffer, int64_t dim) -> Value {
      Value size = memref::DimOp::create(b, loc, buffer, dim);
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
    };
    Value xAddress = rlx::alignedPointer(b, loc, x);
    Value m = extent(x, 0);
    Value k = extent(x, 1);
    Value packedAddress = rlx::alignedPointer(b, loc, packed);
    Value n = extent(packed, 0);
    Value outAddress = rlx::alignedPointer(b, loc, out);
    Value code = arith::ConstantIntOp::create(b, loc, scheme, 32);
    auto callee = declareRuntimeFunction(fn->getParentOfType<ModuleOp>());
    func::CallOp::create(
        b, loc, callee,
        ValueRange{xAddress, m, k, packedAddress, n, outAddress, code});
    func::ReturnOp::create(b, loc, out);
    return success();
  }

  /// Declares rlx_cpu_dequant_matmul (CPUDequantMatmul.h) once.
  func::FuncOp declareRuntimeFunction(ModuleOp module) {
    if (auto fn = module.lookupSymbol<func::FuncOp>(kRuntimeFunction))
      return fn;
    auto b = OpBuilder::atBlockBegin(module.getBody());
    Type ptr = LLVM::LLVMPointerType::get(b.getContext());
    Type i64 = b.getI64Type();
    auto type =
        b.getFunctionType({ptr, i64, i64, ptr, i64, ptr, b.getI32Type()}, {});
    auto fn = func::FuncOp::create(b, module.getLoc(), kRuntimeFunction, type);
    fn.setPrivate();
    return fn;
  }
};

} // namespace
