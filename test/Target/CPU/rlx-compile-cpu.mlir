// RUN: rlx-compile %s -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=STREAM
// RUN: rlx-compile --cpu-options="stream-stores=0" %s -o %t.off.o
// RUN: llvm-objdump -d %t.off.o | FileCheck %s --check-prefix=OFF
// RUN: not rlx-compile --cpu-options="no-such-option=1" %s -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not rlx-run --cpu-options="no-such-option=1" %s 2>&1 | FileCheck %s --check-prefix=RUNBAD

// rlx-compile and rlx-run take more rlx-cpu-pipeline options through
// --cpu-options: a 16 MiB layer_norm writes its rows with non-temporal
// stores (rlx-cpu-stream-stores) and a fence before it returns, unless
// stream-stores=0; a bad option is an error.
// STREAM: movntps
// STREAM: sfence
// OFF-NOT: movnt
// OFF-NOT: sfence
// BAD: rlx-compile: error: bad --cpu-options
// RUNBAD: rlx-run: error: bad --cpu-options
func.func @layer_norm(%x: tensor<1024x4096xf32>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<1024x4096xf32> {
  %y = rlx.layer_norm %x, %g, %b : tensor<1024x4096xf32>, tensor<4096xf32>
  return %y : tensor<1024x4096xf32>
}
