//===- MlaxDialect.td - the mlax dialect ----------------------------------===//
//
// mlax is a high-level array dialect with one op per lax-level primitive.
// Shapes are static; element types are MLIR builtin types (signless integers
// for signed integers, `ui*` for unsigned, `i1` for bool), as in StableHLO.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_DIALECT_TD
#define MLAX_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Mlax_Dialect : Dialect {
  let name = "mlax";
  let cppNamespace = "::mlir::mlax";
  let summary = "A high-level array dialect traced from NumPy-style Python.";
  let description = [{
    The `mlax` dialect is the IR that `mlax.jit` traces Python functions into.
    Every op is a pure function of statically shaped tensors. Autodiff,
    vectorization and constant folding are passes over this dialect, and
    `convert-mlax-to-stablehlo` lowers it for XLA.
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  // `#mlax.sharding` (MlaxAttributes.td), also valid as `mlax.sharding` on
  // function arguments and results, verified against their types.
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes of MlaxAttributes.td (MlaxAttributes.cpp).
    void registerAttributes();
    /// The name of the argument and result attribute that holds a sharding.
    static ::llvm::StringRef getShardingAttrName() { return "mlax.sharding"; }
  }];
}

class Mlax_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mlax_Dialect, mnemonic, traits> {
  // The derivative of an elementwise op (one with Mlax_ElementwiseDerivative,
  // MlaxInterfaces.td), declared beside it: per operand (or one for all of
  // them), a C++ expression for `t` times d(result)/d(operand), built with
  // the MlaxBuilder `e` (mlax/Dialect/Mlax/IR/MlaxBuilder.h) from the op's
  // accessors; Mlax_ZeroPartial where the derivative is zero. `partialSetup`
  // names values that an expression uses twice. They become the op's
  // `applyPartial`; an op whose rule is more than expressions leaves
  // `partials` empty and writes `applyPartial` in its family's .cpp.
  list<string> partials = [];
  code partialSetup = "";
  let extraClassDefinition = !if(!empty(partials), "",
      "::mlir::Value $cppClass::applyPartial(::mlir::OpBuilder &b, unsigned operandIndex,\n"
      "                                      ::mlir::Value t) {\n"
      "  ::mlir::mlax::MlaxBuilder e(b, getOperation());\n"
      "  (void)e;\n"
      # partialSetup # "\n"
      # !if(!eq(!size(partials), 1),
            "  (void)operandIndex;\n  return " # partials[0] # ";\n",
            "  switch (operandIndex) {\n"
            # !interleave(!foreach(i, !range(partials),
                  "  case " # i # ":\n    return " # partials[i] # ";"), "\n")
            # "\n  }\n  return {};\n")
      # "}\n");
}

// The partial of an operand the result does not depend on smoothly
// (piecewise-constant and integer ops).
defvar Mlax_ZeroPartial = "{}";

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Mlax_Element : AnyTypeOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger,
                             AnyComplex]>;
def Mlax_Tensor : StaticShapeTensorOf<[Mlax_Element]>;
def Mlax_FloatTensor : StaticShapeTensorOf<[AnyFloat, AnyComplex]>;
// Signed integers: signless, but i1 (bool); i2 and i4 are JAX's int2 and int4.
def Mlax_SignedInt : AnyTypeOf<[I<2>, I<4>, I8, I16, I32, I64]>;
def Mlax_RealFloatTensor : StaticShapeTensorOf<[AnyFloat]>;
// Signed and floating-point numbers (no bool, no unsigned).
def Mlax_SignedTensor : StaticShapeTensorOf<[AnyFloat, AnyComplex,
    Mlax_SignedInt]>;
def Mlax_IntOrFloatTensor : StaticShapeTensorOf<[AnyFloat, AnyComplex,
    Mlax_SignedInt, AnyUnsignedInteger]>;
def Mlax_RealTensor : StaticShapeTensorOf<[AnyFloat,
    Mlax_SignedInt, AnyUnsignedInteger]>;
def Mlax_PredTensor : StaticShapeTensorOf<[I1]>;
def Mlax_IndexTensor : StaticShapeTensorOf<[I1, I32]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Mlax_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "the comparison a `mlax.compare` performs", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"LT", 2>, I32EnumAttrCase<"LE", 3>,
      I32EnumAttrCase<"GT", 4>, I32EnumAttrCase<"GE", 5>]> {
  let cppNamespace = "::mlir::mlax";
}

// What `#mlax.accuracy` (MlaxAttributes.td) asks of a transcendental op's
// result: StableHLO's result_accuracy modes.
def Mlax_ResultAccuracyMode : I32EnumAttr<"ResultAccuracyMode",
    "the accuracy mode of a `#mlax.accuracy`", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGHEST", 1>,
      I32EnumAttrCase<"TOLERANCE", 2>]> {
  let cppNamespace = "::mlir::mlax";
  let genSpecializedAttr = 0;
}

#endif // MLAX_DIALECT_TD
