//===- RLXLIRAttrs.cpp - rlx_lir plan attributes --------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The plan verifier: the rules a buffer plan must keep whatever planner made
// it (the planner's own code is not trusted to check itself).
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rlx::lir;

//===----------------------------------------------------------------------===//
// PlanAttr
//===----------------------------------------------------------------------===//

BufferAttr PlanAttr::lookup(int64_t id) const {
  for (Attribute a : getBuffers())
    if (auto buffer = dyn_cast<BufferAttr>(a); buffer && buffer.getId() == id)
      return buffer;
  return {};
}

static bool bytesIntersect(int64_t aOffset, int64_t aSize, int64_t bOffset,
                           int64_t bSize) {
  return aSize > 0 && bSize > 0 && aOffset < bOffset + bSize &&
         bOffset < aOffset + aSize;
}

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t arenaSize, int64_t alignment,
                               ArrayAttr buffers) {
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitError() << "alignment " << alignment
                       << " is not a positive power of two";
  if (arenaSize < 0)
    return emitError() << "arena_size " << arenaSize << " is negative";
  llvm::DenseMap<int64_t, BufferAttr> byId;
  SmallVector<BufferAttr> roots;
  for (Attribute a : buffers) {
    auto buffer = dyn_cast<BufferAttr>(a);
    if (!buffer)
      return emitError() << "plan entry " << a << " is not a #rlx_lir.buffer";
    int64_t id = buffer.getId();
    if (!byId.try_emplace(id, buffer).second)
      return emitError() << "buffer id " << id << " appears twice";
    if (buffer.getOffset() < 0 || buffer.getSize() < 0)
      return emitError() << "buffer " << id << " has offset "
                         << buffer.getOffset() << " and size "
                         << buffer.getSize() << "; both must be >= 0";
    if (buffer.getStart() < 0 || buffer.getStart() > buffer.getEnd())
      return emitError() << "buffer " << id << " is live over kernels ["
                         << buffer.getStart() << ", " << buffer.getEnd()
                         << "], which is not a range";
    if (buffer.getOffset() + buffer.getSize() > arenaSize)
      return emitError() << "buffer " << id << " ends at byte "
                         << buffer.getOffset() + buffer.getSize()
                         << ", past the arena of " << arenaSize << " bytes";
    if (!buffer.isAlias()) {
      if (buffer.getOffset() % alignment != 0)
        return emitError() << "buffer " << id << " at offset "
                           << buffer.getOffset() << " is not aligned to "
                           << alignment << " bytes";
      roots.push_back(buffer);
    }
  }
  for (auto [id, buffer] : byId) {
    if (!buffer.isAlias())
      continue;
    BufferAttr root = byId.lookup(*buffer.getRoot());
    if (!root || root.isAlias())
      return emitError() << "alias " << id << " names " << *buffer.getRoot()
                         << " as its root, which is not a root buffer";
    if (buffer.getOffset() < root.getOffset() ||
        buffer.getOffset() + buffer.getSize() >
            root.getOffset() + root.getSize())
      return emitError() << "alias " << id << " (bytes [" << buffer.getOffset()
                         << ", " << buffer.getOffset() + buffer.getSize()
                         << ")) is not within its root " << root.getId()
                         << " (bytes [" << root.getOffset() << ", "
                         << root.getOffset() + root.getSize() << "))";
    if (buffer.getStart() < root.getStart() || buffer.getEnd() > root.getEnd())
      return emitError() << "alias " << id << " is live over kernels ["
                         << buffer.getStart() << ", " << buffer.getEnd()
                         << "], outside its root " << root.getId() << " (["
                         << root.getStart() << ", " << root.getEnd() << "])";
  }
  // Sweep over kernels so that only buffers live together are compared.
  llvm::sort(roots, [](BufferAttr a, BufferAttr b) {
    return a.getStart() < b.getStart();
  });
  for (size_t i = 0; i < roots.size(); ++i) {
    BufferAttr a = roots[i];
    for (size_t j = i + 1; j < roots.size(); ++j) {
      BufferAttr b = roots[j];
      if (b.getStart() > a.getEnd())
        break;
      if (bytesIntersect(a.getOffset(), a.getSize(), b.getOffset(),
                         b.getSize()))
        return emitError() << "buffers " << a.getId() << " and " << b.getId()
                           << " overlap while both live: bytes ["
                           << a.getOffset() << ", "
                           << a.getOffset() + a.getSize() << ") and ["
                           << b.getOffset() << ", "
                           << b.getOffset() + b.getSize() << "), kernels ["
                           << a.getStart() << ", " << a.getEnd() << "] and ["
                           << b.getStart() << ", " << b.getEnd() << "]";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WeightLayoutAttr
//===----------------------------------------------------------------------===//

WeightSlotAttr WeightLayoutAttr::lookup(StringRef name) const {
  for (Attribute a : getSlots())
    if (auto slot = dyn_cast<WeightSlotAttr>(a); slot && slot.getName() == name)
      return slot;
  return {};
}

LogicalResult
WeightLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t size, int64_t alignment, ArrayAttr slots) {
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitError() << "alignment " << alignment
                       << " is not a positive power of two";
  llvm::StringSet<> names;
  SmallVector<WeightSlotAttr> sorted;
  for (Attribute a : slots) {
    auto slot = dyn_cast<WeightSlotAttr>(a);
    if (!slot)
      return emitError() << "weight layout entry " << a
                         << " is not a #rlx_lir.slot";
    if (!names.insert(slot.getName()).second)
      return emitError() << "weight '" << slot.getName() << "' has two slots";
    if (slot.getOffset() < 0 || slot.getSize() < 0 ||
        slot.getOffset() + slot.getSize() > size)
      return emitError() << "weight '" << slot.getName() << "' (bytes ["
                         << slot.getOffset() << ", "
                         << slot.getOffset() + slot.getSize()
                         << ")) is not within the region of " << size
                         << " bytes";
    if (slot.getOffset() % alignment != 0)
      return emitError() << "weight '" << slot.getName() << "' at offset "
                         << slot.getOffset() << " is not aligned to "
                         << alignment << " bytes";
    sorted.push_back(slot);
  }
  llvm::sort(sorted, [](WeightSlotAttr a, WeightSlotAttr b) {
    return a.getOffset() < b.getOffset();
  });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i - 1].getOffset() + sorted[i - 1].getSize() >
        sorted[i].getOffset())
      return emitError() << "weights '" << sorted[i - 1].getName() << "' and '"
                         << sorted[i].getName() << "' overlap";
  return success();
}
