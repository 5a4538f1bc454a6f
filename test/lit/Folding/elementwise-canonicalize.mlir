// RUN: mlax-opt %s --split-input-file --canonicalize | FileCheck %s

// Chains of exact conversions collapse; dead pure ops go.

// An exact widening followed by any conversion is that conversion.
// CHECK-LABEL: func.func @convert_exact_chain
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi8>)
// CHECK-DAG: %[[A:.*]] = mlax.convert %[[X]] : tensor<4xf32> -> tensor<4xi32>
// CHECK-DAG: %[[B:.*]] = mlax.convert %[[I]] : tensor<4xi8> -> tensor<4xf32>
// CHECK: return %[[X]], %[[A]], %[[B]]
func.func @convert_exact_chain(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xf64>
  %1 = mlax.convert %0 : tensor<4xf64> -> tensor<4xf32>
  %2 = mlax.convert %0 : tensor<4xf64> -> tensor<4xi32>
  %3 = mlax.convert %i : tensor<4xi8> -> tensor<4xi32>
  %4 = mlax.convert %3 : tensor<4xi32> -> tensor<4xf32>
  return %1, %2, %4 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}

// -----

// Narrowing first (f64 -> f32 rounds, i32 -> i8 wraps, f32 -> i32 truncates)
// is not exact: the chain stays.
// CHECK-LABEL: func.func @convert_rounding_chain_kept
// CHECK-COUNT-6: mlax.convert
func.func @convert_rounding_chain_kept(%x: tensor<4xf64>, %i: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xf64>, tensor<4xi32>, tensor<4xf32>) {
  %0 = mlax.convert %x : tensor<4xf64> -> tensor<4xf32>
  %1 = mlax.convert %0 : tensor<4xf32> -> tensor<4xf64>
  %2 = mlax.convert %i : tensor<4xi32> -> tensor<4xi8>
  %3 = mlax.convert %2 : tensor<4xi8> -> tensor<4xi32>
  %4 = mlax.convert %f : tensor<4xf32> -> tensor<4xi32>
  %5 = mlax.convert %4 : tensor<4xi32> -> tensor<4xf32>
  return %1, %3, %5 : tensor<4xf64>, tensor<4xi32>, tensor<4xf32>
}

// -----

// i32 does not fit f32's mantissa, and unsigned -> signed of the same width
// wraps: not exact.
// CHECK-LABEL: func.func @convert_inexact_int_kept
// CHECK-COUNT-4: mlax.convert
func.func @convert_inexact_int_kept(%i: tensor<4xi32>, %u: tensor<4xui8>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = mlax.convert %i : tensor<4xi32> -> tensor<4xf32>
  %1 = mlax.convert %0 : tensor<4xf32> -> tensor<4xi32>
  %2 = mlax.convert %u : tensor<4xui8> -> tensor<4xi8>
  %3 = mlax.convert %2 : tensor<4xi8> -> tensor<4xf32>
  return %1, %3 : tensor<4xi32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @dead_pure_ops
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @dead_pure_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  %1 = mlax.mul %0, %0 : tensor<4xf32>
  %2 = mlax.exp %1 : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// exp of a select with a NaN case selects exp of the other cases (exp(NaN)
// is NaN; a NaN-proven input to a fused exp is miscompiled by XLA's CPU
// backend). The accuracy hint stays.
// CHECK-LABEL: func.func @exp_of_select_with_nan
// CHECK-SAME: (%[[P:.*]]: tensor<3xi1>, %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[NAN:.*]] = mlax.constant dense<0x7FC00000> : tensor<3xf32>
// CHECK: %[[E:.*]] = mlax.exp %[[X]] accuracy <highest>
// CHECK: %[[R:.*]] = mlax.select_n %[[P]], %[[NAN]], %[[E]]
// CHECK: return %[[R]]
func.func @exp_of_select_with_nan(%p: tensor<3xi1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %nan = mlax.constant dense<0x7FC00000> : tensor<3xf32>
  %0 = mlax.select_n %p, %nan, %x : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  %1 = mlax.exp %0 accuracy <highest> : tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// Without a NaN case, or with the select used elsewhere, nothing moves.
// CHECK-LABEL: func.func @exp_of_select_kept
// CHECK: %[[S:.*]] = mlax.select_n
// CHECK: mlax.exp %[[S]]
// CHECK: %[[S2:.*]] = mlax.select_n
// CHECK: mlax.exp %[[S2]]
func.func @exp_of_select_kept(%p: tensor<3xi1>, %x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %one = mlax.constant dense<1.0> : tensor<3xf32>
  %0 = mlax.select_n %p, %one, %x : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  %1 = mlax.exp %0 : tensor<3xf32>
  %nan = mlax.constant dense<0x7FC00000> : tensor<3xf32>
  %2 = mlax.select_n %p, %nan, %x : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  %3 = mlax.exp %2 : tensor<3xf32>
  return %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
