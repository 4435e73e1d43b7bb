# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan RLX_TEST_KNOWN_FAILURES='cast/f64->bf16,cast/bf16->f64' %python %S/../casts.py
# Casts between element types and constants, from ../casts.py,
# on the Vulkan back end: each case compiled by rlx-compile --target=vulkan
# for the device's subgroup size and run by rlx-vulkan-run (lavapipe in
# CI) against the float64 reference, results poisoned first. Cases that
# need what the vulkan target lacks (dynamic shapes, complex values, f64
# math functions, unclaimed ops) are known failures there
# (rlxtest.target_limit).
#
# Known failures (RLX_TEST_KNOWN_FAILURES): arith-expand's bf16
# conversions take f32 only, so an f64 <-> bf16 cast reaches the SPIR-V
# conversion as a bf16 value (a 32-bit float there) bitcast to 16 bits.
