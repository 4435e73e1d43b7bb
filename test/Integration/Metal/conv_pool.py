# RUN: env RLX_RUN=%S/Inputs/metal-run RLX_TEST_TARGET=metal %python %S/../conv_pool.py
# Convolutions and pooling, from ../conv_pool.py,
# on the Metal back end: each case compiled by rlx-compile --target=metal
# and run by rlx-metal-cpu-run against the float64 reference. Cases that
# need what Metal lacks (double, complex, dynamic shapes, host loops) are
# known failures there (rlxtest.target_limit).
#
# The padded cases check that the copy into a padded buffer and the
# conv or pool that reads it at neighbouring rows are not one kernel (the
# GPU front's row groups once fused them: a threadgroup read rows other
# threadgroups had not written yet).
