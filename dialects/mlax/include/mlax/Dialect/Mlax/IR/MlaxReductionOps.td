//===- MlaxReductionOps.td - reductions -------------------------------------===//
//
// reduce_sum/prod/max/min/and/or over axes, and `mlax.reduce`, the general
// (variadic) reduction with a body region (lax.reduce with any computation).
// The cumulative reductions are in MlaxMathOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_REDUCTION_OPS_TD
#define MLAX_REDUCTION_OPS_TD

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Mlax_MonoidReduceOp<string mnemonic, string hloBody, Type T, string doc>
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
def Mlax_ReduceSumOp : Mlax_MonoidReduceOp<"reduce_sum", "add", Mlax_IntOrFloatTensor, "sum over axes">;
def Mlax_ReduceProdOp : Mlax_MonoidReduceOp<"reduce_prod", "multiply", Mlax_IntOrFloatTensor, "product over axes">;
def Mlax_ReduceMaxOp : Mlax_MonoidReduceOp<"reduce_max", "maximum",
    StaticShapeTensorOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger]>, "maximum over axes">;
def Mlax_ReduceMinOp : Mlax_MonoidReduceOp<"reduce_min", "minimum",
    StaticShapeTensorOf<[AnyFloat, AnySignlessInteger, AnyUnsignedInteger]>, "minimum over axes">;
def Mlax_ReduceAndOp : Mlax_MonoidReduceOp<"reduce_and", "and", Mlax_PredTensor, "all over axes">;
def Mlax_ReduceOrOp : Mlax_MonoidReduceOp<"reduce_or", "or", Mlax_PredTensor, "any over axes">;
} // hasFolder

def Mlax_ReduceOp : Mlax_Op<"reduce",
    [IsolatedFromAbove, RecursiveMemoryEffects, SameVariadicOperandSize,
     InferTypeOpAdaptor, Mlax_Derivative, Mlax_RealDerivativeOnly, Mlax_Batching]> {
  let summary = "reduce n operands together with a body (lax.reduce)";
  let description = [{
    Reduces the operands (all of one shape) over `dimensions` (distinct, in
    range; the other dimensions keep their order), as `stablehlo.reduce`:
    the body takes two tuples of scalars, (acc_1..acc_n, x_1..x_n), as 2n
    rank-0 block arguments of the operands' element types and yields the
    combined tuple. `init_values` (rank 0, one per operand) must be an
    identity of the body, and the body associative (and, for a defined
    order, commutative): XLA reduces in any order. The body is isolated
    from above; the monoid reductions (add, mul, max, ...) have their own ops.
    ```mlir
    %v, %i = mlax.reduce(%x, %idx) init(%ninf, %zero) dimensions = [1]
        : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>)
        -> (tensor<3xf32>, tensor<3xi32>) {
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      %p = mlax.compare LT, %a, %b : tensor<f32>
      %m = mlax.select_n %p, %a, %b : tensor<i1>, tensor<f32>, tensor<f32>
      %j = mlax.select_n %p, %ai, %bi : tensor<i1>, tensor<i32>, tensor<i32>
      mlax.yield %m, %j : tensor<f32>, tensor<i32>
    }
    ```
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$inputs, Variadic<Mlax_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `dimensions` `=` $dimensions attr-dict
    `:` functional-type(operands, results) custom<Body>($body)
  }];
  let hasVerifier = 1;
}

#endif // MLAX_REDUCTION_OPS_TD
