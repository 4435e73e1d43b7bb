// REQUIRES: rocm-device-libs
// RUN: rlx-opt %s --rlx-rocm-pipeline="chip=gfx942 dispatch-report=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s --rlx-rocm-pipeline="chip=gfx942 dispatch-report=true matmul=generated" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERATED

// librlx_rocm_runtime has no flash-attention kernel: a causal attention
// without a mask tensor becomes two library matmuls around a softmax that
// applies the mask (rlx-decompose-attention); with matmul=generated it
// stays one generated kernel.
// CHECK: :[[# @LINE + 7]]:8: remark: attention: no flash kernel (the target's runtime has no flash-attention kernel)
// CHECK: :[[# @LINE + 6]]:8: remark: matmul: library 'f32' 2x512x128x64 (batch x m x n x k), epilogue none
// CHECK: :[[# @LINE + 5]]:8: remark: matmul: library 'bf16' 2x512x64x128 (batch x m x n x k), epilogue none
// GENERATED:     remark: attention: no flash kernel
// GENERATED-NOT: remark: matmul
func.func @attention(%q: tensor<1x8x128x64xbf16>, %k: tensor<1x2x128x64xbf16>,
                     %v: tensor<1x2x128x64xbf16>) -> tensor<1x8x128x64xbf16> {
  %o = rlx.attention %q, %k, %v mask = causal
      : tensor<1x8x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>
  return %o : tensor<1x8x128x64xbf16>
}
