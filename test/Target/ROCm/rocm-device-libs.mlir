// REQUIRES: rocm-device-libs
// Kernels calling math functions link the device libraries (ocml) from the
// toolkit folder: the code object has nothing left undefined. Without the
// libraries' bitcode the kernel fails at its op.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=rocm --chip=gfx942 --rocm-options=fast-math=false %s -o %t/gfx942.o --gpu-binaries=%t/gfx942
// RUN: rlx-compile --target=rocm --chip=gfx1100 --rocm-options=fast-math=false %s -o %t/gfx1100.o --gpu-binaries=%t/gfx1100
// RUN: for c in gfx942 gfx1100; do for k in gelu tanh softmax; do llvm-nm -u %t/$c/${k}_kernel.hsaco; done; done | count 0
// RUN: llvm-nm %t/gfx942/gelu_kernel.hsaco | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-objdump -d --mcpu=gfx942 %t/gfx942/gelu_kernel.hsaco | FileCheck %s --check-prefix=GELU
// RUN: llvm-objdump -d --mcpu=gfx1100 %t/gfx1100/softmax_kernel.hsaco | FileCheck %s --check-prefix=SOFTMAX
// RUN: mkdir -p %t/no-bitcode/llvm/bin
// RUN: not rlx-opt %s --rlx-rocm-pipeline="toolkit=%t/no-bitcode" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// The exact GELU calls __ocml_erf_f32, inlined from the device library:
// no call remains, and the kernel is the only symbol it exports.
// SYMBOLS-NOT: ocml
// SYMBOLS:     T gelu_kernel
// SYMBOLS-NOT: ocml
// GELU-LABEL: <gelu_kernel>:
// GELU-NOT:     s_swappc
// GELU:         v_exp_f32
// GELU-NOT:     s_swappc
// GELU:         s_endpgm
// MISSING: rocm-device-libs.mlir:[[# @LINE + 2]]:8: error: ROCm amdgcn bitcode path: {{.*}}no-bitcode/amdgcn/bitcode does not exist
func.func @gelu(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.gelu %x : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

func.func @tanh(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.tanh %x : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

// Without fast-math the softmax's exp is the device library's exact one,
// built around the hardware's exp2.
// SOFTMAX-LABEL: <softmax_kernel>:
// SOFTMAX-NOT:     s_swappc
// SOFTMAX:         v_exp_f32
// SOFTMAX:         s_endpgm
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
