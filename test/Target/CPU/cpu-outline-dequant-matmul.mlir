// RUN: rlx-opt %s --rlx-cpu-outline-dequant-matmul --split-input-file | FileCheck %s

// Two products of one scheme and types share one function; a batched input
// is folded to rows and back. A product of another scheme gets its own.
// CHECK-LABEL: func.func private @rlx_dequant_matmul_gguf_q8_0(
// CHECK-SAME:    %[[X:.+]]: tensor<6x64xf32>, %[[W:.+]]: tensor<16x68xui8>) -> tensor<6x16xf32>
// CHECK-SAME:    attributes {rlx.cpu_dequant_matmul = 1 : i32}
// CHECK:         %[[Y:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %[[X]], %[[W]]
// CHECK:         return %[[Y]]
// CHECK-LABEL: func.func private @rlx_dequant_matmul_gguf_q4_k(
// CHECK-SAME:    tensor<6x256xf32>, %{{.+}}: tensor<8x144xui8>) -> tensor<6x8xf32>
// CHECK-SAME:    attributes {rlx.cpu_dequant_matmul = 2 : i32}
// CHECK-LABEL: func.func @layer(
// CHECK:         %[[A:.+]] = call @rlx_dequant_matmul_gguf_q8_0(%arg0, %arg2)
// CHECK:         %[[B:.+]] = call @rlx_dequant_matmul_gguf_q8_0(%arg0, %arg3)
// CHECK:         %[[R:.+]] = rlx.reshape %arg1 : tensor<2x3x256xf32> -> tensor<6x256xf32>
// CHECK:         %[[C:.+]] = call @rlx_dequant_matmul_gguf_q4_k(%[[R]], %arg4)
// CHECK:         rlx.reshape %[[C]] : tensor<6x8xf32> -> tensor<2x3x8xf32>
// CHECK-NOT:     rlx.dequant_matmul
func.func @layer(%x: tensor<6x64xf32>, %x3: tensor<2x3x256xf32>,
                 %w1: tensor<16x68xui8>, %w2: tensor<16x68xui8>,
                 %w3: tensor<8x144xui8>)
    -> (tensor<6x16xf32>, tensor<6x16xf32>, tensor<2x3x8xf32>) {
  %a = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %x, %w1
      : tensor<6x64xf32>, tensor<16x68xui8>
  %b = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %x, %w2
      : tensor<6x64xf32>, tensor<16x68xui8>
  %c = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x3, %w3
      : tensor<2x3x256xf32>, tensor<8x144xui8>
  return %a, %b, %c : tensor<6x16xf32>, tensor<6x16xf32>, tensor<2x3x8xf32>
}

// -----

// A dynamic number of rows stays dynamic in the function.
// CHECK-LABEL: func.func private @rlx_dequant_matmul_gguf_q4_0(
// CHECK-SAME:    tensor<?x32xf32>, %{{.+}}: tensor<4x18xui8>) -> tensor<?x4xf32>
// CHECK-LABEL: func.func @rows(
// CHECK:         call @rlx_dequant_matmul_gguf_q4_0
func.func @rows(%x: tensor<?x32xf32>, %w: tensor<4x18xui8>) -> tensor<?x4xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_0> %x, %w
      : tensor<?x32xf32>, tensor<4x18xui8>
  return %y : tensor<?x4xf32>
}

// -----

// What the runtime does not take stays: bf16 activations, a scheme it
// does not decode (q2_K, int8 blocks), dynamic leading dims above rank 2.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     call
// CHECK-COUNT-4: rlx.dequant_matmul
// CHECK-NOT:     func.func private
func.func @left_alone(%xb: tensor<2x256xbf16>, %x: tensor<2x256xf32>,
                      %xd: tensor<?x2x256xf32>, %w: tensor<4x144xui8>,
                      %w2: tensor<4x84xui8>, %w8: tensor<4x256xi8>,
                      %s: tensor<4x8xf32>)
    -> (tensor<2x4xbf16>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<?x2x4xf32>) {
  %a = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %xb, %w
      : tensor<2x256xbf16>, tensor<4x144xui8>
  %b = rlx.dequant_matmul #rlx.quant<gguf_q2_k> %x, %w2
      : tensor<2x256xf32>, tensor<4x84xui8>
  %c = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w8, %s
      : tensor<2x256xf32>, tensor<4x256xi8>, tensor<4x8xf32>
  %d = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %xd, %w
      : tensor<?x2x256xf32>, tensor<4x144xui8>
  return %a, %b, %c, %d
      : tensor<2x4xbf16>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<?x2x4xf32>
}
