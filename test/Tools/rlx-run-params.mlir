// rlx-run --params binds rlx.param names to safetensors and GGUF tensors;
// what the files or names get wrong ends in an error naming the param, the
// file and both types, never a crash. The files are written by
// Inputs/weight_files.py (w: f32 [2, 4] = 0..7, h: its f16; q: Q4_0 [2, 256]).
// RUN: rm -rf %t && %python %S/Inputs/weight_files.py %t
// RUN: rlx-run %s --params=%t/w.safetensors | FileCheck %s --check-prefix=GOOD
// RUN: rlx-run %s --params=%t/w.gguf | FileCheck %s --check-prefix=GOOD
// RUN: rlx-run %S/Inputs/params-half.mlir --params=%t/w.safetensors --param-map=w=h --output=%t/h.npy
// RUN: %python -c "import numpy as n; a = n.load('%t/h.npy'); assert a.dtype == n.float16 and (a == n.arange(8).reshape(2, 4)).all(), a"
// RUN: not rlx-run %s --params=%t/w.safetensors --param-map=w=nope 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not rlx-run %S/Inputs/params-wrong-shape.mlir --params=%t/w.safetensors 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not rlx-run %s --params=%t/w.safetensors --param-map=w=h 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not rlx-run %s --params=%t/truncated.safetensors 2>&1 | FileCheck %s --check-prefix=TRUNC-ST
// RUN: not rlx-run %s --params=%t/truncated.gguf 2>&1 | FileCheck %s --check-prefix=TRUNC-GGUF
// RUN: not rlx-run %s --params=%t/header-cut.gguf 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: not rlx-run %s --params=%t/magic.gguf 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: not rlx-run %s --params=%t/nothere.gguf 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not rlx-run %S/Inputs/params-q4-k.mlir --params=%t/w.gguf 2>&1 | FileCheck %s --check-prefix=SCHEME
// RUN: not rlx-run %S/Inputs/params-q-f32.mlir --params=%t/w.gguf 2>&1 | FileCheck %s --check-prefix=QTYPE
// RUN: not rlx-run %s --param-map=w=h 2>&1 | FileCheck %s --check-prefix=NOPARAMS

// GOOD: result #0: f4 [2, 4] checksum 28
// MISSING: error: param "w": no tensor "nope" in '{{.*}}w.safetensors'
// SHAPE: error: param "w" of type 'tensor<4x2xf32>' cannot bind tensor "w" of '{{.*}}w.safetensors' (safetensors): F32 [2, 4]
// DTYPE: error: param "w" of type 'tensor<2x4xf32>' cannot bind tensor "h" of '{{.*}}w.safetensors' (safetensors): F16 [2, 4]
// TRUNC-ST: rlx-run: error: '{{.*}}truncated.safetensors' (safetensors): truncated: tensor "h"'s data_offsets do not lie within the 44 data bytes
// TRUNC-GGUF: rlx-run: error: '{{.*}}truncated.gguf' (GGUF): truncated: tensor "q" (288 bytes at offset 32) ends past the 310 data bytes
// CUT: rlx-run: error: '{{.*}}header-cut.gguf' (GGUF): truncated: metadata #0 key ends past the end of the file
// MAGIC: rlx-run: error: '{{.*}}magic.gguf' (GGUF): bad magic: the file does not start with "GGUF"
// NOFILE: rlx-run: error: cannot read '{{.*}}nothere.gguf': {{.+}}
// SCHEME: error: param "q" of type 'tensor<2x144xui8>' cannot bind tensor "q" of '{{.*}}w.gguf' (GGUF): Q4_0 [2, 256] (packed as ui8 [2, 144]), which is scheme gguf_q4_0, not the gguf_q4_k of its rlx.dequant_matmul
// SCHEME: note: used here
// QTYPE: error: param "q" of type 'tensor<2x256xf32>' cannot bind tensor "q" of '{{.*}}w.gguf' (GGUF): Q4_0 [2, 256] (packed as ui8 [2, 144])
// NOPARAMS: rlx-run: error: --param-map needs --params

func.func @main() -> tensor<2x4xf32> {
  %w = rlx.param "w" : tensor<2x4xf32>
  return %w : tensor<2x4xf32>
}
