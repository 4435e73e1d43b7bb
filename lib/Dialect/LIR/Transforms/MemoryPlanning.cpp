//===- MemoryPlanning.cpp - liveness and buffer plan of a function --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Values fall into three homes:
//  - outside the arena: function arguments, parameters (the weight region)
//    and values the function returns (a kernel gives them as fresh tensors,
//    which the caller owns, so that the arena can be freed on return);
//  - inlined: constants, and views of values outside the arena, which cost
//    nothing to recompute inside each kernel that reads them;
//  - the arena: every other op result, as a root buffer or as an alias of
//    one (a view, or an elementwise result written over a dying input).
//
//===----------------------------------------------------------------------===//

#include "MemoryPlanning.h"

#include "RLX/Dialect/LIR/IR/RLXLIROps.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::lir;

int64_t FunctionMemoryPlan::getNumAliases() const {
  return llvm::count_if(buffers,
                        [](const ArenaValue &b) { return b.root.has_value(); });
}

PlanAttr FunctionMemoryPlan::getPlanAttr(MLIRContext *context) const {
  SmallVector<Attribute> entries;
  for (auto [id, b] : llvm::enumerate(buffers))
    entries.push_back(
        BufferAttr::get(context, id, b.offset, b.size, b.start, b.end, b.root));
  return PlanAttr::get(context, arenaSize, alignment,
                       ArrayAttr::get(context, entries));
}

FailureOr<PlannerKind> lir::getPlannerOption(Operation *op,
                                             const std::string &planner,
                                             int64_t alignment) {
  std::optional<PlannerKind> kind = parsePlannerKind(planner);
  if (!kind)
    return op->emitError() << "unknown planner '" << planner
                           << "'; expected greedy, best-fit or auto";
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0)
    return op->emitError() << "alignment " << alignment
                           << " is not a positive power of two";
  return *kind;
}

/// The byte offset at which `op`'s result views its operand, if `op` is a
/// view: a reshape, an expand that adds only size-1 dims, a cast to the same
/// type, stop_gradient, or a narrow whose leading dims (before the axis) are
/// all 1, so that the kept part is contiguous. A cast between different
/// types of one width converts values, so it is not a view (it may still
/// run in place, as any elementwise op).
static std::optional<int64_t> getViewOffset(Operation *op) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return std::nullopt;
  auto source = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!source || !result || !source.hasStaticShape() ||
      !result.hasStaticShape())
    return std::nullopt;
  if (isa<ReshapeOp, StopGradientOp>(op))
    return 0;
  if (isa<ExpandOp>(op) && source.getNumElements() == result.getNumElements())
    return 0;
  if (isa<CastOp>(op) && source == result)
    return 0;
  if (auto narrow = dyn_cast<NarrowOp>(op)) {
    int64_t rank = source.getRank();
    // The attribute is an i64 read back as unsigned: negative axes wrap.
    auto axis = static_cast<int64_t>(narrow.getAxis());
    if (axis < 0)
      axis += rank;
    for (int64_t d = 0; d < axis; ++d)
      if (source.getDimSize(d) != 1)
        return std::nullopt;
    int64_t rowBytes =
        getByteSize(source) / std::max<int64_t>(source.getDimSize(axis), 1);
    return narrow.getStart() * rowBytes;
  }
  return std::nullopt;
}

/// Ops that compute each result element from the same element of their
/// operands (NumPy-broadcast ones included: a broadcast operand has another
/// shape and is never the one overwritten), so that the result may take
/// the bytes of an operand of its own shape.
static bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  if (isa<ElementwiseRegionOp>(op))
    return true;
  return op->getNumRegions() == 0 &&
         (op->hasTrait<OpTrait::Elementwise>() ||
          isBroadcastingElementwise(op) || isa<CastOp>(op));
}

namespace {
class Planner {
public:
  Planner(func::FuncOp func, int64_t alignment) : func(func) {
    plan.alignment = alignment;
  }

  LogicalResult run(PlannerKind kind);
  FunctionMemoryPlan takePlan() { return std::move(plan); }

private:
  LogicalResult schedule();
  int64_t lastUse(Value value);
  int64_t rootOf(int64_t id) const {
    return plan.buffers[id].root.value_or(id);
  }
  int64_t addBuffer(Value value, std::optional<int64_t> root,
                    int64_t offsetInRoot, int64_t start);
  std::optional<int64_t> findInPlaceOperand(Operation *op, int64_t index);
  void assignOffsets(PlannerKind kind);

