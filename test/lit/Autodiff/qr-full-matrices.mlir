// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative of qr with full_matrices of a tall m x n matrix (jax's rule,
// after arXiv:2409.13374): the thin rule for Q's first n columns and R's first
// n rows; Q's last m - n columns through Z = Q_pn (Q_nn - I)^-1, solved with
// the LU factors of Q_nn - I; R's last m - n rows (zero) have zero tangent.

func.func private @qr(%a: tensor<5x3xf32>) -> (tensor<5x5xf32>, tensor<5x3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = true : tensor<5x3xf32> -> (tensor<5x5xf32>, tensor<5x3xf32>)
  return %q, %r : tensor<5x5xf32>, tensor<5x3xf32>
}
func.func @test_qr_full_jvp(%a: tensor<5x3xf32>, %t: tensor<5x3xf32>) -> (tensor<5x5xf32>, tensor<5x3xf32>) {
  %r:4 = mlax.jvp @qr(%a) tangents(%t) wrt = [0] : (tensor<5x3xf32>, tensor<5x3xf32>) -> (tensor<5x5xf32>, tensor<5x3xf32>, tensor<5x5xf32>, tensor<5x3xf32>)
  return %r#2, %r#3 : tensor<5x5xf32>, tensor<5x3xf32>
}
func.func @test_qr_full_vjp(%a: tensor<5x3xf32>, %cq: tensor<5x5xf32>, %cr: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r:3 = mlax.vjp @qr(%a) cotangents(%cq, %cr) wrt = [0] seeds = [0, 1] : (tensor<5x3xf32>, tensor<5x5xf32>, tensor<5x3xf32>) -> (tensor<5x5xf32>, tensor<5x3xf32>, tensor<5x3xf32>)
  return %r#2 : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @qr_jvp(
// CHECK:      %[[Q:[^ ,:)]*]], %[[R:[^ ,:)]*]] = mlax.qr %{{.*}}, full_matrices = true : tensor<5x3xf32> -> (tensor<5x5xf32>, tensor<5x3xf32>)
// CHECK-DAG:  %[[QMN:[^ ,:)]*]] = mlax.slice %[[Q]], start = [0, 0], limit = [5, 3], strides = [1, 1] : tensor<5x5xf32> -> tensor<5x3xf32>
// CHECK-DAG:  %[[QMP:[^ ,:)]*]] = mlax.slice %[[Q]], start = [0, 3], limit = [5, 5], strides = [1, 1] : tensor<5x5xf32> -> tensor<5x2xf32>
// CHECK-DAG:  %[[RNN:[^ ,:)]*]] = mlax.slice %[[R]], start = [0, 0], limit = [3, 3], strides = [1, 1] : tensor<5x3xf32> -> tensor<3x3xf32>
// CHECK:      %[[A:[^ ,:)]*]] = mlax.sub %{{.*}}, %{{.*}} : tensor<3x3xf32>
// CHECK:      %{{.*}}, %{{.*}}, %[[PERM:[^ ,:)]*]] = mlax.lu %[[A]] : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
// CHECK:      mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = false, lower = false, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:      mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = false, lower = true, unit_diagonal = true, transpose_a = none : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:      mlax.triangular_solve %[[RNN]], %{{.*}}, left_side = false, lower = false, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK:      %[[ZEROS:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK:      %[[DQ:[^ ,:)]*]] = mlax.concatenate(%{{.*}}, %{{.*}}) dim = 1 : (tensor<5x3xf32>, tensor<5x2xf32>) -> tensor<5x5xf32>
// CHECK:      mlax.transpose %[[ZEROS]]
// CHECK:      return %[[Q]], %[[R]], %[[DQ]], %{{.*}} : tensor<5x5xf32>, tensor<5x3xf32>, tensor<5x5xf32>, tensor<5x3xf32>

// CHECK-LABEL: func.func private @qr_vjp(
// CHECK:      %[[Q:[^ ,:)]*]], %[[R:[^ ,:)]*]] = mlax.qr %{{.*}}, full_matrices = true : tensor<5x3xf32> -> (tensor<5x5xf32>, tensor<5x3xf32>)
// CHECK:      mlax.lu %{{.*}} : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
// CHECK-DAG:  mlax.slice %{{.*}}, start = [0, 3], limit = [5, 5], strides = [1, 1] : tensor<5x5xf32> -> tensor<5x2xf32>
// CHECK-DAG:  mlax.slice %{{.*}}, start = [0, 0], limit = [3, 3], strides = [1, 1] : tensor<5x3xf32> -> tensor<3x3xf32>
// CHECK:      %[[X:[^ ,:)]*]] = mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = false, lower = false, unit_diagonal = false, transpose_a = transpose : (tensor<3x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK:      return %[[Q]], %[[R]], %[[X]] : tensor<5x5xf32>, tensor<5x3xf32>, tensor<5x3xf32>
