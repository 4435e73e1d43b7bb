// RUN: rlx-opt %s --split-input-file --rlx-vulkan-bf16-buffers -verify-diagnostics | FileCheck %s

// bf16 kernel buffers hold 16-bit words; loads, stores and selects go
// through bitcasts, and the host passes the buffers cast to the new type.
// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[A:.+]]: memref<8xbf16>, %[[B:.+]]: memref<8xf32>)
// CHECK: %[[W:.+]] = builtin.unrealized_conversion_cast %[[A]] : memref<8xbf16> to memref<8xi16>
// CHECK: gpu.launch_func @k::@k {{.+}} args(%[[W]] : memref<8xi16>, %[[B]] : memref<8xf32>, %{{.+}} : index)
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[X:.+]]: memref<8xi16>, %[[Y:.+]]: memref<8xf32>, %[[I:.+]]: index)
// CHECK: %[[LW:.+]] = memref.load %[[X]][%[[I]]] : memref<8xi16>
// CHECK: %[[L:.+]] = arith.bitcast %[[LW]] : i16 to bf16
// CHECK: %[[SEL:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : i16
// CHECK: %[[S:.+]] = arith.bitcast %[[SEL]] : i16 to bf16
// CHECK: %[[SW:.+]] = arith.bitcast %[[S]] : bf16 to i16
// CHECK: memref.store %[[SW]], %[[X]][%[[I]]] : memref<8xi16>
module attributes {gpu.container_module} {
  func.func @host(%a: memref<8xbf16>, %b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xbf16>, %b : memref<8xf32>, %c1 : index)
    return
  }
  gpu.module @k {
    gpu.func @k(%x: memref<8xbf16>, %y: memref<8xf32>, %i: index) kernel {
      %v = memref.load %x[%i] : memref<8xbf16>
      %zero = arith.constant 0.0 : bf16
      %f = memref.load %y[%i] : memref<8xf32>
      %c = arith.cmpf ogt, %f, %f : f32
      %s = arith.select %c, %v, %zero : bf16
      memref.store %s, %x[%i] : memref<8xbf16>
      gpu.return
    }
  }
}

// -----

// A view of a bf16 buffer would still read bf16.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%x: memref<8xbf16>) kernel {
      // expected-error @+1 {{'memref.subview' op uses a bf16 kernel buffer, which Vulkan kernels read only by loads and stores}}
      %s = memref.subview %x[0] [4] [1] : memref<8xbf16> to memref<4xbf16, strided<[1]>>
      gpu.return
    }
  }
}
