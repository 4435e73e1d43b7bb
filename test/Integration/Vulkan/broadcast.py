# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan RLX_TEST_KNOWN_FAILURES=pow/f32/special %python %S/../broadcast.py
# Binary ops under broadcasting, from ../broadcast.py,
# on the Vulkan back end: each case compiled by rlx-compile --target=vulkan
# for the device's subgroup size and run by rlx-vulkan-run (lavapipe in
# CI) against the float64 reference, results poisoned first. Cases that
# need what the vulkan target lacks (dynamic shapes, complex values, f64
# math functions, unclaimed ops) are known failures there
# (rlxtest.target_limit).
#
# Known failure (RLX_TEST_KNOWN_FAILURES): GLSL.std.450 Pow is undefined
# for x < 0 and for x = 0 with y <= 0; lavapipe gives NaN where IEEE pow
# gives 1 or a signed result (pow(-2, 0), pow(-2, 3)).
