//===- GPUExpandScatterAdd.cpp - scatter-adds as atomic kernels -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The second half of rlx.scatter_add on a GPU (rlx-gpu-outline-scatter-add
// is the first): the result is the base copied, then every element of the
// updates added at its place with an atomic add, one thread each. Atomics
// rather than a sort and a segment sum: one pass over the updates, which is
// what an embedding's gradient (few repeats among many rows) needs; upstream
// lowers memref.atomic_rmw to each GPU's atomics.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"


namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUEXPANDSCATTERADDPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;

namespace {

/// out = base, as a generic that rlx-gpu-map-linalg maps to a kernel.
void copyInto(ImplicitLocOpBuilder &b, Value base, Value out) {
  int64_t rank = cast<MemRefType>(out.getType()).getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, TypeRange{}, ValueRange{base}, ValueRange{out},
      ArrayRef<AffineMap>{id, id}, parallel,
      [](OpBuilder &nb, Location loc, ValueRange args) {
        linalg::YieldOp::create(nb, loc, args[0]);
      });
}

/// out[..., indices[j], ...] += updates[..., j, ...] for every element of
/// `updates`, one thread each, skipping indices outside out's axis.
void addAtomically(ImplicitLocOpBuilder &b, Operation *at, Value indices,
                   Value updates, Value out, int64_t axis,
                   int64_t blockSize) {
  auto updType = cast<MemRefType>(updates.getType());
  auto outType = cast<MemRefType>(out.getType());
  OpBuilder::InsertionGuard guard(b);
  std::optional<SmallVector<Value>> element =
      launchPerElement(b, at, updType.getShape(), blockSize);
  if (!element)
    return;
  SmallVector<Value> point = *element;
  Value row = arith::IndexCastOp::create(
      b, b.getIndexType(), memref::LoadOp::create(b, indices, point[axis]));
  // Unsigned: a negative index is past any bound.
  auto valid = scf::IfOp::create(b, inRange(b, row, outType.getDimSize(axis)));
  b.setInsertionPointToStart(&valid.getThenRegion().front());
  Value v = memref::LoadOp::create(b, updates, point);
  SmallVector<Value> place(point);
  place[axis] = row;
  auto kind = isa<FloatType>(updType.getElementType())
                  ? arith::AtomicRMWKind::addf
                  : arith::AtomicRMWKind::addi;
  memref::AtomicRMWOp::create(b, kind, v, out, place);
}

struct GPUExpandScatterAddPass
    : rlx::impl::GPUExpandScatterAddPassBase<GPUExpandScatterAddPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto [call, problem] :
         callsOfTaggedFunctions(module, kScatterAddTag)) {
      int64_t axis = cast<IntegerAttr>(problem.get("axis")).getInt();
      if (call.getNumOperands() != 4 || call.getNumResults() != 0) {
        call.emitOpError("expected (base, indices, updates, out) buffers: "
                         "run after bufferization with results as "
                         "out-parameters");
        return signalPassFailure();
      }
      ImplicitLocOpBuilder b(call.getLoc(), call);
      Value temporary = call.getOperand(3);
      Value out = elideResultCopy(call);
      copyInto(b, call.getOperand(0), out);
      addAtomically(b, call, call.getOperand(1), call.getOperand(2), out, axis,
                    blockSize);
      call.erase();
      if (Operation *alloc = temporary.getDefiningOp();
          alloc && alloc->use_empty())
        alloc->erase();
    }
    eraseTaggedFunctions(module, kScatterAddTag);
  }
};

} // namespace
