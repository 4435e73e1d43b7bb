// RUN: rlx-opt %s --split-input-file --rlx-vulkan-vector-buffers | FileCheck %s

// A buffer read and written only in 4-lane vectors becomes a buffer of
// vector<4xf32> (one 16-byte access each), the host's operand cast to it;
// a buffer also read by a scalar load keeps its type.
// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[A:.+]]: memref<4x16xf32>, %[[B:.+]]: memref<16xf32>)
// CHECK: %[[V:.+]] = builtin.unrealized_conversion_cast %[[A]] : memref<4x16xf32> to memref<4x4xvector<4xf32>>
// CHECK: gpu.launch_func @k::@k {{.+}} args(%[[V]] : memref<4x4xvector<4xf32>>, %[[B]] : memref<16xf32>, %{{.+}} : index, %{{.+}} : index)
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[X:.+]]: memref<4x4xvector<4xf32>>, %[[Y:.+]]: memref<16xf32>, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[J4:.+]] = arith.divui %[[J]], %[[C4]] : index
// CHECK: %[[L:.+]] = memref.load %[[X]][%[[I]], %[[J4]]] : memref<4x4xvector<4xf32>>
// CHECK: vector.load %[[Y]][%[[J]]] : memref<16xf32>, vector<4xf32>
// CHECK: memref.load %[[Y]][%[[J]]] : memref<16xf32>
// CHECK: memref.store %{{.+}}, %[[X]][%[[I]], %{{.+}}] : memref<4x4xvector<4xf32>>
module attributes {gpu.container_module} {
  func.func @host(%a: memref<4x16xf32>, %b: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4x16xf32>, %b : memref<16xf32>, %c1 : index, %c1 : index)
    return
  }
  gpu.module @k {
    gpu.func @k(%x: memref<4x16xf32>, %y: memref<16xf32>, %i: index, %j: index) kernel {
      %v = vector.load %x[%i, %j] : memref<4x16xf32>, vector<4xf32>
      %w = vector.load %y[%j] : memref<16xf32>, vector<4xf32>
      %s = memref.load %y[%j] : memref<16xf32>
      %b = vector.broadcast %s : f32 to vector<4xf32>
      %p = arith.mulf %v, %w : vector<4xf32>
      %q = arith.addf %p, %b : vector<4xf32>
      vector.store %q, %x[%i, %j] : memref<4x16xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// 16-bit elements too, in 2 or 4 lanes (8 bytes at most: SPIR-V vectors
// have at most 4 lanes); the front's 8-lane (16-byte) accesses of them
// are two 4-lane ones, lanes gathered for a load and split for a store.
// CHECK-LABEL: gpu.func @halves
// CHECK-SAME: (%{{.+}}: memref<4x4xvector<4xbf16>>, %{{.+}}: memref<16xvector<2xf16>>, %[[Z:.+]]: memref<4xvector<4xf16>>, %{{.+}}: index, %{{.+}}: index)
// CHECK: %[[P0:.+]] = memref.load %[[Z]][%{{.+}}] : memref<4xvector<4xf16>>
// CHECK: vector.extract %[[P0]][0]
// CHECK: %[[Q1:.+]] = arith.addi %{{.+}}, %c1
// CHECK-NEXT: %[[P1:.+]] = memref.load %[[Z]][%[[Q1]]] : memref<4xvector<4xf16>>
// CHECK: %[[L7:.+]] = vector.extract %[[P1]][3]
// CHECK: %[[U:.+]] = vector.from_elements %{{.+}}, %[[L7]] : vector<8xf16>
// CHECK: %[[S0:.+]] = vector.from_elements %{{.+}} : vector<4xf16>
// CHECK: memref.store %[[S0]], %[[Z]][%{{.+}}] : memref<4xvector<4xf16>>
// CHECK: %[[S1:.+]] = vector.from_elements %{{.+}} : vector<4xf16>
// CHECK: memref.store %[[S1]], %[[Z]][%{{.+}}] : memref<4xvector<4xf16>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @halves(%x: memref<4x16xbf16>, %y: memref<32xf16>, %z: memref<16xf16>, %i: index, %j: index) kernel {
      %v = vector.load %x[%i, %j] : memref<4x16xbf16>, vector<4xbf16>
      %w = vector.load %y[%j] : memref<32xf16>, vector<2xf16>
      %u = vector.load %z[%j] : memref<16xf16>, vector<8xf16>
      vector.store %u, %z[%j] : memref<16xf16>, vector<8xf16>
      gpu.return
    }
  }
}
