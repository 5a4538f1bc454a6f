//===- MlaxShardingOps.td - sharding annotations --------------*- tablegen -*-===//
//
// `mlax.sharding_constraint`: `jax.lax.with_sharding_constraint`, a value
// that XLA's SPMD partitioner must lay out as `#mlax.sharding` says
// (MlaxAttributes.td). Included from MlaxOps.td.
//
//===----------------------------------------------------------------------===//

def Mlax_ShardingConstraintOp : Mlax_Op<"sharding_constraint",
    [Pure, SameOperandsAndResultType, InferTypeOpInterface, Mlax_Derivative,
     Mlax_Batching]> {
  let summary = "the identity, whose result must have the given sharding";
  let description = [{
    `jax.lax.with_sharding_constraint`: returns its operand, and tells XLA's
    SPMD partitioner to lay the result out over the devices as `sharding`
    says. The sharding is checked against the operand's type (its spec no
    longer than the rank, every split dimension divisible by its mesh axes'
    size).
    ```mlir
    %y = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {} ]>}
        : tensor<8x6xf32>
    ```
    Derivatives are constrained alike (the tangent in forward mode, the
    cotangent in reverse mode); batching inserts a replicated entry for the
    batch dimension. A constraint of a constraint with the same sharding
    folds to one; constants are not folded through it, as JAX keeps it.
    Lowered to `stablehlo.custom_call @Sharding` with the `mhlo.sharding`
    string, as JAX emits it.
  }];
  let arguments = (ins Mlax_Tensor:$operand, Mlax_ShardingAttr:$sharding);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}
