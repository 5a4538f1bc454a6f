// Verifier and shape-rule errors of the reductions. Every message names
// the op it is about.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//


func.func @reduce_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_sum' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_sum' op axis 2 is out of range for rank 2}}
  %0 = mlax.reduce_sum %x, axes = [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis_negative(%x: tensor<2x3xi1>) {
  // expected-error @+2 {{'mlax.reduce_or' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_or' op axis -1 is out of range for rank 2}}
  %0 = mlax.reduce_or %x, axes = [-1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}

// -----

func.func @reduce_axis_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_max' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_max' op axis 1 appears twice}}
  %0 = mlax.reduce_max %x, axes = [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axes_unsorted(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_min' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_min' op axes must be sorted, got [1, 0]}}
  %0 = mlax.reduce_min %x, axes = [1, 0] : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_result_shape(%x: tensor<2x3xi32>) {
  // expected-error @+2 {{'mlax.reduce_prod' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_prod' op inferred type(s) 'tensor<2xi32>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xi32> -> tensor<3xi32>
  return
}

// -----

func.func @reduce_and_on_float(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlax.reduce_and' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = mlax.reduce_and %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_sum_on_bool(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'mlax.reduce_sum' op operand #0 must be statically shaped tensor of floating-point or complex-type or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<2x3xi1>'}}
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}
