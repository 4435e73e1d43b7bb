// RUN: rlx-opt %s --rlx-gpu-host-glue | FileCheck %s

// A small host function stays optimized; declarations are not touched.
// (A large one: test/Target/CUDA/deep-model-host-glue.mlir.)
// CHECK-LABEL: func.func @small
// CHECK-NOT: optnone
// CHECK: func.func private @runtime(
func.func @small(%x: memref<4xf32>) {
  call @runtime(%x) : (memref<4xf32>) -> ()
  return
}
func.func private @runtime(memref<4xf32>)
