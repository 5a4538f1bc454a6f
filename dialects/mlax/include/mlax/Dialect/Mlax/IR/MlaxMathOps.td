//===- MlaxMathOps.td - special functions, clamp, top_k, scans ------------===//
//
// The rest of jax.lax's elementwise math (hyperbolic and inverse
// trigonometric functions, lgamma/digamma/polygamma/zeta, erfc, cbrt,
// population_count), clamp, top_k, sort and the cumulative reductions
// (cumsum, cumprod, cummax, cummin, cumlogsumexp). Shape rules
// (`inferReturnTypes`), derivative and batching rules: MlaxMathOps.cpp; lowerings: passes/ConvertMathOps.cpp.
// Ops named after a CHLO op lower to it one-to-one (XLA expands CHLO
// exactly as it does for JAX).
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_MATH_OPS_TD
#define MLAX_MATH_OPS_TD

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Mlax_MathUnaryOp<string mnemonic, code nameDecl, Type T, string doc>
    : Mlax_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType,
                         InferTypeOpInterface, Mlax_ElementwiseDerivative,
                         Mlax_ElementwiseBatching]> {
  let summary = doc;
  let arguments = (ins T:$operand);
  let results = (outs T:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let extraClassDeclaration = nameDecl;
}

class Mlax_ChloUnaryOp<string mnemonic, string chlo, Type T, string doc>
    : Mlax_MathUnaryOp<mnemonic, Mlax_ChloName<chlo>.hloDecl, T, doc>;

def Mlax_SinhOp : Mlax_ChloUnaryOp<"sinh", "sinh", Mlax_FloatTensor, "hyperbolic sine"> {
  let partials = ["e.mul(t, e.create<CoshOp>(getOperand()))"];
}
def Mlax_CoshOp : Mlax_ChloUnaryOp<"cosh", "cosh", Mlax_FloatTensor, "hyperbolic cosine"> {
  let partials = ["e.mul(t, e.create<SinhOp>(getOperand()))"];
}
def Mlax_AsinOp : Mlax_ChloUnaryOp<"asin", "asin", Mlax_FloatTensor, "inverse sine"> {
  // asin' = rsqrt(1 - x^2)
  let partials = [
    "e.mul(t, e.create<RsqrtOp>(e.sub(e.like(getOperand(), 1.0), e.mul(getOperand(), getOperand()))))"];
}
def Mlax_AcosOp : Mlax_ChloUnaryOp<"acos", "acos", Mlax_FloatTensor, "inverse cosine"> {
  // acos' = -rsqrt(1 - x^2)
  let partials = [
    "e.mul(t, e.neg(e.create<RsqrtOp>(e.sub(e.like(getOperand(), 1.0), e.mul(getOperand(), getOperand())))))"];
}
def Mlax_AtanOp : Mlax_ChloUnaryOp<"atan", "atan", Mlax_FloatTensor, "inverse tangent"> {
  // atan' = 1 / (1 + x^2)
  let partials = [
    "e.div(t, e.add(e.like(getOperand(), 1.0), e.mul(getOperand(), getOperand())))"];
}
def Mlax_AsinhOp : Mlax_ChloUnaryOp<"asinh", "asinh", Mlax_FloatTensor,
    "inverse hyperbolic sine"> {
  // asinh' = rsqrt(x^2 + 1)
  let partials = [
    "e.mul(t, e.create<RsqrtOp>(e.add(e.mul(getOperand(), getOperand()), e.like(getOperand(), 1.0))))"];
}
def Mlax_AcoshOp : Mlax_ChloUnaryOp<"acosh", "acosh", Mlax_FloatTensor,
    "inverse hyperbolic cosine"> {
  // acosh' = rsqrt((x - 1) * (x + 1))
  let partialSetup = [{ ::mlir::Value one = e.like(getOperand(), 1.0); }];
  let partials = [
    "e.mul(t, e.create<RsqrtOp>(e.mul(e.sub(getOperand(), one), e.add(getOperand(), one))))"];
}
def Mlax_AtanhOp : Mlax_ChloUnaryOp<"atanh", "atanh", Mlax_FloatTensor,
    "inverse hyperbolic tangent"> {
  // atanh' = 1 / ((1 + x) * (1 - x)), as jax: (t / (1 - x)) / (1 + x)
  let partialSetup = [{ ::mlir::Value one = e.like(getOperand(), 1.0); }];
  let partials = [
    "e.div(e.div(t, e.sub(one, getOperand())), e.add(one, getOperand()))"];
}
def Mlax_LgammaOp : Mlax_ChloUnaryOp<"lgamma", "lgamma", Mlax_RealFloatTensor,
    "log |gamma(x)|"> {
  let partials = ["e.mul(t, e.create<DigammaOp>(getOperand()))"];
}
def Mlax_DigammaOp : Mlax_ChloUnaryOp<"digamma", "digamma", Mlax_RealFloatTensor,
    "the digamma function, d/dx lgamma(x)"> {
  // digamma' = polygamma(1, x)
  let partials = [
    "e.mul(t, e.create<PolygammaOp>(e.like(getOperand(), 1.0), getOperand()))"];
}
def Mlax_ErfcOp : Mlax_ChloUnaryOp<"erfc", "erfc", Mlax_RealFloatTensor,
    "the complementary error function, 1 - erf(x)"> {
  // erfc'(x) = -2 / sqrt(pi) * exp(-x^2)
  let partials = [
    "e.mul(t, e.mul(e.like(getOperand(), -1.1283791670955126), e.exp(e.neg(e.mul(getOperand(), getOperand())))))"];
}
def Mlax_CbrtOp : Mlax_MathUnaryOp<"cbrt", Mlax_HloName<"cbrt">.hloDecl,
    Mlax_RealFloatTensor, "cube root"> {
  // JAX's accuracy= (MlaxElementwiseOps.td).
  let arguments = (ins Mlax_RealFloatTensor:$operand, Mlax_AccuracyArg:$result_accuracy);
  let assemblyFormat = Mlax_AccuracyFormat;
  // cbrt' = 1/3 * cbrt(x)^-2, as jax
  let partials = [
    "e.mul(t, e.mul(e.like(getResult(), 1.0 / 3.0), e.div(e.like(getResult(), 1.0), e.mul(getResult(), getResult()))))"];
}
def Mlax_PopcntOp : Mlax_MathUnaryOp<"popcnt", Mlax_HloName<"popcnt">.hloDecl,
    Mlax_ShiftableTensor, "the number of set bits (lax.population_count)"> {
  let partials = [Mlax_ZeroPartial];
}

//===----------------------------------------------------------------------===//
// Elementwise binary special functions
//===----------------------------------------------------------------------===//

class Mlax_ChloBinaryOp<string mnemonic, string chlo, string doc>
    : Mlax_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType,
                         InferTypeOpInterface, Mlax_Derivative,
                         Mlax_ElementwiseBatching]> {
  let summary = doc;
  let arguments = (ins Mlax_RealFloatTensor:$lhs, Mlax_RealFloatTensor:$rhs);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = Mlax_ChloName<chlo>.hloDecl;
}

