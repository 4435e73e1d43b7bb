//===- RLXEnums.td - RLX MIR enumerations ------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ enums behind RLX's enumerated attributes. Ops store them as string
// attributes (see RLX_StrEnumAttr in RLXBase.td); only the C++ enum and its
// symbolize/stringify functions are generated here.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXENUMS_TD
#define RLX_DIALECT_MIR_IR_RLXENUMS_TD

include "mlir/IR/EnumAttr.td"

class RLX_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::rlx";
  let genSpecializedAttr = 0;
}

def RLX_GeluApproximation : RLX_Enum<"GeluApproximation", "gelu approximation", [
  I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Tanh", 1, "tanh">]>;

def RLX_CmpPredicate : RLX_Enum<"CmpPredicate", "comparison predicate", [
  I32EnumAttrCase<"EQ", 0, "eq">, I32EnumAttrCase<"NE", 1, "ne">,
  I32EnumAttrCase<"LT", 2, "lt">, I32EnumAttrCase<"LE", 3, "le">,
  I32EnumAttrCase<"GT", 4, "gt">, I32EnumAttrCase<"GE", 5, "ge">]>;

def RLX_ReduceKind : RLX_Enum<"ReduceKind", "reduction kind", [
  I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Mean", 1, "mean">,
  I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">,
  I32EnumAttrCase<"Prod", 4, "prod">]>;

def RLX_FftNorm : RLX_Enum<"FftNorm", "fft normalization", [
  I32EnumAttrCase<"Backward", 0, "backward">,
  I32EnumAttrCase<"Ortho", 1, "ortho">,
  I32EnumAttrCase<"Forward", 2, "forward">]>;

def RLX_MaskKind : RLX_Enum<"MaskKind", "attention mask kind", [
  I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Causal", 1, "causal">,
  I32EnumAttrCase<"SlidingWindow", 2, "sliding_window">,
  I32EnumAttrCase<"Custom", 3, "custom">, I32EnumAttrCase<"Bias", 4, "bias">]>;

def RLX_RopeStyle : RLX_Enum<"RopeStyle", "rotary embedding layout", [
  I32EnumAttrCase<"Neox", 0, "neox">, I32EnumAttrCase<"Gptj", 1, "gptj">]>;

def RLX_PoolKind : RLX_Enum<"PoolKind", "pooling kind", [
  I32EnumAttrCase<"Max", 0, "max">, I32EnumAttrCase<"Avg", 1, "avg">]>;

def RLX_SteKind : RLX_Enum<"SteKind", "straight-through estimator", [
  I32EnumAttrCase<"Identity", 0, "identity">,
  I32EnumAttrCase<"ClippedIdentity", 1, "clipped_identity">,
  I32EnumAttrCase<"Tanh", 2, "tanh">,
  I32EnumAttrCase<"HardTanh", 3, "hard_tanh">]>;

def RLX_Activation : RLX_Enum<"Activation", "fused activation", [
  I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Relu", 1, "relu">,
  I32EnumAttrCase<"Gelu", 2, "gelu">, I32EnumAttrCase<"GeluTanh", 3, "gelu_tanh">,
  I32EnumAttrCase<"Silu", 4, "silu">, I32EnumAttrCase<"Sigmoid", 5, "sigmoid">,
  I32EnumAttrCase<"Tanh", 6, "tanh">]>;

def RLX_QuantKind : RLX_Enum<"QuantKind", "weight quantization scheme", [
  I32EnumAttrCase<"Int8Block", 0, "int8_block">,
  I32EnumAttrCase<"Int8BlockAsym", 1, "int8_block_asym">,
  I32EnumAttrCase<"Int4Block", 2, "int4_block">,
  I32EnumAttrCase<"Fp8E4M3", 3, "fp8_e4m3">,
  I32EnumAttrCase<"Fp8E5M2", 4, "fp8_e5m2">,
  I32EnumAttrCase<"GgufQ4K", 5, "gguf_q4_k">,
  I32EnumAttrCase<"GgufQ5K", 6, "gguf_q5_k">,
  I32EnumAttrCase<"GgufQ6K", 7, "gguf_q6_k">,
  I32EnumAttrCase<"GgufQ8K", 8, "gguf_q8_k">,
  I32EnumAttrCase<"GgufQ4_0", 9, "gguf_q4_0">,
  I32EnumAttrCase<"GgufQ8_0", 10, "gguf_q8_0">,
  I32EnumAttrCase<"GgufQ2K", 11, "gguf_q2_k">,
  I32EnumAttrCase<"GgufQ3K", 12, "gguf_q3_k">,
  I32EnumAttrCase<"Nvfp4", 13, "nvfp4">]>;

#endif // RLX_DIALECT_MIR_IR_RLXENUMS_TD
