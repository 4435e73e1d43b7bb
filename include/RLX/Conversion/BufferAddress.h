//===- BufferAddress.h - a buffer's address for a runtime call --*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lowerings that hand buffers to runtime functions (the GPU runtime's
// kernels, the CPU's GGUF kernel, the collectives) pass their addresses the
// same way: the memref's aligned pointer as an i64, then as an !llvm.ptr.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_BUFFERADDRESS_H
#define RLX_CONVERSION_BUFFERADDRESS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace rlx {

/// The aligned pointer of `buffer` (a memref) as an i64.
inline Value alignedPointerWord(OpBuilder &b, Location loc, Value buffer) {
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// The aligned pointer of `buffer` as an !llvm.ptr (its layout's offset
/// not added: for identity-layout buffers).
inline Value alignedPointer(OpBuilder &b, Location loc, Value buffer) {
  return LLVM::IntToPtrOp::create(b, loc,
                                  LLVM::LLVMPointerType::get(b.getContext()),
                                  alignedPointerWord(b, loc, buffer));
}

} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_BUFFERADDRESS_H
