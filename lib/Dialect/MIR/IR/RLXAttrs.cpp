//===- RLXAttrs.cpp - RLX MIR attributes ----------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rlx;

#include "RLX/Dialect/MIR/IR/RLXEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "RLX/Dialect/MIR/IR/RLXAttrs.cpp.inc"

void RLXDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "RLX/Dialect/MIR/IR/RLXAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// QuantSchemeAttr
//===----------------------------------------------------------------------===//

/// Weights and bytes of one block of the packed-block schemes, as llama.cpp
/// sizes them: block_q4_0 (half d + 16 nibble bytes), block_q8_0 (half d +
/// 32 bytes), block_q2_K (16 scale bytes + 64 bytes of 2-bit quants + half d,
/// dmin), block_q3_K (32 high-bit bytes + 64 bytes of 2-bit quants + 12 scale
/// bytes + half d), block_q4_K (2 halves + 12 scale bytes + 128 nibble
/// bytes), block_q5_K (+32 high-bit bytes), block_q6_K (128 + 64 + 16 scales
/// + 1 half), block_q8_K (f32 scale + 256 bytes + 16 i16 sums); nvfp4 is one
/// e4m3 scale byte + 8 bytes of 16 e2m1 nibbles. {0, 0} for other schemes.
static std::pair<int64_t, int64_t> packedBlock(QuantKind kind) {
  switch (kind) {
  case QuantKind::GgufQ4_0:
    return {32, 18};
  case QuantKind::GgufQ8_0:
    return {32, 34};
  case QuantKind::GgufQ2K:
    return {256, 84};
  case QuantKind::GgufQ3K:
    return {256, 110};
  case QuantKind::GgufQ4K:
    return {256, 144};
  case QuantKind::GgufQ5K:
    return {256, 176};
  case QuantKind::GgufQ6K:
    return {256, 210};
  case QuantKind::GgufQ8K:
    return {256, 292};
  case QuantKind::Nvfp4:
    return {16, 9};
  default:
    return {0, 0};
  }
}

bool QuantSchemeAttr::hasPackedBlocks() const {
  return packedBlock(getKind()).first != 0;
}

bool QuantSchemeAttr::isGguf() const {
  return hasPackedBlocks() && getKind() != QuantKind::Nvfp4;
}

int64_t QuantSchemeAttr::getEffectiveBlockSize() const {
  return hasPackedBlocks() ? packedBlock(getKind()).first : getBlockSize();
}

int64_t QuantSchemeAttr::getPackedRowBytes(int64_t k) const {
  if (ShapedType::isDynamic(k))
    return k;
  if (hasPackedBlocks()) {
    auto [weights, bytes] = packedBlock(getKind());
    return k / weights * bytes;
  }
  if (getKind() == QuantKind::Int4Block)
    return k / 2;
  return k;
}

unsigned QuantSchemeAttr::getNumParamOperands() const {
  switch (getKind()) {
  case QuantKind::Int8Block:
  case QuantKind::Int4Block:
  case QuantKind::Fp8E4M3:
  case QuantKind::Fp8E5M2:
  case QuantKind::Nvfp4:
    return 1;
  case QuantKind::Int8BlockAsym:
    return 2;
  default:
    return 0;
  }
}

LogicalResult
QuantSchemeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        QuantKind kind, int64_t blockSize) {
  StringRef name = stringifyQuantKind(kind);
  switch (kind) {
  case QuantKind::Int8Block:
  case QuantKind::Int8BlockAsym:
  case QuantKind::Int4Block:
    if (blockSize <= 0)
      return emitError() << "scheme '" << name
                         << "' needs a positive block size, got "
                         << blockSize;
    if (kind == QuantKind::Int4Block && blockSize % 2 != 0)
      return emitError() << "scheme 'int4_block' needs an even block size "
                            "(two weights per byte), got "
                         << blockSize;
    return success();
  case QuantKind::Fp8E4M3:
  case QuantKind::Fp8E5M2:
    if (blockSize != 0)
      return emitError() << "scheme '" << name
                         << "' takes no block size, got " << blockSize;
    return success();
  default: {
    int64_t fixed = packedBlock(kind).first;
    if (blockSize != 0 && blockSize != fixed)
      return emitError() << "scheme '" << name << "' has a fixed block size of "
                         << fixed << ", got " << blockSize;
    return success();
  }
  }
}
