//===- MlaxConvOps.td - convolution and windowed reductions ---------------===//
//
// conv_general_dilated, reduce_window and the two window ops the
// derivatives of max/min pooling need (select_and_gather_add,
// select_and_scatter_add). Shape rules, derivative and batching rules:
// MlaxConvOps.cpp; lowerings: passes/ConvertConvOps.cpp.
//
// Padding is a flat list of (low, high) pairs, one pair per spatial (or,
// for window ops, per operand) dimension.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_CONV_OPS_TD
#define MLAX_CONV_OPS_TD

def Mlax_ConvGeneralDilatedOp : Mlax_Op<"conv_general_dilated",
    [Pure, InferTypeOpAdaptorWithIsCompatible, Mlax_Derivative, Mlax_Batching]> {
  let summary = "general dilated convolution (lax.conv_general_dilated)";
  let description = [{
    The dimension numbers are JAX's `ConvDimensionNumbers`: `lhs_spec` lists
    the input's batch, feature and spatial dimensions, `rhs_spec` the
    kernel's output feature, input feature and spatial dimensions,
    `out_spec` the result's batch, feature and spatial dimensions. Strides,
    dilations and the padding pairs follow the spatial dimensions in that
    order. The result's shape follows from these (`inferReturnTypes`); its
    element type is the operands' unless the op is built with a wider one of
    the same kind (`preferred_element_type`), which the verifier checks.
    ```mlir
    %y = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2],
        strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1],
        feature_group_count = 1, batch_group_count = 1
        : (tensor<1x1x5xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    ```
  }];
  let arguments = (ins Mlax_IntOrFloatTensor:$lhs, Mlax_IntOrFloatTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_spec, DenseI64ArrayAttr:$rhs_spec,
                       DenseI64ArrayAttr:$out_spec,
                       DenseI64ArrayAttr:$window_strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$lhs_dilation, DenseI64ArrayAttr:$rhs_dilation,
                       I64Attr:$feature_group_count, I64Attr:$batch_group_count);
  let results = (outs Mlax_IntOrFloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `dims` `=` $lhs_spec `x` $rhs_spec `->` $out_spec `,`
    `strides` `=` $window_strides `,` `padding` `=` $padding `,`
    `lhs_dilation` `=` $lhs_dilation `,` `rhs_dilation` `=` $rhs_dilation `,`
    `feature_group_count` `=` $feature_group_count `,`
    `batch_group_count` `=` $batch_group_count
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mlax_WindowReduction : I32EnumAttr<"WindowReduction",
    "the monoid a `mlax.reduce_window` reduces each window with", [
      I32EnumAttrCase<"Add", 0, "add">, I32EnumAttrCase<"Mul", 1, "mul">,
      I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">]> {
  let cppNamespace = "::mlir::mlax";
}

def Mlax_ReduceWindowOp : Mlax_Op<"reduce_window",
    [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
  let summary = "reduce each window of the operand (lax.reduce_window with a monoid)";
  let description = [{
    Each window starts from the reduction's identity (0, 1, -inf, +inf) and
    padding and base-dilation holes hold it too, so a window that covers
    only padding gives the identity. Bools `add` as or and `mul` as and.
    ```mlir
    %y = mlax.reduce_window max %x, window = [2], strides = [2], padding = [0, 0],
        base_dilation = [1], window_dilation = [1] : tensor<6xf32> -> tensor<3xf32>
    ```
  }];
  let arguments = (ins Mlax_WindowReduction:$reduction, Mlax_Tensor:$operand,
                       DenseI64ArrayAttr:$window_dimensions,
                       DenseI64ArrayAttr:$window_strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$base_dilation,
                       DenseI64ArrayAttr:$window_dilation);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $reduction $operand `,` `window` `=` $window_dimensions `,`
    `strides` `=` $window_strides `,` `padding` `=` $padding `,`
    `base_dilation` `=` $base_dilation `,` `window_dilation` `=` $window_dilation
    attr-dict `:` type($operand) `->` type($result)
  }];
}

def Mlax_SelectAndGatherAddOp : Mlax_Op<"select_and_gather_add",
    [Pure, Mlax_Derivative, Mlax_Batching]> {
  let summary = "per window, the tangent at the operand's max (GE) or min (LE)";
  let description = [{
    The forward derivative of a max/min `reduce_window`: windows are laid
    over `operand` as by `reduce_window` with the same attributes, and each
    result element is the `tangents` element where the window's operand is
    largest (`GE`) or smallest (`LE`); padding selects nothing (0).
    ```mlir
    %t = mlax.select_and_gather_add GE %dx, %x, window = [2], strides = [2],
        padding = [0, 0], base_dilation = [1], window_dilation = [1]
        : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
    ```
  }];
  let arguments = (ins Mlax_ComparisonDirection:$select,
                       Mlax_RealFloatTensor:$tangents, Mlax_RealFloatTensor:$operand,
                       DenseI64ArrayAttr:$window_dimensions,
                       DenseI64ArrayAttr:$window_strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$base_dilation,
                       DenseI64ArrayAttr:$window_dilation);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = [{
    $select $tangents `,` $operand `,` `window` `=` $window_dimensions `,`
    `strides` `=` $window_strides `,` `padding` `=` $padding `,`
    `base_dilation` `=` $base_dilation `,` `window_dilation` `=` $window_dilation
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mlax_SelectAndScatterAddOp : Mlax_Op<"select_and_scatter_add",
    [Pure, Mlax_Derivative, Mlax_Batching]> {
  let summary = "add each source element at its window's operand max (GE) or min (LE)";
  let description = [{
    The reverse derivative of a max/min `reduce_window` (stablehlo's
    `select_and_scatter` adding into zeros): `source` has one element per
    window; the first largest (`GE`) or smallest (`LE`) operand element of
    each window receives it.
    ```mlir
    %g = mlax.select_and_scatter_add GE %ct, %x, window = [2], strides = [2],
        padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Mlax_ComparisonDirection:$select,
                       Mlax_RealFloatTensor:$source, Mlax_RealFloatTensor:$operand,
                       DenseI64ArrayAttr:$window_dimensions,
                       DenseI64ArrayAttr:$window_strides, DenseI64ArrayAttr:$padding);
  let results = (outs Mlax_RealFloatTensor:$result);
  let assemblyFormat = [{
    $select $source `,` $operand `,` `window` `=` $window_dimensions `,`
    `strides` `=` $window_strides `,` `padding` `=` $padding
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // MLAX_CONV_OPS_TD
