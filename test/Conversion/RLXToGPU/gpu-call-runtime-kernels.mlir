// RUN: rlx-opt %s -split-input-file --rlx-gpu-call-runtime-kernels --cse -verify-diagnostics | FileCheck %s

// A call of an outlined matmul on buffers becomes rlxGpuMatmul on
// their addresses: bf16 (1), GELU_BIAS (5), no transposes, 1 x 64x16x32.
// CHECK:       func.func private @rlxGpuMatmul(i32, i32, i32, i32, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-NOT:   @rlx_library_matmul
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
// CHECK:         call @rlxGpuMatmul(%[[BF16]], %[[GELU]], %[[NO]], %[[NO]], %[[BATCH]], %[[M]], %[[N]], %[[K]], %[[XP]], %[[WP]], %[[BP]], %[[YP]])
// CHECK-NEXT:    return
func.func private @rlx_library_matmul(%x: memref<64x32xbf16>, %w: memref<32x16xbf16>, %b: memref<16xbf16>, %y: memref<64x16xbf16>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "gelu_bias", k = 32 : i64, m = 64 : i64, n = 16 : i64, transpose_a = false, transpose_b = false}} {
  return
}
func.func @gelu_bias(%x: memref<64x32xbf16>, %w: memref<32x16xbf16>, %b: memref<16xbf16>, %y: memref<64x16xbf16>) {
  call @rlx_library_matmul(%x, %w, %b, %y) : (memref<64x32xbf16>, memref<32x16xbf16>, memref<16xbf16>, memref<64x16xbf16>) -> ()
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
// CHECK:         call @rlxGpuMatmul(%[[F32]], %[[F32]], %[[F32]], %[[T]], %[[BATCH]], {{.*}}, %[[NULL]], %{{.*}})
func.func private @rlx_library_matmul(%x: memref<6x8x4xf32>, %w: memref<6x2x4xf32>, %y: memref<6x8x2xf32>)
    attributes {rlx.library_matmul = {batch = 6 : i64, epilogue = "none", k = 4 : i64, m = 8 : i64, n = 2 : i64, transpose_a = false, transpose_b = true}}
func.func @batched(%x: memref<6x8x4xf32>, %w: memref<6x2x4xf32>, %y: memref<6x8x2xf32>) {
  call @rlx_library_matmul(%x, %w, %y) : (memref<6x8x4xf32>, memref<6x2x4xf32>, memref<6x8x2xf32>) -> ()
  return
}

// -----

// A tagged function on element types the library matmul does not take (the
// dispatch never outlines those) is an error.
func.func private @rlx_library_matmul(%x: memref<4x8xf64>, %w: memref<8x2xf64>, %y: memref<4x2xf64>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @f64(%x: memref<4x8xf64>, %w: memref<8x2xf64>, %y: memref<4x2xf64>) {
  // expected-error @below {{rlx-gpu-call-runtime-kernels: no library matmul for 'f64' and epilogue "none"}}
  call @rlx_library_matmul(%x, %w, %y) : (memref<4x8xf64>, memref<8x2xf64>, memref<4x2xf64>) -> ()
  return
}

// -----

// An int8 product (i8 operands, i32 result): S8 (3), no epilogue.
// CHECK-LABEL: func.func @int8(
// CHECK-DAG:     %[[S8:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[NO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[T:.*]] = arith.constant 1 : i32
// CHECK:         call @rlxGpuMatmul(%[[S8]], %[[NO]], %[[NO]], %[[T]], {{.*}})
func.func private @rlx_library_matmul(%a: memref<37x16xi8>, %b: memref<24x16xi8>, %y: memref<37x24xi32>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", k = 16 : i64, m = 37 : i64, n = 24 : i64, transpose_a = false, transpose_b = true}}
func.func @int8(%a: memref<37x16xi8>, %b: memref<24x16xi8>, %y: memref<37x24xi32>) {
  call @rlx_library_matmul(%a, %b, %y) : (memref<37x16xi8>, memref<24x16xi8>, memref<37x24xi32>) -> ()
  return
}

// -----

// int8 products take no epilogue.
func.func private @rlx_library_matmul(%a: memref<4x16xi8>, %b: memref<8x16xi8>, %y: memref<4x8xi32>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "relu", k = 16 : i64, m = 4 : i64, n = 8 : i64, transpose_a = false, transpose_b = true}}
func.func @int8_relu(%a: memref<4x16xi8>, %b: memref<8x16xi8>, %y: memref<4x8xi32>) {
  // expected-error @below {{rlx-gpu-call-runtime-kernels: no library matmul for 'i32' and epilogue "relu"}}
  call @rlx_library_matmul(%a, %b, %y) : (memref<4x16xi8>, memref<8x16xi8>, memref<4x8xi32>) -> ()
  return
}

// -----

// An fp8 product: rlxGpuMatmulFp8(type, weight, scaling, m, n, k, x, w,
// scale, y) with bf16 (1), e5m2 (1), per channel (1).
// CHECK:       func.func private @rlxGpuMatmulFp8(i32, i32, i32, i64, i64, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @fp8(
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[M:.*]] = arith.constant 70 : i64
// CHECK-DAG:     %[[N:.*]] = arith.constant 24 : i64
// CHECK-DAG:     %[[K:.*]] = arith.constant 32 : i64
// CHECK:         call @rlxGpuMatmulFp8(%[[ONE]], %[[ONE]], %[[ONE]], %[[M]], %[[N]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
func.func private @rlx_library_matmul(%x: memref<2x35x32xbf16>, %w: memref<24x32xui8>, %s: memref<24xf32>, %y: memref<2x35x24xbf16>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", fp8_scaling = "channel", fp8_weight = "e5m2", k = 32 : i64, m = 70 : i64, n = 24 : i64, transpose_a = false, transpose_b = true}}
func.func @fp8(%x: memref<2x35x32xbf16>, %w: memref<24x32xui8>, %s: memref<24xf32>, %y: memref<2x35x24xbf16>) {
  call @rlx_library_matmul(%x, %w, %s, %y) : (memref<2x35x32xbf16>, memref<24x32xui8>, memref<24xf32>, memref<2x35x24xbf16>) -> ()
  return
}

// -----

// An unknown fp8 scaling is an error.
func.func private @rlx_library_matmul(%x: memref<4x32xf32>, %w: memref<16x32xui8>, %s: memref<16xf32>, %y: memref<4x16xf32>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", fp8_scaling = "block", fp8_weight = "e4m3", k = 32 : i64, m = 4 : i64, n = 16 : i64, transpose_a = false, transpose_b = true}}
func.func @fp8_bad(%x: memref<4x32xf32>, %w: memref<16x32xui8>, %s: memref<16xf32>, %y: memref<4x16xf32>) {
  // expected-error @below {{rlx-gpu-call-runtime-kernels: an fp8 library matmul takes x, w, scale and its float result, with `fp8_weight` e4m3 or e5m2 and `fp8_scaling` tensor or channel}}
  call @rlx_library_matmul(%x, %w, %s, %y) : (memref<4x32xf32>, memref<16x32xui8>, memref<16xf32>, memref<4x16xf32>) -> ()
  return
}

// -----

// Still on tensors: bufferization has not run.
func.func private @rlx_library_matmul(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32>
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @tensors(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{rlx-gpu-call-runtime-kernels: expects a call on buffers with the result as out-parameter}}
  %y = call @rlx_library_matmul(%x, %w) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A call's result in a temporary copied to the out-parameter right after
// (buffer-results-to-out-params on a returned call result): the call
// writes to the out-parameter, the temporary and the copy go.
// CHECK-LABEL: func.func @result_copy(
// CHECK-NOT:     memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %arg2
// CHECK:         call @rlxGpuMatmul
// CHECK-NEXT:    return
func.func private @rlx_library_matmul(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @result_copy(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>) {
  %t = memref.alloc() : memref<4x2xf32>
  call @rlx_library_matmul(%x, %w, %t) : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> ()
  memref.copy %t, %y : memref<4x2xf32> to memref<4x2xf32>
  memref.dealloc %t : memref<4x2xf32>
  return
}

// -----

// The temporary is read after the copy: it stays.
// CHECK-LABEL: func.func @result_reread(
// CHECK:         %[[T:.*]] = memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %[[T]]
// CHECK:         call @rlxGpuMatmul
// CHECK-NEXT:    memref.copy %[[T]], %arg2
// CHECK-NEXT:    memref.copy %[[T]], %arg3
func.func private @rlx_library_matmul(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", k = 8 : i64, m = 4 : i64, n = 2 : i64, transpose_a = false, transpose_b = false}}
func.func @result_reread(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>, %z: memref<4x2xf32>) {
  %t = memref.alloc() : memref<4x2xf32>
  call @rlx_library_matmul(%x, %w, %t) : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> ()
  memref.copy %t, %y : memref<4x2xf32> to memref<4x2xf32>
  memref.copy %t, %z : memref<4x2xf32> to memref<4x2xf32>
  memref.dealloc %t : memref<4x2xf32>
  return
}

// -----

// A constant weight and bias (host globals) reach the library matmul as their device
// copies: rlxGpuConstant of their host addresses and 2 * 16 * 2 and 16 * 2
// bytes.
// CHECK:       func.func private @rlxGpuConstant(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-LABEL: func.func @constant_weight(
// CHECK-DAG:     %[[WG:.*]] = memref.get_global @weight
// CHECK-DAG:     %[[BG:.*]] = memref.get_global @bias
// CHECK-DAG:     %[[WBYTES:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[BBYTES:.*]] = arith.constant 32 : i64
// CHECK-DAG:     %[[WI:.*]] = memref.extract_aligned_pointer_as_index %[[WG]]
// CHECK-DAG:     %[[WL:.*]] = arith.index_cast %[[WI]]
// CHECK-DAG:     %[[WH:.*]] = llvm.inttoptr %[[WL]]
// CHECK-DAG:     %[[WD:.*]] = call @rlxGpuConstant(%[[WH]], %[[WBYTES]])
// CHECK-DAG:     %[[WD64:.*]] = llvm.ptrtoint %[[WD]]
// CHECK-DAG:     %[[WP:.*]] = llvm.inttoptr %[[WD64]]
// CHECK-DAG:     %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[BG]]
// CHECK-DAG:     %[[BL:.*]] = arith.index_cast %[[BI]]
// CHECK-DAG:     %[[BH:.*]] = llvm.inttoptr %[[BL]]
// CHECK-DAG:     %[[BD:.*]] = call @rlxGpuConstant(%[[BH]], %[[BBYTES]])
// CHECK-DAG:     %[[BD64:.*]] = llvm.ptrtoint %[[BD]]
// CHECK-DAG:     %[[BP:.*]] = llvm.inttoptr %[[BD64]]
// CHECK:         call @rlxGpuMatmul({{.*}}, %[[WP]], %[[BP]],
memref.global "private" constant @weight : memref<2x16xbf16> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 17.0]]>
memref.global "private" constant @bias : memref<16xbf16> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]>
func.func private @rlx_library_matmul(%x: memref<64x2xbf16>, %w: memref<2x16xbf16>, %b: memref<16xbf16>, %y: memref<64x16xbf16>)
    attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "bias", k = 2 : i64, m = 64 : i64, n = 16 : i64, transpose_a = false, transpose_b = false}} {
  return
}
func.func @constant_weight(%x: memref<64x2xbf16>, %y: memref<64x16xbf16>) {
  %w = memref.get_global @weight : memref<2x16xbf16>
  %b = memref.get_global @bias : memref<16xbf16>
  call @rlx_library_matmul(%x, %w, %b, %y) : (memref<64x2xbf16>, memref<2x16xbf16>, memref<16xbf16>, memref<64x16xbf16>) -> ()
  return
}

// -----

// A call of an outlined attention becomes rlxFlashAttention on the
// addresses and strides, writing the out-parameter its temporary was
// copied to: bf16 (0), causal (1), batch 2, 8 heads over 2 kv heads, 300
// rows of head dim 64, no window, scale 0.125; contiguous q and o (batch,
// head, row strides 8 * 300 * 64, 300 * 64, 64), k and v (2 * 300 * 64,
// 300 * 64, 64).
// CHECK:       func.func private @rlxFlashAttention(i32, i32, i64, i64, i64, i64, i64, i64, i64, f32, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64)
// CHECK-NOT:   @rlx_flash_attention
// CHECK-LABEL: func.func @flash_causal_gqa(
// CHECK-SAME:      %[[Q:.*]]: memref<2x8x300x64xbf16>, %[[K:.*]]: memref<2x2x300x64xbf16>, %[[V:.*]]: memref<2x2x300x64xbf16>, %[[O:.*]]: memref<2x8x300x64xbf16>)
// CHECK-NOT:     memref.alloc
// CHECK-DAG:     %[[BF16:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[CAUSAL:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG:     %[[EIGHT:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[SEQ:.*]] = arith.constant 300 : i64
// CHECK-DAG:     %[[D:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[WINDOW:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-DAG:     %[[QB:.*]] = arith.constant 153600 : i64
// CHECK-DAG:     %[[KB:.*]] = arith.constant 38400 : i64
// CHECK-DAG:     %[[H:.*]] = arith.constant 19200 : i64
// CHECK-DAG:     %[[QI:.*]] = memref.extract_aligned_pointer_as_index %[[Q]]
// CHECK-DAG:     %[[Q64:.*]] = arith.index_cast %[[QI]]
// CHECK-DAG:     %[[QP:.*]] = llvm.inttoptr %[[Q64]]
// CHECK-DAG:     %[[KI:.*]] = memref.extract_aligned_pointer_as_index %[[K]]
// CHECK-DAG:     %[[K64:.*]] = arith.index_cast %[[KI]]
// CHECK-DAG:     %[[KP:.*]] = llvm.inttoptr %[[K64]]
// CHECK-DAG:     %[[VI:.*]] = memref.extract_aligned_pointer_as_index %[[V]]
// CHECK-DAG:     %[[V64:.*]] = arith.index_cast %[[VI]]
// CHECK-DAG:     %[[VP:.*]] = llvm.inttoptr %[[V64]]
// CHECK-DAG:     %[[OI:.*]] = memref.extract_aligned_pointer_as_index %[[O]]
// CHECK-DAG:     %[[O64:.*]] = arith.index_cast %[[OI]]
// CHECK-DAG:     %[[OP:.*]] = llvm.inttoptr %[[O64]]
// CHECK:         call @rlxFlashAttention(%[[BF16]], %[[CAUSAL]], %[[TWO]], %[[EIGHT]], %[[TWO]], %[[SEQ]], %[[SEQ]], %[[D]], %[[WINDOW]], %[[SCALE]], %[[QP]], %[[QB]], %[[H]], %[[D]], %[[KP]], %[[KB]], %[[H]], %[[D]], %[[VP]], %[[KB]], %[[H]], %[[D]], %[[OP]], %[[QB]], %[[H]], %[[D]])
// CHECK-NEXT:    return
func.func private @rlx_flash_attention(%q: memref<2x8x300x64xbf16>, %k: memref<2x2x300x64xbf16>, %v: memref<2x2x300x64xbf16>, %o: memref<2x8x300x64xbf16>)
    attributes {rlx.flash_attention = {batch = 2 : i64, head_dim = 64 : i64, heads = 8 : i64, kv_heads = 2 : i64, mask = "causal", scale = 1.250000e-01 : f32, seq_k = 300 : i64, seq_major = array<i1: false, false, false, false>, seq_q = 300 : i64, window = 0 : i64}}
func.func @flash_causal_gqa(%q: memref<2x8x300x64xbf16>, %k: memref<2x2x300x64xbf16>, %v: memref<2x2x300x64xbf16>, %o: memref<2x8x300x64xbf16>) {
  %t = memref.alloc() : memref<2x8x300x64xbf16>
  call @rlx_flash_attention(%q, %k, %v, %t) : (memref<2x8x300x64xbf16>, memref<2x2x300x64xbf16>, memref<2x2x300x64xbf16>, memref<2x8x300x64xbf16>) -> ()
  memref.copy %t, %o : memref<2x8x300x64xbf16> to memref<2x8x300x64xbf16>
  memref.dealloc %t : memref<2x8x300x64xbf16>
  return
}

// -----

// BERT's heads after bufferization: q, k and v are [batch, seq, heads,
// dim] views of one qkv projection, which the function boundary copied into
// contiguous buffers. The kernel reads the views in place: no copies, k's
// address 768 bf16 = 1536 bytes and v's 3072 bytes on, batch, head and row
// strides 128 * 2304, 64, 2304; the contiguous [batch, seq, heads, dim]
// result has 128 * 768, 64, 768.
// CHECK-LABEL: func.func @flash_heads_in_place(
// CHECK-SAME:      %[[QKV:.*]]: memref<2x128x2304xbf16>, %[[O:.*]]: memref<2x128x12x64xbf16>)
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.alloc
// CHECK-DAG:     %[[D:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[B:.*]] = arith.constant 294912 : i64
// CHECK-DAG:     %[[ROW:.*]] = arith.constant 2304 : i64
// CHECK-DAG:     %[[OB:.*]] = arith.constant 98304 : i64
// CHECK-DAG:     %[[OROW:.*]] = arith.constant 768 : i64
// CHECK-DAG:     %[[KOFF:.*]] = arith.constant 1536 : i64
// CHECK-DAG:     %[[VOFF:.*]] = arith.constant 3072 : i64
// CHECK-DAG:     %[[QI:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1]>>
// CHECK-DAG:     %[[Q64:.*]] = arith.index_cast %[[QI]]
// CHECK-DAG:     %[[QP:.*]] = llvm.inttoptr %[[Q64]]
// CHECK-DAG:     %[[KI:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1], offset: 768>>
// CHECK-DAG:     %[[K64:.*]] = arith.index_cast %[[KI]]
// CHECK-DAG:     %[[KA:.*]] = arith.addi %[[K64]], %[[KOFF]]
// CHECK-DAG:     %[[KP:.*]] = llvm.inttoptr %[[KA]]
// CHECK-DAG:     %[[VI:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1], offset: 1536>>
// CHECK-DAG:     %[[V64:.*]] = arith.index_cast %[[VI]]
// CHECK-DAG:     %[[VA:.*]] = arith.addi %[[V64]], %[[VOFF]]
// CHECK-DAG:     %[[VP:.*]] = llvm.inttoptr %[[VA]]
// CHECK-DAG:     %[[OI:.*]] = memref.extract_aligned_pointer_as_index %[[O]]
// CHECK-DAG:     %[[O64:.*]] = arith.index_cast %[[OI]]
// CHECK-DAG:     %[[OP:.*]] = llvm.inttoptr %[[O64]]
// CHECK:         call @rlxFlashAttention({{.*}}, %[[QP]], %[[B]], %[[D]], %[[ROW]], %[[KP]], %[[B]], %[[D]], %[[ROW]], %[[VP]], %[[B]], %[[D]], %[[ROW]], %[[OP]], %[[OB]], %[[D]], %[[OROW]])
// CHECK-NEXT:    return
func.func private @rlx_flash_attention(%q: memref<2x128x12x64xbf16>, %k: memref<2x128x12x64xbf16>, %v: memref<2x128x12x64xbf16>, %o: memref<2x128x12x64xbf16>)
    attributes {rlx.flash_attention = {batch = 2 : i64, head_dim = 64 : i64, heads = 12 : i64, kv_heads = 12 : i64, mask = "none", scale = 1.250000e-01 : f32, seq_k = 128 : i64, seq_major = array<i1: true, true, true, true>, seq_q = 128 : i64, window = 0 : i64}}
func.func @flash_heads_in_place(%qkv: memref<2x128x2304xbf16>, %o: memref<2x128x12x64xbf16>) {
  %sq = memref.subview %qkv[0, 0, 0] [2, 128, 768] [1, 1, 1] : memref<2x128x2304xbf16> to memref<2x128x768xbf16, strided<[294912, 2304, 1]>>
  %sk = memref.subview %qkv[0, 0, 768] [2, 128, 768] [1, 1, 1] : memref<2x128x2304xbf16> to memref<2x128x768xbf16, strided<[294912, 2304, 1], offset: 768>>
  %sv = memref.subview %qkv[0, 0, 1536] [2, 128, 768] [1, 1, 1] : memref<2x128x2304xbf16> to memref<2x128x768xbf16, strided<[294912, 2304, 1], offset: 1536>>
  %eq = memref.expand_shape %sq [[0], [1], [2, 3]] output_shape [2, 128, 12, 64] : memref<2x128x768xbf16, strided<[294912, 2304, 1]>> into memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1]>>
  %ek = memref.expand_shape %sk [[0], [1], [2, 3]] output_shape [2, 128, 12, 64] : memref<2x128x768xbf16, strided<[294912, 2304, 1], offset: 768>> into memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1], offset: 768>>
  %ev = memref.expand_shape %sv [[0], [1], [2, 3]] output_shape [2, 128, 12, 64] : memref<2x128x768xbf16, strided<[294912, 2304, 1], offset: 1536>> into memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1], offset: 1536>>
  %aq = memref.alloc() {alignment = 64 : i64} : memref<2x128x12x64xbf16>
  memref.copy %eq, %aq : memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1]>> to memref<2x128x12x64xbf16>
  %ak = memref.alloc() {alignment = 64 : i64} : memref<2x128x12x64xbf16>
  memref.copy %ek, %ak : memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1], offset: 768>> to memref<2x128x12x64xbf16>
  %av = memref.alloc() {alignment = 64 : i64} : memref<2x128x12x64xbf16>
  memref.copy %ev, %av : memref<2x128x12x64xbf16, strided<[294912, 2304, 64, 1], offset: 1536>> to memref<2x128x12x64xbf16>
  call @rlx_flash_attention(%aq, %ak, %av, %o) : (memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>) -> ()
  memref.dealloc %aq : memref<2x128x12x64xbf16>
  memref.dealloc %ak : memref<2x128x12x64xbf16>
  memref.dealloc %av : memref<2x128x12x64xbf16>
  return
}