  func::FuncOp func;
  FunctionMemoryPlan plan;
  llvm::DenseSet<Value> returned;
  llvm::DenseMap<Operation *, int64_t> kernelIndex;
  llvm::DenseMap<Value, int64_t> lastUseCache;
  /// Per root: the last kernel that reads it or any alias found so far.
  llvm::DenseMap<int64_t, int64_t> rootEnd;
};
} // namespace

/// Marks the ops that nothing live reads: in reverse order, an op is live
/// if it has side effects or a live op (or the terminator) uses a result.
static void findDeadOps(Block &block, llvm::DenseSet<Operation *> &dead) {
  for (Operation &op : llvm::reverse(block.without_terminator())) {
    if (!isMemoryEffectFree(&op))
      continue;
    bool used = llvm::any_of(op.getUsers(), [&](Operation *user) {
      Operation *top = block.findAncestorOpInBlock(*user);
      return !top || !dead.contains(top);
    });
    if (!used)
      dead.insert(&op);
  }
}

/// Kernels are every live op but parameters, and constants and views that
/// are not returned (those are aliases or inlined).
LogicalResult Planner::schedule() {
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "memory planning needs a function of one block";
  Block &block = func.getBody().front();
  for (Value v : block.getTerminator()->getOperands())
    returned.insert(v);
  findDeadOps(block, plan.dead);
  for (Operation &op : block.without_terminator()) {
    // Scalar constants (the -inf of a decomposed attention's mask) are
    // values the kernels take, not buffers.
    if (op.hasTrait<OpTrait::ConstantLike>() &&
        llvm::all_of(op.getResultTypes(),
                     [](Type t) { return t.isIntOrIndexOrFloat(); }))
      continue;
    for (Value r : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(r.getType());
      if (!type || !type.hasStaticShape())
        return op.emitOpError()
               << "has result type " << r.getType()
               << "; memory planning needs statically shaped tensors";
    }
    bool isReturned = llvm::any_of(
        op.getResults(), [&](Value r) { return returned.contains(r); });
    if (isa<ParamOp>(op)) {
      if (isReturned)
        return op.emitOpError()
               << "is returned as is; a parameter stays in the weight "
                  "region (return a copy)";
      continue;
    }
    if (plan.dead.contains(&op) ||
        (!isReturned &&
         (op.hasTrait<OpTrait::ConstantLike>() || getViewOffset(&op))))
      continue;
    kernelIndex[&op] = plan.kernels.size();
    plan.kernels.push_back(&op);
  }
  return success();
}

/// The last kernel that reads `value`, directly or through views of it;
/// -1 if none.
int64_t Planner::lastUse(Value value) {
  auto it = lastUseCache.find(value);
  if (it != lastUseCache.end())
    return it->second;
  Block &block = func.getBody().front();
  int64_t last = -1;
  for (Operation *user : value.getUsers()) {
    Operation *top = block.findAncestorOpInBlock(*user);
    if (!top)
      continue;
    auto k = kernelIndex.find(top);
    if (k != kernelIndex.end())
      last = std::max(last, k->second);
    else if (top->getNumResults() == 1 && getViewOffset(top))
      last = std::max(last, lastUse(top->getResult(0)));
  }
  lastUseCache[value] = last;
  return last;
}

int64_t Planner::addBuffer(Value value, std::optional<int64_t> root,
                           int64_t offsetInRoot, int64_t start) {
  int64_t id = plan.buffers.size();
  ArenaValue b;
  b.value = value;
  b.root = root;
  b.offsetInRoot = offsetInRoot;
  b.size = getByteSize(cast<ShapedType>(value.getType()));
  b.start = start;
  b.end = std::max(start, lastUse(value));
  plan.buffers.push_back(b);
  plan.idOf[value] = id;
  int64_t r = root.value_or(id);
  rootEnd[r] = std::max(rootEnd.lookup(r), b.end);
  return id;
}

/// An operand of elementwise `op` (kernel `index`) whose bytes its result
/// may take: same shape and byte size, in the arena, its root read by no
/// kernel after this one and by no other operand of this one.
std::optional<int64_t> Planner::findInPlaceOperand(Operation *op,
                                                   int64_t index) {
  if (!isElementwise(op))
    return std::nullopt;
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  for (Value operand : op->getOperands()) {
    auto it = plan.idOf.find(operand);
    if (it == plan.idOf.end())
      continue;
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.getShape() != resultType.getShape() ||
        getByteSize(type) != getByteSize(resultType))
      continue;
    int64_t root = rootOf(it->second);
    if (rootEnd.lookup(root) != index)
      continue;
    bool shared = llvm::any_of(op->getOperands(), [&](Value other) {
      auto o = plan.idOf.find(other);
      return other != operand && o != plan.idOf.end() &&
             rootOf(o->second) == root;
    });
    if (!shared)
      return it->second;
  }
  return std::nullopt;
}

