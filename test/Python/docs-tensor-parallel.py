# docs/Distributed.md's example runs: the Megatron MLP split over 2 CPU
# processes, each process's result against NumPy (below 1e-5 of max |y|).
# RUN: %python -m rlx.distributed -n 2 -- %python %rlx_src_root/docs/examples/tensor_parallel.py | FileCheck %s
# CHECK-DAG: rank 0 takes ['tensor<8x64xf32>', 'tensor<64x128xf32>', 'tensor<128x64xf32>']
# CHECK-DAG: rank 1 takes ['tensor<8x64xf32>', 'tensor<64x128xf32>', 'tensor<128x64xf32>']
# CHECK-DAG: rank 0: max |y - NumPy| / max |NumPy| = {{[0-9]\.[0-9]e-(0[6-9]|1[0-9])}}
# CHECK-DAG: rank 1: max |y - NumPy| / max |NumPy| = {{[0-9]\.[0-9]e-(0[6-9]|1[0-9])}}
