# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan %python %S/../attention.py
# Attention (masks, grouped heads), from ../attention.py,
# on the Vulkan back end: each case compiled by rlx-compile --target=vulkan
# for the device's subgroup size and run by rlx-vulkan-run (lavapipe in
# CI) against the float64 reference, results poisoned first. Cases that
# need what the vulkan target lacks (dynamic shapes, complex values, f64
# math functions, unclaimed ops) are known failures there
# (rlxtest.target_limit).
