//===- MlaxElementwiseOps.td - elementwise ops ------------------------------===//
//
// The elementwise ops: unary and binary arithmetic, compare, select_n,
// convert, the complex parts (real, imag, conj, complex), and the bit-level ops (shifts, clz, bitcast_convert) with erf,
// erf_inv and next_after. The rest of the elementwise math (hyperbolic,
// gamma-family, ...) is in MlaxMathOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_ELEMENTWISE_OPS_TD
#define MLAX_ELEMENTWISE_OPS_TD

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

// The transcendental ops JAX gives an `accuracy=` (lax.Tolerance or
// lax.AccuracyMode): an optional `#mlax.accuracy` (MlaxAttributes.td),
// written `mlax.exp %x accuracy <highest> : tensor<f32>`, kept by the
// batching rule (the op is cloned) and by the derivative rules where JAX's
// keep it, and lowered to StableHLO's `result_accuracy`. Ops with different
// accuracies are different ops (CSE keeps both). cbrt (MlaxMathOps.td)
// shares the two definitions.
defvar Mlax_AccuracyArg = OptionalAttr<Mlax_ResultAccuracyAttr>;
defvar Mlax_AccuracyFormat =
    "$operand (`accuracy` $result_accuracy^)? attr-dict `:` type($result)";

class Mlax_AccuracyUnaryOp<string mnemonic, string hlo, Type T, string doc>
    : Mlax_UnaryOp<mnemonic, hlo, T, doc> {
  let arguments = (ins T:$operand, Mlax_AccuracyArg:$result_accuracy);
  let assemblyFormat = Mlax_AccuracyFormat;
}

