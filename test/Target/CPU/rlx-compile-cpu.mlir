// RUN: rlx-compile %s -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=STREAM
// RUN: rlx-compile --cpu-options="stream-stores=0" %s -o %t.off.o
// RUN: llvm-objdump -d %t.off.o | FileCheck %s --check-prefix=OFF
// RUN: not rlx-compile --cpu-options="no-such-option=1" %s -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not rlx-run --cpu-options="no-such-option=1" %s 2>&1 | FileCheck %s --check-prefix=RUNBAD
// RUN: rlx-compile --cpu=x86-64-v2 %s -o %t.v2.o
// RUN: llvm-objdump -d %t.v2.o | FileCheck %s --check-prefix=V2
// RUN: rlx-compile --cpu=x86-64-v4 %s -o %t.v4.o
// RUN: llvm-objdump -d %t.v4.o | FileCheck %s --check-prefix=V4
// RUN: not rlx-compile --cpu=pentium9 %s -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BADCPU

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

// --cpu compiles for another CPU than this one: SSE registers only for
// x86-64-v2, 512-bit ones for x86-64-v4; an unknown name is an error.
// V2-NOT: {{ymm|zmm}}
// V4: zmm
// BADCPU: rlx-compile: error: unknown CPU 'pentium9' for x86_64
// BADCPU-NOT: not a recognized processor
func.func @layer_norm(%x: tensor<1024x4096xf32>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<1024x4096xf32> {
  %y = rlx.layer_norm %x, %g, %b : tensor<1024x4096xf32>, tensor<4096xf32>
  return %y : tensor<1024x4096xf32>
}
