// rlx-run binds arguments and results to files (RLX/Tools/ArgumentBinding.h,
// ProgramRuns.h); these are its errors that the Integration suites
// (params.py, bad-input.py) do not reach, each naming what it was binding.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not rlx-run %s 2>&1 | FileCheck %s --check-prefix=NOMAIN
// RUN: not rlx-run %s --entry=add --param=b=%t/absent.npy 2>&1 | FileCheck %s --check-prefix=PARAMFILE
// RUN: not rlx-run %s --entry=add --param=c=%t/absent.npy 2>&1 | FileCheck %s --check-prefix=NOPARAM
// RUN: not rlx-run %s --entry=add --output=%t/no/such/dir/r.npy > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=UNWRITABLE < %t/err
// RUN: FileCheck %s --check-prefix=PRINTED < %t/out
// RUN: rlx-run %s --entry=add --seed=1 --output=%t/r.npy | FileCheck %s --check-prefix=PRINTED
// RUN: %python -c "import numpy as n; a = n.load('%t/r.npy'); assert a.dtype == n.float32 and a.shape == (2,), a"

// NOMAIN: rlx-run: error: no 'main' and not exactly one public function; name one with --entry
// PARAMFILE: rlx-run: error: param "b" (argument #1): cannot open '{{.*}}absent.npy'
// NOPARAM: rlx-run: error: --param=c={{.*}}absent.npy: @add has no rlx.param "c" (its params: b)
// UNWRITABLE: rlx-run: error: cannot write '{{.*}}r.npy'
// PRINTED: result #0: f4 [2] checksum

func.func @add(%x: tensor<2xf32>) -> tensor<2xf32> {
  %b = rlx.param "b" : tensor<2xf32>
  %y = rlx.add %x, %b : tensor<2xf32>, tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @copy(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
