//===- BFloat16.h - float <-> bfloat16 bits ---------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one conversion between float and bfloat16 of RLX's tools and
// runtimes. bf16 tensors travel in .npy files as float32 (NumPy has no
// bf16): rlx-run, rlx-vulkan-run and rlx-metal-cpu-run round each element
// to bf16 on the way in and widen it on the way out. Header-only and
// without MLIR or LLVM, so that every runner can use it (rlx-vulkan-run
// links no LLVM).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_COMMON_BFLOAT16_H
#define RLX_RUNTIME_COMMON_BFLOAT16_H

#include <cstdint>
#include <cstring>

// The namespace is MLIR's, as for all of RLX; the runtime does not include
// or link MLIR.
namespace mlir {
namespace rlx {
namespace runtime {

/// The bf16 bits of `f`, rounded to nearest even. A NaN stays a quiet NaN
/// of the same sign (the high bits of its payload kept, the quiet bit set),
/// as LLVM's APFloat and x86's VCVTNEPS2BF16 convert it; it never rounds
/// into an infinity or wraps to zero. A finite value beyond bf16's range
/// rounds to the infinity of its sign, as IEEE rounding does.
inline uint16_t floatToBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7FFFFFFF) > 0x7F800000) // NaN
    return uint16_t((bits >> 16) | 0x0040);
  // Adds just under half an ulp of bf16, one more where the kept bits are
  // odd, so that a tie goes to the even neighbour.
  bits += 0x7FFF + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

/// The float of bf16 bits `h`: exact (bf16 is float's upper half).
inline float bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Rounds `n` floats at `from` (bytes of a float32 array, any alignment)
/// to bf16 bits at `to`, as floatToBF16.
inline void floatsToBF16(const void *from, void *to, int64_t n) {
  auto *in = static_cast<const unsigned char *>(from);
  auto *out = static_cast<unsigned char *>(to);
  for (int64_t i = 0; i < n; ++i) {
    float f;
    std::memcpy(&f, in + 4 * i, 4);
    uint16_t h = floatToBF16(f);
    std::memcpy(out + 2 * i, &h, 2);
  }
}

/// Widens `n` bf16 values at `from` to floats at `to`, as bf16ToFloat.
inline void bf16ToFloats(const void *from, void *to, int64_t n) {
  auto *in = static_cast<const unsigned char *>(from);
  auto *out = static_cast<unsigned char *>(to);
  for (int64_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, in + 2 * i, 2);
    float f = bf16ToFloat(h);
    std::memcpy(out + 4 * i, &f, 4);
  }
}

} // namespace runtime
} // namespace rlx
} // namespace mlir

#endif // RLX_RUNTIME_COMMON_BFLOAT16_H