// Folders: MlaxElementwiseOps.cpp.
let hasFolder = 1 in {
def Mlax_NegOp : Mlax_UnaryOp<"neg", "negate", Mlax_SignedTensor, "-x"> {
  let partials = ["e.neg(t)"];
}
def Mlax_ExpOp : Mlax_AccuracyUnaryOp<"exp", "exponential", Mlax_FloatTensor, "e^x"> {
  let partials = ["e.mul(t, getResult())"];
  // exp(select_n(p, .., NaN, ..)) selects exp of the other cases
  // (MlaxElementwiseOps.cpp).
  let hasCanonicalizer = 1;
}
def Mlax_LogOp : Mlax_AccuracyUnaryOp<"log", "log", Mlax_FloatTensor, "natural logarithm"> {
  let partials = ["e.div(t, getOperand())"];
}
def Mlax_SinOp : Mlax_AccuracyUnaryOp<"sin", "sine", Mlax_FloatTensor, "sine"> {
  // As JAX's rule: cos at the same accuracy.
  let partials = ["e.mul(t, e.create<CosOp>(getOperand(), getResultAccuracyAttr()))"];
}
def Mlax_CosOp : Mlax_AccuracyUnaryOp<"cos", "cosine", Mlax_FloatTensor, "cosine"> {
  // As JAX's rule: sin at the same accuracy.
  let partials = [
    "e.neg(e.mul(t, e.create<SinOp>(getOperand(), getResultAccuracyAttr())))"];
}
def Mlax_TanOp : Mlax_AccuracyUnaryOp<"tan", "tan", Mlax_FloatTensor, "tangent"> {
  let partials = [
    "e.mul(t, e.add(e.like(getResult(), 1.0), e.mul(getResult(), getResult())))"];
}
def Mlax_TanhOp : Mlax_AccuracyUnaryOp<"tanh", "tanh", Mlax_FloatTensor, "hyperbolic tangent"> {
  // tanh' = 1 - tanh^2, as (t + t*tanh) * (1 - tanh) like jax.lax: 1 - r*r
  // cancels catastrophically as |tanh| -> 1 (0.9% off at x = 6 in f32).
  // Asked for the highest accuracy, JAX's rule is
  // 4 * logistic(2x) * logistic(-2x), both logistics at that accuracy.
  let partialSetup = [{
    ::mlir::Value x = getOperand();
    auto logistic = [&](double scale) {
      return e.create<LogisticOp>(e.mul(e.like(x, scale), x), getResultAccuracyAttr());
    };
  }];
  let partials = [
    "ResultAccuracyAttr::isHighest(getResultAccuracyAttr()) "
    "? e.mul(t, e.mul(e.like(x, 4.0), e.mul(logistic(2.0), logistic(-2.0)))) "
    ": e.mul(e.add(t, e.mul(t, getResult())), e.sub(e.like(getResult(), 1.0), getResult()))"];
}
def Mlax_SqrtOp : Mlax_AccuracyUnaryOp<"sqrt", "sqrt", Mlax_FloatTensor, "square root"> {
  let partials = ["e.mul(t, e.div(e.like(getResult(), 0.5), getResult()))"];
}
def Mlax_RsqrtOp : Mlax_AccuracyUnaryOp<"rsqrt", "rsqrt", Mlax_FloatTensor, "1 / sqrt(x)"> {
  let partials = [
    "e.mul(t, e.mul(e.like(getResult(), -0.5), e.div(getResult(), getOperand())))"];
}
def Mlax_AbsOp : Mlax_UnaryOp<"abs", "abs", StaticShapeTensorOf<[AnyFloat,
    AnyTypeOf<[I8, I16, I32, I64]>]>, "|x| (signed integers and floats)"> {
  // As jax.lax.abs's: t where x >= 0 (0 and -0 included), -t elsewhere.
  let partials = ["e.select(e.compare(ComparisonDirection::GE, getOperand(), "
                  "e.like(getOperand(), 0)), t, e.neg(t))"];
}
def Mlax_SignOp : Mlax_UnaryOp<"sign", "sign", Mlax_SignedTensor, "-1, 0 or 1 (NaN for NaN)"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_FloorOp : Mlax_UnaryOp<"floor", "floor", Mlax_RealFloatTensor, "round towards -inf"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_CeilOp : Mlax_UnaryOp<"ceil", "ceil", Mlax_RealFloatTensor, "round towards +inf"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_RoundOp : Mlax_UnaryOp<"round", "round_nearest_afz", Mlax_RealFloatTensor,
    "round to nearest, ties away from zero (lax.round's default)"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_RoundEvenOp : Mlax_UnaryOp<"round_even", "round_nearest_even", Mlax_RealFloatTensor,
    "round to nearest, ties to even (numpy.round)"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_LogisticOp : Mlax_AccuracyUnaryOp<"logistic", "logistic", Mlax_FloatTensor, "1 / (1 + e^-x)"> {
  // Asked for the highest accuracy, JAX's rule is logistic(x) * logistic(-x)
  // (the second logistic at the default accuracy, as JAX's).
  let partials = [
    "ResultAccuracyAttr::isHighest(getResultAccuracyAttr()) "
    "? e.mul(t, e.mul(getResult(), e.create<LogisticOp>(e.neg(getOperand())))) "
    ": e.mul(t, e.mul(getResult(), e.sub(e.like(getResult(), 1.0), getResult())))"];
}
def Mlax_Log1pOp : Mlax_AccuracyUnaryOp<"log1p", "log_plus_one", Mlax_FloatTensor, "log(1 + x)"> {
  let partials = ["e.div(t, e.add(e.like(getOperand(), 1.0), getOperand()))"];
}
def Mlax_Expm1Op : Mlax_AccuracyUnaryOp<"expm1", "exponential_minus_one", Mlax_FloatTensor, "e^x - 1"> {
  // Asked for the highest accuracy, JAX's rule is exp(x) at that accuracy.
  let partials = [
    "ResultAccuracyAttr::isHighest(getResultAccuracyAttr()) "
    "? e.mul(t, e.create<ExpOp>(getOperand(), getResultAccuracyAttr())) "
    ": e.mul(t, e.add(getResult(), e.like(getResult(), 1.0)))"];
}
def Mlax_NotOp : Mlax_UnaryOp<"not", "not", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical not of bools, bitwise not of integers"> {
  let partials = [Mlax_ZeroPartial];
}
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

