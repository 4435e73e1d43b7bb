//===- KernelBuilder.cpp - building blocks of the GPU front's kernels -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::rlx;

Value kernels::indexConstant(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

int64_t kernels::product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

SmallVector<Value> kernels::delinearize(ImplicitLocOpBuilder &b, Value linear,
                                        ArrayRef<int64_t> ranges) {
  SmallVector<Value> ivs(ranges.size());
  for (int64_t i = ranges.size() - 1; i >= 0; --i) {
    if (i == 0) {
      ivs[i] = linear;
      break;
    }
    ivs[i] = arith::RemUIOp::create(b, linear, indexConstant(b, ranges[i]));
    linear = arith::DivUIOp::create(b, linear, indexConstant(b, ranges[i]));
  }
  return ivs;
}

Value kernels::inRange(ImplicitLocOpBuilder &b, Value v, int64_t bound) {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, v,
                               indexConstant(b, bound));
}

Value kernels::zeroOf(ImplicitLocOpBuilder &b, Type type) {
  return arith::ConstantOp::create(b, cast<TypedAttr>(b.getZeroAttr(type)));
}

MemRefType kernels::workgroupMemRefType(ArrayRef<int64_t> shape, Type element) {
  return MemRefType::get(
      shape, element, AffineMap(),
      gpu::AddressSpaceAttr::get(element.getContext(),
                                 gpu::AddressSpace::Workgroup));
}

gpu::LaunchOp kernels::createLaunch(ImplicitLocOpBuilder &b, Operation *op,
                                    ArrayRef<int64_t> grid, int64_t threads,
                                    TypeRange workgroup) {
  assert(!grid.empty() && grid.size() <= 3 && "a grid of 1 to 3 dims");
  b.setInsertionPoint(op);
  Value one = indexConstant(b, 1);
  auto blocks = [&](unsigned d) {
    return d < grid.size() ? indexConstant(b, grid[d]) : one;
  };
  Value threadsX = indexConstant(b, threads);
  Value blocksZ = blocks(2);
  Value blocksY = blocks(1);
  Value blocksX = blocks(0);
  auto launch = gpu::LaunchOp::create(
      b, blocksX, blocksY, blocksZ, threadsX, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      ValueRange{}, workgroup);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(b);
  b.setInsertionPointToStart(&body);
  return launch;
}

std::optional<SmallVector<Value>>
kernels::launchPerElement(ImplicitLocOpBuilder &b, Operation *op,
                          ArrayRef<int64_t> shape, int64_t blockSize) {
  int64_t count = product(shape);
  if (count == 0)
    return std::nullopt;
  int64_t threads = std::min(blockSize, count);
  gpu::LaunchOp launch =
      createLaunch(b, op, {(count + threads - 1) / threads}, threads);
  Value linear = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, launch.getBlockIds().x,
                            indexConstant(b, threads)),
      launch.getThreadIds().x);
  auto inside = scf::IfOp::create(b, inRange(b, linear, count));
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  return delinearize(b, linear, shape);
}
