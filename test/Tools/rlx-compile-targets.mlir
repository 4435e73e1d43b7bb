// RUN: rlx-compile --list-targets | FileCheck %s
// RUN: not rlx-compile --target=tpu %s -o %t.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: rlx-compile --target=cpu --target-options="stream-stores=0" %s -o %t.o
// RUN: not rlx-compile --target=vulkan --target-options="no-such-option=1" %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BAD

// rlx-compile's targets are the target registry's: --list-targets prints
// each registered target with its output and, for a GPU target, the GPU
// front's description; an unknown target names the registered ones.
// --target-options gives any target's pipeline more options.
// CHECK:      cpu: this machine's CPU
// CHECK-NEXT:   output: object, entry points on host memrefs, static and dynamic shapes
// CHECK-NOT:    gpu:
// CHECK:      cuda: NVIDIA GPUs
// CHECK-NEXT:   output: object, entry points on device buffers, static shapes
// CHECK-NEXT:   gpu: subgroup 32, 1024 threads and 49152 bytes of shared memory a block, 16-byte accesses
// CHECK:      rocm: AMD GPUs
// CHECK-NEXT:   output: object, entry points on device buffers, static shapes
// CHECK-NEXT:   gpu: subgroup 64
// CHECK:      vulkan: Vulkan devices
// CHECK:      metal: Apple GPUs
// CHECK-NEXT:   output: source (.metal), entry points on device buffers, static and dynamic shapes
// CHECK-NEXT:   gpu: subgroup 32, 1024 threads and 32768 bytes of shared memory a block, 8-byte accesses
// UNKNOWN: rlx-compile: error: unknown target 'tpu' (registered: cpu, cuda, rocm, vulkan, metal)
// BAD: rlx-compile: error: bad --target-options
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = rlx.exp %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
