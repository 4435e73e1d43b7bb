// RUN: rlx-opt %s --rlx-gpu-inline-splat-constants --split-input-file | FileCheck %s

memref.global "private" constant @scale : memref<f32> = dense<1.250000e-01>

// A 0-d constant read by a generic: the operand goes, the body multiplies
// by the value (a constant the greedy driver hoists), and the handle goes.
// CHECK-LABEL: func.func @scalar_scale
// CHECK-NOT: memref.get_global
// CHECK: %[[C:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : memref<8xf32>)
// CHECK: arith.mulf %{{.*}}, %[[C]] : f32
func.func @scalar_scale(%x: memref<8xf32>, %y: memref<8xf32>) {
  %s = memref.get_global @scale : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>,
                                   affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%s, %x : memref<f32>, memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

memref.global "private" constant @twos : memref<8xbf16> = dense<2.000000e+00>

// A splat vector constant, bf16.
// CHECK-LABEL: func.func @splat_vector
// CHECK-NOT: memref.get_global
// CHECK: %[[C:.*]] = arith.constant 2.000000e+00 : bf16
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : memref<8xbf16>)
// CHECK: arith.addf %{{.*}}, %[[C]] : bf16
func.func @splat_vector(%x: memref<8xbf16>, %y: memref<8xbf16>) {
  %t = memref.get_global @twos : memref<8xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x, %t : memref<8xbf16>, memref<8xbf16>) outs(%y : memref<8xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16):
    %m = arith.addf %a, %b : bf16
    linalg.yield %m : bf16
  }
  return
}

// -----

memref.global "private" constant @ramp : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" @state : memref<f32> = dense<1.0>

// Not splat, or not constant: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-DAG: memref.get_global @ramp
// CHECK-DAG: memref.get_global @state
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<4xf32>, memref<f32>, memref<4xf32>)
// CHECK-NOT: arith.constant
func.func @left_alone(%x: memref<4xf32>, %y: memref<4xf32>) {
  %r = memref.get_global @ramp : memref<4xf32>
  %s = memref.get_global @state : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> ()>,
                                   affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%r, %s, %x : memref<4xf32>, memref<f32>, memref<4xf32>)
      outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %m = arith.mulf %a, %b : f32
    %n = arith.addf %m, %c : f32
    linalg.yield %n : f32
  }
  return
}
