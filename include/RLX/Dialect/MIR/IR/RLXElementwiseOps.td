//===- RLXElementwiseOps.td - RLX elementwise ops ----------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXELEMENTWISEOPS_TD
#define RLX_DIALECT_MIR_IR_RLXELEMENTWISEOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// A unary op documented by the formula it computes and its PyTorch twin.
class RLX_MathUnaryOp<string mnemonic, Type type, string formula,
                      string reference>
    : RLX_UnaryOp<mnemonic, type> {
  let summary = "Elementwise " # formula;
  let description = "Computes `" # formula # "` for every element, as `" #
      reference # "`. The result has the operand's type.\n\n" #
      "```mlir\n%y = rlx." # mnemonic # " %x : tensor<4x8xf32>\n```";
}

def RLX_GeluOp : RLX_UnaryOp<"gelu", RLX_FloatTensor> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `approximate = "none"` computes `x * 0.5 * (1 + erf(x / sqrt(2)))`;
    `approximate = "tanh"` computes
    `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))`, as
    `torch.nn.functional.gelu(x, approximate=...)`.

    ```mlir
    %y = rlx.gelu %x {approximate = "tanh"} : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input,
      DefaultValuedAttr<RLX_GeluApproximationAttr,
                        "::mlir::rlx::GeluApproximation::None">:$approximate);
}

def RLX_SiluOp : RLX_MathUnaryOp<"silu", RLX_FloatTensor, "x * sigmoid(x)", "F.silu">;
def RLX_ReluOp : RLX_MathUnaryOp<"relu", RLX_SignedTensor, "max(x, 0)", "torch.relu">;
def RLX_SigmoidOp : RLX_MathUnaryOp<"sigmoid", RLX_FloatTensor, "1 / (1 + exp(-x))", "torch.sigmoid">;
def RLX_TanhOp : RLX_MathUnaryOp<"tanh", RLX_FloatTensor, "tanh(x)", "torch.tanh">;
def RLX_ExpOp : RLX_MathUnaryOp<"exp", RLX_FloatOrComplexTensor, "exp(x)", "torch.exp">;
def RLX_LogOp : RLX_MathUnaryOp<"log", RLX_FloatOrComplexTensor, "log(x)", "torch.log">;
def RLX_SqrtOp : RLX_MathUnaryOp<"sqrt", RLX_FloatTensor, "sqrt(x)", "torch.sqrt">;
def RLX_RsqrtOp : RLX_MathUnaryOp<"rsqrt", RLX_FloatTensor, "1 / sqrt(x)", "torch.rsqrt">;
// neg(neg(x)) -> x; neg of an f32/f64/signless-integer constant folds.
let hasFolder = 1 in
def RLX_NegOp : RLX_MathUnaryOp<"neg", RankedTensorOf<[RLX_Float, RLX_SignedInt, RLX_Complex]>, "-x", "torch.neg">;
def RLX_AbsOp : RLX_MathUnaryOp<"abs", RLX_SignedTensor, "|x|", "torch.abs">;
def RLX_SinOp : RLX_MathUnaryOp<"sin", RLX_FloatTensor, "sin(x)", "torch.sin">;
def RLX_CosOp : RLX_MathUnaryOp<"cos", RLX_FloatTensor, "cos(x)", "torch.cos">;
def RLX_TanOp : RLX_MathUnaryOp<"tan", RLX_FloatTensor, "tan(x)", "torch.tan">;
def RLX_AtanOp : RLX_MathUnaryOp<"atan", RLX_FloatTensor, "atan(x)", "torch.atan">;
def RLX_RoundOp : RLX_MathUnaryOp<"round", RLX_FloatTensor,
    "round(x), halves to even", "torch.round">;

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

class RLX_MathBinaryOp<string mnemonic, Type type, string formula,
                       string reference, list<Trait> traits = []>
    : RLX_BinaryOp<mnemonic, type, traits> {
  let summary = "Elementwise " # formula # " with broadcasting";
  let description = "Computes `" # formula # "` for every element, as `" #
      reference # "`. Both operands have the same element type; their " #
      "shapes broadcast as NumPy's (aligned at the last dim, a dim of 1 " #
      "stretches). The types are printed once when the operands agree.\n\n" #
      "```mlir\n%z = rlx." # mnemonic #
      " %x, %y : tensor<4x8xf32>, tensor<8xf32>\n```";
}

