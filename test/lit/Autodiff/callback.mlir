// Derivatives through mlax.host_callback: a debug callback stays in the
// primal computation (called on the primal values) and has no tangent or
// cotangent, in forward and reverse mode alike.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  mlax.host_callback %x {callback = 0 : i64, kind = "debug"} : (tensor<f32>) -> ()
  %y = mlax.mul %x, %x : tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func private @f_vjp(
// CHECK: mlax.host_callback %{{.*}} {callback = 0 : i64, kind = "debug"} : (tensor<f32>) -> ()
// CHECK-NOT: mlax.host_callback
// CHECK: return
// CHECK-LABEL: func.func @grad(
// CHECK-NOT: mlax.host_callback
// CHECK: return
func.func @grad(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  mlax.host_callback %x {callback = 0 : i64, kind = "debug"} : (tensor<f32>) -> ()
  %y = mlax.sin %x : tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func private @f_jvp
// CHECK: mlax.host_callback %{{.*}} {callback = 0 : i64, kind = "debug"} : (tensor<f32>) -> ()
// CHECK-NOT: mlax.host_callback
// CHECK: return
// CHECK-LABEL: func.func @jvp(
// CHECK-NOT: mlax.host_callback
// CHECK: return
func.func @jvp(%x: tensor<f32>, %dx: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @f(%x) tangents(%dx) wrt = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}
