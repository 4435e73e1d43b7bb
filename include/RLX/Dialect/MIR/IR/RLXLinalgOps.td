//===- RLXLinalgOps.td - RLX linear algebra ops ------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXLINALGOPS_TD
#define RLX_DIALECT_MIR_IR_RLXLINALGOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

def RLX_MatmulOp : RLX_InferredOp<"matmul"> {
  let summary = "Batched matrix product with broadcasting batch dims";
  let description = [{
    Multiplies the last two dims of `lhs` [..., M, K] and `rhs` [..., K, N]
    (after swapping the last two dims of `lhs` when `transpose_a` is set, of
    `rhs` when `transpose_b` is set);
    the leading (batch) dims broadcast as NumPy's, as `torch.matmul` on
    operands of rank 2 or more. Both operands share an element type; float
    products accumulate in at least f32.

    ```mlir
    %y = rlx.matmul %x, %w : tensor<8x128x768xf32>, tensor<768x3072xf32>
    %s = rlx.matmul %q, %k transpose_b true : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>
    ```
  }];
  let arguments = (ins RLX_NumericTensor:$lhs, RLX_NumericTensor:$rhs,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
  let results = (outs RLX_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_a` $transpose_a^)?
    (`transpose_b` $transpose_b^)? attr-dict `:`
    custom<OperandTypes>(type($lhs), type($rhs))
  }];
}

//===----------------------------------------------------------------------===//
// DotGeneralOp
//===----------------------------------------------------------------------===//

def RLX_DotGeneralOp : RLX_InferredOp<"dot_general"> {
  let summary = "Tensor contraction with explicit batch and contracting dims";
  let description = [{
    As `jax.lax.dot_general`: `lhs_batch_dims[i]` pairs with
    `rhs_batch_dims[i]` (equal sizes), `lhs_contracting_dims[i]` with
    `rhs_contracting_dims[i]` (equal sizes, summed over). The result's dims
    are the batch dims (in lhs order), then lhs's remaining dims, then
    rhs's remaining dims, each group in increasing order. Every dim is named
    at most once per operand.

    ```mlir
    %y = rlx.dot_general %a, %b batch [0] x [0] contracting [2] x [1]
        : tensor<4x8x16xf32>, tensor<4x16x32xf32>
    ```
  }];
  let arguments = (ins RLX_NumericTensor:$lhs, RLX_NumericTensor:$rhs,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$lhs_batch_dims,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$rhs_batch_dims,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$lhs_contracting_dims,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$rhs_contracting_dims);
  let results = (outs RLX_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `batch` $lhs_batch_dims `x` $rhs_batch_dims
    `contracting` $lhs_contracting_dims `x` $rhs_contracting_dims attr-dict
    `:` custom<OperandTypes>(type($lhs), type($rhs))
  }];
}

//===----------------------------------------------------------------------===//
// DenseSolveOp
//===----------------------------------------------------------------------===//

def RLX_DenseSolveOp : RLX_InferredOp<"dense_solve"> {
  let summary = "Solves A X = B for square A";
  let description = [{
    With `a` [..., n, n] and `b` [..., n, k] (same batch dims, same float
    type), returns X [..., n, k] such that A X = B, as
    `torch.linalg.solve`. Singular systems give undefined values.

    ```mlir
    %x = rlx.dense_solve %a, %b : tensor<3x3xf64>, tensor<3x2xf64>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$a, RLX_FloatTensor:$b);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = "$a `,` $b attr-dict `:` type($a) `,` type($b)";
}

//===----------------------------------------------------------------------===//
// FftOp / RfftOp / IrfftOp
//===----------------------------------------------------------------------===//

def RLX_FftOp : RLX_Op<"fft", [Pure, SameOperandsAndResultType,
                               InferTypeOpInterface]> {
  let summary = "Discrete Fourier transform over the last axis";
  let description = [{
    The complex DFT of every row along the last axis (any length), or the
    inverse DFT with `inverse`, as `torch.fft.fft` / `torch.fft.ifft`.
    `norm` scales as PyTorch does: `backward` (default) scales the inverse
    by 1/n, `ortho` both ways by 1/sqrt(n), `forward` the forward by 1/n.

    ```mlir
    %f = rlx.fft %x {norm = "ortho"} : tensor<4x12xcomplex<f32>>
    ```
  }];
  let arguments = (ins RLX_ComplexTensor:$input,
                   DefaultValuedAttr<BoolAttr, "false">:$inverse,
                   DefaultValuedAttr<RLX_FftNormAttr,
                                     "::mlir::rlx::FftNorm::Backward">:$norm);
  let results = (outs RLX_ComplexTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def RLX_RfftOp : RLX_InferredOp<"rfft"> {
  let summary = "Real-input DFT over the last axis";
  let description = [{
    The DFT of a real signal along the last axis, keeping the n/2 + 1
    non-negative frequencies, as `torch.fft.rfft(x, n)`. `n` (default: the
    axis length) crops or zero-pads the signal first. `norm` as `rlx.fft`.
    An f32 signal gives a complex<f32> spectrum, an f64 one complex<f64>.

    ```mlir
    %f = rlx.rfft %x : tensor<4x16xf32>
    %g = rlx.rfft %x n = 20 : tensor<4x16xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32, F64]>:$input,
                   OptionalAttr<I64Attr>:$n,
                   DefaultValuedAttr<RLX_FftNormAttr,
                                     "::mlir::rlx::FftNorm::Backward">:$norm);
  let results = (outs RLX_ComplexTensor:$result);
  let assemblyFormat = "$input (`n` `=` $n^)? attr-dict `:` type($input)";
}

def RLX_IrfftOp : RLX_InferredOp<"irfft"> {
  let summary = "Inverse of rfft: Hermitian spectrum to real signal";
  let description = [{
    The real signal of length `n` whose rfft is `input` (m frequencies on
    the last axis), as `torch.fft.irfft(x, n)`. `n` defaults to 2 (m - 1).
    `norm` as `rlx.fft`. The signal has the spectrum's part type.

    ```mlir
    %x = rlx.irfft %f n = 16 : tensor<4x9xcomplex<f32>>
    ```
  }];
  let arguments = (ins RLX_ComplexTensor:$input, OptionalAttr<I64Attr>:$n,
                   DefaultValuedAttr<RLX_FftNormAttr,
                                     "::mlir::rlx::FftNorm::Backward">:$norm);
  let results = (outs RankedTensorOf<[F32, F64]>:$result);
  let assemblyFormat = "$input (`n` `=` $n^)? attr-dict `:` type($input)";
}

#endif // RLX_DIALECT_MIR_IR_RLXLINALGOPS_TD
