// vmap composed with itself and with autodiff. mlax-expand-transforms (the
// first pass of the default pipeline) expands every kind innermost first
// (blocked.mlir: what a single-kind pass does instead).
//
// RUN: mlax-opt %s --split-input-file --mlax-expand-transforms | FileCheck %s

func.func private @loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
  %0 = mlax.mul %w, %x : tensor<3xf32>
  %1 = mlax.reduce_sum %0, axes = [0] : tensor<3xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
func.func private @grad_loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @loss(%w, %x) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}
// Per-example gradients: vmap of grad. The vjp is expanded first, then the
// function holding its call is batched.
// CHECK-LABEL: func.func private @loss_vjp(
// CHECK-LABEL: func.func private @grad_loss_vmap(
// CHECK-SAME: %[[W:[^ ,:)]*]]: tensor<3xf32>, %[[XS:[^ ,:)]*]]: tensor<8x3xf32>
// CHECK-NOT: mlax.vjp
// CHECK-NOT: mlax.call
// CHECK: return %{{.*}} : tensor<8x3xf32>
// CHECK-LABEL: func.func @per_example(
// CHECK: mlax.call @grad_loss_vmap
func.func @per_example(%w: tensor<3xf32>, %xs: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %g = mlax.vmap @grad_loss(%w, %xs) in_axes = [-1, 0] out_axes = [0] size = 8
      : (tensor<3xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  return %g : tensor<8x3xf32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sin %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @batched_sum(%xs: tensor<4xf32>) -> tensor<f32> {
  %y = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 4 : (tensor<4xf32>) -> tensor<4xf32>
  %s = mlax.reduce_sum %y, axes = [0] : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
// grad of vmap: the vmap is expanded first, then differentiated.
// CHECK-LABEL: func.func private @f_vmap(
// CHECK: mlax.sin %{{.*}} : tensor<4xf32>
// CHECK-LABEL: func.func private @batched_sum_vjp(
// CHECK: mlax.cos %{{.*}} : tensor<4xf32>
func.func @grad_of_vmap(%xs: tensor<4xf32>) -> tensor<4xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @batched_sum(%xs) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<4xf32>, tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// Nested vmap: an outer product as vmap of vmap of a scalar product.
func.func private @mul(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = mlax.mul %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @row(%a: tensor<f32>, %bs: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.vmap @mul(%a, %bs) in_axes = [-1, 0] out_axes = [0] size = 3
      : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func private @row_vmap(
// CHECK-SAME: %[[A:[^ ,:)]*]]: tensor<2xf32>, %[[B:[^ ,:)]*]]: tensor<3xf32>
// CHECK-DAG: mlax.broadcast_in_dim %[[A]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-DAG: mlax.broadcast_in_dim %[[B]], dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
// CHECK: mlax.mul %{{.*}}, %{{.*}} : tensor<2x3xf32>
func.func @outer(%as: tensor<2xf32>, %bs: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = mlax.vmap @row(%as, %bs) in_axes = [0, -1] out_axes = [0] size = 2
      : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
