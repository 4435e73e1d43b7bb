//===- CPUChunkKernels.cpp - kernels that run a range of iterations -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which loops are parallel is known where they are built (row tiling,
// matmul tiling) and recorded there as `rlx.parallel_loop`; no dependence
// analysis is redone here. What this pass adds is the protocol of the
// thread pool: a kernel runs the iterations [begin, end) of its collapsed
// parallel band, and its caller knows the band's size.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUCHUNKKERNELSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

bool isParallelLoop(Operation *op) {
  auto loop = dyn_cast_or_null<scf::ForOp>(op);
  return loop && loop->hasAttr(rlx::kParallelLoopAttrName) &&
         loop.getNumResults() == 0;
}

/// The one loop nest or linalg op of `kernel`'s body, or null.
Operation *kernelNest(func::FuncOp kernel) {
  Operation *nest = nullptr;
  for (Operation &op : kernel.getBody().front()) {
    if (!isa<scf::ForOp, scf::ParallelOp, linalg::LinalgOp>(op))
      continue;
    if (nest)
      return nullptr;
    nest = &op;
  }
  return nest;
}

/// Tiles the leading parallel loops of a linalg op on buffers (all but its
/// last loop) by 1 and marks the loops parallel; returns the outermost, or
/// null where the op has no such loop.
Operation *tileLeadingParallelLoops(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return nullptr;
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i + 1 < iterators.size(); ++i) {
    if (iterators[i] != utils::IteratorType::parallel)
      break;
    sizes[i] = 1;
  }
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return nullptr;
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes);
  options.setLoopType(linalg::LinalgTilingLoopType::Loops);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled) || tiled->loops.empty())
    return nullptr;
  for (Operation *loop : tiled->loops)
    loop->setAttr(rlx::kParallelLoopAttrName, rewriter.getUnitAttr());
  rewriter.eraseOp(op);
  return tiled->loops.front();
}

/// The band of perfectly nested parallel loops that starts at `outer`: each
/// loop's body holds the next loop and, before it, only side-effect-free
/// ops; every bound is defined outside the band.
SmallVector<scf::ForOp> parallelBand(scf::ForOp outer) {
  SmallVector<scf::ForOp> band{outer};
  for (;;) {
    Block *body = band.back().getBody();
    scf::ForOp inner;
    bool simple = true;
    for (Operation &op : body->without_terminator()) {
      if (inner || !isParallelLoop(&op)) {
        simple &= !inner && isMemoryEffectFree(&op) &&
                  op.getNumRegions() == 0;
        continue;
      }
      inner = cast<scf::ForOp>(op);
    }
    if (!simple || !inner)
      return band;
    bool outside = llvm::all_of(
        ValueRange{inner.getLowerBound(), inner.getUpperBound(),
                   inner.getStep()},
        [&](Value bound) {
          return !outer->isAncestor(bound.getParentBlock()->getParentOp());
        });
    if (!outside)
      return band;
    band.push_back(inner);
  }
}

/// Clones into the caller, before `call`, what computes `value` in the
/// kernel's entry block from its arguments; null where that needs an op
/// with side effects or regions.
Value cloneIntoCaller(OpBuilder &builder, Value value, func::CallOp call,
                      IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (!isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return nullptr;
    Value operand = call.getOperand(arg.getArgNumber());
    mapping.map(value, operand);
    return operand;
  }
  Operation *def = value.getDefiningOp();
  if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
    return nullptr;
  for (Value operand : def->getOperands())
    if (!cloneIntoCaller(builder, operand, call, mapping))
      return nullptr;
  Operation *copy = builder.clone(*def, mapping);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

/// ceil((ub - lb) / step) for a loop of positive step.
Value tripCount(OpBuilder &b, Location loc, Value lb, Value ub, Value step) {
  Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
  return b.createOrFold<arith::CeilDivSIOp>(loc, span, step);
}

/// Whether `kernel` is too small to split: all its operands are static
/// memrefs holding fewer than `minElements` elements in all.
bool isSmall(func::FuncOp kernel, int64_t minElements) {
  int64_t elements = 0;
  for (Type type : kernel.getArgumentTypes()) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      continue;
    if (!memref.hasStaticShape())
      return false;
    elements += memref.getNumElements();
  }
  return elements < minElements;
}

