// RUN: rlx-compile --list-targets | FileCheck %s --check-prefixes=CHECK%if target-cuda %{,CUDA%}%if target-rocm %{,ROCM%}%if target-vulkan %{,VULKAN%}%if target-metal %{,METAL%}
// RUN: not rlx-compile --target=tpu %s -o %t.o 2>&1 | FileCheck %s -DTARGETS="%rlx_targets" --check-prefix=UNKNOWN
// RUN: rlx-compile --target=cpu --target-options="stream-stores=0" %s -o %t.o
// RUN: %if target-vulkan %{ not rlx-compile --target=vulkan --target-options="no-such-option=1" %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BAD %}

// rlx-compile's targets are the target registry's: --list-targets prints
// each registered target (those the build has) with its output and, for a
// GPU target, the GPU front's description; an unknown target names the
// registered ones. --target-options gives any target's pipeline more
// options.
// CHECK:      cpu: this machine's CPU
// CHECK-NEXT:   output: object, entry points on host memrefs, static and dynamic shapes
// CHECK-NOT:    gpu:
// CUDA:       cuda: NVIDIA GPUs
// CUDA-NEXT:    output: object, entry points on device buffers, static shapes
// CUDA-NEXT:    gpu: subgroup 32, 1024 threads and 49152 bytes of shared memory a block, 16-byte accesses
// ROCM:       rocm: AMD GPUs
// ROCM-NEXT:    output: object, entry points on device buffers, static shapes
// ROCM-NEXT:    gpu: subgroup 64
// VULKAN:     vulkan: Vulkan devices
// METAL:      metal: Apple GPUs
// METAL-NEXT:   output: source (.metal), entry points on device buffers, static and dynamic shapes
// METAL-NEXT:   gpu: subgroup 32, 1024 threads and 32768 bytes of shared memory a block, 8-byte accesses
// UNKNOWN: rlx-compile: error: unknown target 'tpu' (registered: [[TARGETS]])
// BAD: rlx-compile: error: bad --target-options
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = rlx.exp %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
