// RUN: mlax-opt %s --split-input-file --mlax-fold-constants | FileCheck %s

// Float folders: IEEE semantics, NaN and signed zero preserved, and the
// identities that are NOT exact for floats left alone.

// CHECK-LABEL: func.func @add_splats
// CHECK: %[[C:.*]] = mlax.constant dense<3.500000e+00> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @add_splats() -> tensor<4xf32> {
  %a = mlax.constant dense<1.5> : tensor<4xf32>
  %b = mlax.constant dense<2.0> : tensor<4xf32>
  %0 = mlax.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @elementwise_dense
// CHECK: mlax.constant dense<[-1.000000e+00, 4.000000e+00, 1.000000e+00]> : tensor<3xf64>
// CHECK-NOT: mlax.mul
func.func @elementwise_dense() -> tensor<3xf64> {
  %a = mlax.constant dense<[1.0, 2.0, -0.5]> : tensor<3xf64>
  %b = mlax.constant dense<[-1.0, 2.0, -2.0]> : tensor<3xf64>
  %0 = mlax.mul %a, %b : tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// 0/0 is NaN, 1/0 is +inf, -1/0 is -inf: folding keeps IEEE results.
// CHECK-LABEL: func.func @div_by_zero_float
// CHECK: mlax.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<3xf32>
// CHECK-NOT: mlax.div
func.func @div_by_zero_float() -> tensor<3xf32> {
  %a = mlax.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %b = mlax.constant dense<0.0> : tensor<3xf32>
  %0 = mlax.div %a, %b : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @nan_producing
// CHECK-DAG: mlax.constant dense<0x{{[7F]}}FC00000> : tensor<f32>
// CHECK-DAG: mlax.constant dense<0x{{[7F]}}FF8000000000000> : tensor<f64>
// CHECK-NOT: mlax.sqrt
// CHECK-NOT: mlax.log
func.func @nan_producing() -> (tensor<f32>, tensor<f64>) {
  %m = mlax.constant dense<-1.0> : tensor<f32>
  %0 = mlax.sqrt %m : tensor<f32>
  %n = mlax.constant dense<-2.0> : tensor<f64>
  %1 = mlax.log %n : tensor<f64>
  return %0, %1 : tensor<f32>, tensor<f64>
}

// -----

// NaN propagates through max/min; -0.0 < +0.0.
// CHECK-LABEL: func.func @max_min_nan
// CHECK-DAG: mlax.constant dense<[0x7FC00000, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG: mlax.constant dense<[0x7FC00000, -0.000000e+00]> : tensor<2xf32>
func.func @max_min_nan() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = mlax.constant dense<[0x7FC00000, -0.0]> : tensor<2xf32>
  %b = mlax.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %0 = mlax.max %a, %b : tensor<2xf32>
  %1 = mlax.min %a, %b : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Signed zero survives negation and sign.
// CHECK-LABEL: func.func @signed_zero
// CHECK-DAG: mlax.constant dense<[-0.000000e+00, 0.000000e+00, -3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: mlax.constant dense<[0.000000e+00, -0.000000e+00, 1.000000e+00]> : tensor<3xf32>
func.func @signed_zero() -> (tensor<3xf32>, tensor<3xf32>) {
  %a = mlax.constant dense<[0.0, -0.0, 3.0]> : tensor<3xf32>
  %0 = mlax.neg %a : tensor<3xf32>
  %1 = mlax.sign %a : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @transcendental
// CHECK-DAG: mlax.constant dense<2.71828175> : tensor<f32>
// CHECK-DAG: mlax.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: mlax.constant dense<1.41421354> : tensor<f32>
// CHECK-DAG: mlax.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NOT: mlax.exp
// CHECK-NOT: mlax.logistic
// CHECK-NOT: mlax.pow
func.func @transcendental() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %zero = mlax.constant dense<0.0> : tensor<f32>
  %two = mlax.constant dense<2.0> : tensor<f32>
  %three = mlax.constant dense<3.0> : tensor<f32>
  %0 = mlax.exp %one : tensor<f32>
  %1 = mlax.logistic %zero : tensor<f32>
  %2 = mlax.sqrt %two : tensor<f32>
  %3 = mlax.pow %two, %three : tensor<f32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// round is ties-away, round_even ties-to-even; floor/ceil keep -0.0.
// CHECK-LABEL: func.func @rounding
// CHECK-DAG: mlax.constant dense<[3.000000e+00, -3.000000e+00, -0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: mlax.constant dense<[2.000000e+00, -2.000000e+00, -0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: mlax.constant dense<[2.000000e+00, -3.000000e+00, -1.000000e+00]> : tensor<3xf32>
func.func @rounding() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %a = mlax.constant dense<[2.5, -2.5, -0.25]> : tensor<3xf32>
  %0 = mlax.round %a : tensor<3xf32>
  %1 = mlax.round_even %a : tensor<3xf32>
  %2 = mlax.floor %a : tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// fmod: the remainder has the dividend's sign.
// CHECK-LABEL: func.func @rem_float
// CHECK: mlax.constant dense<[1.000000e+00, -1.000000e+00, 0x7FC00000]> : tensor<3xf32>
func.func @rem_float() -> tensor<3xf32> {
  %a = mlax.constant dense<[7.0, -7.0, 1.0]> : tensor<3xf32>
  %b = mlax.constant dense<[3.0, 3.0, 0.0]> : tensor<3xf32>
  %0 = mlax.rem %a, %b : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// x * 1.0, x / 1.0, x - 0.0, x + (-0.0) and pow(x, 1) are exact identities.
// CHECK-LABEL: func.func @exact_identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: mlax.mul
// CHECK-NOT: mlax.div
// CHECK-NOT: mlax.sub
// CHECK-NOT: mlax.add
// CHECK-NOT: mlax.pow
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @exact_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %one = mlax.constant dense<1.0> : tensor<4xf32>
  %zero = mlax.constant dense<0.0> : tensor<4xf32>
  %negzero = mlax.constant dense<-0.0> : tensor<4xf32>
  %0 = mlax.mul %x, %one : tensor<4xf32>
  %1 = mlax.mul %one, %x : tensor<4xf32>
  %2 = mlax.div %x, %one : tensor<4xf32>
  %3 = mlax.sub %x, %zero : tensor<4xf32>
  %4 = mlax.add %negzero, %x : tensor<4xf32>
  %5 = mlax.pow %x, %one : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Not exact for floats, so not folded: x * 0.0 (NaN, inf, -x), x + 0.0
// (-0.0 + 0.0 = +0.0), x - (-0.0), x - x (inf - inf is NaN).
// CHECK-LABEL: func.func @inexact_identities_kept
// CHECK: mlax.mul
// CHECK: mlax.add
// CHECK: mlax.sub
// CHECK: mlax.sub
func.func @inexact_identities_kept(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = mlax.constant dense<0.0> : tensor<4xf32>
  %negzero = mlax.constant dense<-0.0> : tensor<4xf32>
  %0 = mlax.mul %x, %zero : tensor<4xf32>
  %1 = mlax.add %x, %zero : tensor<4xf32>
  %2 = mlax.sub %x, %negzero : tensor<4xf32>
  %3 = mlax.sub %x, %x : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// max(x, x) = x and -(-x) = x hold for NaN too.
// CHECK-LABEL: func.func @self_identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @self_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = mlax.max %x, %x : tensor<4xf32>
  %n = mlax.neg %x : tensor<4xf32>
  %1 = mlax.neg %n : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// bf16 and f16 fold with their own rounding.
// CHECK-LABEL: func.func @half_types
// CHECK-DAG: mlax.constant dense<3.000000e+00> : tensor<2xbf16>
// CHECK-DAG: mlax.constant dense<6.550400e+04> : tensor<f16>
func.func @half_types() -> (tensor<2xbf16>, tensor<f16>) {
  %a = mlax.constant dense<1.0> : tensor<2xbf16>
  %b = mlax.constant dense<2.0> : tensor<2xbf16>
  %0 = mlax.add %a, %b : tensor<2xbf16>
  %c = mlax.constant dense<65504.0> : tensor<f16>
  %z = mlax.constant dense<-0.0> : tensor<f16>
  %1 = mlax.add %c, %z : tensor<f16>
  return %0, %1 : tensor<2xbf16>, tensor<f16>
}

// -----

// Element types the folders cannot evaluate are left alone, not crashed on.
// CHECK-LABEL: func.func @unsupported_types_decline
// CHECK: mlax.add %{{.*}}, %{{.*}} : tensor<2xcomplex<f32>>
// CHECK: mlax.mul %{{.*}}, %{{.*}} : tensor<2xf8E4M3FN>
// CHECK: mlax.exp %{{.*}} : tensor<2xcomplex<f32>>
func.func @unsupported_types_decline() -> (tensor<2xcomplex<f32>>, tensor<2xf8E4M3FN>, tensor<2xcomplex<f32>>) {
  %a = mlax.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
  %0 = mlax.add %a, %a : tensor<2xcomplex<f32>>
  %b = mlax.constant dense<2.0> : tensor<2xf8E4M3FN>
  %1 = mlax.mul %b, %b : tensor<2xf8E4M3FN>
  %2 = mlax.exp %a : tensor<2xcomplex<f32>>
  return %0, %1, %2 : tensor<2xcomplex<f32>>, tensor<2xf8E4M3FN>, tensor<2xcomplex<f32>>
}
