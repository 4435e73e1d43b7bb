//===- Passes.td - rlx_lir passes --------------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_TRANSFORMS_PASSES_TD
#define RLX_DIALECT_LIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

defvar PlannerOptions = [
  Option<"alignment", "alignment", "int64_t", /*default=*/"64",
         "Byte alignment of every buffer and weight slot (a power of two)">,
  Option<"planner", "planner", "std::string", /*default=*/"\"auto\"",
         "Offset assignment: greedy (the seeds' size-sorted first-fit), "
         "best-fit (global decreasing-size best-fit, as XLA's heap "
         "simulator) or auto (the smaller arena of both)">
];

def PlanMemoryPass : Pass<"rlx-plan-memory", "ModuleOp"> {
  let summary = "Plan every intermediate of each function into one arena "
                "and lower it to rlx_lir";
  let description = [{
    For each function of statically shaped MIR: the schedule is program
    order, one kernel per op (fused ops are one kernel); a value's lifetime
    runs from the kernel that writes it to the last kernel that reads it or
    a view of it. Then:

    * views (reshape, same-width cast, axis-0 narrow, an expand that only
      adds size-1 dims) of an arena buffer become `rlx_lir.alias`es at an
      offset and cost no bytes; an elementwise op whose operand has the
      result's shape and byte size and dies there writes over it in place;
    * every other intermediate gets an offset in the arena from the chosen
      planner; the lower bound is the most bytes live at any one kernel;
    * `rlx.param`s become `rlx_lir.weight` slots of one module-wide weight
      region (`rlx_lir.weights` on the module), so that a forward and its
      backward naming the same parameter share the slot;
    * function arguments and results are not in the arena: arguments are
      read in place, a kernel producing a returned value returns a fresh
      tensor (the caller owns it); constants and views of values outside the
      arena are cloned into the kernels that read them.

    The function keeps its tensor signature; its body becomes one
    `rlx_lir.arena` carrying the `#rlx_lir.plan`, the buffers and aliases,
    and one `rlx_lir.kernel` per MIR op. Ops with a dynamic shape are
    rejected with a diagnostic.
  }];
  let options = PlannerOptions;
  let dependentDialects = ["::mlir::rlx::lir::RLXLIRDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MemoryReportPass : Pass<"rlx-memory-report", "ModuleOp"> {
  let summary = "Print each function's arena size against its lower bound";
  let description = [{
    Plans every function as `--rlx-plan-memory` does, without changing the
    IR, and prints per function: the arena size of the chosen planner, the
    arenas of the greedy and best-fit planners, the lower bound (the most
    bytes live at any one kernel), the naive size (the sum of all
    intermediates, as one allocation each), the ratio arena / lower bound,
    and the kernel, buffer and alias counts. `format=json` prints one JSON
    object per function instead; `format=svg` draws the plans as one SVG
    picture (kernels in program order along x, the offset in the arena up
    y, one rect per buffer or view at its planned offset and size over its
    live range, the lower bound as a line); `format=html` wraps it in a
    page with a legend. `output=FILE` writes to FILE instead of stdout.
  }];
  let options = !listconcat(PlannerOptions, [
    Option<"format", "format", "std::string", /*default=*/"\"text\"",
           "text, json, svg or html">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "The file to write the report to ('-', the default: stdout)">
  ]);
}

def LowerLIRPass : Pass<"rlx-lower-lir", "ModuleOp"> {
  let summary = "Lower rlx_lir to one allocation, views of it and "
                "bufferization ops around the kernels' MIR";
  let description = [{
    The CPU path's bridge from a planned program to upstream bufferization:
    `rlx_lir.arena` becomes one `memref.alloc` of `arena_size` bytes
    (aligned as planned), each `rlx_lir.buffer` / `rlx_lir.alias` a
    `memref.view` of it at its absolute offset, and each `rlx_lir.kernel`
    its MIR body inline: memref inputs read through
    `bufferization.to_tensor restrict`, outputs written with
    `bufferization.materialize_in_destination ... restrict writable`,
    results materialized into tensors of their own (never the arena's
    bytes, which later kernels reuse). With `--eliminate-empty-tensors` before
    one-shot bufferization, each kernel computes straight into its buffer.
    `rlx_lir.weight` is not lowered yet (rlx-run binds parameters as
    arguments): it fails with a diagnostic.

    ```mlir
    %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
    %c0 = arith.constant 0 : index
    %b0 = memref.view %arena[%c0][] : memref<256xi8> to memref<4x8xf32>
    %x = bufferization.to_tensor %b0 restrict : memref<4x8xf32> to tensor<4x8xf32>
    %g = rlx.gelu %x : tensor<4x8xf32>
    bufferization.materialize_in_destination %g in restrict writable %b1
        : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // RLX_DIALECT_LIR_TRANSFORMS_PASSES_TD
