# docs/Python.md's complete example runs and trains: its loss goes down.
# RUN: %python %rlx_src_root/docs/examples/python_mlp.py | FileCheck %s
# CHECK: fusions: 4
# CHECK: step 0: loss 2.
# CHECK: step 4: loss {{0\.|1\.[0-4]}}
# CHECK: accuracy on the batch:
