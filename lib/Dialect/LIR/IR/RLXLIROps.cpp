//===- RLXLIROps.cpp - rlx_lir ops ----------------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/LIR/IR/RLXLIROps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::rlx::lir;

#define GET_OP_CLASSES
#include "RLX/Dialect/LIR/IR/RLXLIROps.cpp.inc"

int64_t mlir::rlx::lir::getByteSize(ShapedType type) {
  Type element = type.getElementType();
  int64_t bits;
  if (auto complex = dyn_cast<ComplexType>(element))
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  else if (element.isIndex())
    bits = 64;
  else
    bits = element.getIntOrFloatBitWidth();
  return type.getNumElements() * ((bits + 7) / 8);
}

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

namespace {
/// Checks the IR that uses an arena against its plan.
class PlanChecker {
public:
  PlanChecker(ArenaOp arena) : plan(arena.getPlan()) {
    int64_t index = 0;
    for (Operation &op : *arena->getBlock())
      if (isa<KernelOp>(op))
        kernelIndex[&op] = index++;
  }

  /// Checks the buffer or alias `op` (plan entry `id`, at `offset` bytes in
  /// the arena, of root `root`), then everything that uses it.
  LogicalResult check(Operation *op, Value value, int64_t id, int64_t offset,
                      std::optional<int64_t> root) {
    BufferAttr entry = plan.lookup(id);
    if (!entry)
      return op->emitOpError() << "names buffer " << id
                               << ", which the arena's plan does not list";
    if (entry.getRoot() != root) {
      if (!root)
        return op->emitOpError() << "is a root buffer but the plan lists " << id
                                 << " as an alias of " << *entry.getRoot();
      return op->emitOpError()
             << "is a view of buffer " << *root << " but the plan lists " << id
             << " as " << (entry.isAlias() ? "an alias of another" : "a root");
    }
    int64_t size = getByteSize(cast<ShapedType>(value.getType()));
    if (entry.getOffset() != offset || entry.getSize() != size)
      return op->emitOpError()
             << "is bytes [" << offset << ", " << offset + size
             << ") of the arena but the plan gives buffer " << id << " bytes ["
             << entry.getOffset() << ", " << entry.getOffset() + entry.getSize()
             << ")";
    int64_t rootId = root.value_or(id);
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto alias = dyn_cast<AliasOp>(user)) {
        if (failed(check(alias, alias.getResult(), alias.getId(),
                         offset + alias.getOffset(), rootId)))
          return failure();
        continue;
      }
      auto it = kernelIndex.find(user);
      if (it == kernelIndex.end())
        continue;
      int64_t index = it->second;
      if (index < entry.getStart() || index > entry.getEnd())
        return user->emitOpError()
               << "(kernel " << index << ") uses buffer " << id
               << ", which the plan has live over kernels [" << entry.getStart()
               << ", " << entry.getEnd() << "] only";
    }
    return success();
  }

private:
  PlanAttr plan;
  llvm::DenseMap<Operation *, int64_t> kernelIndex;
};
} // namespace

LogicalResult ArenaOp::verify() {
  auto type = cast<MemRefType>(getResult().getType());
  if (!type.hasStaticShape() || type.getDimSize(0) != getPlan().getArenaSize())
    return emitOpError() << "has type " << type << " but the plan's arena is "
                         << getPlan().getArenaSize() << " bytes";
  PlanChecker checker(*this);
  for (Operation *user : getResult().getUsers())
    if (auto buffer = dyn_cast<BufferOp>(user))
      if (failed(checker.check(buffer, buffer.getResult(), buffer.getId(),
                               buffer.getOffset(), std::nullopt)))
        return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// BufferOp, AliasOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyWithin(Operation *op, int64_t offset,
                                  ShapedType source, ShapedType result) {
  int64_t size = getByteSize(result);
  int64_t available = getByteSize(source);
  if (offset < 0 || offset + size > available)
    return op->emitOpError()
           << "reads bytes [" << offset << ", " << offset + size << ") of a "
           << available << "-byte source";
  return success();
}

LogicalResult BufferOp::verify() {
  return verifyWithin(*this, getOffset(), getArena().getType(),
                      getResult().getType());
}

LogicalResult AliasOp::verify() {
  return verifyWithin(*this, getOffset(), getSource().getType(),
                      getResult().getType());
}

//===----------------------------------------------------------------------===//
// WeightOp
//===----------------------------------------------------------------------===//

LogicalResult WeightOp::verify() {
  auto module = (*this)->getParentOfType<ModuleOp>();
  auto layout = module ? module->getAttrOfType<WeightLayoutAttr>(
                             RLXLIRDialect::getWeightsAttrName())
                       : WeightLayoutAttr();
  if (!layout)
    return emitOpError() << "needs a '" << RLXLIRDialect::getWeightsAttrName()
                         << "' layout on the enclosing module";
  WeightSlotAttr slot = layout.lookup(getName());
  if (!slot)
    return emitOpError() << "names weight '" << getName()
                         << "', which has no slot in the weight layout";
  int64_t size = getByteSize(getResult().getType());
  if (slot.getSize() != size)
    return emitOpError() << "is " << size << " bytes but the slot of '"
                         << getName() << "' is " << slot.getSize() << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

/// The tensor a kernel body sees for a memref or tensor operand.
static Type asTensor(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return RankedTensorType::get(memref.getShape(), memref.getElementType());
  return type;
}

LogicalResult KernelOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "has " << getInputs().size()
                         << " inputs but its body takes "
                         << body.getNumArguments() << " arguments";
  for (auto [i, input, arg] : llvm::enumerate(getInputs(), body.getArguments()))
    if (asTensor(input.getType()) != arg.getType())
      return emitOpError() << "input #" << i << " of type " << input.getType()
                           << " reaches the body as " << arg.getType()
                           << ", expected " << asTensor(input.getType());
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "body must end in rlx_lir.yield";
  size_t expected = getOutputs().size() + getResults().size();
  if (yield.getValues().size() != expected)
    return emitOpError() << "yields " << yield.getValues().size()
                         << " values for " << getOutputs().size()
                         << " outputs and " << getResults().size()
                         << " results";
  SmallVector<Type> wanted;
  for (Value output : getOutputs())
    wanted.push_back(asTensor(output.getType()));
  llvm::append_range(wanted, getResultTypes());
  for (auto [i, value, type] : llvm::enumerate(yield.getValues(), wanted))
    if (value.getType() != type)
      return emitOpError() << "yields " << value.getType() << " as value #" << i
                           << ", expected " << type;
  return success();
}
