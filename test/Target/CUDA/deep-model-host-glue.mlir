// REQUIRES: cuda-toolkit
// A deep model's gradient: each layer's kernels are equal, so 12 layers
// compile to as many kernel modules as 6 (rlx-gpu-merge-kernel-modules);
// its host function (thousands of launches and runtime calls in one block)
// is compiled unoptimized (rlx-gpu-host-glue).
// RUN: %python %S/../../../bench/compile/bert_program.py --layers 6 --hidden 64 --heads 4 --seq 16 --grad > %t6.mlir
// RUN: %python %S/../../../bench/compile/bert_program.py --layers 12 --hidden 64 --heads 4 --seq 16 --grad > %t12.mlir
// RUN: rlx-opt %t6.mlir --rlx-optimize=target=cuda --rlx-cuda-pipeline="chip=sm_90 format=isa" -o %t6.out
// RUN: rlx-opt %t12.mlir --rlx-optimize=target=cuda --rlx-cuda-pipeline="chip=sm_90 format=isa" -o %t12.out
// RUN: grep -c "gpu.binary @" %t6.out > %t6.count
// RUN: grep -c "gpu.binary @" %t12.out > %t12.count
// RUN: diff %t6.count %t12.count
// RUN: FileCheck %s < %t12.out
// CHECK: llvm.func @loss_grad_{{.*}}passthrough = ["noinline", "optnone"]
