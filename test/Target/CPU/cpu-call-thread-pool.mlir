// RUN: rlx-opt %s --rlx-cpu-call-thread-pool=threads=4 --split-input-file --verify-diagnostics | FileCheck %s

// The call of a chunked kernel becomes a call of the runtime's pool: the
// operands but the range, and the range's start, go into a struct on the
// caller's stack; @f_kernel0_chunk loads them and calls the kernel on
// [start + begin, start + end). The kernel itself is unchanged.
// CHECK-LABEL: llvm.func @f_kernel0(
// CHECK-SAME:    %{{.+}}: !llvm.ptr, %{{.+}}: i64, %{{.+}}: f32, %{{.+}}: i64, %{{.+}}: i64) attributes {rlx.chunked_kernel}
// CHECK-LABEL: llvm.func internal @f_kernel0_chunk(
// CHECK-SAME:    %[[CTX:.+]]: !llvm.ptr, %[[BEGIN:.+]]: i64, %[[END:.+]]: i64)
// CHECK:         %[[A0:.+]] = llvm.getelementptr %[[CTX]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64, f32, i64)>
// CHECK-NEXT:    %[[P:.+]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[A1:.+]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK-NEXT:    %[[N:.+]] = llvm.load %[[A1]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[A2:.+]] = llvm.getelementptr %[[CTX]][0, 2]
// CHECK-NEXT:    %[[S:.+]] = llvm.load %[[A2]] : !llvm.ptr -> f32
// CHECK-NEXT:    %[[A3:.+]] = llvm.getelementptr %[[CTX]][0, 3]
// CHECK-NEXT:    %[[START:.+]] = llvm.load %[[A3]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[B:.+]] = llvm.add %[[START]], %[[BEGIN]] : i64
// CHECK-NEXT:    %[[E:.+]] = llvm.add %[[START]], %[[END]] : i64
// CHECK-NEXT:    llvm.call @f_kernel0(%[[P]], %[[N]], %[[S]], %[[B]], %[[E]])
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME:    %[[BUF:.+]]: !llvm.ptr, %[[LEN:.+]]: i64, %[[SCALE:.+]]: f32)
// CHECK:         %[[ONE:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[STRUCT:.+]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, i64, f32, i64)> : (i64) -> !llvm.ptr
// CHECK:         llvm.store %[[BUF]], %{{.+}} : !llvm.ptr, !llvm.ptr
// CHECK:         llvm.store %[[LEN]], %{{.+}} : i64, !llvm.ptr
// CHECK:         llvm.store %[[SCALE]], %{{.+}} : f32, !llvm.ptr
// CHECK:         llvm.store %[[FROM:.+]], %{{.+}} : i64, !llvm.ptr
// CHECK:         %[[COUNT:.+]] = llvm.sub %[[LEN]], %[[FROM]] : i64
// CHECK-NEXT:    %[[FN:.+]] = llvm.mlir.addressof @f_kernel0_chunk : !llvm.ptr
// CHECK-NEXT:    %[[THREADS:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    llvm.call @rlx_cpu_parallel_for(%[[FN]], %[[STRUCT]], %[[COUNT]], %[[THREADS]]) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK-NOT:     llvm.call @f_kernel0(
// CHECK:         llvm.return
// CHECK:       llvm.func @rlx_cpu_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
llvm.func @f_kernel0(%p: !llvm.ptr, %n: i64, %s: f32, %begin: i64, %end: i64) attributes {rlx.chunked_kernel} {
  llvm.return
}
llvm.func @f(%p: !llvm.ptr, %n: i64, %s: f32) {
  %from = llvm.mlir.constant(2 : i64) : i64
  llvm.call @f_kernel0(%p, %n, %s, %from, %n) : (!llvm.ptr, i64, f32, i64, i64) -> ()
  llvm.return
}

// -----

// A module without chunked kernels is left alone (no declaration added).
// CHECK-LABEL: llvm.func @serial(
// CHECK-NOT:   rlx_cpu_parallel_for
llvm.func @serial_kernel0(%p: !llvm.ptr) {
  llvm.return
}
llvm.func @serial(%p: !llvm.ptr) {
  llvm.call @serial_kernel0(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @broken_kernel0(%p: !llvm.ptr) attributes {rlx.chunked_kernel} {
  llvm.return
}
llvm.func @broken(%p: !llvm.ptr) {
  // expected-error @below {{rlx-cpu-call-thread-pool: a chunked kernel's call ends with its range [begin, end)}}
  llvm.call @broken_kernel0(%p) : (!llvm.ptr) -> ()
  llvm.return
}