struct CPUChunkKernelsPass
    : rlx::impl::CPUChunkKernelsPassBase<CPUChunkKernelsPass> {
  using CPUChunkKernelsPassBase::CPUChunkKernelsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Kernels are private functions called once (rlx-cpu-outline-kernels);
    // one walk counts every function's uses.
    SmallVector<func::CallOp> calls;
    llvm::DenseMap<StringAttr, unsigned> uses;
    module.walk([&](Operation *op) {
      if (auto call = dyn_cast<func::CallOp>(op))
        calls.push_back(call);
      for (NamedAttribute attr : op->getAttrs())
        attr.getValue().walk([&](SymbolRefAttr ref) {
          ++uses[ref.getRootReference()];
        });
    });
    IRRewriter rewriter(&getContext());
    for (func::CallOp call : calls) {
      auto kernel = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!kernel || kernel.isExternal() || !kernel.isPrivate() ||
          uses.lookup(kernel.getSymNameAttr()) != 1 ||
          kernel->hasAttr(rlx::kChunkedKernelAttrName) ||
          !kernel.getBody().hasOneBlock() || isSmall(kernel, minElements))
        continue;
      chunk(rewriter, call, kernel);
    }
  }

  void chunk(RewriterBase &rewriter, func::CallOp call, func::FuncOp kernel) {
    Operation *nest = kernelNest(kernel);
    if (auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(nest))
      nest = tileLeadingParallelLoops(rewriter, linalgOp);
    if (!isParallelLoop(nest))
      return;
    auto outer = cast<scf::ForOp>(nest);
    SmallVector<scf::ForOp> band = parallelBand(outer);

    // The band's size, computed by the caller.
    rewriter.setInsertionPoint(call);
    IRMapping callerMapping;
    Location loc = call.getLoc();
    Value iterations = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (scf::ForOp loop : band) {
      Value lb = cloneIntoCaller(rewriter, loop.getLowerBound(), call,
                                 callerMapping);
      Value ub = cloneIntoCaller(rewriter, loop.getUpperBound(), call,
                                 callerMapping);
      Value step =
          cloneIntoCaller(rewriter, loop.getStep(), call, callerMapping);
      if (!lb || !ub || !step)
        return; // The unused clones fold away.
      iterations = rewriter.createOrFold<arith::MulIOp>(
          loc, iterations, tripCount(rewriter, loc, lb, ub, step));
    }
    SmallVector<Value> operands(call.getOperands());
    operands.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
    operands.push_back(iterations);
    func::CallOp::create(rewriter, loc, kernel, operands);
    rewriter.eraseOp(call);

    // The kernel runs the band's iterations [begin, end).
    Block &entry = kernel.getBody().front();
    Type index = rewriter.getIndexType();
    Value begin = entry.addArgument(index, kernel.getLoc());
    Value end = entry.addArgument(index, kernel.getLoc());
    kernel.setType(rewriter.getFunctionType(entry.getArgumentTypes(),
                                            kernel.getResultTypes()));
    kernel->setAttr(rlx::kChunkedKernelAttrName, rewriter.getUnitAttr());

    Location bandLoc = outer.getLoc();
    rewriter.setInsertionPoint(outer);
    // The iteration counts of the inner loops of the band (the outermost
    // one takes what is left of the index).
    SmallVector<Value> trips;
    for (scf::ForOp loop : ArrayRef(band).drop_front())
      trips.push_back(tripCount(rewriter, bandLoc, loop.getLowerBound(),
                                loop.getUpperBound(), loop.getStep()));
    Value one = arith::ConstantIndexOp::create(rewriter, bandLoc, 1);
    auto collapsed = scf::ForOp::create(rewriter, bandLoc, begin, end, one);
    rewriter.setInsertionPointToStart(collapsed.getBody());
    // Delinearized innermost first: the innermost loop's iterations stay
    // consecutive in a chunk.
    SmallVector<Value> ivs(band.size());
    Value rest = collapsed.getInductionVar();
    for (int64_t i = band.size() - 1; i >= 0; --i) {
      Value position =
          i == 0 ? rest
                 : rewriter.createOrFold<arith::RemSIOp>(bandLoc, rest,
                                                         trips[i - 1]);
      if (i > 0)
        rest = rewriter.createOrFold<arith::DivSIOp>(bandLoc, rest,
                                                     trips[i - 1]);
      Value scaled = rewriter.createOrFold<arith::MulIOp>(bandLoc, position,
                                                          band[i].getStep());
      ivs[i] = rewriter.createOrFold<arith::AddIOp>(
          bandLoc, band[i].getLowerBound(), scaled);
    }
    IRMapping mapping;
    for (auto [loop, iv] : llvm::zip(band, ivs))
      mapping.map(loop.getInductionVar(), iv);
    for (auto [depth, loop] : llvm::enumerate(band)) {
      for (Operation &op : loop.getBody()->without_terminator()) {
        if (depth + 1 < band.size() && &op == band[depth + 1].getOperation())
          break;
        rewriter.clone(op, mapping);
      }
    }
    rewriter.eraseOp(outer);
  }
};

} // namespace
