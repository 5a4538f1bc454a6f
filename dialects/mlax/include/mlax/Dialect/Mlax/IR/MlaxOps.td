//===- MlaxOps.td - mlax dialect operations -------------------------------===//
//
// One op per lax-level primitive, one .td per op family (included at the
// end); this file holds constant, call and what every family shares. Each
// op's summary says what it computes.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_OPS_TD
#define MLAX_OPS_TD

include "mlax/Dialect/Mlax/IR/MlaxDialect.td"
include "mlax/Dialect/Mlax/IR/MlaxAttributes.td"
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
// composite
//===----------------------------------------------------------------------===//

// Not Pure: the decomposition may hold ops with effects (rng_uniform, host
// callbacks), so two composites are never merged, as two calls are not.
def Mlax_CompositeOp : Mlax_Op<"composite",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>, Mlax_Derivative, Mlax_Batching]> {
  let summary = "a named operation defined by its decomposition (lax.composite)";
  let description = [{
    Computes `decomposition(operands)`, a private func.func, under the
    namespaced `name` (`my_namespace.my_op`, as StableHLO requires), with
    `composite_attributes` and `version` saying which variant of the named
    operation it is. A compiler that knows the name may replace the call by
    its own implementation; any other runs the decomposition. It is lowered
    to `stablehlo.composite` with the same attributes. Its derivative and
    batching rules are JAX's errors, raised where a nonzero tangent,
    cotangent or a batched operand reaches it (JAX's composite is not
    differentiated or batched through its decomposition either).
    ```mlir
    %y = mlax.composite "my.tangent" @my.tangent(%x)
        {composite_attributes = {precise = true}, version = 1 : i32}
        : (tensor<3xf32>) -> tensor<3xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, FlatSymbolRefAttr:$decomposition,
                       Variadic<Mlax_Tensor>:$operands,
                       DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$composite_attributes,
                       DefaultValuedOptionalAttr<I32Attr, "0">:$version);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $name $decomposition `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let hasVerifier = 1;
}

include "mlax/Dialect/Mlax/IR/MlaxElementwiseOps.td"
include "mlax/Dialect/Mlax/IR/MlaxShapeOps.td"
include "mlax/Dialect/Mlax/IR/MlaxReductionOps.td"
include "mlax/Dialect/Mlax/IR/MlaxIndexingOps.td"
include "mlax/Dialect/Mlax/IR/MlaxAutodiffOps.td"
include "mlax/Dialect/Mlax/IR/MlaxVectorizeOps.td"
include "mlax/Dialect/Mlax/IR/MlaxConvOps.td"
include "mlax/Dialect/Mlax/IR/MlaxControlFlowOps.td"
include "mlax/Dialect/Mlax/IR/MlaxLinalgOps.td"
include "mlax/Dialect/Mlax/IR/MlaxMathOps.td"
include "mlax/Dialect/Mlax/IR/MlaxFftOps.td"
include "mlax/Dialect/Mlax/IR/MlaxRandomOps.td"
include "mlax/Dialect/Mlax/IR/MlaxCallbackOps.td"
include "mlax/Dialect/Mlax/IR/MlaxShardingOps.td"

#endif // MLAX_OPS_TD
