// rlx-run --check-bounds: the program checks its memory accesses at run
// time. A gather whose index is outside the table (undefined values
// without the checks) stops the run with the access's location; in-range
// indices give the table's rows, checked or not.
// RUN: %python -c "import numpy as n; n.save('%t.in.npy', n.array([2, 0], dtype=n.int64)); n.save('%t.out.npy', n.array([7, 0], dtype=n.int64))"
// RUN: rlx-run %s --check-bounds --input=%t.in.npy --output=%t.rows.npy
// RUN: %python -c "import numpy as n; r = n.load('%t.rows.npy'); assert (r == n.array([[5., 6.], [1., 2.]], dtype=n.float32)).all(), r"
// RUN: not rlx-run %s --check-bounds --input=%t.out.npy 2>&1 | FileCheck %s
// RUN: env RLX_RUN_CHECK_BOUNDS=1 not rlx-run %s --input=%t.out.npy 2>&1 | FileCheck %s
// RUN: not rlx-run %s --cpu-options=check-bounds=1 --input=%t.out.npy 2>&1 | FileCheck %s

// CHECK: ERROR: Runtime op verification failed
// CHECK: out-of-bounds
// CHECK: Location: loc("{{.*}}rlx-run-check-bounds.mlir":[[# @LINE + 5]]:11)
// CHECK: rlx-run: error: the program stopped on a failed runtime check
func.func @main(%ids: tensor<2xi64>) -> tensor<2x2xf32> {
  %table = rlx.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]>
      : tensor<3x2xf32>
  %rows = rlx.gather %table, %ids axis = 0 : tensor<3x2xf32>, tensor<2xi64>
  return %rows : tensor<2x2xf32>
}
