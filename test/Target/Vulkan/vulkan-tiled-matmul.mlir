// REQUIRES: spirv-val
// A bf16 matmul with B transposed, of sizes the tiles do not divide,
// through rlx-compile --target=vulkan: spirv-val accepts every module; the
// matmul's kernel (the second: after the accumulator's zero fill) is the
// tiled one (256 threads, two workgroup buffers of f32, barriers, operands
// read as 16-bit words); with tiled-matmul=false it is the front's kernel,
// here one kernel with the fill and the rounding to bf16 (a row group: a
// workgroup per output row, k reduced with subgroup shuffles), with no
// staged blocks.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=vulkan %s -o %t/tiled.o --gpu-binaries=%t/tiled
// RUN: rlx-compile --target=vulkan --vulkan-options="tiled-matmul=false" %s -o %t/scalar.o --gpu-binaries=%t/scalar
// RUN: for m in %t/*/*.spv; do spirv-val --target-env vulkan1.2 $m || echo "INVALID $m"; done | count 0
// RUN: spirv-dis %t/tiled/mm_kernel_0.spv | FileCheck %s --check-prefix=TILED
// RUN: spirv-dis %t/scalar/mm_kernel.spv | FileCheck %s --check-prefix=SCALAR

// TILED: OpExecutionMode %mm_kernel LocalSize 256 1 1
// TILED-DAG: %__workgroup_mem__0 = OpVariable %{{.+}} Workgroup
// TILED-DAG: %__workgroup_mem__1 = OpVariable %{{.+}} Workgroup
// TILED-DAG: %ushort = OpTypeInt 16 0
// TILED: OpControlBarrier
// TILED: OpControlBarrier

// SCALAR-NOT: __workgroup_mem__1
// SCALAR: OpGroupNonUniformShuffleXor
func.func @mm(%a: tensor<129x33xbf16>, %b: tensor<65x33xbf16>) -> tensor<129x65xbf16> {
  %c = rlx.matmul %a, %b transpose_b true : tensor<129x33xbf16>, tensor<65x33xbf16>
  return %c : tensor<129x65xbf16>
}
