// REQUIRES: target-vulkan, vulkan
// UNSUPPORTED: sanitizers
// rlx-run --target=vulkan compiles the program (as rlx-compile
// --target=vulkan), links it with librlx_vulkan_runtime and runs it with
// rlx-vulkan-run in a child process (lavapipe loads LLVM 15): the same
// .npy inputs and outputs, report and --bench line as on the CPU. Its
// results match the CPU's to 1e-5 (f32; the GPU's matmul, GELU and RMS norm
// round differently). Random inputs from --seed are the CPU's too.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as n; r = n.random.default_rng(0); [n.save('%t/' + k + '.npy', r.standard_normal(s).astype(n.float32)) for k, s in (('x', (4, 16)), ('w', (16, 16)), ('b', (16,)), ('g', (16,)))]"
// RUN: rlx-run %s --input=%t/x.npy --input=%t/w.npy --input=%t/b.npy --input=%t/g.npy --output=%t/cpu.npy | FileCheck %s
// RUN: rlx-run --target=vulkan %s --input=%t/x.npy --input=%t/w.npy --input=%t/b.npy --input=%t/g.npy --output=%t/vulkan.npy --bench=3 | FileCheck %s --check-prefixes=CHECK,BENCH
// RUN: %python -c "import numpy as n; a = n.load('%t/cpu.npy'); b = n.load('%t/vulkan.npy'); assert b.shape == (4, 16) and b.dtype == n.float32, b.shape; assert n.allclose(a, b, rtol=1e-5, atol=1e-5), abs(a - b).max()"
// RUN: rlx-run %s --seed=7 --output=%t/cpu7.npy | FileCheck %s
// RUN: rlx-run --target=vulkan %s --seed=7 --output=%t/vulkan7.npy | FileCheck %s
// RUN: %python -c "import numpy as n; a = n.load('%t/cpu7.npy'); b = n.load('%t/vulkan7.npy'); assert n.allclose(a, b, rtol=1e-5, atol=1e-5), abs(a - b).max()"

// The errors of the inputs are the CPU's.
// RUN: not rlx-run --target=vulkan %s --input=%t/w.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not rlx-run %s --input=%t/w.npy 2>&1 | FileCheck %s --check-prefix=SHAPE

// --list-devices: what each target runs on.
// RUN: rlx-run --list-devices | FileCheck %s --check-prefix=DEVICES

// CHECK:      result #0: f4 [4, 16] checksum
// BENCH-NEXT: bench: 3 runs, median {{[0-9]+\.[0-9]+}} ms, min {{[0-9]+\.[0-9]+}} ms
// CHECK-NOT:  result #

// SHAPE: rlx-run: error: argument #0 expects tensor<4x16xf32> (npy dtype 'f4'), but '{{.*}}w.npy' holds dtype 'f4' of shape [16, 16]

// DEVICES-DAG: cpu: this machine
// DEVICES-DAG: vulkan: {{.+}}, subgroup size {{[0-9]+}} (rlx-vulkan-run)

func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>,
                 %b: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %h0 = rlx.matmul %x, %w : tensor<4x16xf32>, tensor<16x16xf32>
  %h1 = rlx.add %h0, %b : tensor<4x16xf32>, tensor<16xf32>
  %h = rlx.gelu %h1 : tensor<4x16xf32>
  %r = rlx.add %h, %x : tensor<4x16xf32>, tensor<4x16xf32>
  %y = rlx.rms_norm %r, %g : tensor<4x16xf32>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}
