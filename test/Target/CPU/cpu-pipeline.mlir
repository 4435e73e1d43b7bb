// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// The pipeline lowers an MLP layer with a softmax (matmul, bias add, gelu,
// reductions) to the LLVM dialect: buffers come from the generic
// allocation functions, intermediate ones are freed (those above 4 KiB: the
// softmax's per-row max and sum live on the stack), and erf is a
// polynomial (rlx-cpu-approximate-math), not a libm call. Each kernel is a
// private function that LLVM may not inline (rlx-cpu-outline-kernels);
// @mlp is the glue that allocates and calls them, compiled unoptimized.
// CHECK-LABEL: module
// CHECK-DAG:     llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-DAG:     llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK:         llvm.func @mlp_kernel1(
// CHECK-SAME:      attributes {passthrough = ["noinline"], sym_visibility = "private"}
// CHECK:           llvm.fmul
// CHECK:           llvm.fadd
// CHECK:         llvm.func @mlp(
// CHECK-SAME:      -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-SAME:      attributes {passthrough = ["noinline", "optnone"]}
// CHECK-NOT:       llvm.fmul
// CHECK:           llvm.call @_mlir_memref_to_llvm_alloc(%{{.+}}) : (i64) -> !llvm.ptr
// CHECK:           llvm.call @mlp_kernel0(
// CHECK:           llvm.call @mlp_kernel1(
// CHECK:           llvm.call @mlp_kernel2(
// CHECK:           llvm.call @_mlir_memref_to_llvm_free(%{{.+}}) : (!llvm.ptr) -> ()
// CHECK:           llvm.return

// Nothing but the LLVM dialect is left.
// LLVM-NOT: rlx.
// LLVM-NOT: linalg.
// LLVM-NOT: tensor.
// LLVM-NOT: memref.
// LLVM-NOT: bufferization.
// LLVM-NOT: arith.
// LLVM-NOT: math.
// LLVM-NOT: scf.
// LLVM-NOT: cf.
// LLVM-NOT: func.func
// LLVM-NOT: @erff
// LLVM-NOT: unrealized_conversion_cast
// LLVM-NOT: llvm.call @malloc
func.func @mlp(%x: tensor<64x32xf32>, %w: tensor<32x96xf32>, %b: tensor<96xf32>) -> tensor<64x96xf32> {
  %y = rlx.matmul %x, %w : tensor<64x32xf32>, tensor<32x96xf32>
  %z = rlx.add %y, %b : tensor<64x96xf32>, tensor<96xf32>
  %g = rlx.gelu %z : tensor<64x96xf32>
  %s = rlx.softmax %g axis = -1 : tensor<64x96xf32>
  return %s : tensor<64x96xf32>
}

// A returned constant and a returned view of an argument are buffers the
// function does not own: ownership-based deallocation copies them
// (bufferization.clone), and the copy is lowered too: a fresh allocation
// filled by memcpy.
// CHECK-LABEL: llvm.func @return_constant(
// CHECK:         llvm.mlir.addressof @{{.+}} : !llvm.ptr
// CHECK:         %[[BUF:.+]] = llvm.call @_mlir_memref_to_llvm_alloc(%{{.+}}) : (i64) -> !llvm.ptr
// CHECK:         "llvm.intr.memcpy"(%[[BUF]], %{{.+}}, %{{.+}})
// CHECK:         llvm.return
func.func @return_constant() -> tensor<2xf32> {
  %c = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// CHECK-LABEL: llvm.func @return_reshaped_argument(
// CHECK-SAME:    %{{[^:]+}}: !llvm.ptr, %[[ALIGNED:[^:]+]]: !llvm.ptr
// CHECK:         %[[BUF:.+]] = llvm.call @_mlir_memref_to_llvm_alloc(%{{.+}}) : (i64) -> !llvm.ptr
// CHECK:         "llvm.intr.memcpy"(%[[BUF]], %[[ALIGNED]], %{{.+}})
// CHECK:         llvm.return
func.func @return_reshaped_argument(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %a = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %a : tensor<6x4xf32>
}

// Complex division, exp and log expand into math ops before the math
// conversions run, so none is left behind (the LLVM-NOT lines above cover
// the whole output).
// CHECK-LABEL: llvm.func @complex_math(
func.func @complex_math(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = rlx.div %a, %a : tensor<4xcomplex<f32>>
  %1 = rlx.exp %0 : tensor<4xcomplex<f32>>
  %2 = rlx.log %1 : tensor<4xcomplex<f32>>
  return %2 : tensor<4xcomplex<f32>>
}

// Loops carry fresh tensors: rlx.while bufferizes and lowers.
// CHECK-LABEL: llvm.func @while_loop(
func.func @while_loop(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  %r = rlx.while (%x) : (tensor<f32>) {max_iterations = 8 : i64} cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %limit : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    %n = rlx.add %a, %a : tensor<f32>
    rlx.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}