// -----

// A result returned through a collapse_shape (heads merged into one hidden
// dim): the call writes the out-parameter expanded back; no temporary, no
// copy. A collapse that something else reads too keeps them.
// CHECK-LABEL: func.func @flash_merged_heads(
// CHECK-SAME:      %[[O:[^:]*]]: memref<2x128x768xbf16>)
// CHECK-NOT:     memref.alloc
// CHECK:         %[[E:.*]] = memref.expand_shape %[[O]] {{\[\[}}0], [1], [2, 3]] output_shape [2, 128, 12, 64]
// CHECK:         memref.extract_aligned_pointer_as_index %[[E]]
// CHECK:         call @rlxFlashAttention
// CHECK-NOT:     memref.copy
// CHECK:         return
// CHECK-LABEL: func.func @flash_merged_heads_kept(
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK:         call @rlxFlashAttention
// CHECK-NEXT:    %[[C:.*]] = memref.collapse_shape %[[T]]
// CHECK-NEXT:    memref.copy %[[C]]
func.func private @rlx_flash_attention(%q: memref<2x128x12x64xbf16>, %k: memref<2x128x12x64xbf16>, %v: memref<2x128x12x64xbf16>, %o: memref<2x128x12x64xbf16>)
    attributes {rlx.flash_attention = {batch = 2 : i64, head_dim = 64 : i64, heads = 12 : i64, kv_heads = 12 : i64, mask = "none", scale = 1.250000e-01 : f32, seq_k = 128 : i64, seq_major = array<i1: true, true, true, true>, seq_q = 128 : i64, window = 0 : i64}}
