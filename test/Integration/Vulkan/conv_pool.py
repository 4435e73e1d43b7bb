# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan %python %S/../conv_pool.py
# Convolutions and pooling, from ../conv_pool.py,
# on the Vulkan back end: each case compiled by rlx-compile --target=vulkan
# for the device's subgroup size and run by rlx-vulkan-run (lavapipe in
# CI) against the float64 reference, results poisoned first. Cases that
# need what the vulkan target lacks (dynamic shapes, complex values, f64
# math functions, unclaimed ops) are known failures there
# (rlxtest.target_limit).
#
# The padded cases check that the copy into a padded buffer and the
# conv or pool that reads it at neighbouring rows are not one kernel (the
# GPU front's row groups once fused them: a workgroup read rows other
# workgroups had not written yet).
