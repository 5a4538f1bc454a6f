//===- MlaxReductionOps.td - reductions -------------------------------------===//
//
// reduce_sum/prod/max/min/and/or over axes. The cumulative reductions are
// in MlaxMathOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_REDUCTION_OPS_TD
#define MLAX_REDUCTION_OPS_TD

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

#endif // MLAX_REDUCTION_OPS_TD