func.func @flash_merged_heads(%q: memref<2x128x12x64xbf16>, %k: memref<2x128x12x64xbf16>, %v: memref<2x128x12x64xbf16>, %o: memref<2x128x768xbf16>) {
  %t = memref.alloc() : memref<2x128x12x64xbf16>
  call @rlx_flash_attention(%q, %k, %v, %t) : (memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>) -> ()
  %c = memref.collapse_shape %t [[0], [1], [2, 3]] : memref<2x128x12x64xbf16> into memref<2x128x768xbf16>
  memref.copy %c, %o : memref<2x128x768xbf16> to memref<2x128x768xbf16>
  memref.dealloc %t : memref<2x128x12x64xbf16>
  return
}
func.func @flash_merged_heads_kept(%q: memref<2x128x12x64xbf16>, %k: memref<2x128x12x64xbf16>, %v: memref<2x128x12x64xbf16>, %o: memref<2x128x768xbf16>, %o2: memref<2x128x768xbf16>) {
  %t = memref.alloc() : memref<2x128x12x64xbf16>
  call @rlx_flash_attention(%q, %k, %v, %t) : (memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>, memref<2x128x12x64xbf16>) -> ()
  %c = memref.collapse_shape %t [[0], [1], [2, 3]] : memref<2x128x12x64xbf16> into memref<2x128x768xbf16>
  memref.copy %c, %o : memref<2x128x768xbf16> to memref<2x128x768xbf16>
  memref.copy %c, %o2 : memref<2x128x768xbf16> to memref<2x128x768xbf16>
  memref.dealloc %t : memref<2x128x12x64xbf16>
  return
}

