//===- GPUDispatch.cpp - ops outlined for the GPU runtime's kernels -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/GPUDispatch.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

bool rlx::isInRuntimeKernelFunction(Operation *op) {
  auto fn = op->getParentOfType<func::FuncOp>();
  return fn && (fn->hasAttr(kCuBLASLtTag) || fn->hasAttr(kFlashAttentionTag));
}

func::CallOp rlx::outlineForRuntimeKernel(Operation *op, StringRef name,
                                          StringRef tag, DictionaryAttr problem,
                                          SymbolTable &symbols,
                                          Operation *&clone) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  SmallVector<Value> args(op->getOperands());
  auto fn =
      func::FuncOp::create(loc, name,
                           FunctionType::get(ctx, ValueRange(args).getTypes(),
                                             op->getResultTypes()));
  fn.setPrivate();
  fn->setAttr(tag, problem);
  // Inserted before the caller, renamed to be unique.
  symbols.insert(fn, Block::iterator(op->getParentOfType<func::FuncOp>()));

  Block *body = fn.addEntryBlock();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  IRMapping map;
  map.map(op->getOperands(), body->getArguments());
  clone = inner.clone(*op, map);
  func::ReturnOp::create(inner, loc, clone->getResults());

  OpBuilder b(op);
  return func::CallOp::create(b, loc, fn, args);
}
