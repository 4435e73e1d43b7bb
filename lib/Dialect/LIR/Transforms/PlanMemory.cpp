//===- PlanMemory.cpp - the rlx-plan-memory pass --------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites each planned function into rlx_lir: the arena with its plan, the
// buffers and aliases, weight slots for the parameters, and one kernel per
// scheduled op holding a clone of it (and of the constants and outside
// views it reads).
//
//===----------------------------------------------------------------------===//

#include "MemoryPlanning.h"

#include "RLX/Dialect/LIR/IR/RLXLIROps.h"
#include "RLX/Dialect/LIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "RLX/Dialect/LIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::lir;

static MemRefType getBufferType(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return MemRefType::get(type.getShape(), type.getElementType());
}

namespace {
/// Builds the rlx_lir body of one function from its plan.
class LIRBuilder {
public:
  LIRBuilder(func::FuncOp func, const FunctionMemoryPlan &plan)
      : func(func), plan(plan), builder(func.getContext()) {}

  void build();

private:
  /// Adds `value` to the kernel's inputs, or, for an inlined op, its
  /// operands (recursively) and the op to `chain`.
  void collect(Value value, llvm::SetVector<Value> &inputs,
               llvm::SetVector<Operation *> &chain);
  void buildKernel(Operation *op);

  func::FuncOp func;
  const FunctionMemoryPlan &plan;
  OpBuilder builder;
  /// Old MIR value -> what kernels read for it (a memref or a tensor).
  IRMapping lir;
};
} // namespace

void LIRBuilder::collect(Value value, llvm::SetVector<Value> &inputs,
                         llvm::SetVector<Operation *> &chain) {
  Operation *def = value.getDefiningOp();
  if (!def || !plan.inlined.contains(def)) {
    inputs.insert(value);
    return;
  }
  for (Value operand : def->getOperands())
    collect(operand, inputs, chain);
  chain.insert(def);
}

void LIRBuilder::buildKernel(Operation *op) {
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> chain;
  for (Value operand : op->getOperands())
    collect(operand, inputs, chain);
  llvm::SetVector<Value> captured;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  for (Value value : captured)
    collect(value, inputs, chain);
  SmallVector<Operation *> ordered(chain.begin(), chain.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  SmallVector<Value> kernelInputs, outputs, yielded, returnedValues;
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<Location> argLocs;
  for (Value input : inputs) {
    Value mapped = lir.lookupOrDefault(input);
    kernelInputs.push_back(mapped);
    Type type = mapped.getType();
    if (auto memref = dyn_cast<MemRefType>(type))
      type = RankedTensorType::get(memref.getShape(), memref.getElementType());
    argTypes.push_back(type);
    argLocs.push_back(input.getLoc());
  }
  for (Value result : op->getResults()) {
    auto it = plan.idOf.find(result);
    if (it != plan.idOf.end())
      outputs.push_back(lir.lookup(result));
    else {
      resultTypes.push_back(result.getType());
      returnedValues.push_back(result);
    }
  }

  auto kernel =
      KernelOp::create(builder, op->getLoc(), resultTypes,
                       op->getName().getStringRef(), kernelInputs, outputs);
  Block *body = builder.createBlock(&kernel.getBody(), {}, argTypes, argLocs);
  IRMapping inner;
  for (auto [input, arg] : llvm::zip(inputs, body->getArguments()))
    inner.map(input, arg);
  for (Operation *inlined : ordered)
    builder.clone(*inlined, inner);
  Operation *clone = builder.clone(*op, inner);
  for (auto [result, cloned] : llvm::zip(op->getResults(), clone->getResults()))
    if (plan.idOf.contains(result))
      yielded.push_back(cloned);
  for (auto [result, cloned] : llvm::zip(op->getResults(), clone->getResults()))
    if (!plan.idOf.contains(result))
      yielded.push_back(cloned);
  lir::YieldOp::create(builder, op->getLoc(), yielded);
  builder.setInsertionPointAfter(kernel);
  for (auto [old, result] : llvm::zip(returnedValues, kernel.getResults()))
    lir.map(old, result);
}

void LIRBuilder::build() {
  Block &block = func.getBody().front();
  SmallVector<Operation *> old;
  for (Operation &op : block.without_terminator())
    old.push_back(&op);
  builder.setInsertionPointToStart(&block);
  Location loc = func.getLoc();
  MLIRContext *context = func.getContext();

  auto arenaType =
      MemRefType::get({plan.arenaSize}, IntegerType::get(context, 8));
  Value arena =
      ArenaOp::create(builder, loc, arenaType, plan.getPlanAttr(context));
  for (auto [id, b] : llvm::enumerate(plan.buffers))
    if (!b.root)
      lir.map(b.value,
              BufferOp::create(builder, b.value.getLoc(),
                               getBufferType(b.value), arena, b.offset, id));
  for (auto [id, b] : llvm::enumerate(plan.buffers))
    if (b.root)
      lir.map(b.value,
              AliasOp::create(builder, b.value.getLoc(), getBufferType(b.value),
                              lir.lookup(plan.buffers[*b.root].value),
                              b.offsetInRoot, id));
  for (Operation *op : old)
    if (auto param = dyn_cast<ParamOp>(op))
      lir.map(param.getResult(),
              WeightOp::create(builder, param.getLoc(),
                               getBufferType(param.getResult()),
                               param.getName()));
  for (Operation *op : plan.kernels)
    buildKernel(op);

  Operation *terminator = block.getTerminator();
  for (OpOperand &operand : terminator->getOpOperands())
    operand.set(lir.lookupOrDefault(operand.get()));
  for (Operation *op : llvm::reverse(old)) {
    op->dropAllUses();
    op->erase();
  }
}

namespace {
struct PlanMemoryPass : public rlx::impl::PlanMemoryPassBase<PlanMemoryPass> {
  using PlanMemoryPassBase::PlanMemoryPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<PlannerKind> kind = getPlannerOption(module, planner, alignment);
    if (failed(kind))
      return signalPassFailure();
    FailureOr<WeightLayoutAttr> weights = planWeights(module, alignment);
    if (failed(weights))
      return signalPassFailure();
    std::vector<std::pair<func::FuncOp, FunctionMemoryPlan>> plans;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FailureOr<FunctionMemoryPlan> plan =
          planFunctionMemory(func, alignment, *kind);
      if (failed(plan))
        return signalPassFailure();
      plans.emplace_back(func, std::move(*plan));
    }
    for (auto &[func, plan] : plans)
      LIRBuilder(func, plan).build();
    if (!weights->getSlots().empty())
      module->setAttr(RLXLIRDialect::getWeightsAttrName(), *weights);
  }
};
} // namespace
