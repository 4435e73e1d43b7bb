// RUN: rlx-opt %s --rlx-fuse="target=cpu" | FileCheck %s --check-prefix=CPU
// RUN: %if target-cuda %{ rlx-opt %s --rlx-fuse="target=cuda" | FileCheck %s --check-prefix=CPU %}
// RUN: %if target-vulkan %{ rlx-opt %s --rlx-fuse="target=vulkan" | FileCheck %s --check-prefix=CPU %}
// RUN: %if target-metal %{ rlx-opt %s --rlx-fuse="target=metal" | FileCheck %s --check-prefix=METAL %}
// RUN: %if target-metal %{ rlx-opt %s --rlx-fuse="target=metal patterns=attention-block,swiglu" | FileCheck %s --check-prefix=ONLY %}
// RUN: not rlx-opt %s --rlx-fuse="target=tpu" 2>&1 | FileCheck %s -DTARGETS="%rlx_targets" --check-prefix=ERR

// Each fusion family runs only where the target claims its fused op: metal
// lacks rlx.fused_attention_block, so the attention block stays primitive
// there while the residual norm still fuses.

// ERR: error: unknown target 'tpu' (registered: [[TARGETS]])

// CPU-LABEL: func.func @attention_block(
// CPU-NEXT: rlx.fused_attention_block
// CPU-NEXT: return
// METAL-LABEL: func.func @attention_block(
// METAL-NOT: rlx.fused_attention_block
// METAL: rlx.attention
// METAL-NOT: rlx.fused_attention_block
// METAL: return
// ONLY-LABEL: func.func @attention_block(
// ONLY-NOT: rlx.fused_attention_block
// ONLY: return
func.func @attention_block(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0 : tensor<2x4x8xf32>
}

// CPU-LABEL: func.func @residual_norm(
// CPU-NEXT: rlx.fused_residual_rms_norm
// METAL-LABEL: func.func @residual_norm(
// METAL-NEXT: rlx.fused_residual_rms_norm
// ONLY-LABEL: func.func @residual_norm(
// ONLY-NEXT: rlx.add
// ONLY-NEXT: rlx.rms_norm
func.func @residual_norm(%x: tensor<2x8xf32>, %r: tensor<2x8xf32>, %g: tensor<8xf32>) -> tensor<2x8xf32> {
  %s = rlx.add %x, %r : tensor<2x8xf32>
  %y = rlx.rms_norm %s, %g : tensor<2x8xf32>, tensor<8xf32>
  return %y : tensor<2x8xf32>
}