// -----

// Copies that stay: q's view starts 4 elements (8 bytes) into a row, off
// the kernel's 16-byte chunks; k's source is written after its copy and
// before the call (a store between). v's copy alone goes.
// CHECK-LABEL: func.func @flash_copies_kept(
// CHECK:         %[[AQ:.*]] = memref.alloc() {{.*}} : memref<1x64x4x64xf16>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[AQ]]
// CHECK-NEXT:    %[[AK:.*]] = memref.alloc() {{.*}} : memref<1x64x4x64xf16>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[AK]]
// CHECK-NEXT:    memref.store
// CHECK-NOT:     memref.copy
// CHECK:         %[[QP:.*]] = llvm.inttoptr
// CHECK:         memref.extract_aligned_pointer_as_index %[[AK]]
// CHECK:         memref.extract_aligned_pointer_as_index %{{.*}} : memref<1x64x4x64xf16, strided<[17160, 264, 64, 1], offset: 264>>
// CHECK:         call @rlxFlashAttention
// CHECK-NEXT:    memref.dealloc %[[AQ]]
// CHECK-NEXT:    memref.dealloc %[[AK]]
// CHECK-NEXT:    return
func.func private @rlx_flash_attention(%q: memref<1x64x4x64xf16>, %k: memref<1x64x4x64xf16>, %v: memref<1x64x4x64xf16>, %o: memref<1x4x64x64xf16>)
    attributes {rlx.flash_attention = {batch = 1 : i64, head_dim = 64 : i64, heads = 4 : i64, kv_heads = 4 : i64, mask = "causal", scale = 1.250000e-01 : f32, seq_k = 64 : i64, seq_major = array<i1: true, true, true, false>, seq_q = 64 : i64, window = 0 : i64}}