def Mlax_PolygammaOp : Mlax_ChloBinaryOp<"polygamma", "polygamma",
    "polygamma(m, x), the m-th derivative of digamma (m a whole number)">;
def Mlax_ZetaOp : Mlax_ChloBinaryOp<"zeta", "zeta",
    "the Hurwitz zeta function zeta(x, q)">;

//===----------------------------------------------------------------------===//
// clamp
//===----------------------------------------------------------------------===//

def Mlax_ClampOp : Mlax_Op<"clamp", [Pure, InferTypeOpAdaptor,
                                     Mlax_Derivative, Mlax_Batching]> {
  let summary = "min(max(x, lo), hi), elementwise (lax.clamp)";
  let description = [{
    `min` and `max` are scalars or have the operand's shape; all three have
    one element type. The result has the operand's type (`inferReturnTypes`).
    ```mlir
    %r = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Mlax_RealTensor:$min, Mlax_RealTensor:$operand,
                       Mlax_RealTensor:$max);
  let results = (outs Mlax_RealTensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:` type($min) `,` type($operand) `,` type($max)
  }];
  let extraClassDeclaration = Mlax_HloName<"clamp">.hloDecl;
}

//===----------------------------------------------------------------------===//
// top_k
//===----------------------------------------------------------------------===//

