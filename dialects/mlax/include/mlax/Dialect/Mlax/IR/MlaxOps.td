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

include "mlax/Dialect/Mlax/IR/MlaxDialect.td"
include "mlax/Dialect/Mlax/IR/MlaxInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// Ops that map one-to-one onto a StableHLO op (same operands, results and
// attribute names) record its name here and nowhere else: the one generic
// pattern in ConvertMlaxToStablehlo.cpp lowers every op that declares
// `lowersOneToOne()`, found in the generated op list.
class Mlax_HloName<string hlo> {
  code hloDecl = "static ::llvm::StringRef getStablehloName() { return \"stablehlo." # hlo # "\"; }\n"
                 "static constexpr bool lowersOneToOne() { return true; }";
}

// The StableHLO op a reduction's body applies (ReducePattern lowers it).
class Mlax_HloBodyName<string hlo> {
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
                                  InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                  Mlax_ElementwiseBatching]> {
  let summary = doc;
  let arguments = (ins T:$operand);
  let results = (outs T:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_HloName<hlo>.hloDecl;
}

// Folders: MlaxFolders.cpp.
let hasFolder = 1 in {
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
} // hasFolder
def Mlax_IsFiniteOp : Mlax_Op<"is_finite", [Pure, Elementwise, InferTypeOpAdaptor,
                                            Mlax_ElementwiseBatching]> {
  let hasFolder = 1;
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
                                  InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                  Mlax_ElementwiseBatching]> {
  let summary = doc;
  let arguments = (ins T:$lhs, T:$rhs);
  let results = (outs T:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_HloName<hlo>.hloDecl;
}

let hasFolder = 1 in {
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
} // hasFolder

//===----------------------------------------------------------------------===//
// compare, select_n, convert
//===----------------------------------------------------------------------===//

def Mlax_CompareOp : Mlax_Op<"compare",
    [Pure, Elementwise, SameTypeOperands, InferTypeOpAdaptor, Mlax_ElementwiseBatching]> {
  let hasFolder = 1;
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

def Mlax_SelectNOp : Mlax_Op<"select_n", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                          Mlax_Batching]> {
  let hasFolder = 1;
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

def Mlax_ConvertOp : Mlax_Op<"convert", [Pure, Elementwise, Mlax_Derivative,
                                        Mlax_ElementwiseBatching]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
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

def Mlax_BroadcastInDimOp : Mlax_Op<"broadcast_in_dim", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
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

def Mlax_ReshapeOp : Mlax_Op<"reshape", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let summary = "reinterpret the elements (row-major) in a new shape";
  let arguments = (ins Mlax_Tensor:$operand);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"reshape">.hloDecl;
}

def Mlax_TransposeOp : Mlax_Op<"transpose", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                            Mlax_Batching]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let summary = "permute dimensions: result dim i is operand dim permutation[i]";
  let arguments = (ins Mlax_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `permutation` `=` $permutation attr-dict `:` type($operand) `->` type($result)
  }];
  let extraClassDeclaration = Mlax_HloName<"transpose">.hloDecl;
}

def Mlax_SliceOp : Mlax_Op<"slice", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                            Mlax_Batching]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
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

def Mlax_ConcatenateOp : Mlax_Op<"concatenate", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                            Mlax_Batching]> {
  let hasFolder = 1;
  let summary = "join tensors along one dimension";
  let arguments = (ins Variadic<Mlax_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension attr-dict `:` functional-type($inputs, $result)
  }];
  let extraClassDeclaration = Mlax_HloName<"concatenate">.hloDecl;
}

def Mlax_PadOp : Mlax_Op<"pad", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                            Mlax_Batching]> {
  let hasFolder = 1;
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
  let hasFolder = 1;
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
    : Mlax_Op<mnemonic, [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
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
  let extraClassDeclaration = Mlax_HloBodyName<hloBody>.hloDecl;
}

let hasFolder = 1 in {
def Mlax_ReduceSumOp : Mlax_ReduceOp<"reduce_sum", "add", Mlax_IntOrFloatTensor, "sum over axes">;
def Mlax_ReduceProdOp : Mlax_ReduceOp<"reduce_prod", "multiply", Mlax_IntOrFloatTensor, "product over axes">;
def Mlax_ReduceMaxOp : Mlax_ReduceOp<"reduce_max", "maximum",
    StaticShapeTensorOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger]>, "maximum over axes">;
def Mlax_ReduceMinOp : Mlax_ReduceOp<"reduce_min", "minimum",
    StaticShapeTensorOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger]>, "minimum over axes">;
