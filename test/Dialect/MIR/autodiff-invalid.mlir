// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.grad
//===----------------------------------------------------------------------===//

// rlx.grad: the callee names a func.func.
func.func @grad_unknown_callee(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'nope' does not name a func.func}}
  %g:2 = rlx.grad @nope(%w, %x) wrt [0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  return
}

// -----

// rlx.grad: the callee is a function, not another kind of symbol.
memref.global "private" @not_a_function : memref<4xf32>

func.func @grad_callee_not_func(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'not_a_function' does not name a func.func}}
  %g:2 = rlx.grad @not_a_function(%w, %x) wrt [0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  return
}

// -----

// rlx.grad: the operands have the callee's input types.
func.func @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %c = rlx.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

func.func @grad_operand_types(%w: tensor<4x4xf32>, %x: tensor<8x5xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'operands' types ('tensor<4x4xf32>', 'tensor<8x5xf32>') do not match the inputs of 'loss' ('tensor<4x4xf32>', 'tensor<8x4xf32>')}}
  %g:2 = rlx.grad @loss(%w, %x) wrt [0] : (tensor<4x4xf32>, tensor<8x5xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  return
}

// -----

// rlx.grad: the operands match the callee's input count.
func.func @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %c = rlx.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

func.func @grad_operand_count(%w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'operands' types ('tensor<4x4xf32>') do not match the inputs of 'loss' ('tensor<4x4xf32>', 'tensor<8x4xf32>')}}
  %g:2 = rlx.grad @loss(%w) wrt [0] : (tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  return
}

// -----

