// rlx-run --bench: the checked run's results are printed (and written) once,
// then N timed runs go back to back, each one's results freed unread, and
// the median and minimum are printed. A program with two fresh results of
// 64 KiB (heap, not stack) runs 5 timed times.
// RUN: rlx-run %s --bench=5 --seed=3 --output=%t.a.npy --output=%t.b.npy | FileCheck %s
// RUN: %python -c "import numpy as n; a = n.load('%t.a.npy'); b = n.load('%t.b.npy'); assert a.shape == (128, 128) and (b == 2 * a).all() and n.isfinite(a).all()"

// CHECK:      result #0: f4 [128, 128] checksum
// CHECK-NEXT: result #1: f4 [128, 128] checksum
// CHECK-NEXT: bench: 5 runs, median {{[0-9]+\.[0-9]+}} ms, min {{[0-9]+\.[0-9]+}} ms
// CHECK-NOT:  result #
func.func @main(%x: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %e = rlx.exp %x : tensor<128x128xf32>
  %d = rlx.add %e, %e : tensor<128x128xf32>
  return %e, %d : tensor<128x128xf32>, tensor<128x128xf32>
}
