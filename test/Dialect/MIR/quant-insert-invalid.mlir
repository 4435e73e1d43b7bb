// RUN: rm -rf %t && mkdir -p %t
// RUN: not rlx-opt %s --rlx-quant-insert 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"format": "rlx-calibration", "version": 1, "taps": {' > %t/bad.json
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/bad.json" 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: echo '{"format": "other", "version": 1, "taps": {}}' > %t/fmt.json
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/fmt.json" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: echo '{"format": "rlx-calibration", "version": 1, "taps": {"f/matmul0/lhs": {"axis": null, "min": [2.0], "max": [1.0]}}}' > %t/order.json
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/order.json" 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: echo '{"format": "rlx-calibration", "version": 1, "taps": {"f/matmul7/lhs": {"axis": null, "min": [0.0], "max": [1.0]}}}' > %t/name.json
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/name.json" 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: echo '{"format": "rlx-calibration", "version": 1, "taps": {"f/matmul0/rhs": {"axis": 1, "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 1.0]}}}' > %t/channels.json
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/channels.json" 2>&1 | FileCheck %s --check-prefix=CHANNELS
// RUN: echo '{"format": "rlx-calibration", "version": 1, "taps": {"f/matmul0/rhs": {"axis": null, "min": [0.0], "max": [1.0]}}}' > %t/axis.json
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/axis.json" 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: not rlx-opt %s --rlx-quant-insert="record=%t/axis.json method=best" 2>&1 | FileCheck %s --check-prefix=METHOD

// NONE: error: rlx-quant-insert needs a calibration record (record=FILE)
// MISSING: error: rlx-quant-insert: cannot read calibration record '{{.*}}missing.json'
// JSON: error: rlx-quant-insert: calibration record '{{.*}}bad.json' is not JSON
// FORMAT: error: rlx-quant-insert: '{{.*}}fmt.json' is not an rlx calibration record
// ORDER: error: rlx-quant-insert: tap "f/matmul0/lhs" of '{{.*}}order.json': min 2.000000e+00 exceeds max 1.000000e+00 at channel 0
// NAME: error: calibration record '{{.*}}name.json' names tap "f/matmul7/lhs", which no function of the module has
// CHANNELS: quant-insert-invalid.mlir:[[@LINE+6]]:8: error: tap "f/matmul0/rhs" has 2 channel(s) but the calibration record gives 3
// AXIS: quant-insert-invalid.mlir:[[@LINE+5]]:8: error: tap "f/matmul0/rhs" has channel axis 1 but the calibration record gives none (per tensor)
// METHOD: error: rlx-quant-insert: method must be minmax, percentile or mse, got 'best'

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %w = rlx.param "w" : tensor<8x2xf32>
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %y : tensor<4x2xf32>
}
