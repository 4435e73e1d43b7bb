# RUN: env RLX_RUN=%S/Inputs/metal-run RLX_TEST_TARGET=metal %python %S/../attention.py
# Attention (masks, grouped heads), from ../attention.py,
# on the Metal back end: each case compiled by rlx-compile --target=metal
# and run by rlx-metal-cpu-run against the float64 reference. Cases that
# need what Metal lacks (double, complex, dynamic shapes, host loops) are
# known failures there (rlxtest.target_limit).
