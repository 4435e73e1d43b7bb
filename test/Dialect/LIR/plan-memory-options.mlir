// RUN: not rlx-opt %s --rlx-plan-memory=planner=optimal 2>&1 | FileCheck %s --check-prefix=PLANNER
// RUN: not rlx-opt %s --rlx-plan-memory=alignment=24 2>&1 | FileCheck %s --check-prefix=ALIGN

// Bad options end in a diagnostic and a non-zero exit.
// PLANNER: error: unknown planner 'optimal'; expected greedy, best-fit or auto
// ALIGN: error: alignment 24 is not a positive power of two
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = rlx.neg %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
