# docs/Python.md's import example runs: the block matches PyTorch, fuses, and
# its gradients match torch.autograd (float32).
# RUN: %python %rlx_src_root/docs/examples/import_torch.py | FileCheck %s
# CHECK: rlx.param "norm.weight"
# CHECK: max |rlx - torch|: {{[0-9.]+}}e-0{{[6-9]}}
# CHECK: fusions: ['rlx.fused_matmul_bias_act']
# CHECK: block.norm.weight max |rlx - torch.autograd|: {{[0-9.]+}}e-{{0[6-9]|1[0-9]}}
# CHECK: block.down.bias max |rlx - torch.autograd|: {{[0-9.]+}}e-{{0[6-9]|1[0-9]}}
