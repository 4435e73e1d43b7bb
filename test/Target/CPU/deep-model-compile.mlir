// A 24-layer BERT encoder written as one function (the shape importers
// produce for a whole model) compiles for the CPU: compile time grows
// linearly with depth (row tiling computes each layer's ops once, and
// each kernel is a function of its own for LLVM). Before, 6 layers took
// minutes and 12 never finished. bench/compile/ measures the times.
// RUN: %python %S/../../../bench/compile/bert_program.py --layers 24 --hidden 64 --heads 4 --seq 64 > %t.mlir
// RUN: rlx-compile %t.mlir -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s
// Its rlx.grad with respect to every weight, 4 layers deep:
// RUN: %python %S/../../../bench/compile/bert_program.py --layers 4 --hidden 64 --heads 4 --seq 64 --grad > %t.grad.mlir
// RUN: rlx-compile %t.grad.mlir -o %t.grad.o
// RUN: llvm-nm %t.grad.o | FileCheck %s --check-prefix=GRAD
// CHECK-DAG: T _mlir_ciface_bert
// CHECK-DAG: T bert
// GRAD-DAG: T _mlir_ciface_train
