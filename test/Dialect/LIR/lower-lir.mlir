// RUN: rlx-opt %s --rlx-plan-memory --rlx-lower-lir | FileCheck %s
// RUN: rlx-opt %s --rlx-plan-memory | rlx-opt --rlx-lower-lir | FileCheck %s

// The arena becomes one allocation; each buffer and alias a view of it at
// its absolute offset (plan of @chain in plan-memory.mlir: buffer 0 at 0,
// its in-place alias 1 at 0, buffer 2 at 128); each kernel its MIR body,
// reading through to_tensor and writing its output buffer; the returned
// value goes into a tensor of its own.

// CHECK-LABEL: func.func @chain
// CHECK: %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK: %[[B0:.+]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK: %[[B2:.+]] = memref.view %[[ARENA]][%c128{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK: %[[B1:.+]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK: %[[M:.+]] = rlx.matmul %arg0, %arg1
// CHECK: bufferization.materialize_in_destination %[[M]] in restrict writable %[[B0]]
// CHECK: %[[T0:.+]] = bufferization.to_tensor %[[B0]] restrict : memref<4x8xf32> to tensor<4x8xf32>
// CHECK: %[[G:.+]] = rlx.gelu %[[T0]]
// CHECK: bufferization.materialize_in_destination %[[G]] in restrict writable %[[B1]]
// CHECK: %[[T1:.+]] = bufferization.to_tensor %[[B1]] restrict
// CHECK: %[[M2:.+]] = rlx.matmul %[[T1]], %arg1
// CHECK: bufferization.materialize_in_destination %[[M2]] in restrict writable %[[B2]]
// CHECK: %[[T2:.+]] = bufferization.to_tensor %[[B2]] restrict
// CHECK: %[[FRESH:.+]] = bufferization.alloc_tensor() : tensor<4x8xf32>
// CHECK: %[[S:.+]] = rlx.add %[[T2]], %arg0
// CHECK: %[[R:.+]] = bufferization.materialize_in_destination %[[S]] in %[[FRESH]]
// CHECK: return %[[R]]
// CHECK-NOT: rlx_lir
func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.matmul %1, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %3 = rlx.add %2, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