def Mlax_ReduceAndOp : Mlax_ReduceOp<"reduce_and", "and", Mlax_PredTensor, "all over axes">;
def Mlax_ReduceOrOp : Mlax_ReduceOp<"reduce_or", "or", Mlax_PredTensor, "any over axes">;
} // hasFolder

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

def Mlax_DotGeneralOp : Mlax_Op<"dot_general", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let hasFolder = 1;
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

//===----------------------------------------------------------------------===//
// Bit-level ops and the rest of what jax.random needs: shifts,
// bitcast_convert, erf / erf_inv / next_after (lowered to CHLO, which XLA
// expands exactly as it does for JAX), sort and cumsum.
// Verifiers: MlaxBitOps.cpp.
//===----------------------------------------------------------------------===//

def Mlax_ShiftableTensor : StaticShapeTensorOf<[I8, I16, I32, I64, AnyUnsignedInteger]>;

// Names a CHLO op for the one-to-one lowering (XLA legalizes CHLO itself).
class Mlax_ChloName<string chlo> {
  code hloDecl = "static ::llvm::StringRef getStablehloName() { return \"chlo." # chlo # "\"; }\n"
                 "static constexpr bool lowersOneToOne() { return true; }";
}

def Mlax_ShiftLeftOp : Mlax_BinaryOp<"shift_left", "shift_left", Mlax_ShiftableTensor,
    "x << y (0 when y is negative or at least the bit width)">;
def Mlax_ShiftRightLogicalOp : Mlax_BinaryOp<"shift_right_logical", "shift_right_logical",
    Mlax_ShiftableTensor, "x >> y filling with zeros (0 when y is out of range)">;
def Mlax_ShiftRightArithmeticOp : Mlax_BinaryOp<"shift_right_arithmetic",
    "shift_right_arithmetic", Mlax_ShiftableTensor,
    "x >> y filling with the sign bit (all sign bits when y is out of range)">;

def Mlax_ClzOp : Mlax_UnaryOp<"clz", "count_leading_zeros", Mlax_ShiftableTensor,
    "the number of leading zero bits">;

