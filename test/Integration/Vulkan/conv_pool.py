# DEFINE: %{padded}=conv2d/f32/depthwise,conv2d/f32/pad_only_lo,pool2d/max/f32/k3_s1_p1,pool2d/max/f16/k3_s1_p1,pool2d/max/bf16/k3_s1_p1,pool1d/max/f32/k3_s1_p1,pool2d/avg/f32/k3_s1_p1,pool2d/avg/f16/k3_s1_p1,pool2d/avg/bf16/k3_s1_p1,pool1d/avg/f32/k3_s1_p1,pool2d/max/f64/k3_s1_p1,pool2d/avg/f64/k3_s1_p1
# RUN: env RLX_RUN=%S/Inputs/vulkan-run RLX_TEST_TARGET=vulkan RLX_TEST_KNOWN_FAILURES=%{padded} %python %S/../conv_pool.py
# Convolutions and pooling, from ../conv_pool.py,
# on the Vulkan back end: each case compiled by rlx-compile --target=vulkan
# for the device's subgroup size and run by rlx-vulkan-run (lavapipe in
# CI) against the float64 reference, results poisoned first. Cases that
# need what the vulkan target lacks (dynamic shapes, complex values, f64
# math functions, unclaimed ops) are known failures there
# (rlxtest.target_limit).
#
# Known failures (RLX_TEST_KNOWN_FAILURES): the GPU front fuses the copy
# into a padded buffer with the padded conv or pool that reads it, in one
# kernel: a workgroup reads the neighbours that other workgroups write,
# with nothing ordering them (a race on any GPU, seen on lavapipe; the
# same cases are Metal's known failures). A GPU-front bug, CUDA's too.
