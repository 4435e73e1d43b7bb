//===- MSLEmitter.h - GPU kernels to Metal Shading Language -----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// RLX's own Metal back end: the gpu.module kernels of the GPU front (for
// the Metal description, --rlx-metal-pipeline) as MSL source, and the host
// functions' launches as a JSON description that a host program follows.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_METAL_MSLEMITTER_H
#define RLX_TARGET_METAL_MSLEMITTER_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
} // namespace gpu

namespace rlx {

/// The name of the MSL kernel function of `gpu.module @m { gpu.func @f }`.
std::string getMSLKernelName(StringRef module, StringRef func);

/// The builtins that the MSL kernel of `func` takes after its buffers, in
/// order, by their MSL attribute names: those of threadgroup_position_in_grid,
/// thread_position_in_threadgroup, threadgroups_per_grid and
/// threads_per_threadgroup that it reads (each a uint3).
SmallVector<StringRef> getMSLKernelBuiltins(gpu::GPUFuncOp func);

/// Writes every gpu.func kernel under `op` as an MSL `kernel` function.
/// Each memref argument is a `device` buffer (`const` where the kernel only
/// reads it) bound at `[[buffer(i)]]` in argument order, each other
/// argument a `constant` scalar at the next index; then those of the
/// threadgroup's position in the grid, the thread's in the threadgroup and
/// the grid's and threadgroup's sizes that the kernel reads. Workgroup
/// attributions are `threadgroup` arrays declared in the kernel's scope.
/// Fails with a diagnostic at the first op MSL cannot express.
LogicalResult translateToMSL(Operation *op, raw_ostream &os);

/// Writes the host functions under `op` (func.func with gpu.launch_func)
/// as JSON: per function its arguments and temporary buffers with their
/// sizes, and its steps in order (each launch with its kernel, grid and
/// threadgroup sizes, buffer bindings and, `withBuiltins`, the MSL
/// builtins its kernel takes; each copy). Fails with a diagnostic at a host
/// op that the description cannot hold.
LogicalResult translateToMetalHostDescription(Operation *op, raw_ostream &os,
                                              bool withBuiltins = true);

/// A host function's attribute naming its arguments' element types (an
/// array of types, results last) where they differ from its memrefs' (the
/// unsigned types that bufferization makes signless); rlx-compile sets it.
constexpr llvm::StringLiteral kMetalElementTypesAttr = "rlx.element_types";

/// Registers `--rlx-to-msl` and `--rlx-to-metal-host` with
/// mlir-translate's registry.
void registerMetalTranslations();

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_METAL_MSLEMITTER_H