// add, sub, mul, div, max and min fold on f32/f64/signless-integer
// constants; the first four drop exact identities (x + -0.0, x - 0, x * 1,
// x / 1); see RLXFolds.cpp.
let hasFolder = 1 in {
def RLX_AddOp : RLX_MathBinaryOp<"add", RLX_NumericTensor, "lhs + rhs", "torch.add", [Commutative]>;
def RLX_SubOp : RLX_MathBinaryOp<"sub", RLX_NumericTensor, "lhs - rhs", "torch.sub">;
def RLX_MulOp : RLX_MathBinaryOp<"mul", RLX_NumericTensor, "lhs * rhs", "torch.mul", [Commutative]>;
def RLX_DivOp : RLX_MathBinaryOp<"div", RLX_NumericTensor,
    "lhs / rhs (integers truncate toward zero)", "torch.div">;
def RLX_MaxOp : RLX_MathBinaryOp<"max", RLX_RealTensor, "max(lhs, rhs)", "torch.maximum", [Commutative]>;
def RLX_MinOp : RLX_MathBinaryOp<"min", RLX_RealTensor, "min(lhs, rhs)", "torch.minimum", [Commutative]>;
}
def RLX_PowOp : RLX_MathBinaryOp<"pow", RLX_FloatTensor, "lhs ^ rhs", "torch.pow">;

//===----------------------------------------------------------------------===//
// CmpOp
//===----------------------------------------------------------------------===//

def RLX_CmpOp : RLX_InferredOp<"cmp"> {
  let summary = "Elementwise comparison with broadcasting";
  let description = [{
    Compares `lhs` with `rhs` under `predicate` (eq, ne, lt, le, gt, ge) and
    yields an `i1` tensor of the broadcast shape, as `torch.eq` ...
    `torch.ge`. Floats compare ordered: any comparison with NaN is false
    except `ne`. Complex operands only take `eq` and `ne`.

    ```mlir
    %m = rlx.cmp lt, %x, %y : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins RLX_CmpPredicateAttr:$predicate, RLX_Tensor:$lhs,
                   RLX_Tensor:$rhs);
  let results = (outs RLX_BoolTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($predicate) `,` $lhs `,` $rhs attr-dict `:`
    custom<OperandTypes>(type($lhs), type($rhs))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// WhereOp
//===----------------------------------------------------------------------===//

def RLX_WhereOp : RLX_InferredOp<"where"> {
  let summary = "Elementwise select with broadcasting";
  let description = [{
    Picks `on_true` where `condition` holds and `on_false` elsewhere, as
    `torch.where`. The three shapes broadcast together; `on_true` and
    `on_false` share an element type, which the result takes.

    ```mlir
    %y = rlx.where %m, %x, %zero : tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins RLX_BoolTensor:$condition, RLX_Tensor:$on_true,
                   RLX_Tensor:$on_false);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:`
    type($condition) `,` custom<OperandTypes>(type($on_true), type($on_false))
  }];
}

//===----------------------------------------------------------------------===//
// FmaOp
//===----------------------------------------------------------------------===//

def RLX_FmaOp : RLX_InferredOp<"fma"> {
  let summary = "Elementwise a * b + c with broadcasting";
  let description = [{
    Computes `a * b + c` per element (fused: one rounding on targets that
    have it). The three operands share an element type and broadcast
    together.

    ```mlir
    %y = rlx.fma %a, %b, %c : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins RLX_NumericTensor:$a, RLX_NumericTensor:$b,
                   RLX_NumericTensor:$c);
  let results = (outs RLX_NumericTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` custom<OperandTypes>(type($a), type($b), type($c))
  }];
}

//===----------------------------------------------------------------------===//
// ElementwiseRegionOp
//===----------------------------------------------------------------------===//

def RLX_ElementwiseRegionOp : RLX_Op<"elementwise_region", [
    Pure, IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A chain of scalar steps run per element in one kernel";
  let description = [{
    Made by elementwise fusion. The inputs broadcast together to the shape
    of every result. The body has one block argument per input, of that
    input's element type, and computes each result's element with scalar
    `arith` / `math` ops (and `rlx.yield` of one scalar per result, of that
    result's element type). Unfusing replaces the region by the equivalent
    chain of `rlx` ops.

    ```mlir
    %y = rlx.elementwise_region ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>)
        -> tensor<4x8xf32> {
    ^bb0(%a: f32, %c: f32):
      %s = arith.addf %a, %c : f32
      rlx.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<RLX_Tensor>:$inputs);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)` attr-dict `->` type($results)
    $body
  }];
  let hasRegionVerifier = 1;
}

#endif // RLX_DIALECT_MIR_IR_RLXELEMENTWISEOPS_TD
