//===- MlaxVectorizeOps.td - the vmap op ----------------------*- tablegen -*-===//
//
// `mlax.vmap` names a callee and is expanded by `mlax-vectorize`.
// Included from MlaxOps.td.
//
//===----------------------------------------------------------------------===//

def Mlax_VmapOp : Mlax_Op<"vmap",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "vectorized map of a function (expanded by mlax-vectorize)";
  let description = [{
    Applies `callee` to `batch_size` slices of its operands at once. Operand
    `i` is sliced along dimension `in_axes[i]` (-1: not batched, the same
    value for every slice); result `j` stacks the slices' results along
    dimension `out_axes[j]` (-1: the result does not depend on the slice and
    is returned once). `axis_name` (`jax.vmap(axis_name=...)`) names the
    mapped axis for the collectives in the callee (`mlax.all_reduce ...
    vmap #mlax.mesh<["i"=10]> over ["i"]`): expanding the vmap rewrites
    those into ops over the batch dimension. `spmd_axis_name`
    (`jax.vmap(spmd_axis_name=...)`, mesh axis names, major to minor) says
    the mapped dimension is split over those mesh axes: expanding the vmap
    splits the batch dimension of each `sharding_constraint` and
    `shard_map` over them (instead of replicating it), and a shard_map's
    body then sees its device's part of the batch.
    ```mlir
    %y = mlax.vmap @f(%xs, %w) in_axes = [0, -1] out_axes = [0] size = 10
        : (tensor<10x3xf32>, tensor<3x3xf32>) -> tensor<10x3xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Mlax_Tensor>:$operands,
                       DenseI64ArrayAttr:$in_axes, DenseI64ArrayAttr:$out_axes,
                       I64Attr:$batch_size, OptionalAttr<StrAttr>:$axis_name,
                       OptionalAttr<StrArrayAttr>:$spmd_axis_name);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $callee `(` $operands `)` `in_axes` `=` $in_axes `out_axes` `=` $out_axes
    `size` `=` $batch_size (`axis_name` `=` $axis_name^)?
    (`spmd_axis_name` `=` $spmd_axis_name^)? attr-dict `:` functional-type($operands, results)
  }];
}
