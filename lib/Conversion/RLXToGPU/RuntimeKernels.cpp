//===- RuntimeKernels.cpp - ops outlined for the GPU runtime's kernels ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

bool rlx::isInRuntimeKernelFunction(Operation *op) {
  auto fn = op->getParentOfType<func::FuncOp>();
  return fn &&
         (fn->hasAttr(kLibraryMatmulTag) || fn->hasAttr(kFlashAttentionTag));
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
