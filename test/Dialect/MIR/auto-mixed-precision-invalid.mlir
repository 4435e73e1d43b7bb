// RUN: rm -rf %t && mkdir -p %t
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy=matmuls=bf16" 2>&1 | FileCheck %s --check-prefix=CATEGORY
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy=matmul=int8" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy=norm=follow" 2>&1 | FileCheck %s --check-prefix=FOLLOW
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy=matmul" 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy-file=%t/none.json" 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: echo '["matmul"]' > %t/list.json
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy-file=%t/list.json" 2>&1 | FileCheck %s --check-prefix=OBJECT
// RUN: echo '{"matmul": 16}' > %t/number.json
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy-file=%t/number.json" 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: echo '{"matmul": ' > %t/broken.json
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy-file=%t/broken.json" 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="loss-scale=0" 2>&1 | FileCheck %s --check-prefix=SCALE
// RUN: not rlx-opt %s --rlx-auto-mixed-precision="policy=conv=fp8" 2>&1 | FileCheck %s --check-prefix=FP8

// CATEGORY: error: rlx-auto-mixed-precision: unknown op category 'matmuls' (expected matmul, conv, attention, softmax, norm, reduction, loss or elementwise)
// TYPE: error: rlx-auto-mixed-precision: category 'matmul' has precision 'int8'; expected f32, f16, bf16 or f64 or fp8
// FOLLOW: error: rlx-auto-mixed-precision: category 'norm' has precision 'follow'; expected f32, f16, bf16 or f64
// PAIR: error: rlx-auto-mixed-precision: policy entry 'matmul' is not of the form category=precision
// NOFILE: error: rlx-auto-mixed-precision: cannot read policy file '{{.*}}none.json'
// OBJECT: error: rlx-auto-mixed-precision: policy file '{{.*}}list.json' must hold an object of category: precision
// STRING: error: rlx-auto-mixed-precision: policy file '{{.*}}number.json': the precision of 'matmul' must be a string
// JSON: error: rlx-auto-mixed-precision: policy file '{{.*}}broken.json' is not JSON
// SCALE: error: rlx-auto-mixed-precision: loss-scale must be positive, got 0
// FP8: error: rlx-auto-mixed-precision: category 'conv' has precision 'fp8', which only matmul takes
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %y : tensor<4x2xf32>
}
