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

// -----

// A call of @f and a vjp of @f on the same primals (`y, pullback = vjp(f, x)`
// then `pullback(ct)` under jit): the vjp is split, its forward replaces the
// call and returns the residuals, and the vjp becomes the backward alone,
// so the callback runs once, as in JAX.
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  mlax.host_callback %x {callback = 0 : i64, kind = "debug"} : (tensor<f32>) -> ()
  %y = mlax.sin %x : tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func private @f_fwd(
// CHECK: mlax.host_callback
// CHECK: %[[C:.*]] = mlax.cos
// CHECK: return %{{.*}}, %[[C]]
// CHECK-LABEL: func.func private @f_bwd(
// CHECK-NOT: mlax.host_callback
// CHECK: mlax.mul
// CHECK: return
// CHECK-LABEL: func.func @vjp_and_pullback(
// CHECK-SAME: %[[X:.*]]: tensor<f32>, %[[CT:.*]]: tensor<f32>)
// CHECK: %[[F:.*]]:2 = mlax.call @f_fwd(%[[X]]) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK: %[[Z:.*]] = mlax.mul %[[F]]#0, %[[CT]]
// CHECK: %[[B:.*]] = mlax.call @f_bwd(%[[F]]#1, %[[Z]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: return %[[F]]#0, %[[B]]
func.func @vjp_and_pullback(%x: tensor<f32>, %ct: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %y = mlax.call @f(%x) : (tensor<f32>) -> tensor<f32>
  %z = mlax.mul %y, %ct : tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%z) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %y, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// Without side effects the call and the vjp stay as they are (CSE merges
// the forward after inlining).
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %y = mlax.sin %x : tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func @pure(
// CHECK: mlax.call @f(
// CHECK: mlax.call @f_vjp(
func.func @pure(%x: tensor<f32>, %ct: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %y = mlax.call @f(%x) : (tensor<f32>) -> tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%ct) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %y, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// A pure callback on stop_gradient's result is not reached in reverse mode:
// that result carries no cotangent (JAX's symbolic zero), so the callback's
// missing derivative is no error (callback-errors.mlir: one that is reached).
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %c = mlax.stop_gradient %x : tensor<f32>
  %y = mlax.host_callback %c {callback = 0 : i64, kind = "pure"} : (tensor<f32>) -> tensor<f32>
  %z = mlax.mul %x, %y : tensor<f32>
  return %z : tensor<f32>
}
// CHECK-LABEL: func.func private @f_vjp(
// CHECK-SAME: %[[X:[^ ,:]*]]: tensor<f32>, %[[CT:[^ ,:]*]]: tensor<f32>)
// CHECK: %[[Y:.*]] = mlax.host_callback %{{.*}} {callback = 0 : i64, kind = "pure"}
// CHECK: %[[G:.*]] = mlax.mul %[[CT]], %[[Y]]
// CHECK: return %{{.*}}, %[[G]]
// CHECK-LABEL: func.func @grad_through_stop_gradient(
func.func @grad_through_stop_gradient(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}
