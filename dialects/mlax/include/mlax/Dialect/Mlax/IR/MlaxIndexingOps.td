//===- MlaxIndexingOps.td - indexing ops ------------------------------------===//
//
// reverse, dynamic_slice, dynamic_update_slice, gather, scatter and take.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_INDEXING_OPS_TD
#define MLAX_INDEXING_OPS_TD

//===----------------------------------------------------------------------===//
// Indexing: reverse, dynamic_slice, dynamic_update_slice, gather, scatter.
// Shape rules (inferReturnTypes): MlaxIndexingOps.cpp. Out-of-bounds start
// indices clamp (the slice always fits); scatter drops updates whose window
// does not fit.
//===----------------------------------------------------------------------===//

def Mlax_IndicesTensor : StaticShapeTensorOf<[I8, I16, I32, I64, AnyUnsignedInteger]>;

def Mlax_ReverseOp : Mlax_Op<"reverse", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                         Mlax_Batching]> {
  let summary = "reverse the order of elements along some dimensions";
  let description = [{
    ```mlir
    %r = mlax.reverse %x, dims = [0] : tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($operand)";
  let extraClassDeclaration = Mlax_HloName<"reverse">.hloDecl;
}

def Mlax_DynamicSliceOp : Mlax_Op<"dynamic_slice", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                                   Mlax_Batching]> {
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
  let extraClassDeclaration = Mlax_HloName<"dynamic_slice">.hloDecl;
}

def Mlax_DynamicUpdateSliceOp : Mlax_Op<"dynamic_update_slice",
    [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
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
  let extraClassDeclaration = Mlax_HloName<"dynamic_update_slice">.hloDecl;
}

def Mlax_GatherOp : Mlax_Op<"gather", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                       Mlax_Batching]> {
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
}

def Mlax_ScatterCombiner : I32EnumAttr<"ScatterCombiner",
    "how `mlax.scatter` combines an update with the operand's element", [
      I32EnumAttrCase<"Set", 0, "set">, I32EnumAttrCase<"Add", 1, "add">,
      I32EnumAttrCase<"Mul", 2, "mul">, I32EnumAttrCase<"Min", 3, "min">,
      I32EnumAttrCase<"Max", 4, "max">]> {
  let cppNamespace = "::mlir::mlax";
}

def Mlax_ScatterOp : Mlax_Op<"scatter", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                         Mlax_Batching]> {
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
}

//===----------------------------------------------------------------------===//
// take (shape rule: MlaxIndexingOps.cpp)
//===----------------------------------------------------------------------===//

def Mlax_TakeOp : Mlax_Op<"take", [Pure, InferTypeOpAdaptor]> {
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
}

#endif // MLAX_INDEXING_OPS_TD
