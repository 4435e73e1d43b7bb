# DEFINE: %{padded}=conv2d/f32/depthwise,conv2d/f32/pad_only_lo,pool2d/max/f32/k3_s1_p1,pool2d/max/f16/k3_s1_p1,pool2d/max/bf16/k3_s1_p1,pool1d/max/f32/k3_s1_p1,pool2d/avg/f32/k3_s1_p1,pool2d/avg/f16/k3_s1_p1,pool2d/avg/bf16/k3_s1_p1,pool1d/avg/f32/k3_s1_p1
# RUN: env RLX_RUN=%S/Inputs/metal-run RLX_TEST_TARGET=metal RLX_TEST_KNOWN_FAILURES=%{padded} %python %S/../conv_pool.py
# Convolutions and pooling, from ../conv_pool.py,
# on the Metal back end: each case compiled by rlx-compile --target=metal
# and run by rlx-metal-cpu-run against the float64 reference. Cases that
# need what Metal lacks (double, complex, dynamic shapes, host loops) are
# known failures there (rlxtest.target_limit).
#
# Known failures (RLX_TEST_KNOWN_FAILURES): the GPU front fuses the copy
# into a padded buffer with the padded conv or pool that reads it, in one
# kernel: a threadgroup reads the neighbours that other threadgroups write,
# with nothing ordering them (a race on any GPU; here threadgroups run in
# order, so the reads see the fill). A GPU-front bug, CUDA's too.
