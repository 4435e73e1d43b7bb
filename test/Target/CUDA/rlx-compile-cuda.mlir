// REQUIRES: cuda-toolkit
// RUN: rlx-compile --target=cuda --cuda-options="block-size=128 fast-math=false" %s -o %t.o --header=%t.h
// RUN: FileCheck %s --input-file=%t.h
// RUN: not rlx-compile --target=cuda --cuda-options="no-such-option=1" %s -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BAD

// rlx-compile takes more rlx-cuda-pipeline options through --cuda-options;
// a bf16 entry point passes raw 16-bit descriptors, results last.
// CHECK: void _mlir_ciface_softmax_bf16(rlx_memref_bf16_2d *arg0, rlx_memref_bf16_2d *result0);
// BAD: rlx-compile: error: bad --cuda-options
func.func @softmax_bf16(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %y = rlx.softmax %x axis = -1 : tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}
