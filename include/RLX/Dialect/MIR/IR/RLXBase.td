//===- RLXBase.td - RLX MIR types, attributes and op bases -*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXBASE_TD
#define RLX_DIALECT_MIR_IR_RLXBASE_TD

include "RLX/Dialect/MIR/IR/RLXDialect.td"
include "RLX/Dialect/MIR/IR/RLXEnums.td"
include "RLX/Dialect/MIR/IR/RLXAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Element and tensor types
//===----------------------------------------------------------------------===//

def RLX_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def RLX_Int : AnyTypeOf<[I8, I16, I32, I64, UI8, UI32]>;
def RLX_SignedInt : AnyTypeOf<[I8, I16, I32, I64]>;
def RLX_Complex : AnyTypeOf<[Complex<F32>, Complex<F64>]>;
def RLX_Element : AnyTypeOf<[RLX_Float, RLX_Int, I1, RLX_Complex]>;

def RLX_Tensor : RankedTensorOf<[RLX_Element]>;
def RLX_FloatTensor : RankedTensorOf<[RLX_Float]>;
def RLX_IntTensor : RankedTensorOf<[RLX_Int]>;
def RLX_IntOrBoolTensor : RankedTensorOf<[RLX_Int, I1]>;
def RLX_NumericTensor : RankedTensorOf<[RLX_Float, RLX_Int, RLX_Complex]>;
def RLX_RealTensor : RankedTensorOf<[RLX_Float, RLX_Int]>;
def RLX_SignedTensor : RankedTensorOf<[RLX_Float, RLX_SignedInt]>;
def RLX_FloatOrComplexTensor : RankedTensorOf<[RLX_Float, RLX_Complex]>;
def RLX_ComplexTensor : RankedTensorOf<[RLX_Complex]>;
def RLX_BoolTensor : RankedTensorOf<[I1]>;
def RLX_IndexTensor : RankedTensorOf<[I64]>;
def RLX_PackedTensor : RankedTensorOf<[I8, UI8]>;

//===----------------------------------------------------------------------===//
// String-valued enum attributes
//===----------------------------------------------------------------------===//

// An attribute stored as a StringAttr whose value must spell a case of `info`.
// The accessor returns the C++ enum; the generic form reads `kind = "sum"`.
class RLX_StrEnumAttr<EnumAttrInfo info> : Attr<
    And<[CPred<"::llvm::isa<::mlir::StringAttr>($_self)">,
         CPred<"::mlir::rlx::symbolize" # info.className #
               "(::llvm::cast<::mlir::StringAttr>($_self).getValue())"
               ".has_value()">]>,
    info.summary # ": one of " #
        !interleave(!foreach(c, info.enumerants, "'" # c.str # "'"), ", ")> {
  let storageType = "::mlir::StringAttr";
  let returnType = info.cppNamespace # "::" # info.className;
  let convertFromStorage = "*" # info.cppNamespace # "::symbolize" #
                           info.className # "($_self.getValue())";
  let constBuilderCall = "$_builder.getStringAttr(" # info.cppNamespace #
                         "::stringify" # info.className # "($0))";
}

def RLX_GeluApproximationAttr : RLX_StrEnumAttr<RLX_GeluApproximation>;
def RLX_CmpPredicateAttr : RLX_StrEnumAttr<RLX_CmpPredicate>;
def RLX_ReduceKindAttr : RLX_StrEnumAttr<RLX_ReduceKind>;
def RLX_FftNormAttr : RLX_StrEnumAttr<RLX_FftNorm>;
def RLX_MaskKindAttr : RLX_StrEnumAttr<RLX_MaskKind>;
def RLX_RopeStyleAttr : RLX_StrEnumAttr<RLX_RopeStyle>;
def RLX_PoolKindAttr : RLX_StrEnumAttr<RLX_PoolKind>;
def RLX_SteKindAttr : RLX_StrEnumAttr<RLX_SteKind>;
def RLX_ActivationAttr : RLX_StrEnumAttr<RLX_Activation>;

//===----------------------------------------------------------------------===//
// Op base classes
//===----------------------------------------------------------------------===//

class RLX_Op<string mnemonic, list<Trait> traits = []>
    : Op<RLX_Dialect, mnemonic, traits>;

// A pure op whose result types follow from its operands and attributes; the
// op's C++ file defines `inferReturnTypes` from the shared shape rules
// (RLX/Dialect/MIR/IR/TypeInference.h).
class RLX_InferredOp<string mnemonic, list<Trait> traits = []>
    : RLX_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]>;

// y = f(x) elementwise; y has x's type.
class RLX_UnaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : RLX_Op<mnemonic, traits # [Pure, SameOperandsAndResultType,
                                 InferTypeOpInterface, Elementwise]> {
  let arguments = (ins type:$input);
  let results = (outs type:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

// z = f(x, y) elementwise with NumPy broadcasting; the result's shape is the
// broadcast of the operands' shapes. The types are printed once when the
// operands agree.
class RLX_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : RLX_InferredOp<mnemonic, traits> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<OperandTypes>(type($lhs), type($rhs))
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::rlx::inferElementwiseResult(
          loc, getOperationName(), adaptor.getOperands(), {"lhs", "rhs"},
          /*resultElementType=*/nullptr, types);
    }
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXBASE_TD
