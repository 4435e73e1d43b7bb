// Debian's stock mlir-opt-22 with librlx-plugin.so: the dialects parse and
// print, and RLX's passes and pipelines run inside it.
// A sanitized plugin would need the sanitizer runtime in the uninstrumented
// mlir-opt-22 that loads it.
// UNSUPPORTED: sanitizers
// RUN: mlir-opt --load-dialect-plugin=%rlx_plugin --load-pass-plugin=%rlx_plugin %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mlir-opt --load-dialect-plugin=%rlx_plugin --load-pass-plugin=%rlx_plugin --pass-pipeline='builtin.module(rlx-expand-autodiff,rlx-optimize{target=cpu})' %s | FileCheck %s --check-prefix=OPT
// RUN: mlir-opt --load-dialect-plugin=%rlx_plugin --pass-pipeline='builtin.module(rlx-expand-autodiff,rlx-plan-memory)' %s | FileCheck %s --check-prefix=GRAD
// RUN: mlir-opt --load-dialect-plugin=%rlx_plugin --load-pass-plugin=%rlx_plugin --pass-pipeline='builtin.module(rlx-expand-autodiff,rlx-optimize{target=cpu},rlx-cpu-pipeline)' %s | FileCheck %s --check-prefix=CPU
// Without the plugin, mlir-opt-22 knows neither the ops nor the passes.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NODIALECT
// RUN: echo 'module {}' | not mlir-opt --pass-pipeline='builtin.module(rlx-optimize)' 2>&1 | FileCheck %s --check-prefix=NOPASS

// ROUNDTRIP-LABEL: func.func @mlp
// ROUNDTRIP: rlx.matmul
// ROUNDTRIP: rlx.gelu
// ROUNDTRIP-LABEL: func.func @loss_grad
// ROUNDTRIP: rlx.grad @loss

// OPT-LABEL: func.func @mlp
// OPT: rlx.fused_matmul_bias_act {{.*}} activation = gelu
// OPT-NOT: rlx.gelu
// OPT-LABEL: func.func @loss

// The gradient expanded (rlx-expand-autodiff) and planned on one arena
// (rlx-plan-memory) by the dialect plugin's passes alone.
// GRAD-NOT: rlx.grad
// GRAD-LABEL: func.func private @loss_grad_0
// GRAD: rlx_lir.arena {plan = #rlx_lir.plan<arena_size =
// GRAD: rlx_lir.kernel "rlx.gelu"
// GRAD-LABEL: func.func @loss_grad
// GRAD: call @loss_grad_0

// CPU-LABEL: llvm.func @mlp
// CPU-NOT: rlx.

// NODIALECT: Dialect `rlx' not found for custom op 'rlx.matmul'
// NOPASS: 'rlx-optimize' does not refer to a registered pass or pass pipeline

func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %1 = rlx.add %0, %b : tensor<4x16xf32>, tensor<16xf32>
  %2 = rlx.gelu %1 : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

func.func @loss(%x: tensor<4x8xf32>) -> tensor<f32> {
  %0 = rlx.gelu %x : tensor<4x8xf32>
  %1 = rlx.reduce sum %0 axes = [0, 1] : tensor<4x8xf32>
  return %1 : tensor<f32>
}

func.func @loss_grad(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0:2 = rlx.grad @loss(%x) wrt [0] : (tensor<4x8xf32>) -> (tensor<f32>, tensor<4x8xf32>)
  return %0#1 : tensor<4x8xf32>
}
