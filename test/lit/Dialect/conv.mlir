// Round trip of conv_general_dilated and the window ops (reduce_window,
// select_and_gather_add, select_and_scatter_add).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @conv_nchw(
// CHECK: mlax.conv_general_dilated %{{.*}}, %{{.*}}, dims = [0, 1, 2, 3] x [0, 1, 2, 3] -> [0, 1, 2, 3], strides = [1, 1], padding = [1, 1, 1, 1], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_group_count = 1, batch_group_count = 1 : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32>
func.func @conv_nchw(%x: tensor<2x3x5x5xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2, 3] x [0, 1, 2, 3] -> [0, 1, 2, 3],
      strides = [1, 1], padding = [1, 1, 1, 1], lhs_dilation = [1, 1], rhs_dilation = [1, 1],
      feature_group_count = 1, batch_group_count = 1
      : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32>
  return %0 : tensor<2x4x5x5xf32>
}

// NHWC / HWIO, strided, dilated, grouped, with a wider result type.
// CHECK-LABEL: func.func @conv_nhwc_grouped(
// CHECK: mlax.conv_general_dilated %{{.*}}, %{{.*}}, dims = [0, 3, 1, 2] x [3, 2, 0, 1] -> [0, 3, 1, 2], strides = [2, 1], padding = [0, 1, 2, 0], lhs_dilation = [1, 2], rhs_dilation = [2, 1], feature_group_count = 2, batch_group_count = 1 : (tensor<1x7x6x4xbf16>, tensor<2x3x2x6xbf16>) -> tensor<1x3x11x6xf32>
func.func @conv_nhwc_grouped(%x: tensor<1x7x6x4xbf16>, %k: tensor<2x3x2x6xbf16>) -> tensor<1x3x11x6xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 3, 1, 2] x [3, 2, 0, 1] -> [0, 3, 1, 2],
      strides = [2, 1], padding = [0, 1, 2, 0], lhs_dilation = [1, 2], rhs_dilation = [2, 1],
      feature_group_count = 2, batch_group_count = 1
      : (tensor<1x7x6x4xbf16>, tensor<2x3x2x6xbf16>) -> tensor<1x3x11x6xf32>
  return %0 : tensor<1x3x11x6xf32>
}

// CHECK-LABEL: func.func @conv_batch_groups(
// CHECK: batch_group_count = 2 : (tensor<4x3x5xi32>, tensor<6x3x2xi32>) -> tensor<2x6x4xi32>
func.func @conv_batch_groups(%x: tensor<4x3x5xi32>, %k: tensor<6x3x2xi32>) -> tensor<2x6x4xi32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2],
      strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1],
      feature_group_count = 1, batch_group_count = 2
      : (tensor<4x3x5xi32>, tensor<6x3x2xi32>) -> tensor<2x6x4xi32>
  return %0 : tensor<2x6x4xi32>
}

// CHECK-LABEL: func.func @max_pool(
// CHECK: mlax.reduce_window max %{{.*}}, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], padding = [0, 0, 0, 0, 0, 0, 0, 0], base_dilation = [1, 1, 1, 1], window_dilation = [1, 1, 1, 1] : tensor<2x4x4x3xf32> -> tensor<2x2x2x3xf32>
func.func @max_pool(%x: tensor<2x4x4x3xf32>) -> tensor<2x2x2x3xf32> {
  %0 = mlax.reduce_window max %x, window = [1, 2, 2, 1], strides = [1, 2, 2, 1],
      padding = [0, 0, 0, 0, 0, 0, 0, 0], base_dilation = [1, 1, 1, 1],
      window_dilation = [1, 1, 1, 1] : tensor<2x4x4x3xf32> -> tensor<2x2x2x3xf32>
  return %0 : tensor<2x2x2x3xf32>
}

// CHECK-LABEL: func.func @window_kinds(
// CHECK: mlax.reduce_window add %{{.*}}, window = [3], strides = [1], padding = [1, 1], base_dilation = [2], window_dilation = [1] : tensor<4xi32> -> tensor<7xi32>
// CHECK: mlax.reduce_window mul %{{.*}}, window = [2], strides = [1], padding = [0, 0], base_dilation = [1], window_dilation = [2] : tensor<4xi32> -> tensor<2xi32>
// CHECK: mlax.reduce_window min %{{.*}}, window = [4], strides = [4], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<4xi32> -> tensor<1xi32>
func.func @window_kinds(%x: tensor<4xi32>) -> (tensor<7xi32>, tensor<2xi32>, tensor<1xi32>) {
  %0 = mlax.reduce_window add %x, window = [3], strides = [1], padding = [1, 1],
      base_dilation = [2], window_dilation = [1] : tensor<4xi32> -> tensor<7xi32>
  %1 = mlax.reduce_window mul %x, window = [2], strides = [1], padding = [0, 0],
      base_dilation = [1], window_dilation = [2] : tensor<4xi32> -> tensor<2xi32>
  %2 = mlax.reduce_window min %x, window = [4], strides = [4], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : tensor<4xi32> -> tensor<1xi32>
  return %0, %1, %2 : tensor<7xi32>, tensor<2xi32>, tensor<1xi32>
}

// CHECK-LABEL: func.func @select_and_gather_add(
// CHECK: mlax.select_and_gather_add GE %{{.*}}, %{{.*}}, window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
func.func @select_and_gather_add(%t: tensor<6xf32>, %x: tensor<6xf32>) -> tensor<3xf32> {
  %0 = mlax.select_and_gather_add GE %t, %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @select_and_scatter_add(
// CHECK: mlax.select_and_scatter_add LE %{{.*}}, %{{.*}}, window = [3], strides = [2], padding = [1, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
func.func @select_and_scatter_add(%s: tensor<3xf32>, %x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = mlax.select_and_scatter_add LE %s, %x, window = [3], strides = [2], padding = [1, 0]
      : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// The result shape is inferred: out_spec may order the dimensions unlike
// lhs_spec; padding may leave no window (a size-0 dimension).
// CHECK-LABEL: func.func @conv_out_spec_permuted(
// CHECK: dims = [0, 1, 2] x [2, 1, 0] -> [2, 0, 1], strides = [2], padding = [-1, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<3x2x6xf64>, tensor<3x2x5xf64>) -> tensor<5x2x3xf64>
func.func @conv_out_spec_permuted(%x: tensor<3x2x6xf64>, %k: tensor<3x2x5xf64>) -> tensor<5x2x3xf64> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [2, 1, 0] -> [2, 0, 1],
      strides = [2], padding = [-1, 0], lhs_dilation = [1], rhs_dilation = [1],
      feature_group_count = 1, batch_group_count = 1
      : (tensor<3x2x6xf64>, tensor<3x2x5xf64>) -> tensor<5x2x3xf64>
  return %0 : tensor<5x2x3xf64>
}

// CHECK-LABEL: func.func @reduce_window_empty(
// CHECK: mlax.reduce_window add %{{.*}}, window = [5, 1], strides = [1, 1], padding = [0, 0, 0, 0], base_dilation = [1, 1], window_dilation = [1, 1] : tensor<3x4xf32> -> tensor<0x4xf32>
func.func @reduce_window_empty(%x: tensor<3x4xf32>) -> tensor<0x4xf32> {
  %0 = mlax.reduce_window add %x, window = [5, 1], strides = [1, 1], padding = [0, 0, 0, 0],
      base_dilation = [1, 1], window_dilation = [1, 1] : tensor<3x4xf32> -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}
