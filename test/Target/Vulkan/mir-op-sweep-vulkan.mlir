// Every function of the MIR op tests, alone, through --rlx-vulkan-pipeline
// for NVIDIA's 32-lane subgroups and lavapipe's 8: each compiles to SPIR-V
// modules or ends in an error at an op of the input naming it (an op
// vulkan does not claim, a dynamic shape, f64 math); never a crash or an
// error without a location.
// RUN: %python %rlx_src_root/scripts/pipeline-sweep.py --pipeline='rlx-vulkan-pipeline' --pipeline='rlx-vulkan-pipeline{subgroup-size=8}' %rlx_src_root/test/Dialect/MIR/*-ops.mlir | FileCheck %s
// CHECK-DAG: rlx-vulkan-pipeline: {{[0-9]+}} compiled, {{[0-9]+}} diagnosed, 0 failed
// CHECK-DAG: rlx-vulkan-pipeline{subgroup-size=8}: {{[0-9]+}} compiled, {{[0-9]+}} diagnosed, 0 failed
