// RUN: not rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16,f32" %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ENTRY
// RUN: not rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=fp8 tiled-matmul=false" %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABI-ENTRY
// RUN: not rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16 spirv-version=v1.5" %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERSION
// RUN: not rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16 coop-tile-m=48" %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILES
// RUN: not rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16 shared-memory-bytes=32768" %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHARED
// RUN: rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16" %s -o %t.o
// RUN: rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16 coop-tile-n=128 shared-memory-bytes=32768" %s -o %t.o

// Bad cooperative-matrix options of the Vulkan pipeline, each an error
// with the value that broke it: an entry not f16, bf16 or bf16-as-f16 (at
// the function, from rlx-gpu-tile-matmul; with tiled-matmul=false, at
// each kernel module, from rlx-vulkan-kernel-abi), an explicit SPIR-V
// version before 1.6 (MLIR's SPIR-V dialect puts the cooperative matrix
// ops at 1.6), and cooperative tiles that do not split into 16 x 16
// fragments per subgroup; tiles that need more workgroup memory than
// shared-memory-bytes: the default 128 x 256 blocks need 38 KiB, which
// the 48 KiB cooperative-matrix assumes by default give them, lavapipe's
// 32 KiB do not (128 x 128 blocks fit).
// ENTRY: error: rlx-gpu-tile-matmul: unknown cooperative-matrix entry 'f32' (expected f16, bf16 or bf16-as-f16)
// ABI-ENTRY: error: 'gpu.module' op has an unknown cooperative-matrix entry 'fp8' (expected f16, bf16 or bf16-as-f16)
// VERSION: error: 'gpu.module' op uses cooperative matrices, which need SPIR-V 1.6 and CooperativeMatrixKHR; its target is #spirv.vce<v1.5,
// SHARED: error: rlx-gpu-tile-matmul: the cooperative tiles need 38912 bytes of workgroup memory, more than the target's shared-memory-bytes 32768
// TILES: error: rlx-gpu-tile-matmul: coop-tile-m 48 / coop-tile-n 256 / coop-tile-k 32 are not multiples of 16 x coop-subgroups-m 2 / 16 x coop-subgroups-n 4 / 16
func.func @mm(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>) -> tensor<64x64xf16> {
  %c = rlx.matmul %a, %b : tensor<64x32xf16>, tensor<32x64xf16>
  return %c : tensor<64x64xf16>
}
