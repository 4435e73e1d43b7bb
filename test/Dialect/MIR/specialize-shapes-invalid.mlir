// RUN: rlx-opt %s --split-input-file -verify-diagnostics --rlx-specialize-shapes="function=f dims=0:1=8"
// RUN: not rlx-opt %s --split-input-file --rlx-specialize-shapes="function=f dims=0:1=0" 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not rlx-opt %s --split-input-file --rlx-specialize-shapes="function=f dims=2:0=8" 2>&1 | FileCheck %s --check-prefix=BADARG
// RUN: not rlx-opt %s --split-input-file --rlx-specialize-shapes="function=f dims=0:5=8" 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not rlx-opt %s --split-input-file --rlx-specialize-shapes="function=f dims=x" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not rlx-opt %s --split-input-file --rlx-specialize-shapes="function=g dims=0:0=8" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not rlx-opt %s --split-input-file --rlx-specialize-shapes="function=h dims=0:1=8" 2>&1 | FileCheck %s --check-prefix=INFER

// SIZE: dim 1 of argument 0 must have a positive size, got 0
// BADARG: error: rlx-specialize-shapes: @f has 1 arguments, no argument 2
// DIM: error: rlx-specialize-shapes: argument 0 of @f ('tensor<?x4xf32>') has no dim 5
// SYNTAX: error: rlx-specialize-shapes: 'x' is not ARG:DIM=SIZE
// NONE: error: rlx-specialize-shapes: no function 'g' with a body
// INFER: error: 'rlx.add' op
// INFER: error: rlx-specialize-shapes: @h is not valid at the bound sizes

// A static dim of another size.
// expected-error @+1 {{rlx-specialize-shapes: dim 1 of argument 0 ('tensor<?x4xf32>') is 4, not 8}}
func.func @f(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// A function its module calls.
// expected-error @+1 {{rlx-specialize-shapes: @f is called in the module; its callers would pass the old types}}
func.func @f(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}
func.func @user(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = call @f(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Sizes that an op rejects (RUN line INFER): the op's error, then the
// pass's. (@f specialises without error: the first RUN line.)
func.func @f(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}
func.func @h(%x: tensor<4x?xf32>, %y: tensor<4x9xf32>) -> tensor<4x9xf32> {
  %s = rlx.add %x, %y : tensor<4x?xf32>, tensor<4x9xf32>
  return %s : tensor<4x9xf32>
}
