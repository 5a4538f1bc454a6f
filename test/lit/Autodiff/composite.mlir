// A composite no tangent or cotangent reaches stays in the derivative
// function as it is (the primal computation keeps it); JAX's composite
// rules are only asked for where one does (composite-errors.mlir).
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

func.func private @my.scale(%y: tensor<f32>) -> tensor<f32> {
  %z = mlax.add %y, %y : tensor<f32>
  return %z : tensor<f32>
}
func.func private @f(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = mlax.composite "my.scale" @my.scale(%y) : (tensor<f32>) -> tensor<f32>
  %r = mlax.mul %x, %s : tensor<f32>
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func private @f_vjp(
// CHECK-SAME: %[[X:[^ ,:]*]]: tensor<f32>, %[[Y:[^ ,:]*]]: tensor<f32>, %[[CT:[^ ,:]*]]: tensor<f32>)
// CHECK: %[[S:.*]] = mlax.composite "my.scale" @my.scale(%[[Y]]) : (tensor<f32>) -> tensor<f32>
// CHECK: mlax.mul %[[CT]], %[[S]]
// CHECK: return
// CHECK-LABEL: func.func @grad_x(
func.func @grad_x(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @f(%x, %y) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @my.scale(%y: tensor<f32>) -> tensor<f32> {
  %z = mlax.add %y, %y : tensor<f32>
  return %z : tensor<f32>
}
func.func private @f(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = mlax.composite "my.scale" @my.scale(%y) : (tensor<f32>) -> tensor<f32>
  %r = mlax.mul %x, %s : tensor<f32>
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func private @f_jvp(
// CHECK-SAME: %[[X:[^ ,:]*]]: tensor<f32>, %[[Y:[^ ,:]*]]: tensor<f32>, %[[DX:[^ ,:]*]]: tensor<f32>)
// CHECK: %[[S:.*]] = mlax.composite "my.scale" @my.scale(%[[Y]]) : (tensor<f32>) -> tensor<f32>
// CHECK: mlax.mul %[[DX]], %[[S]]
// CHECK: return
// CHECK-LABEL: func.func @jvp_x(
func.func @jvp_x(%x: tensor<f32>, %y: tensor<f32>, %dx: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @f(%x, %y) tangents(%dx) wrt = [0]
      : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

// A composite fed by stop_gradient is not reached in reverse mode either:
// stop_gradient's result carries no cotangent (JAX's symbolic zero).
func.func private @my.scale(%y: tensor<f32>) -> tensor<f32> {
  %z = mlax.add %y, %y : tensor<f32>
  return %z : tensor<f32>
}
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %c = mlax.stop_gradient %x : tensor<f32>
  %s = mlax.composite "my.scale" @my.scale(%c) : (tensor<f32>) -> tensor<f32>
  %r = mlax.mul %x, %s : tensor<f32>
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func private @f_vjp(
// CHECK-SAME: %[[X:[^ ,:]*]]: tensor<f32>, %[[CT:[^ ,:]*]]: tensor<f32>)
// CHECK: %[[S:.*]] = mlax.composite "my.scale" @my.scale(%{{.*}}) : (tensor<f32>) -> tensor<f32>
// CHECK: %[[G:.*]] = mlax.mul %[[CT]], %[[S]]
// CHECK-NOT: mlax.composite
// CHECK: return %{{.*}}, %[[G]]
// CHECK-LABEL: func.func @grad_through_stop_gradient(
func.func @grad_through_stop_gradient(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}
