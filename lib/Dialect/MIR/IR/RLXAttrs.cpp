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

/// The GGUF K-quant super-block: 256 weights in the byte sizes of llama.cpp's
/// block_q4_K (2 halves + 12 scale bytes + 128 nibble bytes), block_q5_K (+32
/// high-bit bytes), block_q6_K (128 + 64 + 16 scales + 1 half) and block_q8_K
/// (f32 scale + 256 bytes + 16 i16 sums).
static constexpr int64_t kGgufBlock = 256;

static int64_t ggufBlockBytes(QuantKind kind) {
  switch (kind) {
  case QuantKind::GgufQ4K:
    return 144;
  case QuantKind::GgufQ5K:
    return 176;
  case QuantKind::GgufQ6K:
    return 210;
  case QuantKind::GgufQ8K:
    return 292;
  default:
    return 0;
  }
}

bool QuantSchemeAttr::isGguf() const {
  return ggufBlockBytes(getKind()) != 0;
}

int64_t QuantSchemeAttr::getEffectiveBlockSize() const {
  return isGguf() ? kGgufBlock : getBlockSize();
}

int64_t QuantSchemeAttr::getPackedRowBytes(int64_t k) const {
  if (ShapedType::isDynamic(k))
    return k;
  if (isGguf())
    return k / kGgufBlock * ggufBlockBytes(getKind());
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
  default:
    if (blockSize != 0 && blockSize != kGgufBlock)
      return emitError() << "scheme '" << name
                         << "' has a fixed block size of 256, got "
                         << blockSize;
    return success();
  }
}