def Mlax_TopKOp : Mlax_Op<"top_k", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                   Mlax_Batching]> {
  let summary = "the k largest entries along the last dimension, and their indices";
  let description = [{
    Values are sorted in descending order; among equal values the lower
    index comes first (chlo.top_k, as lax.top_k). The indices are i32.
    ```mlir
    %v, %i = mlax.top_k %x, k = 2 : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi32>
    ```
  }];
  let arguments = (ins Mlax_RealTensor:$operand, I64Attr:$k);
  let results = (outs Mlax_RealTensor:$values, StaticShapeTensorOf<[I32]>:$indices);
  let assemblyFormat = [{
    $operand `,` `k` `=` $k attr-dict `:` type($operand) `->` type($values) `,` type($indices)
  }];
  let extraClassDeclaration = Mlax_ChloName<"top_k">.hloDecl;
}

//===----------------------------------------------------------------------===//
// Cumulative reductions (cumsum is in MlaxOps.td)
//===----------------------------------------------------------------------===//

// The result type is the operand's; `inferReturnTypes` checks the axis. (Not
// SameOperandsAndResultType: with it the Python builders copy the operand's
// type without running the C++ rule; the assembly shows the operand's type.)
class Mlax_CumulativeOp<string mnemonic, Type T, string doc>
    : Mlax_Op<mnemonic, [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
  let summary = doc;
  let description = [{
    Inclusive, along `axis`; `reverse` runs from the last element to the
    first. Lowered as XLA's windowed reduction (as jax lowers it); the
    derivative is that of a log-step prefix scan (as jax differentiates
    an associative scan), exact with zeros and ties.
  }];
  let arguments = (ins T:$operand, I64Attr:$axis, UnitAttr:$reverse);
  let results = (outs T:$result);
  let assemblyFormat =
      "$operand `,` `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($operand)";
}

def Mlax_CumprodOp : Mlax_CumulativeOp<"cumprod", Mlax_RealTensor,
    "inclusive cumulative product along an axis">;
def Mlax_CummaxOp : Mlax_CumulativeOp<"cummax", Mlax_RealTensor,
    "inclusive cumulative maximum along an axis (NaN-propagating)">;
def Mlax_CumminOp : Mlax_CumulativeOp<"cummin", Mlax_RealTensor,
    "inclusive cumulative minimum along an axis (NaN-propagating)">;
def Mlax_CumlogsumexpOp : Mlax_CumulativeOp<"cumlogsumexp", Mlax_RealFloatTensor,
    "inclusive cumulative log(sum(exp(x))) along an axis">;

//===----------------------------------------------------------------------===//
// sort and cumsum (shape rules: MlaxMathOps.cpp)
//===----------------------------------------------------------------------===//

def Mlax_SortOp : Mlax_Op<"sort", [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
  let summary = "sort operands together along one dimension";
  let description = [{
    All operands have one shape; the results have the operands' types. They are sorted along `dimension` by the
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
}

def Mlax_CumsumOp : Mlax_Op<"cumsum", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                       Mlax_Batching]> {
  let summary = "inclusive cumulative sum along an axis";
  let description = [{
    ```mlir
    %c = mlax.cumsum %x, axis = 0 : tensor<4xf32>
    %r = mlax.cumsum %x, axis = 0 reverse : tensor<4xf32>
    ```
  }];
  let arguments = (ins Mlax_IntOrFloatTensor:$operand, I64Attr:$axis, UnitAttr:$reverse);
  let results = (outs Mlax_IntOrFloatTensor:$result);
  let assemblyFormat = "$operand `,` `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($operand)";
}

#endif // MLAX_MATH_OPS_TD
