//===- RLXConvOps.td - RLX convolution and pooling ---------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXCONVOPS_TD
#define RLX_DIALECT_MIR_IR_RLXCONVOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

// The window attributes shared by convolutions and pooling. Empty lists mean
// the defaults (strides and dilations 1, padding 0); otherwise `strides` and
// `dilations` have one entry per spatial dim and `padding` two (low then
// high, for each spatial dim in order: [lo0, hi0, lo1, hi1]).
defvar RLX_WindowStrides = DefaultValuedAttr<DenseI64ArrayAttr, "{}">;

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

def RLX_ConvOp : RLX_InferredOp<"conv"> {
  let summary = "1-D or 2-D convolution (cross-correlation), NCL / NCHW";
  let description = [{
    As `F.conv1d` / `F.conv2d`: `input` [N, Cin, L] or [N, Cin, H, W],
    `weight` [Cout, Cin / groups, k...] and an optional `bias` [Cout]. Each
    spatial output size is
    `(in + lo + hi - dilation * (k - 1) - 1) / stride + 1` (floor), which
    must be at least 1. `groups` divides both Cin and Cout.

    ```mlir
    %y = rlx.conv %x, %w, %b strides = [2, 2] padding = [1, 1, 1, 1]
        : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$weight,
                   Optional<RLX_FloatTensor>:$bias,
                   RLX_WindowStrides:$strides, RLX_WindowStrides:$padding,
                   RLX_WindowStrides:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? (`strides` `=` $strides^)?
    (`padding` `=` $padding^)? (`dilations` `=` $dilations^)?
    (`groups` `=` $groups^)? attr-dict `:` type($input) `,` type($weight)
    (`,` type($bias)^)?
  }];
}

//===----------------------------------------------------------------------===//
// ConvTranspose2DOp
//===----------------------------------------------------------------------===//

def RLX_ConvTranspose2DOp : RLX_InferredOp<"conv_transpose2d"> {
  let summary = "2-D transposed convolution, NCHW";
  let description = [{
    As `F.conv_transpose2d`: `input` [N, Cin, H, W], `weight`
    [Cin, Cout / groups, kh, kw], optional `bias` [Cout]. Each spatial output
    size is `(in - 1) * stride - lo - hi + dilation * (k - 1) +
    output_padding + 1`. `output_padding` must be smaller than the stride or
    the dilation of its dim.

    ```mlir
    %y = rlx.conv_transpose2d %x, %w strides = [2, 2]
        : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$weight,
                   Optional<RLX_FloatTensor>:$bias,
                   RLX_WindowStrides:$strides, RLX_WindowStrides:$padding,
                   RLX_WindowStrides:$dilations,
                   RLX_WindowStrides:$output_padding,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? (`strides` `=` $strides^)?
    (`padding` `=` $padding^)? (`dilations` `=` $dilations^)?
    (`output_padding` `=` $output_padding^)? (`groups` `=` $groups^)?
    attr-dict `:` type($input) `,` type($weight) (`,` type($bias)^)?
  }];
}

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

def RLX_PoolOp : RLX_InferredOp<"pool"> {
  let summary = "Max or average pooling over 1 or 2 spatial dims";
  let description = [{
    As `F.max_pool1d/2d` and `F.avg_pool1d/2d` (average counts the padding
    as zeros, `count_include_pad=True`): `input` [N, C, L] or [N, C, H, W],
    a window of size `kernel` (one entry per spatial dim), `strides`
    (default: the kernel) and `padding` (lo/hi per spatial dim, default 0;
    each at most half the kernel). Output sizes as `rlx.conv` with
    dilation 1.

    ```mlir
    %y = rlx.pool max %x kernel = [2, 2] : tensor<1x16x32x32xf32>
    ```
  }];
  let arguments = (ins RLX_PoolKindAttr:$kind, RLX_FloatTensor:$input,
                   DenseI64ArrayAttr:$kernel, RLX_WindowStrides:$strides,
                   RLX_WindowStrides:$padding);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) $input `kernel` `=` $kernel
    (`strides` `=` $strides^)? (`padding` `=` $padding^)? attr-dict `:`
    type($input)
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXCONVOPS_TD
