// RUN: echo '{"functions": [{"name": "f", "arguments": [{"type": "f32", "shape": [4], "bytes": 16}], "temporaries": [], "steps": [{"kind": "launch", "kernel": "KERNEL", "grid": [1, 1, 1], "threadgroup": [4, 1, 1], "buffers": [{"index": 0, "buffer": 0}]BUILTINS}]}]}' > %t.json
// RUN: sed -e 's/KERNEL/missing/' -e 's/BUILTINS//' %t.json > %t.missing.json
// RUN: not rlx-metal-cpu-run %s --host=%t.missing.json --output=%t.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: sed -e 's/KERNEL/grid_position/' -e 's/BUILTINS//' %t.json > %t.grid.json
// RUN: not rlx-metal-cpu-run %s --host=%t.grid.json --output=%t.npy 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: sed -e 's/KERNEL/lane/' -e 's/BUILTINS/, "builtins": ["threadgroup_position_in_grid"]/' %t.json > %t.lane.json
// RUN: not rlx-metal-cpu-run %s --host=%t.lane.json --output=%t.npy 2>&1 | FileCheck %s --check-prefix=BUILTINS

// rlx-metal-cpu-run calls each kernel with the buffers and builtins its
// signature names: a kernel that is not in the .metal files, a builtin the
// runner does not provide, and a host description whose builtins are not
// the signature's are errors before anything runs.

// MISSING: rlx-metal-cpu-run: error: no kernel missing in the .metal files
// GRID: rlx-metal-cpu-run: error: kernel grid_position: the runner has no builtin {{\[\[}}thread_position_in_grid]]
// BUILTINS: rlx-metal-cpu-run: error: the host description's builtins of lane are not its signature's

#include <metal_stdlib>
using namespace metal;

kernel void lane(device float *out [[buffer(0)]],
                 uint3 tid [[thread_position_in_threadgroup]]) {
  out[tid.x] = float(tid.x);
}

kernel void grid_position(device float *out [[buffer(0)]],
                          uint3 gid [[thread_position_in_grid]]) {
  out[gid.x] = 1.0f;
}
