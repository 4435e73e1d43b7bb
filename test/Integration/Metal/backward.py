# RUN: env RLX_RUN=%S/Inputs/metal-run RLX_TEST_TARGET=metal RLX_TEST_KNOWN_FAILURES=attention/sliding_window/f32/w1,attention/custom/f32/skv,attention/custom/f32/full_gqa,attention/custom/f32/masked_rows %python %S/../backward.py
# The backward ops, from ../backward.py,
# on the Metal back end: each case compiled by rlx-compile --target=metal
# and run by rlx-metal-cpu-run against the float64 reference. Cases that
# need what Metal lacks (double, complex, dynamic shapes, host loops) are
# known failures there (rlxtest.target_limit).
#
# Known failure: with a window of 1 each query sees one key, so dq is
# exactly zero only if dO.v and dO.o (the same dot product) round alike;
# summed in different orders (likely a SIMD-group tree against a loop)
# they differ by about 1e-7, and the case wants exact zeros (atol 1e-34).
# Not confirmed further. The custom-mask cases draw their mask at random:
# one that leaves a query a single key is the same case (CI seed
# 3316133169: skv got 5.6e-8 where dq is exactly 0), so they are known
# failures too (a run where none degenerates prints that they pass).