void Planner::assignOffsets(PlannerKind kind) {
  std::vector<PlanBuffer> roots;
  SmallVector<int64_t> rootIds;
  for (int64_t id = 0, e = plan.buffers.size(); id < e; ++id) {
    ArenaValue &b = plan.buffers[id];
    plan.naiveSize += b.size;
    if (b.root)
      continue;
    b.end = rootEnd.lookup(id);
    roots.push_back({b.size, b.start, b.end});
    rootIds.push_back(id);
  }
  plan.lowerBound = getLowerBound(roots);
  ArenaAssignment greedy = planGreedyFirstFit(roots, plan.alignment);
  ArenaAssignment bestFit = planBestFit(roots, plan.alignment);
  plan.greedySize = greedy.arenaSize;
  plan.bestFitSize = bestFit.arenaSize;
  const ArenaAssignment &chosen = kind == PlannerKind::Greedy    ? greedy
                                  : kind == PlannerKind::BestFit ? bestFit
                                  : bestFit.arenaSize < greedy.arenaSize
                                      ? bestFit
                                      : greedy;
  plan.planner = chosen.planner;
  plan.arenaSize = chosen.arenaSize;
  for (auto [i, id] : llvm::enumerate(rootIds))
    plan.buffers[id].offset = chosen.offsets[i];
  for (ArenaValue &b : plan.buffers)
    if (b.root)
      b.offset = plan.buffers[*b.root].offset + b.offsetInRoot;
}

LogicalResult Planner::run(PlannerKind kind) {
  if (failed(schedule()))
    return failure();
  Block &block = func.getBody().front();
  for (Operation &op : block.without_terminator()) {
    if (isa<ParamOp>(op) || plan.dead.contains(&op))
      continue;
    auto k = kernelIndex.find(&op);
    if (k == kernelIndex.end()) {
      std::optional<int64_t> viewOffset = getViewOffset(&op);
      auto source =
          viewOffset ? plan.idOf.find(op.getOperand(0)) : plan.idOf.end();
      if (source == plan.idOf.end()) {
        plan.inlined.insert(&op);
        continue;
      }
      const ArenaValue &s = plan.buffers[source->second];
      addBuffer(op.getResult(0), rootOf(source->second),
                s.offsetInRoot + *viewOffset, s.start);
      continue;
    }
    int64_t index = k->second;
    for (Value r : op.getResults()) {
      if (returned.contains(r))
        continue;
      if (std::optional<int64_t> in = findInPlaceOperand(&op, index)) {
        addBuffer(r, rootOf(*in), plan.buffers[*in].offsetInRoot, index);
        continue;
      }
      addBuffer(r, std::nullopt, 0, index);
    }
  }
  assignOffsets(kind);
  return success();
}

FailureOr<FunctionMemoryPlan> lir::planFunctionMemory(func::FuncOp func,
                                                      int64_t alignment,
                                                      PlannerKind kind) {
  Planner planner(func, alignment);
  if (failed(planner.run(kind)))
    return failure();
  return planner.takePlan();
}

FailureOr<WeightLayoutAttr> lir::planWeights(ModuleOp module,
                                             int64_t alignment) {
  llvm::MapVector<StringRef, int64_t> sizes;
  WalkResult walk = module.walk([&](ParamOp param) {
    int64_t size = getByteSize(param.getType());
    auto [it, inserted] = sizes.try_emplace(param.getName(), size);
    if (!inserted && it->second != size) {
      param.emitOpError() << "names weight '" << param.getName() << "' of "
                          << size << " bytes, which is " << it->second
                          << " bytes elsewhere in the module";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  MLIRContext *context = module.getContext();
  SmallVector<Attribute> slots;
  int64_t offset = 0;
  for (auto [name, size] : sizes) {
    slots.push_back(WeightSlotAttr::get(context, name, offset, size));
    offset = (offset + size + alignment - 1) / alignment * alignment;
  }
  int64_t total = 0;
  for (Attribute a : slots) {
    auto slot = cast<WeightSlotAttr>(a);
    total = std::max(total, slot.getOffset() + slot.getSize());
  }
  return WeightLayoutAttr::get(context, total, alignment,
                               ArrayAttr::get(context, slots));
}
