//===- RuntimeKernels.h - ops outlined for runtime kernels ------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' kernel-dispatch policy on the GPU in two steps: an op that a
// kernel of the GPU runtime computes (its library matmul, the flash- attention
// kernel; RLX/Runtime/Common/GPURuntime.h) moves into a private function tagged
// with the problem, which bufferizes like any other function
// (rlx-gpu-dispatch-matmul, rlx-gpu-dispatch-attention); after bufferization
// rlx-gpu-call-runtime-kernels turns its calls into runtime calls. The tags and
// the outlining are shared here.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_RLXTOGPU_RUNTIMEKERNELS_H
#define RLX_CONVERSION_RLXTOGPU_RUNTIMEKERNELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace rlx {

/// The tag (a dictionary of the problem) of a function outlined for
/// rlxGpuMatmul.
constexpr llvm::StringLiteral kLibraryMatmulTag = "rlx.library_matmul";
/// The tag of a function outlined for rlxFlashAttention.
constexpr llvm::StringLiteral kFlashAttentionTag = "rlx.flash_attention";
/// The tag of a function outlined for the atomic kernels that
/// rlx-gpu-expand-scatter-add generates (not a runtime kernel, but outlined
/// and replaced after bufferization the same way).
constexpr llvm::StringLiteral kScatterAddTag = "rlx.gpu_scatter_add";
/// The tag of a function outlined for rlxDecodeAttention.
constexpr llvm::StringLiteral kDecodeAttentionTag = "rlx.decode_attention";
/// The tag of a function outlined for the copy kernel that
/// rlx-gpu-expand-kv-cache-write generates (as kScatterAddTag's).
constexpr llvm::StringLiteral kKVCacheWriteTag = "rlx.gpu_kv_cache_write";

/// Whether `op` is in a function outlined for a runtime kernel (whose body
/// only stands for the kernel: no pass needs to rewrite it).
bool isInRuntimeKernelFunction(Operation *op);

/// Clones `ops` (in order: each one reads `args` or results of earlier ones)
/// into a new private function named `name` (made unique in `symbols`) with
/// an argument for each of `args` (the runtime call's operands, in its
/// order) that returns `results`; tags it `tag` = `problem`, inserts it
/// before the ops' function, and creates a call of it on `args` before the
/// last op. Returns the call; `ops` stay (their uses are the caller's to
/// replace), `map` takes each original to its copy.
func::CallOp outlineForRuntimeKernel(ArrayRef<Operation *> ops, ValueRange args,
                                     ValueRange results, StringRef name,
                                     StringRef tag, DictionaryAttr problem,
                                     SymbolTable &symbols, IRMapping &map);

/// The calls in `module` of functions tagged `tag`, each with its tag's
/// problem, in walk order (each callee looked up once per call).
SmallVector<std::pair<func::CallOp, DictionaryAttr>>
callsOfTaggedFunctions(ModuleOp module, StringRef tag);

/// Erases the functions of `module` tagged `tag` (once their calls are
/// replaced).
void eraseTaggedFunctions(ModuleOp module, StringRef tag);

/// Where the result of `call` (after bufferization, its last operand is the
/// result's out-parameter) should be written. Buffer-results-to-out-params
/// gives a call's result a temporary that is then copied to the caller's
/// out-parameter; where the copy follows the call and the temporary has no
/// other use, the call writes to the copy's target instead (one pass over
/// the result less): the copy and the deallocations of the temporary go
/// here, the temporary with the call (its caller erases it once unused). A
/// result returned through a collapse_shape (an attention's heads merged
/// back into one hidden dim) is written to the target expanded back.
Value elideResultCopy(func::CallOp call);

} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_RLXTOGPU_RUNTIMEKERNELS_H
