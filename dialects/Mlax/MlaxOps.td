//===- MlaxOps.td - mlax dialect operations -------------------------------===//
//
// One op per lax-level primitive. Each op's summary says what it computes;
// shape rules live in `inferReturnTypes`/`verify` in MlaxOps.cpp, and the
// StableHLO lowering in
// passes/ConvertMlaxToStablehlo.cpp (grep the op's name).
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_OPS_TD
#define MLAX_OPS_TD

include "Mlax/MlaxDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// Ops that map one-to-one onto a StableHLO op record its name, which the
// generic lowering pattern reads (`getStablehloName()`).
class Mlax_HloName<string hlo> {
  code hloDecl = "static ::llvm::StringRef getStablehloName() { return \"stablehlo." # hlo # "\"; }";
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

def Mlax_ConstantOp : Mlax_Op<"constant",
    [ConstantLike, Pure, InferTypeOpAdaptor]> {
  let summary = "a constant tensor";
  let description = [{
    ```mlir
    %c = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Mlax_UnaryOp<string mnemonic, string hlo, Type T, string doc,
                   list<Trait> traits = []>
    : Mlax_Op<mnemonic, traits # [Pure, Elementwise, SameOperandsAndResultType,
                                  InferTypeOpInterface]> {
  let summary = doc;
  let arguments = (ins T:$operand);
  let results = (outs T:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_HloName<hlo>.hloDecl;
}

def Mlax_NegOp : Mlax_UnaryOp<"neg", "negate", Mlax_SignedTensor, "-x">;
def Mlax_ExpOp : Mlax_UnaryOp<"exp", "exponential", Mlax_FloatTensor, "e^x">;
def Mlax_LogOp : Mlax_UnaryOp<"log", "log", Mlax_FloatTensor, "natural logarithm">;
def Mlax_SinOp : Mlax_UnaryOp<"sin", "sine", Mlax_FloatTensor, "sine">;
def Mlax_CosOp : Mlax_UnaryOp<"cos", "cosine", Mlax_FloatTensor, "cosine">;
def Mlax_TanOp : Mlax_UnaryOp<"tan", "tan", Mlax_FloatTensor, "tangent">;
def Mlax_TanhOp : Mlax_UnaryOp<"tanh", "tanh", Mlax_FloatTensor, "hyperbolic tangent">;
def Mlax_SqrtOp : Mlax_UnaryOp<"sqrt", "sqrt", Mlax_FloatTensor, "square root">;
def Mlax_RsqrtOp : Mlax_UnaryOp<"rsqrt", "rsqrt", Mlax_FloatTensor, "1 / sqrt(x)">;
def Mlax_AbsOp : Mlax_UnaryOp<"abs", "abs", StaticShapeTensorOf<[AnyFloat,
    AnyTypeOf<[I8, I16, I32, I64]>]>, "|x| (signed integers and floats)">;
def Mlax_SignOp : Mlax_UnaryOp<"sign", "sign", Mlax_SignedTensor, "-1, 0 or 1 (NaN for NaN)">;
def Mlax_FloorOp : Mlax_UnaryOp<"floor", "floor", Mlax_RealFloatTensor, "round towards -inf">;
def Mlax_CeilOp : Mlax_UnaryOp<"ceil", "ceil", Mlax_RealFloatTensor, "round towards +inf">;
def Mlax_RoundOp : Mlax_UnaryOp<"round", "round_nearest_afz", Mlax_RealFloatTensor,
    "round to nearest, ties away from zero (lax.round's default)">;
def Mlax_RoundEvenOp : Mlax_UnaryOp<"round_even", "round_nearest_even", Mlax_RealFloatTensor,
    "round to nearest, ties to even (numpy.round)">;
def Mlax_LogisticOp : Mlax_UnaryOp<"logistic", "logistic", Mlax_FloatTensor, "1 / (1 + e^-x)">;
def Mlax_Log1pOp : Mlax_UnaryOp<"log1p", "log_plus_one", Mlax_FloatTensor, "log(1 + x)">;
def Mlax_Expm1Op : Mlax_UnaryOp<"expm1", "exponential_minus_one", Mlax_FloatTensor, "e^x - 1">;
def Mlax_NotOp : Mlax_UnaryOp<"not", "not", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical not of bools, bitwise not of integers">;
def Mlax_IsFiniteOp : Mlax_Op<"is_finite", [Pure, Elementwise, InferTypeOpAdaptor]> {
  let summary = "true where x is neither infinite nor NaN";
  let arguments = (ins Mlax_RealFloatTensor:$operand);
  let results = (outs Mlax_PredTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let extraClassDeclaration = Mlax_HloName<"is_finite">.hloDecl;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops (operands of one type; broadcasting is explicit)
//===----------------------------------------------------------------------===//

class Mlax_BinaryOp<string mnemonic, string hlo, Type T, string doc,
                    list<Trait> traits = []>
    : Mlax_Op<mnemonic, traits # [Pure, Elementwise, SameOperandsAndResultType,
                                  InferTypeOpInterface]> {
  let summary = doc;
  let arguments = (ins T:$lhs, T:$rhs);
  let results = (outs T:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_HloName<hlo>.hloDecl;
}

def Mlax_AddOp : Mlax_BinaryOp<"add", "add", Mlax_IntOrFloatTensor, "x + y", [Commutative]>;
def Mlax_SubOp : Mlax_BinaryOp<"sub", "subtract", Mlax_IntOrFloatTensor, "x - y">;
def Mlax_MulOp : Mlax_BinaryOp<"mul", "multiply", Mlax_IntOrFloatTensor, "x * y", [Commutative]>;
def Mlax_DivOp : Mlax_BinaryOp<"div", "divide", Mlax_IntOrFloatTensor,
    "x / y (integer division rounds towards zero)">;
def Mlax_PowOp : Mlax_BinaryOp<"pow", "power", Mlax_FloatTensor, "x ** y">;
def Mlax_MaxOp : Mlax_BinaryOp<"max", "maximum", Mlax_Tensor, "elementwise maximum (NaN-propagating)", [Commutative]>;
def Mlax_MinOp : Mlax_BinaryOp<"min", "minimum", Mlax_Tensor, "elementwise minimum (NaN-propagating)", [Commutative]>;
def Mlax_RemOp : Mlax_BinaryOp<"rem", "remainder", Mlax_RealTensor,
    "remainder with the sign of the dividend (C fmod)">;
def Mlax_Atan2Op : Mlax_BinaryOp<"atan2", "atan2", Mlax_FloatTensor, "atan2(y, x)">;
def Mlax_AndOp : Mlax_BinaryOp<"and", "and", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical/bitwise and", [Commutative]>;
def Mlax_OrOp : Mlax_BinaryOp<"or", "or", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical/bitwise or", [Commutative]>;
def Mlax_XorOp : Mlax_BinaryOp<"xor", "xor", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical/bitwise exclusive or", [Commutative]>;

//===----------------------------------------------------------------------===//
// compare, select_n, convert
//===----------------------------------------------------------------------===//

def Mlax_CompareOp : Mlax_Op<"compare",
    [Pure, Elementwise, SameTypeOperands, InferTypeOpAdaptor]> {
  let summary = "elementwise comparison giving a bool tensor";
  let description = [{
    ```mlir
    %p = mlax.compare GT, %x, %y : tensor<4xf32>
    ```
    Floats compare as IEEE numbers (NaN is unordered: only NE is true).
  }];
  let arguments = (ins Mlax_ComparisonDirection:$comparison_direction,
                       Mlax_Tensor:$lhs, Mlax_Tensor:$rhs);
  let results = (outs Mlax_PredTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs attr-dict `:` type($lhs)
  }];
}

def Mlax_SelectNOp : Mlax_Op<"select_n", [Pure, InferTypeOpAdaptor]> {
  let summary = "pick, elementwise, the case that `which` names";
  let description = [{
    `which` is a bool (false picks case 0, true case 1) or an i32 in
    `[0, number of cases)`, either of the cases' shape or a scalar.
    ```mlir
    %r = mlax.select_n %p, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlax_IndexTensor:$which, Variadic<Mlax_Tensor>:$cases);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $which `,` $cases attr-dict `:` type($which) `,` type($cases)
  }];
}

