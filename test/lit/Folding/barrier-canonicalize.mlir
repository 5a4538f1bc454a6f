// RUN: mlax-opt %s --split-input-file --canonicalize | FileCheck %s

// An optimization barrier keeps only the operands whose results are used:
// what it does not hand on need not be kept alive up to it.

// CHECK-LABEL: func.func @unused_result_dropped
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[B:.*]] = mlax.optimization_barrier %[[Y]] : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = mlax.sin %[[B]]
// CHECK-NEXT: return %[[S]]
func.func @unused_result_dropped(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = mlax.optimization_barrier %x, %y : tensor<4xf32>, tensor<4xf32>
  %1 = mlax.sin %0#1 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// All results used: unchanged.
// CHECK-LABEL: func.func @all_used
// CHECK-NEXT: %[[B:.*]]:2 = mlax.optimization_barrier %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>
// CHECK-NEXT: return %[[B]]#1, %[[B]]#0
func.func @all_used(%x: tensor<4xf32>, %y: tensor<f32>) -> (tensor<f32>, tensor<4xf32>) {
  %0:2 = mlax.optimization_barrier %x, %y : tensor<4xf32>, tensor<f32>
  return %0#1, %0#0 : tensor<f32>, tensor<4xf32>
}

// -----

// None used: dead code, erased.
// CHECK-LABEL: func.func @none_used
// CHECK-NOT: optimization_barrier
// CHECK: return
func.func @none_used(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.optimization_barrier %x : tensor<4xf32>
  return %x : tensor<4xf32>
}
