// REQUIRES: target-vulkan
// RUN: rlx-compile --target=vulkan "--vulkan-options=subgroup-size=32 tiled-matmul=false" %s -o %t.o --gpu-binaries=%t.spv --host-description=%t.json
// RUN: FileCheck %s < %t.json
// RUN: ls %t.spv | FileCheck %s --check-prefix=SPV
// RUN: not rlx-compile --target=cpu %s -o %t.cpu.o --host-description=%t.cpu.json 2>&1 | FileCheck %s --check-prefix=CPU

// rlx-compile --target=vulkan --host-description: the Vulkan program's
// launches in the Metal host description's JSON, for running SPIRV-Cross's
// MSL of its SPIR-V modules (rlx-metal-cpu-run --spirv-cross). Each kernel
// is named <module>_<entry point>, the module's .spv file and entry point;
// no launch lists MSL builtins; the async tokens leave the steps in order;
// the temporary read as vectors (rlx-vulkan-vector-buffers) binds its
// buffer; the source's unsigned type survives. (The matmul is the
// front's generic kernel, tiled-matmul=false, whose bindings are listed.)

// CHECK: "arguments": [
// CHECK: "type": "ui8"
// CHECK: "name": "layer",
// CHECK-NOT: "builtins"
// The cast, into the temporary (buffer 4).
// CHECK: "buffer": 0,
// CHECK-NEXT: "index": 0
// CHECK: "buffer": 4,
// CHECK-NEXT: "index": 1
// CHECK: "kernel": "layer_kernel_layer_kernel",
// CHECK: "kernel": "layer_kernel_0_layer_kernel",
// The matmul, from the temporary into the result (buffer 3).
// CHECK: "buffer": 3,
// CHECK-NEXT: "index": 0
// CHECK: "buffer": 4,
// CHECK-NEXT: "index": 1
// CHECK: "buffer": 1,
// CHECK-NEXT: "index": 2
// CHECK: "kernel": "layer_kernel_1_layer_kernel",
// The norm, on the result read as vectors: its buffer.
// CHECK: "buffer": 3,
// CHECK-NEXT: "index": 0
// CHECK: "buffer": 2,
// CHECK-NEXT: "index": 1
// CHECK: "grid": [
// CHECK-NEXT: 4,
// CHECK: "kernel": "layer_kernel_2_layer_kernel",
// CHECK: "temporaries": [
// CHECK-NEXT: {
// CHECK-NEXT: "bytes": 256

// SPV: layer_kernel.spv
// SPV: layer_kernel_0.spv
// SPV: layer_kernel_1.spv
// SPV: layer_kernel_2.spv

// CPU: rlx-compile: error: --host-description is for --target=metal and --target=vulkan
func.func @layer(%q: tensor<4x16xui8>, %w: tensor<16x16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %x = rlx.cast %q : tensor<4x16xui8> -> tensor<4x16xf32>
  %h = rlx.matmul %x, %w : tensor<4x16xf32>, tensor<16x16xf32>
  %y = rlx.rms_norm %h, %g : tensor<4x16xf32>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}
