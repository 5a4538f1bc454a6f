// Lowering of conv_general_dilated (stablehlo.convolution with the specs
// spelled as StableHLO's dimension labels), reduce_window (from the
// reduction's identity), select_and_gather_add (a two-operand
// reduce_window of (operand, tangent) pairs) and select_and_scatter_add
// (stablehlo.select_and_scatter adding into zeros).
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

// CHECK-LABEL: func.func @conv_nchw(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x5x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3x3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.convolution"(%[[ARG0]], %[[ARG1]]) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32>
// CHECK-NEXT: return %[[V2]] : tensor<2x4x5x5xf32>

// CHECK-LABEL: func.func @conv_nhwc_grouped(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x7x6x4xbf16>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3x2x6xbf16>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.convolution"(%[[ARG0]], %[[ARG1]]) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 2 : i64, lhs_dilation = array<i64: 1, 2>, padding = dense<{{\[\[}}0, 1], [2, 0]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<1x7x6x4xbf16>, tensor<2x3x2x6xbf16>) -> tensor<1x3x11x6xf32>
// CHECK-NEXT: return %[[V2]] : tensor<1x3x11x6xf32>

// CHECK-LABEL: func.func @max_pool(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x4x4x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.reduce_window"(%[[ARG0]], %[[V1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<f32>, %[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = "stablehlo.maximum"(%[[ARG3]], %[[ARG4]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[V5]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x2x2x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<2x2x2x3xf32>

// CHECK-LABEL: func.func @sum_window_int(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xi32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.reduce_window"(%[[ARG0]], %[[V1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = "stablehlo.add"(%[[ARG3]], %[[ARG4]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V5]]) : (tensor<i32>) -> ()
// CHECK-NEXT: }) {base_dilations = array<i64: 2>, padding = dense<1> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 3>, window_strides = array<i64: 1>} : (tensor<4xi32>, tensor<i32>) -> tensor<7xi32>
// CHECK-NEXT: return %[[V2]] : tensor<7xi32>

// CHECK-LABEL: func.func @window_identities(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xi1>) -> (tensor<2xi32>, tensor<1xi32>, tensor<3xi1>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.reduce_window"(%[[ARG0]], %[[V2]]) ({
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<i32>, %[[ARG5:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = "stablehlo.multiply"(%[[ARG4]], %[[ARG5]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<i32>) -> ()
// CHECK-NEXT: }) {base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<4xi32>, tensor<i32>) -> tensor<2xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = "stablehlo.reduce_window"(%[[ARG0]], %[[V7]]) ({
// CHECK-NEXT: ^bb0(%[[ARG4]]: tensor<i32>, %[[ARG5]]: tensor<i32>):
// CHECK-NEXT: %[[V6]] = "stablehlo.minimum"(%[[ARG4]], %[[ARG5]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<i32>) -> ()
// CHECK-NEXT: }) {base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 4>, window_strides = array<i64: 4>} : (tensor<4xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.reduce_window"(%[[ARG1]], %[[V9]]) ({
// CHECK-NEXT: ^bb0(%[[ARG4]]: tensor<i1>, %[[ARG5]]: tensor<i1>):
// CHECK-NEXT: %[[V6]] = "stablehlo.or"(%[[ARG4]], %[[ARG5]]) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }) {base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<4xi1>, tensor<i1>) -> tensor<3xi1>
// CHECK-NEXT: return %[[V3]], %[[V8]], %[[V10]] : tensor<2xi32>, tensor<1xi32>, tensor<3xi1>

// CHECK-LABEL: func.func @select_and_gather_add(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:2 = "stablehlo.reduce_window"(%[[ARG1]], %[[ARG0]], %[[V2]], %[[V3]]) ({
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG5]], %[[ARG7]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.select"(%[[V9]], %[[ARG5]], %[[ARG7]]) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.select"(%[[V9]], %[[ARG6]], %[[ARG8]]) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[V10]], %[[V11]]) : (tensor<f32>, tensor<f32>) -> ()
// CHECK-NEXT: }) {base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<6xf32>, tensor<6xf32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT: return %[[V4]]#1 : tensor<3xf32>

// CHECK-LABEL: func.func @select_and_scatter_add(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.select_and_scatter"(%[[ARG1]], %[[ARG0]], %[[V2]]) ({
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>, %[[ARG5:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG4]], %[[ARG5]]) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4]]: tensor<f32>, %[[ARG5]]: tensor<f32>):
// CHECK-NEXT: %[[V6]] = "stablehlo.add"(%[[ARG4]], %[[ARG5]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {padding = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>} : (tensor<6xf32>, tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK-NEXT: return %[[V3]] : tensor<6xf32>


func.func @conv_nchw(%x: tensor<2x3x5x5xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2, 3] x [0, 1, 2, 3] -> [0, 1, 2, 3],
      strides = [1, 1], padding = [1, 1, 1, 1], lhs_dilation = [1, 1], rhs_dilation = [1, 1],
      feature_group_count = 1, batch_group_count = 1
      : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32>
  return %0 : tensor<2x4x5x5xf32>
}

func.func @conv_nhwc_grouped(%x: tensor<1x7x6x4xbf16>, %k: tensor<2x3x2x6xbf16>) -> tensor<1x3x11x6xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 3, 1, 2] x [3, 2, 0, 1] -> [0, 3, 1, 2],
      strides = [2, 1], padding = [0, 1, 2, 0], lhs_dilation = [1, 2], rhs_dilation = [2, 1],
      feature_group_count = 2, batch_group_count = 1
      : (tensor<1x7x6x4xbf16>, tensor<2x3x2x6xbf16>) -> tensor<1x3x11x6xf32>
  return %0 : tensor<1x3x11x6xf32>
}

func.func @max_pool(%x: tensor<2x4x4x3xf32>) -> tensor<2x2x2x3xf32> {
  %0 = mlax.reduce_window max %x, window = [1, 2, 2, 1], strides = [1, 2, 2, 1],
      padding = [0, 0, 0, 0, 0, 0, 0, 0], base_dilation = [1, 1, 1, 1],
      window_dilation = [1, 1, 1, 1] : tensor<2x4x4x3xf32> -> tensor<2x2x2x3xf32>
  return %0 : tensor<2x2x2x3xf32>
}

func.func @sum_window_int(%x: tensor<4xi32>) -> tensor<7xi32> {
  %0 = mlax.reduce_window add %x, window = [3], strides = [1], padding = [1, 1],
      base_dilation = [2], window_dilation = [1] : tensor<4xi32> -> tensor<7xi32>
  return %0 : tensor<7xi32>
}

func.func @window_identities(%x: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<2xi32>, tensor<1xi32>, tensor<3xi1>) {
  %0 = mlax.reduce_window mul %x, window = [2], strides = [1], padding = [0, 0],
      base_dilation = [1], window_dilation = [2] : tensor<4xi32> -> tensor<2xi32>
  %1 = mlax.reduce_window min %x, window = [4], strides = [4], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : tensor<4xi32> -> tensor<1xi32>
  %2 = mlax.reduce_window add %b, window = [2], strides = [1], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : tensor<4xi1> -> tensor<3xi1>
  return %0, %1, %2 : tensor<2xi32>, tensor<1xi32>, tensor<3xi1>
}

func.func @select_and_gather_add(%t: tensor<6xf32>, %x: tensor<6xf32>) -> tensor<3xf32> {
  %0 = mlax.select_and_gather_add GE %t, %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @select_and_scatter_add(%s: tensor<3xf32>, %x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = mlax.select_and_scatter_add LE %s, %x, window = [3], strides = [2], padding = [1, 0]
      : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
