// RUN: mlax-opt %s --split-input-file --mlax-fold-constants | FileCheck %s

// CHECK-LABEL: func.func @reshape_constant
// CHECK: mlax.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
func.func @reshape_constant() -> tensor<2x2xi32> {
  %a = mlax.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = mlax.reshape %a : tensor<4xi32> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @transpose_constant
// CHECK: mlax.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
func.func @transpose_constant() -> tensor<3x2xi32> {
  %a = mlax.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = mlax.transpose %a, permutation = [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_constant
// CHECK-DAG: mlax.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: mlax.constant dense<7> : tensor<3x5xi32>
func.func @broadcast_constant() -> (tensor<2x2xf32>, tensor<3x5xi32>) {
  %a = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = mlax.broadcast_in_dim %a, dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
  %s = mlax.constant dense<7> : tensor<i32>
  %1 = mlax.broadcast_in_dim %s, dims = [] : tensor<i32> -> tensor<3x5xi32>
  return %0, %1 : tensor<2x2xf32>, tensor<3x5xi32>
}

// -----

// CHECK-LABEL: func.func @slice_constant
// CHECK: mlax.constant dense<[1, 3, 5]> : tensor<3xi32>
func.func @slice_constant() -> tensor<3xi32> {
  %a = mlax.constant dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi32>
  %0 = mlax.slice %a, start = [1], limit = [6], strides = [2] : tensor<7xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @concatenate_constants
// CHECK: mlax.constant dense<{{\[}}[1, 2, 9], [3, 4, 9]]> : tensor<2x3xi32>
func.func @concatenate_constants() -> tensor<2x3xi32> {
  %a = mlax.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = mlax.constant dense<9> : tensor<2x1xi32>
  %0 = mlax.concatenate(%a, %b) dim = 1 : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @pad_constant
// CHECK: mlax.constant dense<[0, 1, 0, 2, 0, 0]> : tensor<6xi32>
func.func @pad_constant() -> tensor<6xi32> {
  %a = mlax.constant dense<[1, 2]> : tensor<2xi32>
  %z = mlax.constant dense<0> : tensor<i32>
  %0 = mlax.pad %a, %z, low = [1], high = [2], interior = [1] : tensor<2xi32>, tensor<i32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// Shape ops that change nothing fold to their operand.
// CHECK-LABEL: func.func @shape_identities
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @shape_identities(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = mlax.transpose %x, permutation = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = mlax.broadcast_in_dim %x, dims = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = mlax.slice %x, start = [0, 0], limit = [2, 3], strides = [1, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %4 = mlax.concatenate(%x) dim = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = mlax.constant dense<0.0> : tensor<f32>
  %5 = mlax.pad %x, %z, low = [0, 0], high = [0, 0], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @iota_length_one
// CHECK: mlax.constant dense<0.000000e+00> : tensor<1x4xf32>
// CHECK: mlax.iota dim = 1
func.func @iota_length_one() -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %0 = mlax.iota dim = 0 : tensor<1x4xf32>
  %1 = mlax.iota dim = 1 : tensor<1x4xf32>
  return %0, %1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// A splat broadcast to a huge shape stays a splat (cheap), but a non-splat
// constant is never materialised beyond the size limit (65536 elements).
// CHECK-LABEL: func.func @size_limit
// CHECK-DAG: mlax.constant dense<1.000000e+00> : tensor<1000x1000xf32>
// CHECK-DAG: mlax.broadcast_in_dim %{{.*}}, dims = [1] : tensor<2xf32> -> tensor<40000x2xf32>
// CHECK-DAG: mlax.constant dense<"0x0000803F00000040{{.*}}"> : tensor<1000x2xf32>
func.func @size_limit() -> (tensor<1000x1000xf32>, tensor<40000x2xf32>, tensor<1000x2xf32>) {
  %s = mlax.constant dense<1.0> : tensor<f32>
  %0 = mlax.broadcast_in_dim %s, dims = [] : tensor<f32> -> tensor<1000x1000xf32>
  %v = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = mlax.broadcast_in_dim %v, dims = [1] : tensor<2xf32> -> tensor<40000x2xf32>
  %2 = mlax.broadcast_in_dim %v, dims = [1] : tensor<2xf32> -> tensor<1000x2xf32>
  return %0, %1, %2 : tensor<1000x1000xf32>, tensor<40000x2xf32>, tensor<1000x2xf32>
}

// -----

// Elementwise math on splats of any size stays a splat.
// CHECK-LABEL: func.func @huge_splat_math
// CHECK: mlax.constant dense<4.000000e+00> : tensor<4096x4096xf32>
// CHECK-NOT: mlax.mul
func.func @huge_splat_math() -> tensor<4096x4096xf32> {
  %a = mlax.constant dense<2.0> : tensor<4096x4096xf32>
  %0 = mlax.mul %a, %a : tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
