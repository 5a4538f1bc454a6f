// RUN: mlax-opt %s --split-input-file --canonicalize | FileCheck %s

// A constraint of a constraint with the same sharding is one constraint;
// different shardings both stay (XLA sees each), and a constant stays
// constrained: nothing folds through the op (JAX keeps it).

// CHECK-LABEL: func.func @same_twice(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x8xf32>
// CHECK-NEXT: %[[Y:.*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>}
// CHECK-NEXT: return %[[Y]], %[[Y]]
func.func @same_twice(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x8xf32>
  %1 = mlax.sharding_constraint %0 {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x8xf32>
  %2 = mlax.sharding_constraint %1 {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @different(
// CHECK-NEXT: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>}
// CHECK-NEXT: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>}
// CHECK-NEXT: return
func.func @different(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}]>} : tensor<8x8xf32>
  %1 = mlax.sharding_constraint %0 {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @constant(
// CHECK-NEXT: %[[C:.*]] = mlax.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %[[Y:.*]] = mlax.sharding_constraint %[[C]] {sharding = #mlax.sharding<["x"=8], [{"x"}]>}
// CHECK-NEXT: %[[S:.*]] = mlax.add %[[Y]], %[[Y]]
// CHECK-NEXT: return %[[S]]
func.func @constant() -> tensor<8xf32> {
  %c = mlax.constant dense<1.0> : tensor<8xf32>
  %0 = mlax.sharding_constraint %c {sharding = #mlax.sharding<["x"=8], [{"x"}]>} : tensor<8xf32>
  %1 = mlax.add %0, %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// An unused constraint is dead code, as any pure op.
// CHECK-LABEL: func.func @unused(
// CHECK-NEXT: return %arg0
func.func @unused(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["x"=8], [{"x"}]>} : tensor<8xf32>
  return %x : tensor<8xf32>
}
