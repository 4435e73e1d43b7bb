# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan RLX_TEST_KNOWN_FAILURES=atan/f32/special,atan/f16/special,exp/f32/range,fma/bf16 %python %S/../elementwise.py
# Elementwise ops, cmp, where, fma and regions, from ../elementwise.py,
# on the Vulkan back end: each case compiled by rlx-compile --target=vulkan
# for the device's subgroup size and run by rlx-vulkan-run (lavapipe in
# CI) against the float64 reference, results poisoned first. Cases that
# need what the vulkan target lacks (dynamic shapes, complex values, f64
# math functions, unclaimed ops) are known failures there
# (rlxtest.target_limit).
#
# Known failures (RLX_TEST_KNOWN_FAILURES): lavapipe's atan of NaN is 0
# (GLSL.std.450 promises nothing for NaN; the special cases want NaN);
# exp near the smallest normals is off by about 4e-6 relative, within
# Vulkan's bound for exp (3 + 2|x| ULP) but not the case's 2e-7; math.fma
# on bf16 is not widened to f32 by upstream math-extend-to-supported-types,
# so it reaches the SPIR-V conversion as bf16 and fails to legalize.
