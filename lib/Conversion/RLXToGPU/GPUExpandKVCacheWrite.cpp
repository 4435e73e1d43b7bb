//===- GPUExpandKVCacheWrite.cpp - KV-cache writes as a copy kernel -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The second half of rlx.kv_cache_write on a GPU (rlx-gpu-dispatch-decode
// is the first): one thread per element of the new rows reads the position
// from device memory and stores the element into the cache. The cache is
// the caller's own buffer where one-shot bufferization found the write in
// place (the function's result was its argument, dropped by
// drop-equivalent-buffer-results), so a step writes the new rows and
// nothing else, with no host read of the position.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"


namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUEXPANDKVCACHEWRITEPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;

namespace {

/// cache[..., position + s, ...] = update[..., s, ...] for every element of
/// `update`, one thread each; rows past the cache are not written.
void writeRows(ImplicitLocOpBuilder &b, Operation *at, Value cache,
               Value update, Value position, int64_t axis, int64_t blockSize) {
  auto cacheType = cast<MemRefType>(cache.getType());
  OpBuilder::InsertionGuard guard(b);
  std::optional<SmallVector<Value>> element = launchPerElement(
      b, at, cast<MemRefType>(update.getType()).getShape(), blockSize);
  if (!element)
    return;
  SmallVector<Value> point = *element;
  Value start = arith::IndexCastOp::create(
      b, b.getIndexType(), memref::LoadOp::create(b, position, ValueRange{}));
  Value row = arith::AddIOp::create(b, start, point[axis]);
  // Unsigned: a negative position is past any bound.
  auto valid =
      scf::IfOp::create(b, inRange(b, row, cacheType.getDimSize(axis)));
  b.setInsertionPointToStart(&valid.getThenRegion().front());
  Value v = memref::LoadOp::create(b, update, point);
  SmallVector<Value> place(point);
  place[axis] = row;
  memref::StoreOp::create(b, v, cache, place);
}

struct GPUExpandKVCacheWritePass
    : rlx::impl::GPUExpandKVCacheWritePassBase<GPUExpandKVCacheWritePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto [call, problem] :
         callsOfTaggedFunctions(module, kKVCacheWriteTag)) {
      int64_t axis = cast<IntegerAttr>(problem.get("axis")).getInt();
      if (call.getNumOperands() != 3 || call.getNumResults() != 0 ||
          !llvm::all_of(call.getOperandTypes(), llvm::IsaPred<MemRefType>)) {
        call.emitOpError("expected (cache, update, position) buffers: run "
                         "after bufferization with equivalent results "
                         "dropped");
        return signalPassFailure();
      }
      // One thread per element: the grid is fixed at compile time.
      if (!cast<MemRefType>(call.getOperand(1).getType()).hasStaticShape() ||
          !cast<MemRefType>(call.getOperand(0).getType()).hasStaticShape()) {
        call.emitOpError("writes a KV cache of dynamic shape; the copy "
                         "kernel takes static shapes");
        return signalPassFailure();
      }
      ImplicitLocOpBuilder b(call.getLoc(), call);
      writeRows(b, call, call.getOperand(0), call.getOperand(1),
                call.getOperand(2), axis, blockSize);
      call.erase();
    }
    eraseTaggedFunctions(module, kKVCacheWriteTag);
  }
};

} // namespace
