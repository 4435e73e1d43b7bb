// RUN: rlx-translate --rlx-to-metal-host %s --split-input-file --verify-diagnostics

// What a host program cannot follow without MLIR is an error at the op.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @dynamic_shared_memory(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : i32
    // expected-error @+1 {{'gpu.launch_func' op with dynamic shared memory is not described}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c64 args(%a : memref<4xf32>)
    return
  }
}

// -----

// expected-error @+1 {{'func.func' op argument #0 is not a statically shaped buffer: the Metal host description takes those alone}}
func.func @dynamic_argument(%a: memref<?xf32>) {
  return
}

// -----

func.func @host_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op on the host has no Metal host description}}
  scf.for %i = %c0 to %c4 step %c1 {
  }
  return
}
