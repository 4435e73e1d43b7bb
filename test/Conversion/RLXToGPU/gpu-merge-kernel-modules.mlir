// RUN: rlx-opt %s --rlx-gpu-merge-kernel-modules | FileCheck %s

// Two kernel modules equal but for their names merge into the first and
// the launches follow; one that differs in a constant stays.
// CHECK-LABEL: gpu.module @layer_kernel
// CHECK-NOT: gpu.module @layer_kernel_0
// CHECK-LABEL: gpu.module @layer_kernel_1
// CHECK: arith.constant 3.0
// CHECK-LABEL: func.func @layers
// CHECK: gpu.launch_func @layer_kernel::@layer_kernel
// CHECK: gpu.launch_func @layer_kernel::@layer_kernel
// CHECK: gpu.launch_func @layer_kernel_1::@layer_kernel
module attributes {gpu.container_module} {
  gpu.module @layer_kernel {
    gpu.func @layer_kernel(%a: memref<4xf32>) kernel {
      %c = arith.constant 2.0 : f32
      %i = gpu.thread_id x
      memref.store %c, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @layer_kernel_0 {
    gpu.func @layer_kernel(%a: memref<4xf32>) kernel {
      %c = arith.constant 2.0 : f32
      %i = gpu.thread_id x
      memref.store %c, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @layer_kernel_1 {
    gpu.func @layer_kernel(%a: memref<4xf32>) kernel {
      %c = arith.constant 3.0 : f32
      %i = gpu.thread_id x
      memref.store %c, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @layers(%x: memref<4xf32>, %y: memref<4xf32>) {
    %one = arith.constant 1 : index
    %four = arith.constant 4 : index
    gpu.launch_func @layer_kernel::@layer_kernel blocks in (%one, %one, %one) threads in (%four, %one, %one) args(%x : memref<4xf32>)
    gpu.launch_func @layer_kernel_0::@layer_kernel blocks in (%one, %one, %one) threads in (%four, %one, %one) args(%y : memref<4xf32>)
    gpu.launch_func @layer_kernel_1::@layer_kernel blocks in (%one, %one, %one) threads in (%four, %one, %one) args(%x : memref<4xf32>)
    return
  }
}