def Mlax_ReducePrecisionOp : Mlax_Op<"reduce_precision", [Pure, Elementwise,
    SameOperandsAndResultType, InferTypeOpInterface, Mlax_ElementwiseDerivative,
    Mlax_ElementwiseBatching]> {
  // Linear, as JAX's rule: the tangent (and the cotangent) is rounded the same way.
  let partials = [
    "e.create<ReducePrecisionOp>(t, getExponentBitsAttr(), getMantissaBitsAttr())"];
  let summary = "rounds to the float format of exponent_bits and mantissa_bits";
  let description = [{
    `lax.reduce_precision`: each value rounded (to nearest even) to the
    precision and range of a float with `exponent_bits` exponent bits and
    `mantissa_bits` mantissa bits, then stored back in the operand's type.
    Linear (as JAX's rule): its derivative applies it to the tangent.
  }];
  let arguments = (ins Mlax_RealFloatTensor:$operand,
                       ConfinedAttr<I32Attr, [IntPositive]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_HloName<"reduce_precision">.hloDecl;
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
def Mlax_AddOp : Mlax_BinaryOp<"add", "add", Mlax_IntOrFloatTensor, "x + y", [Commutative]> {
  let partials = ["t"];
}
def Mlax_SubOp : Mlax_BinaryOp<"sub", "subtract", Mlax_IntOrFloatTensor, "x - y"> {
  let partials = [
    "t",
    "e.neg(t)"];
}
def Mlax_MulOp : Mlax_BinaryOp<"mul", "multiply", Mlax_IntOrFloatTensor, "x * y", [Commutative]> {
  let partials = [
    "e.mul(t, getRhs())",
    "e.mul(getLhs(), t)"];
}
def Mlax_DivOp : Mlax_BinaryOp<"div", "divide", Mlax_IntOrFloatTensor,
    "x / y (integer division rounds towards zero)"> {
  // d(x/y)/dy = -x / y^2, written -(t * (x/y)) / y: differentiating it again
  // adds one power of y per order, where x / (y*y) would square the
  // denominator each time (y^64 at the 6th order overflows float32).
  let partials = [
    "e.div(t, getRhs())",
    "e.div(e.mul(e.neg(t), getResult()), getRhs())"];
}
def Mlax_PowOp : Mlax_BinaryOp<"pow", "power", Mlax_FloatTensor, "x ** y">;
def Mlax_MaxOp : Mlax_BinaryOp<"max", "maximum", Mlax_Tensor, "elementwise maximum (NaN-propagating)", [Commutative]> {
  // The derivative goes to the operand equal to the result, split evenly on
  // ties (jax.lax's `_balanced_eq`).
  let partials = [
    "e.mul(t, e.balancedEq(getLhs(), getRhs(), getResult()))",
    "e.mul(t, e.balancedEq(getRhs(), getLhs(), getResult()))"];
}
def Mlax_MinOp : Mlax_BinaryOp<"min", "minimum", Mlax_Tensor, "elementwise minimum (NaN-propagating)", [Commutative]> {
  // The derivative goes to the operand equal to the result, split evenly on
  // ties (jax.lax's `_balanced_eq`).
  let partials = [
    "e.mul(t, e.balancedEq(getLhs(), getRhs(), getResult()))",
    "e.mul(t, e.balancedEq(getRhs(), getLhs(), getResult()))"];
}
def Mlax_RemOp : Mlax_BinaryOp<"rem", "remainder", Mlax_RealTensor,
    "remainder with the sign of the dividend (C fmod)"> {
  // rem(x, y) = x - y * trunc(x / y)
  let partials = [
    "t",
    "e.mul(e.neg(t), e.trunc(e.div(getLhs(), getRhs())))"];
}
def Mlax_Atan2Op : Mlax_BinaryOp<"atan2", "atan2", Mlax_FloatTensor, "atan2(y, x)"> {
  // atan2(x, y): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2)
  let partials = [
    "e.mul(t, e.div(getRhs(), e.add(e.mul(getLhs(), getLhs()), e.mul(getRhs(), getRhs()))))",
    "e.mul(t, e.div(e.neg(getLhs()), e.add(e.mul(getLhs(), getLhs()), e.mul(getRhs(), getRhs()))))"];
}
def Mlax_AndOp : Mlax_BinaryOp<"and", "and", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical/bitwise and", [Commutative]> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_OrOp : Mlax_BinaryOp<"or", "or", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical/bitwise or", [Commutative]> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_XorOp : Mlax_BinaryOp<"xor", "xor", StaticShapeTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>,
    "logical/bitwise exclusive or", [Commutative]> {
  let partials = [Mlax_ZeroPartial];
}
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
// Complex numbers: real, imag, conj, complex (complex64 / complex128 only, as
// StableHLO). They are linear over the reals, not holomorphic, so each has a
// jvp and a transpose of its own (JAX's); verifiers, folders and rules:
// MlaxElementwiseOps.cpp; conj's lowering: ConvertElementwiseOps.cpp.
//===----------------------------------------------------------------------===//

def Mlax_ComplexTensor : StaticShapeTensorOf<[Complex<F32>, Complex<F64>]>;
def Mlax_ComplexPartTensor : StaticShapeTensorOf<[F32, F64]>;

class Mlax_ComplexPartOp<string mnemonic, string doc>
    : Mlax_Op<mnemonic, [Pure, Elementwise, InferTypeOpAdaptor, Mlax_Derivative,
                         Mlax_ElementwiseBatching]> {
  let hasFolder = 1;
  let summary = doc;
  let arguments = (ins Mlax_ComplexTensor:$operand);
  let results = (outs Mlax_ComplexPartTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let extraClassDeclaration = Mlax_HloName<mnemonic>.hloDecl;
}

def Mlax_RealOp : Mlax_ComplexPartOp<"real",
    "the real part of a complex number (complex64 -> f32, complex128 -> f64)">;
def Mlax_ImagOp : Mlax_ComplexPartOp<"imag",
    "the imaginary part of a complex number (complex64 -> f32, complex128 -> f64)">;

def Mlax_ConjOp : Mlax_Op<"conj", [Pure, Elementwise, SameOperandsAndResultType,
                                   InferTypeOpInterface, Mlax_Derivative,
                                   Mlax_ElementwiseBatching]> {
  let hasFolder = 1;
  let summary = "the complex conjugate (lowers to complex(real(x), -imag(x)))";
  let arguments = (ins Mlax_ComplexTensor:$operand);
  let results = (outs Mlax_ComplexTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Mlax_ComplexOp : Mlax_Op<"complex", [Pure, Elementwise, SameTypeOperands, InferTypeOpAdaptor,
                                         Mlax_Derivative, Mlax_ElementwiseBatching]> {
  let hasFolder = 1;
  let summary = "re + i * im from two real tensors of one type";
  let description = [{
    ```mlir
    %z = mlax.complex %re, %im : tensor<4xf32>   // tensor<4xcomplex<f32>>
    ```
  }];
  let arguments = (ins Mlax_ComplexPartTensor:$lhs, Mlax_ComplexPartTensor:$rhs);
  let results = (outs Mlax_ComplexTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
  let extraClassDeclaration = Mlax_HloName<"complex">.hloDecl;
}

//===----------------------------------------------------------------------===//
// Bit-level ops and the rest of what jax.random needs: shifts, clz,
// bitcast_convert, erf / erf_inv / next_after (lowered to CHLO, which XLA
// expands exactly as it does for JAX). Verifiers: MlaxElementwiseOps.cpp.
//===----------------------------------------------------------------------===//

def Mlax_ShiftableTensor : StaticShapeTensorOf<[Mlax_SignedInt, AnyUnsignedInteger]>;

// Names a CHLO op for the one-to-one lowering (XLA legalizes CHLO itself).
class Mlax_ChloName<string chlo> {
  code hloDecl = "static ::llvm::StringRef getStablehloName() { return \"chlo." # chlo # "\"; }\n"
                 "static constexpr bool lowersOneToOne() { return true; }";
}

def Mlax_ShiftLeftOp : Mlax_BinaryOp<"shift_left", "shift_left", Mlax_ShiftableTensor,
    "x << y (0 when y is negative or at least the bit width)"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_ShiftRightLogicalOp : Mlax_BinaryOp<"shift_right_logical", "shift_right_logical",
    Mlax_ShiftableTensor, "x >> y filling with zeros (0 when y is out of range)"> {
  let partials = [Mlax_ZeroPartial];
}
def Mlax_ShiftRightArithmeticOp : Mlax_BinaryOp<"shift_right_arithmetic",
    "shift_right_arithmetic", Mlax_ShiftableTensor,
    "x >> y filling with the sign bit (all sign bits when y is out of range)"> {
  let partials = [Mlax_ZeroPartial];
}

def Mlax_ClzOp : Mlax_UnaryOp<"clz", "count_leading_zeros", Mlax_ShiftableTensor,
    "the number of leading zero bits"> {
  let partials = [Mlax_ZeroPartial];
}

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
  // erf'(x) = 2 / sqrt(pi) * exp(-x^2)
  let partials = [
    "e.mul(t, e.mul(e.like(getOperand(), 1.1283791670955126), e.exp(e.neg(e.mul(getOperand(), getOperand())))))"];
  let summary = "the error function";
  let arguments = (ins Mlax_RealFloatTensor:$operand);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<"erf">.hloDecl;
}

def Mlax_ErfInvOp : Mlax_Op<"erf_inv", [Pure, Elementwise, SameOperandsAndResultType,
                                        InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                        Mlax_ElementwiseBatching]> {
  // erf_inv'(x) = sqrt(pi) / 2 * exp(erf_inv(x)^2)
  let partials = [
    "e.mul(t, e.mul(e.like(getResult(), 0.886226925452758), e.exp(e.mul(getResult(), getResult()))))"];
  let summary = "the inverse error function";
  let arguments = (ins Mlax_RealFloatTensor:$operand);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<"erf_inv">.hloDecl;
}

def Mlax_NextAfterOp : Mlax_Op<"next_after", [Pure, Elementwise, SameOperandsAndResultType,
                                              InferTypeOpInterface, Mlax_ElementwiseDerivative,
                                              Mlax_ElementwiseBatching]> {
  let partials = [Mlax_ZeroPartial];
  let summary = "the next representable float after x in the direction of y";
  let arguments = (ins Mlax_RealFloatTensor:$lhs, Mlax_RealFloatTensor:$rhs);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<"next_after">.hloDecl;
}

#endif // MLAX_ELEMENTWISE_OPS_TD
