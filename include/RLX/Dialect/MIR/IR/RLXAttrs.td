//===- RLXAttrs.td - RLX MIR attributes --------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXATTRS_TD
#define RLX_DIALECT_MIR_IR_RLXATTRS_TD

include "RLX/Dialect/MIR/IR/RLXDialect.td"
include "RLX/Dialect/MIR/IR/RLXEnums.td"
include "mlir/IR/AttrTypeBase.td"

//===----------------------------------------------------------------------===//
// QuantSchemeAttr
//===----------------------------------------------------------------------===//

def RLX_QuantSchemeAttr : AttrDef<RLX_Dialect, "QuantScheme"> {
  let mnemonic = "quant";
  let summary = "How a packed weight tensor encodes its values";
  let description = [{
    Names the layout of a quantized weight and, for the block schemes, the
    number of weights that share one scale:

    | scheme | block | packed weight `w` for logical [N, K] | extra operands |
    |---|---|---|---|
    | `int8_block` | required | i8 [N, K] | scale f32 [N, K/block] |
    | `int8_block_asym` | required | i8 [N, K] | scale, zero_point f32 [N, K/block] |
    | `int4_block` | required, even | ui8 [N, K/2], low nibble first | scale f32 [N, K/block] |
    | `fp8_e4m3`, `fp8_e5m2` | none | ui8 [N, K] (raw fp8 bits) | scale f32 [N] |
    | `gguf_q4_k` | 256 | ui8 [N, K/256*144] | none |
    | `gguf_q5_k` | 256 | ui8 [N, K/256*176] | none |
    | `gguf_q6_k` | 256 | ui8 [N, K/256*210] | none |
    | `gguf_q8_k` | 256 | ui8 [N, K/256*292] | none |

    Decoded values: `int8_block` is `w * scale`, `int8_block_asym` is
    `(w - zero_point) * scale`, `int4_block` is `(q - 8) * scale` with `q`
    the unsigned nibble (as llama.cpp's Q4_0), fp8 is the e4m3fn / e5m2
    value times `scale`; the scale of weight (n, k) is `scale[n, k / block]`
    (`scale[n]` for fp8).

    The GGUF K-quant super-blocks follow llama.cpp's `block_q4_K`,
    `block_q5_K`, `block_q6_K` and `block_q8_K` byte layouts; their block
    size is fixed at 256 and may be left out.

    ```mlir
    #rlx.quant<int8_block, 32>
    #rlx.quant<gguf_q4_k>
    ```
  }];
  let parameters = (ins
    EnumParameter<RLX_QuantKind>:$kind,
    DefaultValuedParameter<"int64_t", "0">:$blockSize);
  let assemblyFormat = "`<` $kind (`,` $blockSize^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True for the schemes whose scales live inside the packed bytes.
    bool isGguf() const;
    /// The block size in effect: the parameter, or 256 for GGUF schemes.
    int64_t getEffectiveBlockSize() const;
    /// Bytes of packed weight per block of `getEffectiveBlockSize()` logical
    /// weights (GGUF), or per logical weight numerator/denominator otherwise.
    int64_t getPackedRowBytes(int64_t k) const;
    /// Number of tensor operands after `x` and `w`: scale / zero point.
    unsigned getNumParamOperands() const;
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXATTRS_TD
