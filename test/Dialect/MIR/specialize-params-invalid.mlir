// RUN: rm -rf %t && %python %S/Inputs/write-params.py %t
// RUN: rlx-opt %s -split-input-file --rlx-specialize-params=dir=%t -verify-diagnostics

// A param without a file.
func.func @missing(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error-re @+1 {{param "nope": cannot open '{{.*}}nope.npy'}}
  %w = rlx.param "nope" : tensor<2xf32>
  %y = rlx.add %x, %w : tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// The file's shape must be the param's.
func.func @wrong_shape() -> tensor<4xf32> {
  // expected-error-re @+1 {{param "short" of type 'tensor<4xf32>' needs npy dtype 'f4' of shape [4], but '{{.*}}short.npy' holds dtype 'f4' of shape [3]}}
  %w = rlx.param "short" : tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// So must the rank.
func.func @wrong_rank() -> tensor<4xf32> {
  // expected-error-re @+1 {{param "w" of type 'tensor<4xf32>' needs npy dtype 'f4' of shape [4], but '{{.*}}w.npy' holds dtype 'f4' of shape [2, 2]}}
  %w = rlx.param "w" : tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// The file's dtype must hold the element type exactly (no conversion).
func.func @wrong_dtype() -> tensor<3xf32> {
  // expected-error-re @+1 {{param "d" of type 'tensor<3xf32>' needs npy dtype 'f4' of shape [3], but '{{.*}}d.npy' holds dtype 'f8' of shape [3]}}
  %w = rlx.param "d" : tensor<3xf32>
  return %w : tensor<3xf32>
}

// -----

// bf16 weights are stored as f32, not f16.
func.func @bf16_from_f16() -> tensor<2xbf16> {
  // expected-error-re @+1 {{param "h" of type 'tensor<2xbf16>' needs npy dtype 'f4' of shape [2], but '{{.*}}h.npy' holds dtype 'f2' of shape [2]}}
  %w = rlx.param "h" : tensor<2xbf16>
  return %w : tensor<2xbf16>
}

// -----

// Signed and unsigned integers differ.
func.func @unsigned_from_signed() -> tensor<2xui8> {
  // expected-error-re @+1 {{needs npy dtype 'u1' of shape [2], but '{{.*}}i8.npy' holds dtype 'i1' of shape [2]}}
  %w = rlx.param "i8" : tensor<2xui8>
  return %w : tensor<2xui8>
}

// -----

// A constant has a static shape.
func.func @dynamic() -> tensor<?x2xf32> {
  // expected-error @+1 {{param "w" has the dynamic type 'tensor<?x2xf32>'; only static shapes can be specialized}}
  %w = rlx.param "w" : tensor<?x2xf32>
  return %w : tensor<?x2xf32>
}

// -----

// A missing file is reported once per name.
func.func @missing_twice() -> tensor<2xf32> {
  // expected-error @+1 {{param "nope": cannot open}}
  %a = rlx.param "nope" : tensor<2xf32>
  %b = rlx.param "nope" : tensor<2xf32>
  %y = rlx.add %a, %b : tensor<2xf32>
  return %y : tensor<2xf32>
}
