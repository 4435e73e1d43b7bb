//===- RLXQuantOps.td - RLX quantization ops ---------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXQUANTOPS_TD
#define RLX_DIALECT_MIR_IR_RLXQUANTOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

def RLX_QuantizeOp : RLX_InferredOp<"quantize"> {
  let summary = "Affine quantization of floats to int8";
  let description = [{
    `q = clamp(round(x / scale) + zero_point, -128, 127)` as i8 (round half
    to even), per tensor when `axis` is absent (one scale and zero point)
    or per channel along `axis` (one per index of that dim), as
    `torch.quantize_per_tensor` / `torch.quantize_per_channel`. Scales are
    positive; zero points lie in [-128, 127].

    ```mlir
    %q = rlx.quantize %x {scales = array<f32: 0.1, 0.2>,
                          zero_points = array<i64: 0, 3>, axis = 0 : i64}
        : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, DenseF32ArrayAttr:$scales,
                   DenseI64ArrayAttr:$zero_points, OptionalAttr<I64Attr>:$axis);
  let results = (outs RankedTensorOf<[I8]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def RLX_DequantizeOp : RLX_Op<"dequantize", [Pure,
                                             SameOperandsAndResultShape]> {
  let summary = "Affine dequantization of int8 to floats";
  let description = [{
    `x = (q - zero_point) * scale` in the result's float type, with scales
    and zero points as `rlx.quantize`.

    ```mlir
    %x = rlx.dequantize %q {scales = array<f32: 0.05>,
                            zero_points = array<i64: 0>}
        : tensor<2x8xi8> -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$input, DenseF32ArrayAttr:$scales,
                   DenseI64ArrayAttr:$zero_points, OptionalAttr<I64Attr>:$axis);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// FakeQuantizeOp
//===----------------------------------------------------------------------===//

def RLX_FakeQuantizeOp : RLX_Op<"fake_quantize", [
    Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Quantize-then-dequantize for quantization-aware training";
  let description = [{
    `(clamp(round(x / scale) + zero_point, qmin, qmax) - zero_point) * scale`
    with `[qmin, qmax] = [-2^(bits-1), 2^(bits-1) - 1]`, as
    `torch.fake_quantize_per_channel_affine` (or per tensor). `scale` is a
    float tensor and `zero_point` an i32 tensor, both rank 0 (per tensor,
    `axis` absent) or 1-D of the `axis` dim's size. `bits` is in [2, 16].
    `ste` picks the gradient autodiff uses: `identity` passes it through,
    `clipped_identity` zeroes it outside the representable range, `tanh`
    and `hard_tanh` use those smooth surrogates.

    ```mlir
    %y = rlx.fake_quantize %x, %s, %z {bits = 4 : i64, ste = "clipped_identity"}
        : tensor<4x8xf32>, tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$scale,
                   RankedTensorOf<[I32]>:$zero_point,
                   DefaultValuedAttr<I64Attr, "8">:$bits,
                   OptionalAttr<I64Attr>:$axis,
                   DefaultValuedAttr<RLX_SteKindAttr,
                                     "::mlir::rlx::SteKind::Identity">:$ste);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` type($input) `,`
    type($scale) `,` type($zero_point)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DequantMatmulOp
//===----------------------------------------------------------------------===//

def RLX_DequantMatmulOp : RLX_InferredOp<"dequant_matmul"> {
  let summary = "Matmul against a packed quantized weight";
  let description = [{
    `y = x W^T` where the logical weight W [N, K] is decoded from the
    packed `weight` under `scheme` (see `#rlx.quant`): `x` is [..., K] and
    `y` [..., N], in `x`'s float type. The `params` operands are what the
    scheme needs besides the packed bytes: `scale` for `int8_block`,
    `int4_block` and the fp8 schemes, `scale` and `zero_point` for
    `int8_block_asym`, nothing for the GGUF schemes (their scales are
    inside the blocks), the per-tensor f32 `scale` (rank 0) for `nvfp4`
    (its block scales are inside the blocks). K must be a multiple of the
    block size.

    ```mlir
    %y = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %s
        : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
    %z = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %g
        : tensor<4x256xf32>, tensor<16x144xui8>
    %f = rlx.dequant_matmul #rlx.quant<nvfp4> %x, %n, %t
        : tensor<4x256xf32>, tensor<16x144xui8>, tensor<f32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_PackedTensor:$weight,
                   Variadic<RLX_FloatTensor>:$params,
                   RLX_QuantSchemeAttr:$scheme);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    qualified($scheme) $input `,` $weight (`,` $params^)? attr-dict `:`
    type($input) `,` type($weight) (`,` type($params)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Int8MatmulOp
//===----------------------------------------------------------------------===//

def RLX_Int8MatmulOp : RLX_InferredOp<"int8_matmul"> {
  let summary = "Matrix product of int8 tensors with int32 accumulation";
  let description = [{
    `rlx.matmul` of two i8 tensors whose products are summed exactly in
    i32: the result is the i32 tensor of the same shape `rlx.matmul` gives
    (transposes and batch broadcasting as there). The sums wrap only past
    2^31, which needs K above 2^17 of -128 * -128 products. Made by
    `rlx-quant-propagate` from matmuls of dequantized int8 values; the
    scales are applied to its result.

    ```mlir
    %acc = rlx.int8_matmul %qx, %qw transpose_b true
        : tensor<8x64xi8>, tensor<16x64xi8>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$lhs, RankedTensorOf<[I8]>:$rhs,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_a` $transpose_a^)?
    (`transpose_b` $transpose_b^)? attr-dict `:`
    type($lhs) `,` type($rhs)
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXQUANTOPS_TD
