// RUN: rlx-opt %s --rlx-copy-repeated-results --verify-diagnostics

// A repeated result whose static strides a new (identity) buffer cannot be
// cast to: an error at the return, not a copy of another type.
func.func @every_other(%x: memref<8xf32>) -> (memref<4xf32, strided<[2]>>, memref<4xf32, strided<[2]>>) {
  %v = memref.subview %x[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  // expected-error @+1 {{rlx-copy-repeated-results: result #1 repeats a buffer of type 'memref<4xf32, strided<[2]>>', which a new buffer cannot be cast to}}
  return %v, %v : memref<4xf32, strided<[2]>>, memref<4xf32, strided<[2]>>
}
