// REQUIRES: target-vulkan
// rlx-run --target=X's failures before anything runs on a device: each is
// a diagnostic and a non-zero exit (no Vulkan device needed).

// An unregistered target, and --target-options on the CPU.
// RUN: not rlx-run --target=tpu %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not rlx-run --target-options=x=1 %s 2>&1 | FileCheck %s --check-prefix=CPUOPTS
// UNKNOWN: rlx-run: error: unknown target 'tpu' (registered: {{.*}}vulkan{{.*}})
// CPUOPTS: rlx-run: error: --target-options is for GPU targets; --cpu-options takes the CPU pipeline's

// The CPU's flags.
// RUN: not rlx-run --target=vulkan --blas --param=w=x.npy %s 2>&1 | FileCheck %s --check-prefix=CPUONLY
// CPUONLY: rlx-run: error: --param, --blas only with --target=cpu

// No runner, and no `cc` to link with.
// RUN: not env RLX_VULKAN_RUN=%t.none rlx-run --target=vulkan %s 2>&1 | FileCheck %s --check-prefix=NORUNNER
// RUN: not env PATH=%t.none rlx-run --target=vulkan %s 2>&1 | FileCheck %s --check-prefix=NOCC
// NORUNNER: rlx-run: error: --target=vulkan: no runner: '{{.*}}.none' is not an executable (set RLX_VULKAN_RUN to rlx-vulkan-run's path)
// NOCC: rlx-run: error: --target=vulkan: no C compiler 'cc' on PATH to link the program with librlx_vulkan_runtime.so

// Dynamic shapes, and more inputs than arguments (the CPU's message).
// RUN: not rlx-run --target=vulkan --entry=dynamic %s 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not rlx-run --target=vulkan %s --input=a.npy --input=b.npy 2>&1 | FileCheck %s --check-prefix=INPUTS
// DYNAMIC: rlx-run: error: --target=vulkan: @dynamic's argument #0 is tensor<?x4xf32>; a GPU target runs static tensor shapes only
// INPUTS: rlx-run: error: 2 inputs given but @main takes 1 arguments

// A program the target does not claim: the compiler's diagnostic at the op
// (for the subgroup size of lavapipe, asked of no device).
// RUN: not env RLX_VULKAN_SUBGROUP_SIZE=8 rlx-run --target=vulkan --entry=unclaimed %s 2>&1 | FileCheck %s --check-prefix=UNCLAIMED
// UNCLAIMED: rlx-run-target-errors.mlir:[[# @LINE + 13]]:{{[0-9]+}}: error: 'rlx.cumsum' is not supported by target 'vulkan'

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = rlx.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = rlx.exp %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

func.func @unclaimed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = rlx.cumsum %x axis = 0 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
