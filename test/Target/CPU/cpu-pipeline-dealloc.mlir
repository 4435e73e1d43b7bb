// RUN: rlx-opt %s --rlx-cpu-pipeline="threads=1" --mlir-print-ir-after=rlx-dealloc-after-last-use -o /dev/null 2>&1 | FileCheck %s

// Each intermediate is freed after the last kernel that reads it, not when
// the function returns (upstream's deallocation frees at the end of the
// block): the first tanh's buffer goes before the second product runs.
// CHECK-LABEL: func.func @chain(
// CHECK:         memref.copy %{{.+}}, %[[T1:[^ ]+]] :
// CHECK-NEXT:    call @chain_kernel1(%arg0, %arg1, %[[T1]])
// CHECK:         call @chain_kernel2(%[[T1]], %[[H:[^)]+]])
// CHECK-NEXT:    memref.dealloc %[[T1]]
// CHECK:         memref.copy %{{.+}}, %[[T2:[^ ]+]] :
// CHECK-NEXT:    call @chain_kernel1(%[[H]], %arg1, %[[T2]])
// CHECK:         call @chain_kernel2(%[[T2]], %[[H]])
// CHECK-NEXT:    memref.dealloc %[[T2]]
// CHECK:         call @chain_kernel1(%[[H]], %arg1, %[[OUT:[^)]+]])
// CHECK-NEXT:    memref.dealloc %[[H]]
// CHECK-NEXT:    return %[[OUT]]
func.func @chain(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %a = rlx.matmul %x, %w : tensor<64x256xf32>, tensor<256x256xf32>
  %b = rlx.tanh %a : tensor<64x256xf32>
  %c = rlx.matmul %b, %w : tensor<64x256xf32>, tensor<256x256xf32>
  %d = rlx.tanh %c : tensor<64x256xf32>
  %e = rlx.matmul %d, %w : tensor<64x256xf32>, tensor<256x256xf32>
  return %e : tensor<64x256xf32>
}
