//===- Attributes.h - C API of RLX's attributes -------------------*- C -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The attributes a C client builds or reads beyond what the generic
// attribute API (mlirAttributeParseGet, mlirAttributeGetDictionary...)
// gives: the quantization scheme of rlx.dequant_matmul and friends, and
// the memory plan that --rlx-plan-memory attaches to rlx_lir.arena.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_ATTRIBUTES_H
#define RLX_C_ATTRIBUTES_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// #rlx.quant<kind[, block]>
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool rlxAttributeIsAQuantScheme(MlirAttribute attr);

/// `#rlx.quant<kind, blockSize>` (blockSize 0: none given). Returns a null
/// attribute, with an error diagnostic on the context, for an unknown kind
/// or a block size the kind does not take.
MLIR_CAPI_EXPORTED MlirAttribute rlxQuantSchemeAttrGet(MlirContext ctx,
                                                       MlirStringRef kind,
                                                       int64_t blockSize);

/// The scheme's name ("int8_block", "gguf_q4_k", ...).
MLIR_CAPI_EXPORTED MlirStringRef rlxQuantSchemeAttrGetKind(MlirAttribute attr);

/// The block size in effect (the parameter, or 256 for the GGUF schemes).
MLIR_CAPI_EXPORTED int64_t rlxQuantSchemeAttrGetBlockSize(MlirAttribute attr);

//===----------------------------------------------------------------------===//
// #rlx_lir.plan<arena_size, alignment, buffers>
//===----------------------------------------------------------------------===//

/// One planned buffer: bytes [offset, offset + size) of the arena, live
/// from step `start` to step `end`; `root` is the id of the buffer whose
/// bytes it reuses in place, or -1.
typedef struct {
  int64_t id;
  int64_t offset;
  int64_t size;
  int64_t start;
  int64_t end;
  int64_t root;
} RlxPlannedBuffer;

MLIR_CAPI_EXPORTED bool rlxAttributeIsAPlan(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t rlxPlanAttrGetArenaSize(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t rlxPlanAttrGetAlignment(MlirAttribute attr);
MLIR_CAPI_EXPORTED intptr_t rlxPlanAttrGetNumBuffers(MlirAttribute attr);
MLIR_CAPI_EXPORTED RlxPlannedBuffer rlxPlanAttrGetBuffer(MlirAttribute attr,
                                                         intptr_t pos);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_ATTRIBUTES_H
