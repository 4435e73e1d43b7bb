//===- Passes.td - RLX Metal target passes -----------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_METAL_PASSES_TD
#define RLX_TARGET_METAL_PASSES_TD

include "mlir/Pass/PassBase.td"

// The Metal target has no passes of its own: the math that MSL lacks is
// expanded by the GPU front's rlx-gpu-expand-math (RLX/Conversion/Passes.td),
// which the Vulkan pipeline runs too.

#endif // RLX_TARGET_METAL_PASSES_TD