func.func @flash_copies_kept(%x: memref<1x65x264xf16>, %o: memref<1x4x64x64xf16>) {
  %c0 = arith.constant 0 : index
  %h = arith.constant 1.0 : f16
  %sq = memref.subview %x[0, 0, 4] [1, 64, 256] [1, 1, 1] : memref<1x65x264xf16> to memref<1x64x256xf16, strided<[17160, 264, 1], offset: 4>>
  %eq = memref.expand_shape %sq [[0], [1], [2, 3]] output_shape [1, 64, 4, 64] : memref<1x64x256xf16, strided<[17160, 264, 1], offset: 4>> into memref<1x64x4x64xf16, strided<[17160, 264, 64, 1], offset: 4>>
  %sk = memref.subview %x[0, 0, 0] [1, 64, 256] [1, 1, 1] : memref<1x65x264xf16> to memref<1x64x256xf16, strided<[17160, 264, 1]>>
  %ek = memref.expand_shape %sk [[0], [1], [2, 3]] output_shape [1, 64, 4, 64] : memref<1x64x256xf16, strided<[17160, 264, 1]>> into memref<1x64x4x64xf16, strided<[17160, 264, 64, 1]>>
  %sv = memref.subview %x[0, 1, 0] [1, 64, 256] [1, 1, 1] : memref<1x65x264xf16> to memref<1x64x256xf16, strided<[17160, 264, 1], offset: 264>>
  %ev = memref.expand_shape %sv [[0], [1], [2, 3]] output_shape [1, 64, 4, 64] : memref<1x64x256xf16, strided<[17160, 264, 1], offset: 264>> into memref<1x64x4x64xf16, strided<[17160, 264, 64, 1], offset: 264>>
  %aq = memref.alloc() {alignment = 64 : i64} : memref<1x64x4x64xf16>
  memref.copy %eq, %aq : memref<1x64x4x64xf16, strided<[17160, 264, 64, 1], offset: 4>> to memref<1x64x4x64xf16>
  %ak = memref.alloc() {alignment = 64 : i64} : memref<1x64x4x64xf16>
  memref.copy %ek, %ak : memref<1x64x4x64xf16, strided<[17160, 264, 64, 1]>> to memref<1x64x4x64xf16>
  memref.store %h, %x[%c0, %c0, %c0] : memref<1x65x264xf16>
  %av = memref.alloc() {alignment = 64 : i64} : memref<1x64x4x64xf16>
  memref.copy %ev, %av : memref<1x64x4x64xf16, strided<[17160, 264, 64, 1], offset: 264>> to memref<1x64x4x64xf16>
  call @rlx_flash_attention(%aq, %ak, %av, %o) : (memref<1x64x4x64xf16>, memref<1x64x4x64xf16>, memref<1x64x4x64xf16>, memref<1x4x64x64xf16>) -> ()
  memref.dealloc %aq : memref<1x64x4x64xf16>
  memref.dealloc %ak : memref<1x64x4x64xf16>
  memref.dealloc %av : memref<1x64x4x64xf16>
  return
}

