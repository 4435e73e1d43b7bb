// RUN: rlx-opt %s --rlx-gpu-dispatch-matmul="fp8-activations=true" -verify-diagnostics

// fp8 activations asked of a runtime without fp8 matmuls: an error, not
// a silent bf16 or f32 product.
// expected-error @below {{rlx-gpu-dispatch-matmul: fp8-activations needs a runtime with fp8 matmuls (fp8-library)}}
module {
  func.func @f(%x: tensor<4x32xbf16>, %w: tensor<16x32xui8>, %s: tensor<16xf32>) -> tensor<4x16xbf16> {
    %y = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %s : tensor<4x32xbf16>, tensor<16x32xui8>, tensor<16xf32>
    return %y : tensor<4x16xbf16>
  }
}
