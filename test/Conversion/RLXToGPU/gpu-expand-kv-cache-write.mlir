// RUN: rlx-opt %s --split-input-file --rlx-gpu-expand-kv-cache-write --verify-diagnostics | FileCheck %s

// One thread per element of the new rows (1 x 2 x 2 x 8 = 32), the position
// read from device memory inside the kernel, rows past the cache's 16
// positions skipped, the element stored into the caller's cache; the
// tagged function goes.
// CHECK-NOT:   func.func private @kv_cache_write
// CHECK-LABEL: func.func @step(
// CHECK-SAME:    %[[CACHE:[^:]*]]: memref<1x16x2x8xf32>, %[[NEW:[^:]*]]: memref<1x2x2x8xf32>, %[[POS:[^:]*]]: memref<i64>)
// CHECK-NOT:     call
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c32
// CHECK:           %[[P:.*]] = memref.load %[[POS]][] : memref<i64>
// CHECK:           %[[START:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK:           %[[ROW:.*]] = arith.addi %[[START]],
// CHECK:           arith.cmpi ult, %[[ROW]], %c16
// CHECK:           %[[V:.*]] = memref.load %[[NEW]][
// CHECK:           memref.store %[[V]], %[[CACHE]][%{{.*}}, %[[ROW]], %{{.*}}, %{{.*}}]
// CHECK:         return
func.func private @kv_cache_write(%c: memref<1x16x2x8xf32>, %u: memref<1x2x2x8xf32>, %p: memref<i64>) attributes {rlx.gpu_kv_cache_write = {axis = 1 : i64}} {
  return
}
func.func @step(%c: memref<1x16x2x8xf32>, %u: memref<1x2x2x8xf32>, %p: memref<i64>) {
  call @kv_cache_write(%c, %u, %p) : (memref<1x16x2x8xf32>, memref<1x2x2x8xf32>, memref<i64>) -> ()
  return
}

// -----

// A call that still has its out-parameter (the result was not dropped as
// equivalent to the cache) is not what the pass expects.
func.func private @kv_cache_write(%c: memref<1x16x2x8xf32>, %u: memref<1x2x2x8xf32>, %p: memref<i64>, %out: memref<1x16x2x8xf32>) attributes {rlx.gpu_kv_cache_write = {axis = 1 : i64}} {
  return
}
func.func @copied(%c: memref<1x16x2x8xf32>, %u: memref<1x2x2x8xf32>, %p: memref<i64>, %out: memref<1x16x2x8xf32>) {
  // expected-error @+1 {{'func.call' op expected (cache, update, position) buffers: run after bufferization with equivalent results dropped}}
  call @kv_cache_write(%c, %u, %p, %out) : (memref<1x16x2x8xf32>, memref<1x2x2x8xf32>, memref<i64>, memref<1x16x2x8xf32>) -> ()
  return
}

// -----

// The kernel's grid comes from the new rows' static shape.
func.func private @kv_cache_write(%c: memref<1x16x2x8xf32>, %u: memref<1x?x2x8xf32>, %p: memref<i64>) attributes {rlx.gpu_kv_cache_write = {axis = 1 : i64}} {
  return
}
func.func @dynamic(%c: memref<1x16x2x8xf32>, %u: memref<1x?x2x8xf32>, %p: memref<i64>) {
  // expected-error @+1 {{'func.call' op writes a KV cache of dynamic shape; the copy kernel takes static shapes}}
  call @kv_cache_write(%c, %u, %p) : (memref<1x16x2x8xf32>, memref<1x?x2x8xf32>, memref<i64>) -> ()
  return
}