// rlx.grad: grad of a non-scalar function (rank-1 result).
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @grad_non_scalar_loss(%x: tensor<4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'f' must return one rank-0 float tensor (a scalar loss) to take its gradient, but returns ('tensor<4xf32>')}}
  %g:2 = rlx.grad @f(%x, %w) wrt [0] : (tensor<4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// rlx.grad: the loss is one value, not two.
func.func @two(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}

func.func @grad_two_results(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.grad' op 'two' must return one rank-0 float tensor (a scalar loss) to take its gradient, but returns ('tensor<f32>', 'tensor<f32>')}}
  %g:2 = rlx.grad @two(%x) wrt [0] : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

// rlx.grad: the loss is a float.
func.func @count(%x: tensor<f32>) -> tensor<i32> {
  %c = rlx.constant dense<0> : tensor<i32>
  return %c : tensor<i32>
}

func.func @grad_integer_loss(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.grad' op 'count' must return one rank-0 float tensor (a scalar loss) to take its gradient, but returns ('tensor<i32>')}}
  %g:2 = rlx.grad @count(%x) wrt [0] : (tensor<f32>) -> (tensor<i32>, tensor<f32>)
  return
}

// -----

// rlx.grad: the function returns something.
func.func @nothing(%x: tensor<f32>) {
  return
}

func.func @grad_no_result(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.grad' op 'nothing' must return one rank-0 float tensor (a scalar loss) to take its gradient, but returns ()}}
  %g:2 = rlx.grad @nothing(%x) wrt [0] : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

// rlx.grad: wrt names at least one argument.
func.func @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %c = rlx.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

func.func @grad_empty_wrt(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'wrt' must name at least one argument}}
  %g = rlx.grad @loss(%w, %x) wrt [] : (tensor<4x4xf32>, tensor<8x4xf32>) -> tensor<f32>
  return
}

// -----

// rlx.grad: only float arguments have gradients.
func.func @ce(%l: tensor<8x10xf32>, %y: tensor<8xi64>) -> tensor<f32> {
  %c = rlx.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

func.func @grad_integer_wrt(%l: tensor<8x10xf32>, %y: tensor<8xi64>) {
  // expected-error @+1 {{'rlx.grad' op argument #1 named in 'wrt' has type 'tensor<8xi64>'; only float arguments have gradients}}
  %g:2 = rlx.grad @ce(%l, %y) wrt [1] : (tensor<8x10xf32>, tensor<8xi64>) -> (tensor<f32>, tensor<8xi64>)
  return
}

// -----

// rlx.grad: the results are the loss, then one gradient per wrt argument
// (here the loss is missing).
func.func @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %c = rlx.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

func.func @grad_results_no_loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op results must be ('tensor<f32>', 'tensor<4x4xf32>') from the callee's signature, got ('tensor<4x4xf32>')}}
  %g = rlx.grad @loss(%w, %x) wrt [0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

// rlx.grad: each gradient has its argument's type.
func.func @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %c = rlx.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

func.func @grad_results_types(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.grad' op results must be ('tensor<f32>', 'tensor<4x4xf32>', 'tensor<8x4xf32>') from the callee's signature, got ('tensor<f32>', 'tensor<8x4xf32>', 'tensor<4x4xf32>')}}
  %g:3 = rlx.grad @loss(%w, %x) wrt [0, 1] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<8x4xf32>, tensor<4x4xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.jvp
//===----------------------------------------------------------------------===//

// rlx.jvp: the callee names a func.func.
func.func @jvp_unknown_callee(%x: tensor<4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.jvp' op 'g' does not name a func.func}}
  %j:2 = rlx.jvp @g(%x, %w) tangents(%x, %w) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// rlx.jvp: the primals have the callee's input types.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @jvp_primal_types(%x: tensor<4xf32>, %w: tensor<4x4xf16>) {
  // expected-error @+1 {{'rlx.jvp' op 'primals' types ('tensor<4xf32>', 'tensor<4x4xf16>') do not match the inputs of 'f' ('tensor<4xf32>', 'tensor<4x4xf32>')}}
  %j:2 = rlx.jvp @f(%x, %w) tangents(%x, %w) : (tensor<4xf32>, tensor<4x4xf16>, tensor<4xf32>, tensor<4x4xf16>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// rlx.jvp: each tangent has its primal's type.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @jvp_tangent_types(%x: tensor<4xf32>, %w: tensor<4x4xf32>, %t: tensor<4x4xf16>) {
  // expected-error @+1 {{'rlx.jvp' op 'tangents' must have the types of 'primals' (one tangent per primal)}}
  %j:2 = rlx.jvp @f(%x, %w) tangents(%x, %t) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf16>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// rlx.jvp: one tangent per primal.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @jvp_tangent_count(%x: tensor<4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.jvp' op 'tangents' must have the types of 'primals' (one tangent per primal)}}
  %j:2 = rlx.jvp @f(%x, %w) tangents(%x) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// rlx.jvp: the results are the outputs, then their tangents.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @jvp_results(%x: tensor<4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.jvp' op results must be ('tensor<4xf32>', 'tensor<4xf32>') from the callee's signature, got ('tensor<4xf32>')}}
  %j = rlx.jvp @f(%x, %w) tangents(%x, %w) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.vmap
//===----------------------------------------------------------------------===//

// rlx.vmap: the callee names a func.func.
func.func @vmap_unknown_callee(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'g' does not name a func.func}}
  %y = rlx.vmap @g(%xs, %w) in_axes [0, -1] out_axes [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: one operand per callee argument.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_operand_count(%xs: tensor<16x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op has 1 operands but 'f' takes 2}}
  %y = rlx.vmap @f(%xs) in_axes [0] out_axes [0] : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: one in_axes entry per operand.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_in_axes_count(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'in_axes' has 1 entries for 2 operands}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0] out_axes [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: one out_axes entry per callee result.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_out_axes_count(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'out_axes' has 2 entries for 1 results}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [0, 0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: at least one operand is mapped.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_nothing_mapped(%x: tensor<4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op must map at least one operand (all 'in_axes' are -1)}}
  %y = rlx.vmap @f(%x, %w) in_axes [-1, -1] out_axes [0] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.vmap: the mapped operands share the batch size.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_batch_size(%xs: tensor<16x4xf32>, %ws: tensor<8x4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op operand #1 has batch size 8 but an earlier operand has 16}}
  %y = rlx.vmap @f(%xs, %ws) in_axes [0, 0] out_axes [0] : (tensor<16x4xf32>, tensor<8x4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: a mapped operand is the argument with the batch dim inserted.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_operand_shape(%xs: tensor<16x5xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op operand #0 ('tensor<16x5xf32>') must be the callee's argument 'tensor<4xf32>' with the batch dim at 0}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [0] : (tensor<16x5xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: a mapped operand has one more dim than the argument.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_operand_rank(%x: tensor<4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op operand #0 ('tensor<4xf32>') must be the callee's argument 'tensor<4xf32>' with the batch dim at 0}}
  %y = rlx.vmap @f(%x, %w) in_axes [0, -1] out_axes [0] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.vmap: an unmapped operand has the argument's type.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_unmapped_type(%xs: tensor<16x4xf32>, %w: tensor<16x4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op unmapped operand #1 has type 'tensor<16x4x4xf32>' but the callee takes 'tensor<4x4xf32>'}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [0] : (tensor<16x4xf32>, tensor<16x4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: in_axes entries are -1 or a dim of the operand.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_in_axes_negative(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'in_axes' entry -2 for operand #0 must be -1 or a dim of the operand}}
  %y = rlx.vmap @f(%xs, %w) in_axes [-2, -1] out_axes [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: in_axes entries are at most the argument's rank.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_in_axes_too_large(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'in_axes' entry 2 for operand #0 must be -1 or a dim of the operand}}
  %y = rlx.vmap @f(%xs, %w) in_axes [2, -1] out_axes [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: out_axes entries are dims of the result.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_out_axes_entry(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'out_axes' entry 2 for result #0 must be a dim of the result}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [2] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: out_axes entries are not negative.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_out_axes_negative(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op 'out_axes' entry -1 for result #0 must be a dim of the result}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [-1] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.vmap: the results are the callee's with the batch dim at out_axes.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @vmap_results(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.vmap' op results must be ('tensor<4x16xf32>') from the callee's signature, got ('tensor<16x4xf32>')}}
  %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [1] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

// rlx.grad: a wrt index past the arguments is named as an argument index.
func.func @loss(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %s = rlx.reduce sum %a axes = [0] : tensor<4xf32>
  return %s : tensor<f32>
}
func.func @l(%a: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'wrt' names argument 2 but 'loss' takes 2 arguments}}
  %0:2 = rlx.grad @loss(%a, %a) wrt [2] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// rlx.grad: -2 and 0 name the same argument of two.
func.func @loss(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %s = rlx.reduce sum %a axes = [0] : tensor<4xf32>
  return %s : tensor<f32>
}
func.func @m(%a: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.grad' op 'wrt' names argument 0 twice}}
  %0:3 = rlx.grad @loss(%a, %a) wrt [0, -2] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
  return
}
