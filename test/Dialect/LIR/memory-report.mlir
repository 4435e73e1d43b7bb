// RUN: rlx-opt %s --rlx-memory-report -o /dev/null | FileCheck %s
// RUN: rlx-opt %s --rlx-memory-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: rlx-opt %s --rlx-memory-report="format=json output=%t.json" -o /dev/null | count 0
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: rlx-opt %s --rlx-memory-report=planner=best-fit -o /dev/null | FileCheck %s --check-prefix=BESTFIT

// The report's figures for the graphs of plan-memory.mlir, worked out by
// hand there: @chain keeps two 128-byte buffers live at kernel 2 (plus an
// in-place alias that costs nothing; naive counts it: 3 x 128); @divergent
// needs 448 bytes at kernels 4 and 5, which greedy reaches and best-fit
// misses by 64 (naive: 64 + 64 + 64 + 128 + 192 + 192).

// CHECK-LABEL: rlx memory report: @chain (alignment 64, planner greedy)
// CHECK-NEXT:   kernels 4, buffers 2, aliases 1
// CHECK-NEXT:   arena                          256 bytes
// CHECK-NEXT:   lower bound                    256 bytes
// CHECK-NEXT:   greedy                         256 bytes
// CHECK-NEXT:   best-fit                       256 bytes
// CHECK-NEXT:   naive                          384 bytes
// CHECK-NEXT:   arena / lower bound         1.0000
// CHECK-LABEL: rlx memory report: @divergent (alignment 64, planner greedy)
// CHECK-NEXT:   kernels 7, buffers 6, aliases 0
// CHECK-NEXT:   arena                          448 bytes
// CHECK-NEXT:   lower bound                    448 bytes
// CHECK-NEXT:   greedy                         448 bytes
// CHECK-NEXT:   best-fit                       512 bytes
// CHECK-NEXT:   naive                          704 bytes
// CHECK-NEXT:   arena / lower bound         1.0000

// @dead_ops (plan-memory.mlir's): the dead exp, transpose and matmul are
// neither kernels nor buffers, as in the plan.
// CHECK-LABEL: rlx memory report: @dead_ops (alignment 64, planner greedy)
// CHECK-NEXT:   kernels 3, buffers 1, aliases 1
// CHECK-NEXT:   arena                          128 bytes
// CHECK:        naive                          256 bytes

// JSON: {"aliases":1,"alignment":64,"arena":256,"best_fit":256,"buffers":2,"function":"chain","greedy":256,"kernels":4,"lower_bound":256,"naive":384,"planner":"greedy","ratio":1}
// JSON: {"aliases":0,"alignment":64,"arena":448,"best_fit":512,"buffers":6,"function":"divergent","greedy":448,"kernels":7,"lower_bound":448,"naive":704,"planner":"greedy","ratio":1}

// BESTFIT-LABEL: rlx memory report: @divergent (alignment 64, planner best-fit)
// BESTFIT:   arena                          512 bytes
// BESTFIT:   arena / lower bound         1.1429

func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.matmul %1, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %3 = rlx.add %2, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

func.func @divergent(%x: tensor<1x16xf32>, %w: tensor<16x16xf32>,
                     %a: tensor<2x1xf32>, %m: tensor<3x3xf32>) -> tensor<4x16xf32> {
  %b0 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b1 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b2 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b3 = rlx.matmul %a, %b1 : tensor<2x1xf32>, tensor<1x16xf32>
  %b4 = rlx.concat %b2, %b3 axis = 0 : tensor<1x16xf32>, tensor<2x16xf32>
  %b5 = rlx.matmul %m, %b4 : tensor<3x3xf32>, tensor<3x16xf32>
  %y = rlx.concat %b0, %b5 axis = 0 : tensor<1x16xf32>, tensor<3x16xf32>
  return %y : tensor<4x16xf32>
}

func.func @dead_ops(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %e = rlx.exp %x : tensor<4x8xf32>
  %t = rlx.transpose %w [1, 0] : tensor<8x8xf32>
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %dead = rlx.matmul %e, %t : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %3 = rlx.add %1, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
