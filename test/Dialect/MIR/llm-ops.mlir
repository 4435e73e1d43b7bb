// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the LLM layer ops: LoRA products, MoE expert products and
// the gated delta rule.
// Functions return their results so that the `return` line checks the
// inferred result types. (Not in nn-ops.mlir: the ROCm and Vulkan op
// sweeps compile that file, and no GPU target claims these ops.)

//===----------------------------------------------------------------------===//
// rlx.lora_matmul
//===----------------------------------------------------------------------===//

// x [B, S, K] through W [K, N] with a rank-4 adapter: the result is
// [B, S, N].
// CHECK-LABEL: func.func @lora_matmul
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x5x37xf32>, %[[W:[^:]+]]: tensor<37x12xf32>, %[[A:[^:]+]]: tensor<37x4xf32>, %[[B:[^:]+]]: tensor<4x12xf32>)
func.func @lora_matmul(%x: tensor<2x5x37xf32>, %w: tensor<37x12xf32>,
                       %a: tensor<37x4xf32>, %b: tensor<4x12xf32>)
    -> tensor<2x5x12xf32> {
  // CHECK: %[[Y:.+]] = rlx.lora_matmul %[[X]], %[[W]], %[[A]], %[[B]] {scale = 2.000000e+00 : f32} : tensor<2x5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  %y = rlx.lora_matmul %x, %w, %a, %b {scale = 2.0 : f32}
      : tensor<2x5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  // CHECK: return %[[Y]] : tensor<2x5x12xf32>
  return %y : tensor<2x5x12xf32>
}

// A vector x [K] gives [N]; dynamic dims stay dynamic unless an operand
// fixes them (N from lora_b when the weight's is dynamic); bf16.
// CHECK-LABEL: func.func @lora_matmul_shapes
func.func @lora_matmul_shapes(%v: tensor<37xf32>, %w: tensor<37x12xf32>,
                              %a: tensor<37x4xf32>, %b: tensor<4x12xf32>,
                              %xd: tensor<?x?xbf16>, %wd: tensor<?x?xbf16>,
                              %ad: tensor<?x8xbf16>, %bd: tensor<8x6xbf16>)
    -> (tensor<12xf32>, tensor<?x6xbf16>) {
  // CHECK: rlx.lora_matmul {{.*}} {scale = 5.000000e-01 : f32} : tensor<37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  %y = rlx.lora_matmul %v, %w, %a, %b {scale = 0.5 : f32}
      : tensor<37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  // CHECK: rlx.lora_matmul {{.*}} : tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?x8xbf16>, tensor<8x6xbf16>
  %z = rlx.lora_matmul %xd, %wd, %ad, %bd {scale = 1.0 : f32}
      : tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?x8xbf16>, tensor<8x6xbf16>
  // CHECK: return %{{.+}}, %{{.+}} : tensor<12xf32>, tensor<?x6xbf16>
  return %y, %z : tensor<12xf32>, tensor<?x6xbf16>
}

//===----------------------------------------------------------------------===//
// rlx.grouped_matmul
//===----------------------------------------------------------------------===//

// Five rows over three experts [E, K, N]: the result is [R, N].
// CHECK-LABEL: func.func @grouped_matmul
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<5x37xf32>, %[[W:[^:]+]]: tensor<3x37x11xf32>, %[[E:[^:]+]]: tensor<5xi64>)
func.func @grouped_matmul(%x: tensor<5x37xf32>, %w: tensor<3x37x11xf32>, %e: tensor<5xi64>)
    -> tensor<5x11xf32> {
  // CHECK: %[[Y:.+]] = rlx.grouped_matmul %[[X]], %[[W]], %[[E]] : tensor<5x37xf32>, tensor<3x37x11xf32>, tensor<5xi64>
  %y = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x37x11xf32>, tensor<5xi64>
  // CHECK: return %[[Y]] : tensor<5x11xf32>
  return %y : tensor<5x11xf32>
}

// i32 indices, bf16, dynamic dims (the rows from the indices when the
// input's are dynamic).
// CHECK-LABEL: func.func @grouped_matmul_shapes
func.func @grouped_matmul_shapes(%x: tensor<?x64xbf16>, %w: tensor<?x64x?xbf16>, %e: tensor<7xi32>)
    -> tensor<7x?xbf16> {
  // CHECK: rlx.grouped_matmul {{.*}} : tensor<?x64xbf16>, tensor<?x64x?xbf16>, tensor<7xi32>
  %y = rlx.grouped_matmul %x, %w, %e : tensor<?x64xbf16>, tensor<?x64x?xbf16>, tensor<7xi32>
  // CHECK: return %{{.+}} : tensor<7x?xbf16>
  return %y : tensor<7x?xbf16>
}

//===----------------------------------------------------------------------===//
// rlx.gated_delta_net
//===----------------------------------------------------------------------===//

// Seven steps of B = 2, H = 3, Dk = 5, Dv = 4: the output [B, T, H, Dv]
// and the final state [B, H, Dk, Dv].
// CHECK-LABEL: func.func @gated_delta_net
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<2x7x3x5xf32>, %[[K:[^:]+]]: tensor<2x7x3x5xf32>, %[[V:[^:]+]]: tensor<2x7x3x4xf32>, %[[G:[^:]+]]: tensor<2x7x3xf32>, %[[B:[^:]+]]: tensor<2x7x3xf32>, %[[S:[^:]+]]: tensor<2x3x5x4xf32>)
func.func @gated_delta_net(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>,
                           %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>,
                           %beta: tensor<2x7x3xf32>, %state: tensor<2x3x5x4xf32>)
    -> (tensor<2x7x3x4xf32>, tensor<2x3x5x4xf32>) {
  // CHECK: %[[O:.+]], %[[F:.+]] = rlx.gated_delta_net %[[Q]], %[[K]], %[[V]], %[[G]], %[[B]], %[[S]] : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta, %state
      : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>,
        tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  // CHECK: return %[[O]], %[[F]] : tensor<2x7x3x4xf32>, tensor<2x3x5x4xf32>
  return %o, %s : tensor<2x7x3x4xf32>, tensor<2x3x5x4xf32>
}

// A bf16 decode step with dynamic dims: each result dim comes from the
// operand that fixes it (B from the state, T from the gate, Dv from the
// value).
// CHECK-LABEL: func.func @gated_delta_net_dynamic
func.func @gated_delta_net_dynamic(%q: tensor<?x?x16x?xbf16>, %k: tensor<?x?x16x128xbf16>,
                                   %v: tensor<?x?x16x64xbf16>, %g: tensor<?x1x16xbf16>,
                                   %beta: tensor<?x?x?xbf16>, %state: tensor<1x16x?x?xbf16>)
    -> (tensor<1x1x16x64xbf16>, tensor<1x16x128x64xbf16>) {
  // CHECK: rlx.gated_delta_net {{.*}} : tensor<?x?x16x?xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x64xbf16>, tensor<?x1x16xbf16>, tensor<?x?x?xbf16>, tensor<1x16x?x?xbf16>
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta, %state
      : tensor<?x?x16x?xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x64xbf16>,
        tensor<?x1x16xbf16>, tensor<?x?x?xbf16>, tensor<1x16x?x?xbf16>
  // CHECK: return %{{.+}}, %{{.+}} : tensor<1x1x16x64xbf16>, tensor<1x16x128x64xbf16>
  return %o, %s : tensor<1x1x16x64xbf16>, tensor<1x16x128x64xbf16>
}
