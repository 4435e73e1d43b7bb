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
    | `gguf_q4_0` | 32 | ui8 [N, K/32*18] | none |
    | `gguf_q8_0` | 32 | ui8 [N, K/32*34] | none |
    | `gguf_q2_k` | 256 | ui8 [N, K/256*84] | none |
    | `gguf_q3_k` | 256 | ui8 [N, K/256*110] | none |
    | `nvfp4` | 16 | ui8 [N, K/16*9] | scale f32 [] (per tensor) |

    Decoded values: `int8_block` is `w * scale`, `int8_block_asym` is
    `(w - zero_point) * scale`, `int4_block` is `(q - 8) * scale` with `q`
    the unsigned nibble (as llama.cpp's Q4_0), fp8 is the e4m3fn / e5m2
    value times `scale`; the scale of weight (n, k) is `scale[n, k / block]`
    (`scale[n]` for fp8).

    The GGUF blocks follow llama.cpp's byte layouts (multi-byte fields
    little-endian, `half` an IEEE f16) and its `dequantize_row_*`:
    `block_q4_0` {half d; u8 qs[16]}: weight j < 16 is `(qs[j] & 15) - 8`,
    weight j >= 16 `(qs[j - 16] >> 4) - 8`, times d; `block_q8_0` {half d;
    i8 qs[32]}: `d * qs[j]`; `block_q2_K` {u8 scales[16]; u8 qs[64]; half
    d, dmin}; `block_q3_K` {u8 hmask[32]; u8 qs[64]; u8 scales[12]; half
    d}; and the K-quants `block_q4_K`, `block_q5_K`, `block_q6_K`,
    `block_q8_K`. Their block sizes are fixed (32 for q4_0 and q8_0, 256
    for the K-quants) and may be left out.

    `nvfp4` packs 16 FP4 (E2M1) weights and their FP8 (E4M3, as `fp8_e4m3`
    decodes it) scale in a 9-byte block {u8 scale; u8 qs[8]}: weight 2i is
    the low nibble of qs[i], weight 2i + 1 the high nibble (NVIDIA's
    packing order), and each decodes to `e2m1(q) * e4m3(scale) * s` with
    `s` the per-tensor f32 `scale` operand. E2M1 is sign, 2 exponent bits
    (bias 1) and 1 mantissa bit: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.

    ```mlir
    #rlx.quant<int8_block, 32>
    #rlx.quant<gguf_q4_k>
    #rlx.quant<nvfp4>
    ```
  }];
  let parameters = (ins
    EnumParameter<RLX_QuantKind>:$kind,
    DefaultValuedParameter<"int64_t", "0">:$blockSize);
  let assemblyFormat = "`<` $kind (`,` $blockSize^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True for llama.cpp's GGUF block schemes.
    bool isGguf() const;
    /// True for the schemes whose block scales live inside the packed bytes
    /// (GGUF and nvfp4): a row is a run of fixed-size blocks.
    bool hasPackedBlocks() const;
    /// The block size in effect: the parameter, or the fixed block size of
    /// a packed-block scheme (32 for q4_0 and q8_0, 16 for nvfp4, else 256).
    int64_t getEffectiveBlockSize() const;
    /// Bytes of a packed row that holds `k` logical weights.
    int64_t getPackedRowBytes(int64_t k) const;
    /// Number of tensor operands after `x` and `w`: scale / zero point.
    unsigned getNumParamOperands() const;
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXATTRS_TD
