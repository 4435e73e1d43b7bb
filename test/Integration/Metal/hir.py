# RUN: env RLX_RUN=%S/Inputs/metal-run RLX_TEST_TARGET=metal %python %S/../hir.py
# The rlx_hir blocks and the example layers as they are (BERT-base from
# examples/bert_layer_hir.mlir, Llama from both functions of
# examples/llama_layer_hir.mlir), from ../hir.py, on the Metal back end:
# each compiled by rlx-compile --target=metal and run by rlx-metal-cpu-run
# against the float64 reference. Cases that need what Metal lacks (double,
# complex, dynamic shapes, host loops) are known failures there
# (rlxtest.target_limit).