def Mlax_BitcastConvertOp : Mlax_Op<"bitcast_convert", [Pure, Mlax_ElementwiseBatching]> {
  let summary = "reinterpret the bits of each element as another element type";
  let description = [{
    Equal bit widths keep the shape. A narrower result type adds a trailing
    dimension of size `in_bits / out_bits`; a wider one consumes a trailing
    dimension of size `out_bits / in_bits`. Bool is not allowed.
    ```mlir
    %f = mlax.bitcast_convert %u : tensor<4xui32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"bitcast_convert">.hloDecl;
}

def Mlax_ErfOp : Mlax_Op<"erf", [Pure, Elementwise, SameOperandsAndResultType,
                                 InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                 Mlax_ElementwiseBatching]> {
  let summary = "the error function";
  let arguments = (ins Mlax_RealFloatTensor:$operand);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<"erf">.hloDecl;
}

def Mlax_ErfInvOp : Mlax_Op<"erf_inv", [Pure, Elementwise, SameOperandsAndResultType,
                                        InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                        Mlax_ElementwiseBatching]> {
  let summary = "the inverse error function";
  let arguments = (ins Mlax_RealFloatTensor:$operand);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<"erf_inv">.hloDecl;
}

def Mlax_NextAfterOp : Mlax_Op<"next_after", [Pure, Elementwise, SameOperandsAndResultType,
                                              InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                              Mlax_ElementwiseBatching]> {
  let summary = "the next representable float after x in the direction of y";
  let arguments = (ins Mlax_RealFloatTensor:$lhs, Mlax_RealFloatTensor:$rhs);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<"next_after">.hloDecl;
}

def Mlax_SortOp : Mlax_Op<"sort", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let summary = "sort operands together along one dimension";
  let description = [{
    All operands have one shape. They are sorted along `dimension` by the
    first `num_keys` operands, lexicographically and ascending (floats in
    total order: -NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN); the
    other operands follow the permutation. `is_stable` keeps equal keys in
    their order.
    ```mlir
    %k, %v = mlax.sort %keys, %vals {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64}
        : (tensor<4xui32>, tensor<4xf32>) -> (tensor<4xui32>, tensor<4xf32>)
    ```
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$operands, I64Attr:$dimension,
                       BoolAttr:$is_stable, I64Attr:$num_keys);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = "$operands attr-dict `:` functional-type($operands, results)";
  let hasVerifier = 1;
}

def Mlax_CumsumOp : Mlax_Op<"cumsum", [Pure, SameOperandsAndResultType,
                                       InferTypeOpInterface, Mlax_Derivative, Mlax_Batching]> {
  let summary = "inclusive cumulative sum along an axis";
  let description = [{
    ```mlir
    %c = mlax.cumsum %x, axis = 0 : tensor<4xf32>
    %r = mlax.cumsum %x, axis = 0 reverse : tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlax_IntOrFloatTensor:$operand, I64Attr:$axis, UnitAttr:$reverse);
  let results = (outs Mlax_IntOrFloatTensor:$result);
  let assemblyFormat = "$operand `,` `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Mlax_TakeOp : Mlax_Op<"take", [Pure]> {
  let summary = "the slices of `operand` at `indices` along `axis`";
  let description = [{
    `result[a..., i..., b...] = operand[a..., indices[i...], b...]` where
    `axis` separates `a` and `b`; an index out of range is clamped into it
    (as `stablehlo.gather`). The result's shape is
    `operand.shape[:axis] + indices.shape + operand.shape[axis+1:]`.
    ```mlir
    %r = mlax.take %x[%i], axis = 0 : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, StaticShapeTensorOf<[I32, I64]>:$indices,
                       I64Attr:$axis);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $indices `]` `,` `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Indexing: reverse, dynamic_slice, dynamic_update_slice, gather, scatter.
// Verifiers: MlaxIndexingOps.cpp. Out-of-bounds start indices clamp (the
// slice always fits); scatter drops updates whose window does not fit.
//===----------------------------------------------------------------------===//

def Mlax_IndicesTensor : StaticShapeTensorOf<[I8, I16, I32, I64, AnyUnsignedInteger]>;

def Mlax_ReverseOp : Mlax_Op<"reverse", [Pure, SameOperandsAndResultType,
                                         InferTypeOpInterface, Mlax_Derivative,
                                         Mlax_Batching]> {
  let summary = "reverse the order of elements along some dimensions";
  let description = [{
    ```mlir
    %r = mlax.reverse %x, dims = [0] : tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"reverse">.hloDecl;
}

def Mlax_DynamicSliceOp : Mlax_Op<"dynamic_slice", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let summary = "a slice of static size at run-time start indices";
  let description = [{
    One scalar start index per operand dimension, all of one integer type.
    Each start is clamped to `[0, size - slice_size]`, as in StableHLO.
    ```mlir
    %s = mlax.dynamic_slice %x[%i, %j] sizes = [2, 3]
        : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, Variadic<Mlax_IndicesTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `sizes` `=` $slice_sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"dynamic_slice">.hloDecl;
}

def Mlax_DynamicUpdateSliceOp : Mlax_Op<"dynamic_update_slice",
    [Pure, AllTypesMatch<["operand", "result"]>, Mlax_Derivative, Mlax_Batching]> {
  let summary = "the operand with a block overwritten at run-time start indices";
  let description = [{
    Start indices are clamped so that `update` fits, as in StableHLO.
    ```mlir
    %r = mlax.dynamic_update_slice %x, %u at [%i, %j]
        : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, Mlax_Tensor:$update,
                       Variadic<Mlax_IndicesTensor>:$start_indices);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $update `at` ` ` `[` $start_indices `]` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Mlax_HloName<"dynamic_update_slice">.hloDecl;
}

def Mlax_GatherOp : Mlax_Op<"gather", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let summary = "slices of the operand at the start indices (stablehlo.gather)";
  let description = [{
    The dimension numbers mean what StableHLO's do. Start indices are
    clamped so that each slice fits.
    ```mlir
    %g = mlax.gather %x[%idx] offset_dims = [1], collapsed_slice_dims = [0],
        operand_batching_dims = [], start_indices_batching_dims = [],
        start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
        : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, Mlax_IndicesTensor:$start_indices,
                       DenseI64ArrayAttr:$offset_dims,
                       DenseI64ArrayAttr:$collapsed_slice_dims,
                       DenseI64ArrayAttr:$operand_batching_dims,
                       DenseI64ArrayAttr:$start_indices_batching_dims,
                       DenseI64ArrayAttr:$start_index_map, I64Attr:$index_vector_dim,
                       DenseI64ArrayAttr:$slice_sizes, UnitAttr:$indices_are_sorted);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `offset_dims` `=` $offset_dims `,`
    `collapsed_slice_dims` `=` $collapsed_slice_dims `,`
    `operand_batching_dims` `=` $operand_batching_dims `,`
    `start_indices_batching_dims` `=` $start_indices_batching_dims `,`
    `start_index_map` `=` $start_index_map `,`
    `index_vector_dim` `=` $index_vector_dim `,` `slice_sizes` `=` $slice_sizes
    (`indices_are_sorted` $indices_are_sorted^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mlax_ScatterCombiner : I32EnumAttr<"ScatterCombiner",
    "how `mlax.scatter` combines an update with the operand's element", [
      I32EnumAttrCase<"Set", 0, "set">, I32EnumAttrCase<"Add", 1, "add">,
      I32EnumAttrCase<"Mul", 2, "mul">, I32EnumAttrCase<"Min", 3, "min">,
      I32EnumAttrCase<"Max", 4, "max">]> {
  let cppNamespace = "::mlir::mlax";
}

def Mlax_ScatterOp : Mlax_Op<"scatter", [Pure, Mlax_Derivative, Mlax_Batching]> {
  let summary = "the operand with updates combined in at the indices (stablehlo.scatter)";
  let description = [{
    The dimension numbers mean what StableHLO's do; `combiner` is the
    update computation (`set` keeps the update, the others combine it with
    the current element; bools `add` as or and `mul` as and). Updates whose
    window does not fit in the operand are dropped.
    ```mlir
    %r = mlax.scatter add %x[%idx], %u update_window_dims = [1],
        inserted_window_dims = [0], input_batching_dims = [],
        scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0],
        index_vector_dim = 1
        : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
    ```
  }];
  let arguments = (ins Mlax_ScatterCombiner:$combiner, Mlax_Tensor:$operand,
                       Mlax_IndicesTensor:$scatter_indices, Mlax_Tensor:$updates,
                       DenseI64ArrayAttr:$update_window_dims,
                       DenseI64ArrayAttr:$inserted_window_dims,
                       DenseI64ArrayAttr:$input_batching_dims,
                       DenseI64ArrayAttr:$scatter_indices_batching_dims,
                       DenseI64ArrayAttr:$scatter_dims_to_operand_dims,
                       I64Attr:$index_vector_dim, UnitAttr:$indices_are_sorted,
                       UnitAttr:$unique_indices);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $combiner $operand `[` $scatter_indices `]` `,` $updates
    `update_window_dims` `=` $update_window_dims `,`
    `inserted_window_dims` `=` $inserted_window_dims `,`
    `input_batching_dims` `=` $input_batching_dims `,`
    `scatter_indices_batching_dims` `=` $scatter_indices_batching_dims `,`
    `scatter_dims_to_operand_dims` `=` $scatter_dims_to_operand_dims `,`
    `index_vector_dim` `=` $index_vector_dim
    (`indices_are_sorted` $indices_are_sorted^)? (`unique_indices` $unique_indices^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

include "mlax/Dialect/Mlax/IR/MlaxAutodiffOps.td"
include "mlax/Dialect/Mlax/IR/MlaxVectorizeOps.td"
include "mlax/Dialect/Mlax/IR/MlaxConvOps.td"
include "mlax/Dialect/Mlax/IR/MlaxControlFlowOps.td"
include "mlax/Dialect/Mlax/IR/MlaxLinalgOps.td"
include "mlax/Dialect/Mlax/IR/MlaxMathOps.td"
include "mlax/Dialect/Mlax/IR/MlaxFftOps.td"

#endif // MLAX_OPS_TD
