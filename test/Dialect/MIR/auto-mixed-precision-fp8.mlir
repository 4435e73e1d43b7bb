// RUN: rlx-opt %s -split-input-file --rlx-auto-mixed-precision="policy=matmul=fp8" | FileCheck %s

// matmul=fp8: a constant weight is quantized to e4m3 at compile time, one
// scale per output channel (column of w, row of the [N, K] codes):
// amax / 448. Column 0 ([1, 3]) has scale 3/448 = 0.0066964: 1 / scale =
// 149.3 rounds to 144 = 0x71 (113), 3 / scale = 448 = 0x7E (126); column
// 1 ([-2, 448]) scale 1: -2 = 0xC0 (192), 448 = 0x7E; column 2 is zeros
// (scale 1, code 0).
// CHECK-LABEL: func.func @linear(
// CHECK-DAG:     %[[S:.*]] = rlx.constant dense<[0.00669642864, 1.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG:     %[[Q:.*]] = rlx.constant dense<{{\[}}[113, 126], [192, 126], [0, 0]]> : tensor<3x2xui8>
// CHECK:         %[[XB:.*]] = rlx.cast %arg0 : tensor<4x2xf32> -> tensor<4x2xbf16>
// CHECK-NEXT:    %[[Y:.*]] = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %[[XB]], %[[Q]], %[[S]] : tensor<4x2xbf16>, tensor<3x2xui8>, tensor<3xf32>
// CHECK-NEXT:    %[[YF:.*]] = rlx.cast %[[Y]] : tensor<4x3xbf16> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[YF]]
func.func @linear(%x: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %w = rlx.constant dense<[[1.0, -2.0, 0.0], [3.0, 448.0, 0.0]]> : tensor<2x3xf32>
  %y = rlx.matmul %x, %w : tensor<4x2xf32>, tensor<2x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// A weight stored [N, K] (transpose_b) keeps its rows as channels.
// CHECK-LABEL: func.func @transposed(
// CHECK-DAG:     rlx.constant dense<[1.000000e+00, 0.00223214296]> : tensor<2xf32>
// CHECK-DAG:     rlx.constant dense<{{\[}}[126, 56], [0, 126]]> : tensor<2x2xui8>
// CHECK:         rlx.dequant_matmul #rlx.quant<fp8_e4m3>
func.func @transposed(%x: tensor<5x2xbf16>) -> tensor<5x2xbf16> {
  %w = rlx.constant dense<[[448.0, 1.0], [0.0, 1.0]]> : tensor<2x2xbf16>
  %y = rlx.matmul %x, %w transpose_b true : tensor<5x2xbf16>, tensor<2x2xbf16>
  return %y : tensor<5x2xbf16>
}

// -----

// Matmuls whose rhs is no constant (or holds a NaN) run in bf16, as the
// rest of the category.
// CHECK-LABEL: func.func @activations(
// CHECK-NOT:     rlx.dequant_matmul
// CHECK:         rlx.matmul {{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>
// CHECK:         rlx.matmul {{.*}} : tensor<4x8xbf16>, tensor<8x2xbf16>
func.func @activations(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x2xf32>) {
  %a = rlx.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32>
  %w = rlx.constant dense<0x7FC00000> : tensor<8x2xf32>
  %b = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %a, %b : tensor<4x4xf32>, tensor<4x2xf32>
}
