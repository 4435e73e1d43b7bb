// rlx-run reads damaged .npy files as errors, never by allocating what a
// header claims: each file below is a valid float32 [2, 3] array whose
// header or data was changed. (The reader allocated a shape's bytes before
// checking that the file holds them, and read negative or overflowing
// dims as sizes.)
// RUN: %python %S/Inputs/make_bad_npy.py %t
// RUN: not rlx-run %s --input=%t/negative.npy 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not rlx-run %s --input=%t/huge.npy 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not rlx-run %s --input=%t/overflow.npy 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: not rlx-run %s --input=%t/header.npy 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not rlx-run %s --input=%t/dtype.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not rlx-run %s --input=%t/version.npy 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: rlx-run %s --input=%t/good.npy | FileCheck %s --check-prefix=GOOD

// NEG: rlx-run: error: '{{.*}}negative.npy' has an unreadable shape: (-2, 3)
// HUGE: rlx-run: error: '{{.*}}huge.npy' holds fewer bytes than its shape needs
// OVER: rlx-run: error: '{{.*}}overflow.npy' holds fewer bytes than its shape needs
// HEADER: rlx-run: error: '{{.*}}header.npy' has a truncated header
// DTYPE: rlx-run: error: '{{.*}}dtype.npy' has unsupported dtype '<f3'
// VERSION: rlx-run: error: '{{.*}}version.npy' has .npy format version 9 (1 to 3 are read)
// GOOD: result #0: f4 [2, 3] checksum 21
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
