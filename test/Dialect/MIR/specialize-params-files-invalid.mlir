// --rlx-specialize-params files=...: a binding the file does not fit is an
// error at the param naming the file and both types (w.gguf from
// test/Tools/Inputs/weight_files.py: w f32 [2, 4], q Q4_0 [2, 256]).
// RUN: rm -rf %t && %python %S/../../Tools/Inputs/weight_files.py %t
// RUN: rlx-opt %s -split-input-file --rlx-specialize-params="files=%t/w.gguf" -verify-diagnostics

// A name the file does not hold.
func.func @missing() -> tensor<2x4xf32> {
  // expected-error-re @+1 {{param "nope": no tensor "nope" in '{{.*}}w.gguf'}}
  %w = rlx.param "nope" : tensor<2x4xf32>
  return %w : tensor<2x4xf32>
}

// -----

// The file's shape must be the param's.
func.func @wrong_shape() -> tensor<8xf32> {
  // expected-error-re @+1 {{param "w" of type 'tensor<8xf32>' cannot bind tensor "w" of '{{.*}}w.gguf' (GGUF): F32 [2, 4]}}
  %w = rlx.param "w" : tensor<8xf32>
  return %w : tensor<8xf32>
}

// -----

// So must its type: an F32 tensor does not bind a bf16 param.
func.func @wrong_type() -> tensor<2x4xbf16> {
  // expected-error-re @+1 {{param "w" of type 'tensor<2x4xbf16>' cannot bind tensor "w" of '{{.*}}w.gguf' (GGUF): F32 [2, 4]}}
  %w = rlx.param "w" : tensor<2x4xbf16>
  return %w : tensor<2x4xbf16>
}

// -----

// A quantized tensor binds ui8 packed rows only.
func.func @quantized_as_float() -> tensor<2x256xf32> {
  // expected-error-re @+1 {{param "q" of type 'tensor<2x256xf32>' cannot bind tensor "q" of '{{.*}}w.gguf' (GGUF): Q4_0 [2, 256] (packed as ui8 [2, 144])}}
  %q = rlx.param "q" : tensor<2x256xf32>
  return %q : tensor<2x256xf32>
}

// -----

// ... decoded by its own scheme: Q4_0 rows are as long as q4_K's.
func.func @wrong_scheme(%x: tensor<1x256xf32>) -> tensor<1x2xf32> {
  // expected-error-re @+1 {{param "q" of type 'tensor<2x144xui8>' cannot bind tensor "q" of '{{.*}}w.gguf' (GGUF): Q4_0 [2, 256] (packed as ui8 [2, 144]), which is scheme gguf_q4_0, not the gguf_q4_k of its rlx.dequant_matmul}}
  %q = rlx.param "q" : tensor<2x144xui8>
  // expected-note @+1 {{used here}}
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %q : tensor<1x256xf32>, tensor<2x144xui8>
  return %y : tensor<1x2xf32>
}
