// RUN: rlx-compile --target=metal %s -o %t.metal
// RUN: FileCheck %s --check-prefix=MSL < %t.metal
// RUN: FileCheck %s --check-prefix=HOST < %t.metal.json
// RUN: rlx-compile --target=metal %s -o %t.metal --host-description=%t.host.json
// RUN: FileCheck %s --check-prefix=HOST < %t.host.json
// RUN: not rlx-compile --target=metal %s -o %t.metal --header=%t.h 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not rlx-compile --target=metal %S/Inputs/f64.mlir -o %t.f64.metal 2>&1 | FileCheck %s --check-prefix=F64

// rlx-compile --target=metal writes the MSL and, beside it, the host
// description; the unsigned element types of the source signature survive
// in it (bufferization makes them signless).

// The kernel's bytes are signless (char); the cast reads them unsigned.
// MSL: kernel void scale_kernel_scale_kernel(const device char* arg0
// MSL: float(uchar(
// HOST: "arguments": [
// HOST: "type": "ui8"
// HOST: "type": "f32"
// HOST: "type": "f32"
// HOST: "name": "scale",
func.func @scale(%q: tensor<4x16xui8>, %s: tensor<16xf32>) -> tensor<4x16xf32> {
  %f = rlx.cast %q : tensor<4x16xui8> -> tensor<4x16xf32>
  %y = rlx.mul %f, %s : tensor<4x16xf32>, tensor<16xf32>
  %z = rlx.softmax %y axis = 1 : tensor<4x16xf32>
  return %z : tensor<4x16xf32>
}

// HEADER: rlx-compile: error: --target=metal writes no C header (the host description is JSON)
// F64: error: 'gpu.func' op type 'f64' has no MSL equivalent
