//===- MlaxShapeOps.td - shape ops ------------------------------------------===//
//
// broadcast_in_dim, reshape, transpose, slice, concatenate, pad, iota.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_SHAPE_OPS_TD
#define MLAX_SHAPE_OPS_TD

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

#endif // MLAX_SHAPE_OPS_TD
