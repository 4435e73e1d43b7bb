// A third of the ops of the MIR op tests, each alone, on the CPU and on
// the Vulkan device (lavapipe in CI) on the same fresh random inputs,
// compared (scripts/differential.py, docs/Testing.md): each agrees within
// its element type's tolerance, or the target stops at an error at the op
// (an op it does not claim, f64 math, complex values) or at a dynamic
// shape. The seed picks the third (--every=3), so that runs cover every
// op; it takes half a minute here, the whole sweep a minute and a half:
//   scripts/differential.py --rlx-run=build/bin/rlx-run \
//     --rlx-opt=build/bin/rlx-opt test/Dialect/MIR/*-ops.mlir
// The Vulkan bugs it found are the script's KNOWN_PROBLEMS.
// Not under the sanitizers: lavapipe is not instrumented and keeps
// allocations to the end, which LeakSanitizer reports. Not again through
// the plugin (`lit --param rlx_opt=plugin`): the script runs $RLX_OPT and
// $RLX_RUN, not the rlx-opt substitution, so it would repeat this run.
// REQUIRES: vulkan
// UNSUPPORTED: sanitizers, rlx-opt-plugin
// RUN: %python %rlx_src_root/scripts/differential.py --every=3 %rlx_src_root/test/Dialect/MIR/*-ops.mlir | FileCheck %s
// CHECK: differential cpu vs vulkan: {{[0-9]+}} agree, 0 disagree, {{[0-9]+}} skipped by target, {{[0-9]+}} skipped (inputs), 0 failed, {{[0-9]+}} known
