//===- RuntimeKernels.cpp - ops outlined for the GPU runtime's kernels ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

bool rlx::isInRuntimeKernelFunction(Operation *op) {
  auto fn = op->getParentOfType<func::FuncOp>();
  return fn &&
         (fn->hasAttr(kLibraryMatmulTag) || fn->hasAttr(kFlashAttentionTag) ||
          fn->hasAttr(kScatterAddTag) || fn->hasAttr(kDecodeAttentionTag) ||
          fn->hasAttr(kKVCacheWriteTag));
}

func::CallOp rlx::outlineForRuntimeKernel(ArrayRef<Operation *> ops,
                                          ValueRange args, ValueRange results,
                                          StringRef name, StringRef tag,
                                          DictionaryAttr problem,
                                          SymbolTable &symbols,
                                          IRMapping &map) {
  MLIRContext *ctx = ops.front()->getContext();
  Location loc = ops.back()->getLoc();
  auto fn = func::FuncOp::create(
      loc, name, FunctionType::get(ctx, args.getTypes(), results.getTypes()));
  fn.setPrivate();
  fn->setAttr(tag, problem);
  // Inserted before the caller, renamed to be unique.
  symbols.insert(fn,
                 Block::iterator(ops.front()->getParentOfType<func::FuncOp>()));

  Block *body = fn.addEntryBlock();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  map.map(args, body->getArguments());
  for (Operation *op : ops)
    inner.clone(*op, map);
  SmallVector<Value> returned;
  for (Value v : results)
    returned.push_back(map.lookup(v));
  func::ReturnOp::create(inner, loc, returned);

  OpBuilder b(ops.back());
  return func::CallOp::create(b, loc, fn, args);
}

Value rlx::elideResultCopy(func::CallOp call) {
  Value out = call.getOperands().back();
  auto alloc = out.getDefiningOp<memref::AllocOp>();
  auto collapse =
      dyn_cast_or_null<memref::CollapseShapeOp>(call->getNextNode());
  if (collapse && (collapse.getSrc() != out || !collapse->hasOneUse()))
    collapse = nullptr;
  Value copied = collapse ? collapse.getResult() : out;
  auto copy = dyn_cast_or_null<memref::CopyOp>(
      (collapse ? collapse.getOperation() : call.getOperation())
          ->getNextNode());
  if (!alloc || !copy || copy.getSource() != copied ||
      copy.getTarget().getType() != copied.getType() ||
      llvm::is_contained(call.getOperands(), copy.getTarget()))
    return out;
  SmallVector<Operation *> deallocs;
  for (Operation *user : alloc->getUsers()) {
    if (isa<memref::DeallocOp>(user))
      deallocs.push_back(user);
    else if (user != call && user != copy && user != collapse)
      return out;
  }
  Value target = copy.getTarget();
  if (collapse) {
    OpBuilder b(call);
    target =
        memref::ExpandShapeOp::create(b, call.getLoc(), out.getType(), target,
                                      collapse.getReassociationIndices());
  }
  copy.erase();
  if (collapse)
    collapse.erase();
  for (Operation *dealloc : deallocs)
    dealloc->erase();
  return target;
}

SmallVector<std::pair<func::CallOp, DictionaryAttr>>
rlx::callsOfTaggedFunctions(ModuleOp module, StringRef tag) {
  SymbolTable symbols(module);
  SmallVector<std::pair<func::CallOp, DictionaryAttr>> calls;
  module.walk([&](func::CallOp call) {
    auto fn = symbols.lookup<func::FuncOp>(call.getCallee());
    if (auto problem = fn ? fn->getAttrOfType<DictionaryAttr>(tag)
                          : DictionaryAttr())
      calls.push_back({call, problem});
  });
  return calls;
}

void rlx::eraseTaggedFunctions(ModuleOp module, StringRef tag) {
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (fn->hasAttr(tag))
      fn.erase();
}
