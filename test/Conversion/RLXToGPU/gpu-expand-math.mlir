// RUN: rlx-opt %s --pass-pipeline='builtin.module(gpu.module(rlx-gpu-expand-math))' --split-input-file | FileCheck %s

// f32 erf and erfc in a kernel become polynomials in arith ops.
// CHECK-LABEL: gpu.func @erf
// CHECK-NOT:     math.erf
// CHECK:         arith.mulf
// CHECK:         arith.select
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @erf(%x: f32, %out: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = math.erf %x : f32
    %ec = math.erfc %x : f32
    memref.store %e, %out[%c0] : memref<2xf32>
    memref.store %ec, %out[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// Other math stays as it is.
// CHECK-LABEL: gpu.func @kept
// CHECK:         math.exp
// CHECK:         math.tanh
gpu.module @kernels {
  gpu.func @kept(%x: f32, %out: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = math.exp %x : f32
    %t = math.tanh %x : f32
    memref.store %e, %out[%c0] : memref<2xf32>
    memref.store %t, %out[%c1] : memref<2xf32>
    gpu.return
  }
}