// -----

// f16 (1) sliding window (2) of 32 keys.
// CHECK-LABEL: func.func @flash_sliding_window(
// CHECK-DAG:     %[[F16:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SW:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[WINDOW:.*]] = arith.constant 32 : i64
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 1.000000e-01 : f32
// CHECK:         call @rlxFlashAttention(%[[F16]], %[[SW]], {{.*}}, %[[WINDOW]], %[[SCALE]],
func.func private @rlx_flash_attention(%q: memref<1x4x64x128xf16>, %k: memref<1x4x192x128xf16>, %v: memref<1x4x192x128xf16>, %o: memref<1x4x64x128xf16>)
    attributes {rlx.flash_attention = {batch = 1 : i64, head_dim = 128 : i64, heads = 4 : i64, kv_heads = 4 : i64, mask = "sliding_window", scale = 1.000000e-01 : f32, seq_k = 192 : i64, seq_major = array<i1: false, false, false, false>, seq_q = 64 : i64, window = 32 : i64}}
func.func @flash_sliding_window(%q: memref<1x4x64x128xf16>, %k: memref<1x4x192x128xf16>, %v: memref<1x4x192x128xf16>, %o: memref<1x4x64x128xf16>) {
  call @rlx_flash_attention(%q, %k, %v, %o) : (memref<1x4x64x128xf16>, memref<1x4x192x128xf16>, memref<1x4x192x128xf16>, memref<1x4x64x128xf16>) -> ()
  return
}

