// RUN: rlx-opt %s -split-input-file --rlx-gpu-call-cublaslt --cse -verify-diagnostics | FileCheck %s

// A call of an outlined matmul on buffers becomes rlxCublasLtMatmul on
// their addresses: bf16 (1), GELU_BIAS (5), no transposes, 1 x 64x16x32.
// CHECK:       func.func private @rlxCublasLtMatmul(i32, i32, i32, i32, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-NOT:   @rlx_cublaslt_matmul
// CHECK-LABEL: func.func @gelu_bias(
// CHECK-SAME:      %[[X:.*]]: memref<64x32xbf16>, %[[W:.*]]: memref<32x16xbf16>, %[[B:.*]]: memref<16xbf16>, %[[Y:.*]]: memref<64x16xbf16>)
// CHECK:         %[[XI:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-NEXT:    %[[XL:.*]] = arith.index_cast %[[XI]] : index to i64
// CHECK-NEXT:    %[[XP:.*]] = llvm.inttoptr %[[XL]] : i64 to !llvm.ptr
// CHECK-NEXT:    memref.extract_aligned_pointer_as_index %[[W]]
// CHECK-NEXT:    arith.index_cast
// CHECK-NEXT:    %[[WP:.*]] = llvm.inttoptr
// CHECK-NEXT:    memref.extract_aligned_pointer_as_index %[[B]]
// CHECK-NEXT:    arith.index_cast
// CHECK-NEXT:    %[[BP:.*]] = llvm.inttoptr
// CHECK-NEXT:    memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK-NEXT:    arith.index_cast
// CHECK-NEXT:    %[[YP:.*]] = llvm.inttoptr
// CHECK-DAG:     %[[BF16:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[GELU:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[NO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[BATCH:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[M:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[N:.*]] = arith.constant 16 : i64
// CHECK-DAG:     %[[K:.*]] = arith.constant 32 : i64
// CHECK:         call @rlxCublasLtMatmul(%[[BF16]], %[[GELU]], %[[NO]], %[[NO]], %[[BATCH]], %[[M]], %[[N]], %[[K]], %[[XP]], %[[WP]], %[[BP]], %[[YP]])
// CHECK-NEXT:    return
func.func private @rlx_cublaslt_matmul(%x: memref<64x32xbf16>, %w: memref<32x16xbf16>, %b: memref<16xbf16>, %y: memref<64x16xbf16>)
    attributes {rlx.cublaslt = {batch = 1 : i64, epilogue = "gelu_bias", k = 32 : i64, m = 64 : i64, n = 16 : i64, transpose_a = false, transpose_b = false}} {
  return
}
func.func @gelu_bias(%x: memref<64x32xbf16>, %w: memref<32x16xbf16>, %b: memref<16xbf16>, %y: memref<64x16xbf16>) {
  call @rlx_cublaslt_matmul(%x, %w, %b, %y) : (memref<64x32xbf16>, memref<32x16xbf16>, memref<16xbf16>, memref<64x16xbf16>) -> ()
  return
}

// -----

// Without a bias the bias address is null; f32 (0), no epilogue (0),
// transpose_b, 6 batches.
// CHECK-LABEL: func.func @batched(
// CHECK-DAG:     %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[T:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[BATCH:.*]] = arith.constant 6 : i64
// CHECK-DAG:     %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         call @rlxCublasLtMatmul(%[[F32]], %[[F32]], %[[F32]], %[[T]], %[[BATCH]], {{.*}}, %[[NULL]], %{{.*}})
func.func private @rlx_cublaslt_matmul(%x: memref<6x8x4xf32>, %w: memref<6x2x4xf32>, %y: memref<6x8x2xf32>)
    attributes {rlx.cublaslt = {batch = 6 : i64, epilogue = "none", k = 4 : i64, m = 8 : i64, n = 2 : i64, transpose_a = false, transpose_b = true}}
func.func @batched(%x: memref<6x8x4xf32>, %w: memref<6x2x4xf32>, %y: memref<6x8x2xf32>) {
  call @rlx_cublaslt_matmul(%x, %w, %y) : (memref<6x8x4xf32>, memref<6x2x4xf32>, memref<6x8x2xf32>) -> ()
  return
}

// -----

// A tagged function on element types cuBLASLt does not take here (the
// dispatch never outlines those) is an error.
func.func private @rlx_cublaslt_matmul(%x: memref<4x8xf64>, %w: memref<8x2xf64>, %y: memref<4x2xf64>)
    attributes {rlx.cublaslt = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @f64(%x: memref<4x8xf64>, %w: memref<8x2xf64>, %y: memref<4x2xf64>) {
  // expected-error @below {{rlx-gpu-call-cublaslt: no cuBLASLt matmul for 'f64' and epilogue "none"}}
  call @rlx_cublaslt_matmul(%x, %w, %y) : (memref<4x8xf64>, memref<8x2xf64>, memref<4x2xf64>) -> ()
  return
}

// -----

// Still on tensors: bufferization has not run.
func.func private @rlx_cublaslt_matmul(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32>
    attributes {rlx.cublaslt = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @tensors(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{rlx-gpu-call-cublaslt: expects a call on buffers with the result as out-parameter}}
  %y = call @rlx_cublaslt_matmul(%x, %w) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A call's result in a temporary copied to the out-parameter right after
// (buffer-results-to-out-params on a returned call result): the call
// writes to the out-parameter, the temporary and the copy go.
// CHECK-LABEL: func.func @result_copy(
// CHECK-NOT:     memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %arg2
// CHECK:         call @rlxCublasLtMatmul
// CHECK-NEXT:    return
func.func private @rlx_cublaslt_matmul(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>)
    attributes {rlx.cublaslt = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @result_copy(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>) {
  %t = memref.alloc() : memref<4x2xf32>
  call @rlx_cublaslt_matmul(%x, %w, %t) : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> ()
  memref.copy %t, %y : memref<4x2xf32> to memref<4x2xf32>
  memref.dealloc %t : memref<4x2xf32>
  return
}

// -----

// The temporary is read after the copy: it stays.
// CHECK-LABEL: func.func @result_reread(
// CHECK:         %[[T:.*]] = memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %[[T]]
// CHECK:         call @rlxCublasLtMatmul
// CHECK-NEXT:    memref.copy %[[T]], %arg2
// CHECK-NEXT:    memref.copy %[[T]], %arg3
func.func private @rlx_cublaslt_matmul(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>)
    attributes {rlx.cublaslt = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @result_reread(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>, %z: memref<4x2xf32>) {
  %t = memref.alloc() : memref<4x2xf32>
  call @rlx_cublaslt_matmul(%x, %w, %t) : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> ()
  memref.copy %t, %y : memref<4x2xf32> to memref<4x2xf32>
  memref.copy %t, %z : memref<4x2xf32> to memref<4x2xf32>
  memref.dealloc %t : memref<4x2xf32>
  return
}
