// REQUIRES: target-cuda
// RUN: rlx-opt %s --split-input-file --rlx-to-gpu | FileCheck %s --check-prefix=W32
// RUN: rlx-opt %s --split-input-file --rlx-to-gpu="subgroup-size=64" | FileCheck %s --check-prefix=W64

// The GPU front takes its subgroup from the target description: a row of
// 4096 f32 (four lanes per access, 256 threads, four straight-line steps)
// reduces with butterfly shuffles across the subgroup, first offset half
// the subgroup, then through one word of workgroup memory per subgroup:
// 256 / 32 = 8 words on a 32-lane target, 256 / 64 = 4 on a 64-lane one;
// each reduction takes one shuffle more on the 64-lane target.
// W32-LABEL: func.func @long_rows(
// W32-DAG:     %[[G:.*]] = arith.constant 8 : index
// W32-DAG:     %[[T:.*]] = arith.constant 256 : index
// W32:         gpu.launch_func @long_rows_kernel::@long_rows_kernel blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}})
// W32:       gpu.func @long_rows_kernel(
// W32-SAME:      workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>)
// W32-DAG:     %[[W:.*]] = arith.constant 32 : i32
// W32-DAG:     %[[O:.*]] = arith.constant 16 : i32
// W32-DAG:     %[[H:.*]] = arith.constant 8 : i32
// W32:         gpu.shuffle  xor %{{.*}}, %[[O]], %[[W]] : f32
// W32-NEXT:    arith.maxnumf
// W32-NEXT:    gpu.shuffle  xor %{{.*}}, %[[H]], %[[W]] : f32
// W64-LABEL: func.func @long_rows(
// W64-DAG:     %[[G:.*]] = arith.constant 8 : index
// W64-DAG:     %[[T:.*]] = arith.constant 256 : index
// W64:         gpu.launch_func @long_rows_kernel::@long_rows_kernel blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}})
// W64:       gpu.func @long_rows_kernel(
// W64-SAME:      workgroup(%{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>)
// W64-DAG:     %[[W:.*]] = arith.constant 64 : i32
// W64-DAG:     %[[O:.*]] = arith.constant 32 : i32
// W64-DAG:     %[[H:.*]] = arith.constant 16 : i32
// W64:         gpu.shuffle  xor %{{.*}}, %[[O]], %[[W]] : f32
// W64-NEXT:    arith.maxnumf
// W64-NEXT:    gpu.shuffle  xor %{{.*}}, %[[H]], %[[W]] : f32
func.func @long_rows(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}

// -----

// A row of 256 f32 fits one subgroup's registers: one subgroup per row,
// blocks of 256 threads holding 256 / 32 = 8 rows (64 rows: 8 blocks) on a
// 32-lane target and 256 / 64 = 4 rows (16 blocks) on a 64-lane one. A
// thread's row within its block is its index divided by the subgroup size,
// and no workgroup memory is needed.
// W32-LABEL: func.func @short_rows(
// W32-DAG:     %[[G:.*]] = arith.constant 8 : index
// W32-DAG:     %[[T:.*]] = arith.constant 256 : index
// W32:         gpu.launch_func @short_rows_kernel::@short_rows_kernel blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}})
// W32:       gpu.func @short_rows_kernel(
// W32-NOT:       workgroup
// W32-DAG:     %[[S:.*]] = arith.constant 32 : index
// W32-DAG:     %[[R:.*]] = arith.constant 8 : index
// W32:         %[[SUB:.*]] = arith.divui %[[TID:.*]], %[[S]] : index
// W32-NEXT:    %[[FIRST:.*]] = arith.muli %{{.*}}, %[[R]] : index
// W32-NEXT:    arith.addi %[[FIRST]], %[[SUB]] : index
// W32-NEXT:    arith.remui %[[TID]], %[[S]] : index
// W32:         gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// W64-LABEL: func.func @short_rows(
// W64-DAG:     %[[G:.*]] = arith.constant 16 : index
// W64-DAG:     %[[T:.*]] = arith.constant 256 : index
// W64:         gpu.launch_func @short_rows_kernel::@short_rows_kernel blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}})
// W64:       gpu.func @short_rows_kernel(
// W64-NOT:       workgroup
// W64-DAG:     %[[S:.*]] = arith.constant 64 : index
// W64-DAG:     %[[R:.*]] = arith.constant 4 : index
// W64:         %[[SUB:.*]] = arith.divui %[[TID:.*]], %[[S]] : index
// W64-NEXT:    %[[FIRST:.*]] = arith.muli %{{.*}}, %[[R]] : index
// W64-NEXT:    arith.addi %[[FIRST]], %[[SUB]] : index
// W64-NEXT:    arith.remui %[[TID]], %[[S]] : index
// W64:         gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @short_rows(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
