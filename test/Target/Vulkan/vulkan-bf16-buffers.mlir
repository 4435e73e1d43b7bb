// RUN: rlx-opt %s --split-input-file --rlx-vulkan-bf16-buffers -verify-diagnostics | FileCheck %s

// bf16 kernel buffers hold 16-bit words, and the bf16 values loaded,
// selected and stored are those words; the host passes the buffers cast to
// the new type.
// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[A:.+]]: memref<8xbf16>, %[[B:.+]]: memref<8xf32>)
// CHECK: %[[W:.+]] = builtin.unrealized_conversion_cast %[[A]] : memref<8xbf16> to memref<8xi16>
// CHECK: gpu.launch_func @k::@k {{.+}} args(%[[W]] : memref<8xi16>, %[[B]] : memref<8xf32>, %{{.+}} : index)
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[X:.+]]: memref<8xi16>, %[[Y:.+]]: memref<8xf32>, %[[I:.+]]: index)
// CHECK: %[[LW:.+]] = memref.load %[[X]][%[[I]]] : memref<8xi16>
// CHECK: %[[SEL:.+]] = arith.select %{{.+}}, %[[LW]], %{{.+}} : i16
// CHECK: memref.store %[[SEL]], %[[X]][%[[I]]] : memref<8xi16>
// CHECK-NOT: bf16
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

// A running bf16 maximum carried through a loop (compared as the words
// arith-expand makes) is carried as its word.
// CHECK-LABEL: gpu.func @running_max
// CHECK: %[[INIT:.+]] = arith.constant -128 : i16
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%[[A:.+]] = %[[INIT]]) -> (i16) {
// CHECK:   %[[W:.+]] = memref.load %{{.+}} : memref<8xi16>
// CHECK:   %[[S:.+]] = arith.select %{{.+}}, %[[W]], %[[A]] : i16
// CHECK:   scf.yield %[[S]] : i16
// CHECK: memref.store %[[R]], %{{.+}} : memref<8xi16>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @running_max(%x: memref<8xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %init = arith.constant 0xFF80 : bf16
      %m = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %init) -> (bf16) {
        %v = memref.load %x[%i] : memref<8xbf16>
        %vw = arith.bitcast %v : bf16 to i16
        %aw = arith.bitcast %a : bf16 to i16
        %gt = arith.cmpi sgt, %vw, %aw : i16
        %s = arith.select %gt, %v, %a : bf16
        scf.yield %s : bf16
      }
      memref.store %m, %x[%c0] : memref<8xbf16>
      gpu.return
    }
  }
}

// -----

// A buffer of bf16 vectors (rlx-vulkan-vector-buffers' 8-byte loads) holds
// vectors of words: the loaded vector's bitcast (arith-expand's extension
// to f32) and a lane extracted from it, a vector built from lanes and
// stored, a constant vector selected, and the vector bitcast to 32-bit
// words (the cooperative matmul's bf16 pairs), are on the words.
// CHECK-LABEL: gpu.func @vectors
// CHECK-SAME: (%[[X:.+]]: memref<2xvector<4xi16>>, %{{.+}}: i1, %[[P:.+]]: memref<4xvector<2xi32>>)
// CHECK: %[[V:.+]] = memref.load %[[X]][%{{.+}}] : memref<2xvector<4xi16>>
// CHECK: arith.extui %[[V]] : vector<4xi16> to vector<4xi32>
// CHECK: %[[E:.+]] = vector.extract %[[V]][1] : i16 from vector<4xi16>
// CHECK: %[[N:.+]] = vector.from_elements %[[E]], %[[E]], %[[E]], %[[E]] : vector<4xi16>
// CHECK: memref.store %[[N]], %[[X]][%{{.+}}] : memref<2xvector<4xi16>>
// CHECK: %[[K:.+]] = arith.constant dense<[0, 16256, -16384, 32640]> : vector<4xi16>
// CHECK: %[[S:.+]] = arith.select %{{.+}}, %[[V]], %[[K]] : vector<4xi16>
// CHECK: memref.store %[[S]], %[[X]][%{{.+}}] : memref<2xvector<4xi16>>
// CHECK: %[[PW:.+]] = vector.bitcast %[[V]] : vector<4xi16> to vector<2xi32>
// CHECK: memref.store %[[PW]], %[[P]][%{{.+}}] : memref<4xvector<2xi32>>
// CHECK-NOT: bf16
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @vectors(%x: memref<2xvector<4xbf16>>, %flag: i1, %pairs: memref<4xvector<2xi32>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = memref.load %x[%c0] : memref<2xvector<4xbf16>>
      %w = arith.bitcast %v : vector<4xbf16> to vector<4xi16>
      %z = arith.extui %w : vector<4xi16> to vector<4xi32>
      %e = vector.extract %v[1] : bf16 from vector<4xbf16>
      %n = vector.from_elements %e, %e, %e, %e : vector<4xbf16>
      memref.store %n, %x[%c1] : memref<2xvector<4xbf16>>
      %k = arith.constant dense<[0.0, 1.0, -2.0, 0x7F80]> : vector<4xbf16>
      %s = arith.select %flag, %v, %k : vector<4xbf16>
      memref.store %s, %x[%c0] : memref<2xvector<4xbf16>>
      %p = vector.bitcast %v : vector<4xbf16> to vector<2xi32>
      memref.store %p, %pairs[%c0] : memref<4xvector<2xi32>>
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
