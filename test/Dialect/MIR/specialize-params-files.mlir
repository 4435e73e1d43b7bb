// --rlx-specialize-params binds params to safetensors and GGUF tensors
// (files written by test/Tools/Inputs/weight_files.py: w f32 [2, 4] =
// 0..7, h its f16, q Q4_0 [2, 256]); specialize-params-files-invalid.mlir
// has the bad bindings.
// RUN: rm -rf %t && %python %S/../../Tools/Inputs/weight_files.py %t
// RUN: rlx-opt %s --rlx-specialize-params="files=%t/w.safetensors,%t/w.gguf map=x=h" | FileCheck %s
// RUN: not rlx-opt %s --rlx-specialize-params="files=%t/magic.gguf" 2>&1 | FileCheck %s --check-prefix=BADFILE
// RUN: not rlx-opt %s --rlx-specialize-params="files=%t/w.gguf map=x" 2>&1 | FileCheck %s --check-prefix=BADMAP
// RUN: not rlx-opt %s --rlx-specialize-params 2>&1 | FileCheck %s --check-prefix=NOFILES

// BADFILE: error: rlx-specialize-params: '{{.*}}magic.gguf' (GGUF): bad magic: the file does not start with "GGUF"
// BADMAP: error: rlx-specialize-params: bad param rename 'x': expected PARAM=TENSOR
// NOFILES: error: rlx-specialize-params needs dir=PATH or files=PATHS to bind param "w"

// The first file holding a name wins (w from the safetensors file); x is
// renamed to h; q's packed Q4_0 rows come from the GGUF file.
// CHECK-LABEL: func.func @bind
// CHECK-DAG:     rlx.constant dense<{{\[}}[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]]> : tensor<2x4xf32>
// CHECK-DAG:     rlx.constant dense<{{\[}}[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]]> : tensor<2x4xf16>
// CHECK-DAG:     rlx.constant dense<"0x000102{{.*}}"> : tensor<2x144xui8>
// CHECK-NOT:     rlx.param
func.func @bind(%x1: tensor<1x256xf32>) -> (tensor<2x4xf32>, tensor<2x4xf16>, tensor<1x2xf32>) {
  %w = rlx.param "w" : tensor<2x4xf32>
  %h = rlx.param "x" : tensor<2x4xf16>
  %q = rlx.param "q" : tensor<2x144xui8>
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_0> %x1, %q : tensor<1x256xf32>, tensor<2x144xui8>
  return %w, %h, %y : tensor<2x4xf32>, tensor<2x4xf16>, tensor<1x2xf32>
}
