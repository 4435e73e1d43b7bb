// REQUIRES: rocm-device-libs
// Every function of the MIR op tests, alone, through --rlx-rocm-pipeline
// for gfx1100: each compiles to a code object or ends in an error at an op of
// the input naming it (an op rocm does not claim, a dynamic shape); never
// a crash or an error without a location.
// RUN: %python %rlx_src_root/scripts/pipeline-sweep.py --pipeline='rlx-rocm-pipeline{chip=gfx1100}' %rlx_src_root/test/Dialect/MIR/*-ops.mlir | FileCheck %s
// CHECK: rlx-rocm-pipeline{chip=gfx1100}: {{[0-9]+}} compiled, {{[0-9]+}} diagnosed, 0 failed
