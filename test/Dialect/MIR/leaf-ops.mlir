// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = rlx.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
