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

def MetalExpandMathPass : Pass<"rlx-metal-expand-math",
                               "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand the math ops that the Metal standard library lacks";
  let description = [{
    Run by `--rlx-metal-pipeline` on the kernels before the MSL emitter
    (`rlx-translate --rlx-to-msl`) reads them. The Metal standard library
    has no `erf` or `erfc`, so `math.erf` and `math.erfc` on f32 become
    upstream's polynomial approximations (arith and math ops that MSL has).
    What remains unexpanded (e.g. f16 `erf`) is a diagnostic of the
    emitter.

    ```mlir
    %y = math.erf %x : f32
    // becomes a rational polynomial in %x (arith.mulf, arith.addf,
    // arith.divf, arith.select)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // RLX_TARGET_METAL_PASSES_TD