// -----

// A copy between q's copy and the call that overwrites q's source (a buffer
// allocated before the copy) keeps q's copy; k's and v's, followed only by
// copies into buffers allocated after them, go.
// CHECK-LABEL: func.func @flash_source_overwritten(
// CHECK:         %[[S:.*]] = memref.alloc() : memref<1x64x4x64xf16>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[S]]
// CHECK-NEXT:    %[[AQ:.*]] = memref.alloc() : memref<1x64x4x64xf16>
// CHECK-NEXT:    memref.copy %[[S]], %[[AQ]]
// CHECK-NEXT:    memref.copy %{{.*}}, %[[S]]
// CHECK-NOT:     memref.copy
// CHECK:         memref.extract_aligned_pointer_as_index %[[AQ]]
// CHECK:         call @rlxFlashAttention
func.func private @rlx_flash_attention(%q: memref<1x64x4x64xf16>, %k: memref<1x64x4x64xf16>, %v: memref<1x64x4x64xf16>, %o: memref<1x4x64x64xf16>)
    attributes {rlx.flash_attention = {batch = 1 : i64, head_dim = 64 : i64, heads = 4 : i64, kv_heads = 4 : i64, mask = "none", scale = 1.250000e-01 : f32, seq_k = 64 : i64, seq_major = array<i1: true, true, true, false>, seq_q = 64 : i64, window = 0 : i64}}
