// Nested requests: the callee of a request may itself contain requests (a
// derivative of a derivative); mlax-autodiff expands the innermost first and
// flattens nested mlax.call callees into the derivative function.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s
// RUN: mlax-opt %s --split-input-file --mlax-simplify-pipeline | FileCheck %s --check-prefix=SIMPLE

// f(x) = 2 x^3: f'(x) = 6 x^2, f''(x) = 12 x.
func.func private @cube(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.mul %x, %x : tensor<f32>
  %1 = mlax.mul %0, %x : tensor<f32>
  %c = mlax.constant dense<2.0> : tensor<f32>
  %2 = mlax.mul %c, %1 : tensor<f32>
  return %2 : tensor<f32>
}
func.func private @dcube(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %y, %g = mlax.vjp @cube(%x) cotangents(%one) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %g : tensor<f32>
}
// The outer request is expanded after the inner one; the inner derivative
// (a call of @cube_vjp) is flattened into @dcube_vjp.
// CHECK-LABEL: func.func private @cube_vjp(
// CHECK-LABEL: func.func private @dcube(
// CHECK: mlax.call @cube_vjp
// CHECK-LABEL: func.func private @dcube_vjp(
// CHECK-NOT: mlax.call
// CHECK-NOT: mlax.vjp
// CHECK: return
// CHECK-LABEL: func.func @second_derivative(
// CHECK: %[[R:.*]]:2 = mlax.call @dcube_vjp(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK: return %[[R]]#1
func.func @second_derivative(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %y, %g = mlax.vjp @dcube(%x) cotangents(%one) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %g : tensor<f32>
}
// After the simplify pipeline only 12 x remains, as ordinary mlax ops.
// SIMPLE-LABEL: func.func @second_derivative(
// SIMPLE-NOT: mlax.call
// SIMPLE-NOT: mlax.vjp
// SIMPLE: return

// -----

// Forward over reverse (a Hessian-vector product) and reverse over forward.
func.func private @sq(%x: tensor<3xf32>) -> tensor<f32> {
  %0 = mlax.mul %x, %x : tensor<3xf32>
  %1 = mlax.reduce_sum %0, axes = [0] : tensor<3xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
func.func private @grad_sq(%x: tensor<3xf32>) -> tensor<3xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %y, %g = mlax.vjp @sq(%x) cotangents(%one) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
  return %g : tensor<3xf32>
}
func.func private @jvp_sq(%x: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<f32> {
  %y, %dy = mlax.jvp @sq(%x) tangents(%t) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
  return %dy : tensor<f32>
}
// CHECK-LABEL: func.func private @sq_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<3xf32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[B:.*]] = mlax.broadcast_in_dim %[[CT]], dims = [] : tensor<f32> -> tensor<3xf32>
// CHECK-DAG: mlax.mul %[[B]], %[[X]]
// CHECK-DAG: mlax.mul %[[X]], %[[B]]
// CHECK-LABEL: func.func private @sq_jvp(
// CHECK-LABEL: func.func private @grad_sq_jvp(
// CHECK-LABEL: func.func private @jvp_sq_vjp(
// CHECK-LABEL: func.func @hvp(
// CHECK: mlax.call @grad_sq_jvp
func.func @hvp(%x: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %g, %hv = mlax.jvp @grad_sq(%x) tangents(%v) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %hv : tensor<3xf32>
}
// CHECK-LABEL: func.func @rev_over_fwd(
// CHECK: mlax.call @jvp_sq_vjp
func.func @rev_over_fwd(%x: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @jvp_sq(%x, %v) cotangents(%one) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}

// -----

// Only what is needed: with respect to the second argument only, the pass
// builds no cotangent code for the unused result and propagates nothing into
// x; rules may emit a dead partial (here for sin(x)), which canonicalize
// removes.
func.func private @two(%x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.sin %x : tensor<f32>
  %1 = mlax.mul %0, %y : tensor<f32>
  %2 = mlax.exp %x : tensor<f32>
  return %1, %2 : tensor<f32>, tensor<f32>
}
// CHECK-LABEL: func.func private @two_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[Y:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[S:.*]] = mlax.sin %[[X]]
// CHECK: %[[P:.*]] = mlax.mul %[[S]], %[[Y]]
// CHECK: %[[E:.*]] = mlax.exp %[[X]]
// CHECK-NOT: mlax.cos
// CHECK: %[[G:.*]] = mlax.mul %[[S]], %[[CT]]
// CHECK-NEXT: return %[[P]], %[[E]], %[[G]]
// SIMPLE-LABEL: func.func @wrt_y(
// SIMPLE-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[Y:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// SIMPLE-NEXT: %[[S:.*]] = mlax.sin %[[X]]
// SIMPLE-NEXT: %[[G:.*]] = mlax.mul %[[S]], %[[CT]]
// SIMPLE-NEXT: return %[[G]]
func.func @wrt_y(%x: tensor<f32>, %y: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %r:3 = mlax.vjp @two(%x, %y) cotangents(%c) wrt = [1] seeds = [0] : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
  return %r#2 : tensor<f32>
}

// -----

// A callee that calls another function (a nested jit) is flattened.
func.func private @inner(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sin %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @outer(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.call @inner(%x) : (tensor<f32>) -> tensor<f32>
  %1 = mlax.mul %0, %x : tensor<f32>
  return %1 : tensor<f32>
}
// CHECK-LABEL: func.func private @outer_jvp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[T:[^ ,:)]*]]: tensor<f32>
// Each op's tangent code follows it.
// CHECK-NEXT: %[[S:.*]] = mlax.sin %[[X]]
// CHECK-NEXT: %[[C:.*]] = mlax.cos %[[X]]
// CHECK-NEXT: %[[TS:.*]] = mlax.mul %[[T]], %[[C]]
// CHECK-NEXT: %[[P:.*]] = mlax.mul %[[S]], %[[X]]
// CHECK-NEXT: %[[A:.*]] = mlax.mul %[[TS]], %[[X]]
// CHECK-NEXT: %[[B:.*]] = mlax.mul %[[S]], %[[T]]
// CHECK-NEXT: %[[SUM:.*]] = mlax.add %[[A]], %[[B]]
// CHECK-NEXT: return %[[P]], %[[SUM]]
func.func @flatten(%x: tensor<f32>, %t: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @outer(%x) tangents(%t) wrt = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}
