// RUN: rlx-translate --rlx-to-msl %s --split-input-file --verify-diagnostics

// What MSL cannot express is an error at the op, and no text is written.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op type 'f64' has no MSL equivalent (MSL has no double; vectors have 2 to 4 lanes)}}
    gpu.func @f64(%a: memref<4xf64>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op argument #0 has dynamic shape 'memref<?xf32>': MSL kernels take static shapes}}
    gpu.func @dynamic(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @half_width(%a: memref<32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %c16 = arith.constant 16 : i32
      %x = memref.load %a[%c0] : memref<32xf32>
      // expected-error @+1 {{'gpu.shuffle' op width must be the 32 lanes of a SIMD group}}
      %y, %valid = gpu.shuffle xor %x, %c1, %c16 : f32
      memref.store %y, %a[%c0] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @valid(%a: memref<32xf32>, %b: memref<32xi1>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %x = memref.load %a[%c0] : memref<32xf32>
      // expected-error @+1 {{'gpu.shuffle' op validity result has no MSL equivalent}}
      %y, %valid = gpu.shuffle down %x, %c1, %c32 : f32
      memref.store %valid, %b[%c0] : memref<32xi1>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @erf(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      // expected-error @+1 {{'math.erf' op has no metal:: function}}
      %y = math.erf %x : f32
      memref.store %y, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wide_vector(%a: memref<64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<64xf16>, vector<8xf16>
      // expected-error @+1 {{'arith.addf' op on vectors has no MSL spelling here (the front computes on scalars)}}
      %w = arith.addf %v, %v : vector<8xf16>
      vector.store %w, %a[%c0] : memref<64xf16>, vector<8xf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @blocks(%a: memref<4xf32>) kernel {
    // expected-error @-1 {{'gpu.func' op has several blocks: the MSL emitter writes structured control flow (scf) alone}}
      cf.br ^bb1
    ^bb1:
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op is not a kernel: the MSL emitter writes kernels alone (the GPU front inlines device functions)}}
    gpu.func @device(%x: f32) -> f32 {
      gpu.return %x : f32
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @alloc(%a: memref<4xf32>) kernel {
      // expected-error @+1 {{'memref.alloc' op has no MSL equivalent in the Metal emitter}}
      %t = memref.alloc() : memref<4xf32>
      %c0 = arith.constant 0 : index
      %x = memref.load %t[%c0] : memref<4xf32>
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