func.func @flash_source_overwritten(%x: memref<1x64x4x64xf16>, %y: memref<1x64x4x64xf16>, %o: memref<1x4x64x64xf16>) {
  %s = memref.alloc() : memref<1x64x4x64xf16>
  memref.copy %x, %s : memref<1x64x4x64xf16> to memref<1x64x4x64xf16>
  %aq = memref.alloc() : memref<1x64x4x64xf16>
  memref.copy %s, %aq : memref<1x64x4x64xf16> to memref<1x64x4x64xf16>
  memref.copy %y, %s : memref<1x64x4x64xf16> to memref<1x64x4x64xf16>
  %ak = memref.alloc() : memref<1x64x4x64xf16>
  memref.copy %x, %ak : memref<1x64x4x64xf16> to memref<1x64x4x64xf16>
  %av = memref.alloc() : memref<1x64x4x64xf16>
  memref.copy %y, %av : memref<1x64x4x64xf16> to memref<1x64x4x64xf16>
  call @rlx_flash_attention(%aq, %ak, %av, %o) : (memref<1x64x4x64xf16>, memref<1x64x4x64xf16>, memref<1x64x4x64xf16>, memref<1x4x64x64xf16>) -> ()
  memref.dealloc %aq : memref<1x64x4x64xf16>
  memref.dealloc %ak : memref<1x64x4x64xf16>
  memref.dealloc %av : memref<1x64x4x64xf16>
  memref.dealloc %s : memref<1x64x4x64xf16>
  return
}

// -----

// A tagged attention on f32 (the dispatch never outlines those) is an
// error.
func.func private @rlx_flash_attention(%q: memref<1x4x64x64xf32>, %k: memref<1x4x64x64xf32>, %v: memref<1x4x64x64xf32>, %o: memref<1x4x64x64xf32>)
    attributes {rlx.flash_attention = {batch = 1 : i64, head_dim = 64 : i64, heads = 4 : i64, kv_heads = 4 : i64, mask = "causal", scale = 1.250000e-01 : f32, seq_k = 64 : i64, seq_q = 64 : i64, window = 0 : i64}}
func.func @flash_f32(%q: memref<1x4x64x64xf32>, %k: memref<1x4x64x64xf32>, %v: memref<1x4x64x64xf32>, %o: memref<1x4x64x64xf32>) {
  // expected-error @below {{rlx-gpu-call-runtime-kernels: no flash attention for 'f32' and mask "causal"}}
  call @rlx_flash_attention(%q, %k, %v, %o) : (memref<1x4x64x64xf32>, memref<1x4x64x64xf32>, memref<1x4x64x64xf32>, memref<1x4x64x64xf32>) -> ()
  return
}

// -----

// A tagged attention without `seq_major` is an error.
func.func private @rlx_flash_attention(%q: memref<1x4x64x64xbf16>, %k: memref<1x4x64x64xbf16>, %v: memref<1x4x64x64xbf16>, %o: memref<1x4x64x64xbf16>)
    attributes {rlx.flash_attention = {batch = 1 : i64, head_dim = 64 : i64, heads = 4 : i64, kv_heads = 4 : i64, mask = "none", scale = 1.250000e-01 : f32, seq_k = 64 : i64, seq_q = 64 : i64, window = 0 : i64}}
func.func @flash_no_layout(%q: memref<1x4x64x64xbf16>, %k: memref<1x4x64x64xbf16>, %v: memref<1x4x64x64xbf16>, %o: memref<1x4x64x64xbf16>) {
  // expected-error @below {{rlx-gpu-call-runtime-kernels: a flash attention needs `seq_major` for q, k, v and its result}}
  call @rlx_flash_attention(%q, %k, %v, %o) : (memref<1x4x64x64xbf16>, memref<1x4x64x64xbf16>, memref<1x4x64x64xbf16>, memref<1x4x64x64xbf16>) -> ()
  return
}
