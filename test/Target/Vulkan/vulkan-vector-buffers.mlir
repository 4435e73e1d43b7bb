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

// 16-bit elements too, in 2 or 4 lanes (SPIR-V vectors have at most 4
// lanes); the front's 8-lane (16-byte) accesses of them are accesses of 4
// words: a load's lanes are the low and high halves of each word, a
// store's are packed into them the same way (lane 2i low in word i, as
// in memory).
// CHECK-LABEL: gpu.func @halves
// CHECK-SAME: (%{{.+}}: memref<4x4xvector<4xbf16>>, %{{.+}}: memref<16xvector<2xf16>>, %[[Z:.+]]: memref<2xvector<4xi32>>, %{{.+}}: index, %[[J:.+]]: index)
// CHECK: %[[AT:.+]] = arith.divui %[[J]], %c8
// CHECK: %[[W:.+]] = memref.load %[[Z]][%[[AT]]] : memref<2xvector<4xi32>>
// CHECK: %[[W0:.+]] = vector.extract %[[W]][0] : i32 from vector<4xi32>
// CHECK: %[[H0:.+]] = arith.shrui %[[W0]], %c16_i32 : i32
// CHECK-DAG: arith.trunci %[[W0]] : i32 to i16
// CHECK-DAG: arith.trunci %[[H0]] : i32 to i16
// CHECK: vector.extract %[[W]][3] : i32 from vector<4xi32>
// CHECK: %[[HI:.+]] = arith.shli %{{.+}}, %c16_i32{{.*}} : i32
// CHECK: arith.ori %{{.+}}, %[[HI]] : i32
// CHECK: %[[S:.+]] = vector.from_elements %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : vector<4xi32>
// CHECK: memref.store %[[S]], %[[Z]][%{{.+}}] : memref<2xvector<4xi32>>
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
