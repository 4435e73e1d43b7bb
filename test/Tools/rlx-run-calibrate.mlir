// rlx-run --calibrate: the record it writes (structure; the numbers are
// checked against NumPy by test/Integration/calibrate.py), and each way its
// options and calibration data can be wrong.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_calibration_batches.py %t
// RUN: rlx-run %s --calibrate=%t/rec.json --calibration-data=%t/good | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REC < %t/rec.json

// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/absent 2>&1 | FileCheck %s --check-prefix=ABSENT
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/file 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/extra 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/shape 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/nan 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not rlx-run %S/Inputs/calibrate-dynamic.mlir --calibrate=%t/r.json --calibration-data=%t/no-rows 2>&1 | FileCheck %s --check-prefix=NOROWS
// RUN: not rlx-run %s --calibrate=%t/no/such/dir/r.json --calibration-data=%t/good 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not rlx-run %s --calibrate=%t/r.json 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/good --input=%t/good/b0/arg0.npy 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not rlx-run %s --calibrate=%t/r.json --calibration-data=%t/good --percentile=20 2>&1 | FileCheck %s --check-prefix=PERCENTILE
// RUN: not rlx-run %s --entry=plain --calibrate=%t/r.json --calibration-data=%t/good 2>&1 | FileCheck %s --check-prefix=NOTAP
// RUN: test ! -e %t/r.json

// OUT: calibrated 4 taps on 3 batches into '{{.*}}rec.json'

// An activation: one range, axis null; every method present.
// REC:      "batches": 3,
// REC-NEXT: "format": "rlx-calibration",
// REC-NEXT: "taps": {
// REC-NEXT:   "main/matmul0/lhs": {
// REC-NEXT:     "axis": null,
// REC-NEXT:     "max": [
// REC-NEXT:       {{[-0-9.e+]+$}}
// REC-NEXT:     ],
// REC-NEXT:     "min": [
// REC-NEXT:       {{[-0-9.e+]+$}}
// REC-NEXT:     ],
// REC-NEXT:     "mse": {
// REC-NEXT:       "max": [
// REC-NEXT:         {{[-0-9.e+]+$}}
// REC-NEXT:       ],
// REC-NEXT:       "min": [
// REC-NEXT:         {{[-0-9.e+]+$}}
// REC-NEXT:       ]
// REC-NEXT:     },
// REC-NEXT:     "percentile": {
// REC-NEXT:       "max": [
// REC-NEXT:         {{[-0-9.e+]+$}}
// REC-NEXT:       ],
// REC-NEXT:       "min": [
// REC-NEXT:         {{[-0-9.e+]+$}}
// REC-NEXT:       ]
// REC-NEXT:     }
// REC-NEXT:   },
// An argument is an activation too.
// REC-NEXT:   "main/matmul0/rhs": {
// REC-NEXT:     "axis": null,
// REC:        "main/matmul1/lhs": {
// REC-NEXT:     "axis": null,
// A weight (an rlx.param): one range per output channel, along axis 1.
// REC:        "main/matmul1/rhs": {
// REC-NEXT:     "axis": 1,
// REC-NEXT:     "max": [
// REC-NEXT:       {{[-0-9.e+]+}},
// REC-NEXT:       {{[-0-9.e+]+$}}
// REC-NEXT:     ],
// REC-NEXT:     "min": [
// REC-NEXT:       {{[-0-9.e+]+}},
// REC-NEXT:       {{[-0-9.e+]+$}}
// REC-NEXT:     ],
// REC-NEXT:     "mse": {
// REC-NEXT:       "max": [
// REC-NEXT:         {{[-0-9.e+]+}},
// REC-NEXT:         {{[-0-9.e+]+$}}
// REC-NEXT:       ],
// REC-NEXT:       "min": [
// REC-NEXT:         {{[-0-9.e+]+}},
// REC-NEXT:         {{[-0-9.e+]+$}}
// REC-NEXT:       ]
// REC-NEXT:     },
// REC-NEXT:     "percentile": {
// REC:      "version": 1

// ABSENT: rlx-run: error: cannot read calibration data '{{.*}}absent': No such file or directory
// FILE: rlx-run: error: calibration data '{{.*}}file' is not a directory
// EMPTY: rlx-run: error: calibration data '{{.*}}empty' holds no batch (one subdirectory per batch, each with arg0.npy, arg1.npy, ...)
// MISSING: rlx-run: error: calibration batch '{{.*}}missing{{/|\\}}b1' lacks arg1.npy (the entry function takes 2 arguments)
// EXTRA: rlx-run: error: calibration batch '{{.*}}extra{{/|\\}}b0' holds arg2.npy (the entry function takes 2 arguments)
// SHAPE: rlx-run: error: argument #0 expects tensor<4x8xf32> (npy dtype 'f4'), but '{{.*}}arg0.npy' holds dtype 'f4' of shape [4, 9]
// NAN: rlx-run: error: quantization tap "main/matmul0/lhs" cannot be calibrated: it holds a NaN or infinite value (batch of '{{.*}}nan{{/|\\}}b0{{/|\\}}arg0.npy')
// NOROWS: rlx-run: error: quantization tap "dynamic/matmul0/lhs" cannot be calibrated: it has no elements (batch of '{{.*}}arg0.npy')
// UNWRITABLE: rlx-run: error: cannot write calibration record '{{.*}}r.json': No such file or directory
// ALONE: rlx-run: error: --calibrate and --calibration-data go together
// INPUT: rlx-run: error: --calibrate reads its inputs from --calibration-data and takes no --input, --output or --bench
// PERCENTILE: rlx-run: error: --percentile=20 is not in (50, 100]
// NOTAP: rlx-run: error: --calibrate: @plain has no quantization tap (a float operand of rlx.matmul or rlx.conv outside nested regions, in a public function)

func.func @main(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>) -> tensor<4x2xf32> {
  %h0 = rlx.matmul %x, %y : tensor<4x8xf32>, tensor<8x3xf32>
  %h = rlx.tanh %h0 : tensor<4x3xf32>
  %w = rlx.param "w" : tensor<3x2xf32>
  %z = rlx.matmul %h, %w : tensor<4x3xf32>, tensor<3x2xf32>
  return %z : tensor<4x2xf32>
}

func.func @plain(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>) -> tensor<4x8xf32> {
  %z = rlx.tanh %x : tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
