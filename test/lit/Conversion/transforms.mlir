// Lowering of the ops the transformation passes leave behind: the
// rematerialization barrier mlax-autodiff emits for `checkpoint` becomes
// stablehlo.optimization_barrier (one-to-one, Mlax_HloName). stop_gradient
// and the custom/remat calls never reach the lowering (mlax-autodiff and the
// simplify pipeline remove them); the lowering rejects them with a location.
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo --verify-diagnostics | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo --verify-diagnostics | FileCheck %s --check-prefix=NOMLAX
//
// NOMLAX-NOT: mlax.

// CHECK-LABEL: func.func @optimization_barrier(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<2xi32>)
// CHECK: %[[R:.*]]:2 = "stablehlo.optimization_barrier"(%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<2xi32>)
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<4xf32>, tensor<2xi32>
func.func @optimization_barrier(%x: tensor<4xf32>, %y: tensor<2xi32>) -> (tensor<4xf32>, tensor<2xi32>) {
  %0:2 = mlax.optimization_barrier %x, %y : tensor<4xf32>, tensor<2xi32>
  return %0#0, %0#1 : tensor<4xf32>, tensor<2xi32>
}

// -----

func.func @stop_gradient_is_removed_before_lowering(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'mlax.stop_gradient' that was explicitly marked illegal}}
  %0 = mlax.stop_gradient %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