def Mlax_ConvertOp : Mlax_Op<"convert", [Pure, Elementwise]> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Float to integer truncates towards zero; anything to bool is `x != 0`.
    ```mlir
    %i = mlax.convert %x : tensor<4xf32> -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Mlax_BroadcastInDimOp : Mlax_Op<"broadcast_in_dim", [Pure]> {
  let summary = "broadcast an operand into a larger shape";
  let description = [{
    Operand dimension `i` becomes result dimension `dims[i]`; it must have size
    1 or the result's size there.
    ```mlir
    %b = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` type($operand) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"broadcast_in_dim">.hloDecl;
}

def Mlax_ReshapeOp : Mlax_Op<"reshape", [Pure]> {
  let summary = "reinterpret the elements (row-major) in a new shape";
  let arguments = (ins Mlax_Tensor:$operand);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"reshape">.hloDecl;
}

def Mlax_TransposeOp : Mlax_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permute dimensions: result dim i is operand dim permutation[i]";
  let arguments = (ins Mlax_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `permutation` `=` $permutation attr-dict `:` type($operand) `->` type($result)
  }];
  let extraClassDeclaration = Mlax_HloName<"transpose">.hloDecl;
}

def Mlax_SliceOp : Mlax_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "a static strided slice";
  let arguments = (ins Mlax_Tensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices, DenseI64ArrayAttr:$strides);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `start` `=` $start_indices `,` `limit` `=` $limit_indices `,`
    `strides` `=` $strides attr-dict `:` type($operand) `->` type($result)
  }];
  let extraClassDeclaration = Mlax_HloName<"slice">.hloDecl;
}

def Mlax_ConcatenateOp : Mlax_Op<"concatenate", [Pure, InferTypeOpAdaptor]> {
  let summary = "join tensors along one dimension";
  let arguments = (ins Variadic<Mlax_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension attr-dict `:` functional-type($inputs, $result)
  }];
  let extraClassDeclaration = Mlax_HloName<"concatenate">.hloDecl;
}

def Mlax_PadOp : Mlax_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "pad with a scalar at each edge and between elements";
  let description = [{
    Low/high padding may be negative (it then removes elements), interior
    padding may not.
  }];
  let arguments = (ins Mlax_Tensor:$operand, Mlax_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,`
    `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding
    attr-dict `:` type($operand) `,` type($padding_value) `->` type($result)
  }];
  let extraClassDeclaration = Mlax_HloName<"pad">.hloDecl;
}

def Mlax_IotaOp : Mlax_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... along one dimension, broadcast along the others";
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs Mlax_RealTensor:$result);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"iota">.hloDecl;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Mlax_ReduceOp<string mnemonic, string hloBody, Type T, string doc>
    : Mlax_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = doc;
  let description = [{
    Reduces over `axes` (distinct, sorted, in range); the other dimensions
    keep their order.
  }];
  let arguments = (ins T:$operand, DenseI64ArrayAttr:$axes);
  let results = (outs T:$result);
  let assemblyFormat = [{
    $operand `,` `axes` `=` $axes attr-dict `:` type($operand) `->` type($result)
  }];
  let extraClassDeclaration = Mlax_HloName<hloBody>.hloDecl;
}

def Mlax_ReduceSumOp : Mlax_ReduceOp<"reduce_sum", "add", Mlax_IntOrFloatTensor, "sum over axes">;
def Mlax_ReduceProdOp : Mlax_ReduceOp<"reduce_prod", "multiply", Mlax_IntOrFloatTensor, "product over axes">;
def Mlax_ReduceMaxOp : Mlax_ReduceOp<"reduce_max", "maximum",
    StaticShapeTensorOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger]>, "maximum over axes">;
def Mlax_ReduceMinOp : Mlax_ReduceOp<"reduce_min", "minimum",
    StaticShapeTensorOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger]>, "minimum over axes">;
def Mlax_ReduceAndOp : Mlax_ReduceOp<"reduce_and", "and", Mlax_PredTensor, "all over axes">;
def Mlax_ReduceOrOp : Mlax_ReduceOp<"reduce_or", "or", Mlax_PredTensor, "any over axes">;

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

def Mlax_DotGeneralOp : Mlax_Op<"dot_general", [Pure]> {
  let summary = "generalised matrix product (lax.dot_general)";
  let description = [{
    The result's dimensions are the batch dimensions, then the lhs free
    dimensions, then the rhs free dimensions. Its element type may be wider
    than the operands' (`preferred_element_type`).
    ```mlir
    %c = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0]
        : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$lhs, Mlax_Tensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `batch` `=` $lhs_batching_dimensions `x` $rhs_batching_dimensions
    `,` `contract` `=` $lhs_contracting_dimensions `x` $rhs_contracting_dimensions
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

def Mlax_CallOp : Mlax_Op<"call",
    [CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a func.func (a nested jit)";
  let description = [{
    ```mlir
    %r = mlax.call @inner(%x) : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
}

#endif // MLAX_OPS_TD
