// checkpoint: reverse mode recomputes a remat_call's callee from its operands
// behind an optimization barrier; forward mode inlines it like a call.
//
// RUN: mlax-opt %s --mlax-autodiff | FileCheck %s
// RUN: mlax-opt %s --mlax-default-pipeline | FileCheck %s --check-prefix=HLO

func.func private @block(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sin %x : tensor<4xf32>
  %1 = mlax.sin %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %0 = mlax.remat_call @block(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mlax.mul %0, %0 : tensor<4xf32>
  %2 = mlax.reduce_sum %1, axes = [0] : tensor<4xf32> -> tensor<f32>
  return %2 : tensor<f32>
}
// CHECK-LABEL: func.func private @block_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<4xf32>, %[[CT:[^ ,:)]*]]: tensor<4xf32>
// CHECK: mlax.cos %[[X]]
// CHECK-LABEL: func.func private @loss_jvp(
// CHECK-NOT: mlax.remat_call
// CHECK: mlax.sin
// CHECK: mlax.cos
// CHECK-LABEL: func.func private @loss_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<4xf32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[Y:.*]] = mlax.call @block(%[[X]])
// CHECK: %[[B:.*]] = mlax.optimization_barrier %[[X]] : tensor<4xf32>
// CHECK: %[[R:.*]]:2 = mlax.call @block_vjp(%[[B]], %{{.*}})
// CHECK: return %{{.*}}, %[[R]]#1
// After the pass, remat_call is a plain call:
// CHECK-LABEL: func.func @both(
// CHECK-NOT: remat_call
func.func @both(%x: tensor<4xf32>, %t: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %a:2 = mlax.jvp @loss(%x) tangents(%t) wrt = [0] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)
  %b:2 = mlax.vjp @loss(%x) cotangents(%one) wrt = [0] seeds = [0] : (tensor<4xf32>, tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return %a#1, %b#1 : tensor<f32>, tensor<4xf32>
}
// sin(x), which the backward pass needs, is recomputed after the barrier.
// HLO-LABEL: func.func @both(
// HLO: %[[B:.*]] = "stablehlo.optimization_barrier"(%arg0)
// HLO: "stablehlo.sine"(%[[B]])

// A remat_call marked `mlax.saves_results` computes the values a checkpoint
// policy saves: its results go through the barrier with its operands, and
// the recomputation takes them where the callee computes them (exp's
// derivative uses exp's result: the saved one, so exp is computed once).
func.func private @saved(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sin %x : tensor<4xf32>
  %1 = mlax.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @loss_saved(%x: tensor<4xf32>) -> tensor<f32> {
  %0 = mlax.remat_call @saved(%x) {mlax.saves_results} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mlax.reduce_sum %0, axes = [0] : tensor<4xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
// CHECK-LABEL: func.func private @saved_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<4xf32>, %[[CT:[^ ,:)]*]]: tensor<4xf32>, %[[E:[^ ,:)]*]]: tensor<4xf32>
// CHECK: mlax.mul %[[CT]], %[[E]]
// CHECK: return %[[E]]
// CHECK-LABEL: func.func private @loss_saved_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<4xf32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[Y:.*]] = mlax.call @saved(%[[X]])
// CHECK: %[[B:.*]]:2 = mlax.optimization_barrier %[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>
// CHECK: mlax.call @saved_vjp(%[[B]]#0, %{{.*}}, %[[B]]#1)
func.func @saved_grad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %b:2 = mlax.vjp @loss_saved(%x) cotangents(%one) wrt = [0] seeds = [0] : (tensor<4xf32>, tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return %b#1 : tensor<4xf32>
}
// HLO-LABEL: func.func @saved_grad(
// HLO: "stablehlo.exponential"
// HLO-NOT: "stablehlo.exponential"
// HLO: return
