// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// mlax.sharding_constraint's derivative rules (jax.lax.with_sharding_constraint):
// forward mode constrains the tangent, reverse mode the cotangent, each with
// the primal's sharding.

// CHECK-LABEL: func.func private @f_jvp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<8x4xf32>,
// CHECK-SAME: %[[T:[^ ,:)]*]]: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>
// CHECK-NEXT: %[[Y:[^ ,:)]*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x4xf32>
// CHECK-NEXT: %[[DY:[^ ,:)]*]] = mlax.sharding_constraint %[[T]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x4xf32>
// CHECK-NEXT: %[[S:[^ ,:)]*]] = mlax.sin %[[Y]]
// CHECK-NEXT: %[[C:[^ ,:)]*]] = mlax.cos %[[Y]]
// CHECK-NEXT: %[[DS:[^ ,:)]*]] = mlax.mul %[[DY]], %[[C]]
// CHECK-NEXT: return %[[S]], %[[DS]]

// CHECK-LABEL: func.func private @f_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<8x4xf32>,
// CHECK-SAME: %[[CT:[^ ,:)]*]]: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>
// CHECK-NEXT: %[[Y:[^ ,:)]*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x4xf32>
// CHECK-NEXT: %[[S:[^ ,:)]*]] = mlax.sin %[[Y]]
// CHECK-NEXT: %[[C:[^ ,:)]*]] = mlax.cos %[[Y]]
// CHECK-NEXT: %[[G:[^ ,:)]*]] = mlax.mul %[[CT]], %[[C]]
// CHECK-NEXT: %[[GX:[^ ,:)]*]] = mlax.sharding_constraint %[[G]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x4xf32>
// CHECK-NEXT: return %[[S]], %[[GX]]
func.func private @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x4xf32>
  %1 = mlax.sin %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
func.func @test_jvp(%x: tensor<8x4xf32>, %t: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %r:2 = mlax.jvp @f(%x) tangents(%t) wrt = [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %r#0, %r#1 : tensor<8x4xf32>, tensor<8x4xf32>
}
func.func @test_vjp(%x: tensor<8x4xf32>, %ct: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %r:2 = mlax.vjp @f(%x) cotangents(%ct) wrt = [0] seeds = [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %r#0, %r#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// A constraint on a value with no tangent (an integer) gets none; the
// constraint of the primal stays.
// CHECK-LABEL: func.func private @g_vjp(
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["x"=2], [{"x"}]>} : tensor<4xi32>
// CHECK-NOT: mlax.sharding_constraint
// CHECK: return
func.func private @g(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = mlax.sharding_constraint %i {sharding = #mlax.sharding<["x"=2], [{"x"}]>} : tensor<4xi32>
  %1 = mlax.mul %x, %x : tensor<4xf32>
  return %1, %0 : tensor<4xf32>, tensor<4xi32>
}
func.func @test_g(%x: tensor<4xf32>, %i: tensor<4xi32>, %ct: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %r:3 = mlax.vjp @g(%x, %i) cotangents(%ct) wrt = [0] seeds = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>)
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}
