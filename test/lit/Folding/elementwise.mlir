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

// -----

// Integer folders: two's complement wrap-around; signless is signed, ui* and
// i1 unsigned; division by zero and INT_MIN / -1 fold to XLA's run-time results.

// CHECK-LABEL: func.func @arith_wraps
// CHECK-DAG: mlax.constant dense<-128> : tensor<i8>
// CHECK-DAG: mlax.constant dense<[6, -6]> : tensor<2xi32>
func.func @arith_wraps() -> (tensor<i8>, tensor<2xi32>) {
  %a = mlax.constant dense<127> : tensor<i8>
  %b = mlax.constant dense<1> : tensor<i8>
  %0 = mlax.add %a, %b : tensor<i8>
  %c = mlax.constant dense<[2, -2]> : tensor<2xi32>
  %d = mlax.constant dense<3> : tensor<2xi32>
  %1 = mlax.mul %c, %d : tensor<2xi32>
  return %0, %1 : tensor<i8>, tensor<2xi32>
}

// -----

// Signed division and remainder round towards zero; unsigned ones differ.
// CHECK-LABEL: func.func @div_rem_signedness
// CHECK-DAG: mlax.constant dense<[-3, 3]> : tensor<2xi32>
// CHECK-DAG: mlax.constant dense<[-1, 1]> : tensor<2xi32>
// CHECK-DAG: mlax.constant dense<[85, 0]> : tensor<2xui8>
func.func @div_rem_signedness() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xui8>) {
  %a = mlax.constant dense<[-7, 7]> : tensor<2xi32>
  %b = mlax.constant dense<[2, 2]> : tensor<2xi32>
  %0 = mlax.div %a, %b : tensor<2xi32>
  %1 = mlax.rem %a, %b : tensor<2xi32>
  %c = mlax.constant dense<[255, 2]> : tensor<2xui8>
  %d = mlax.constant dense<[3, 3]> : tensor<2xui8>
  %2 = mlax.div %c, %d : tensor<2xui8>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xi32>, tensor<2xui8>
}

// -----

// As XLA computes them at run time: x / 0 = -1 (all bits set), x % 0 = x.
// (XLA's own constant folder crashes on these, so they must not reach it.)
// CHECK-LABEL: func.func @int_div_by_zero
// CHECK-DAG: mlax.constant dense<[2, -1]> : tensor<2xi32>
// CHECK-DAG: mlax.constant dense<[0, 5]> : tensor<2xi32>
// CHECK-NOT: mlax.div
// CHECK-NOT: mlax.rem
func.func @int_div_by_zero() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = mlax.constant dense<[4, 5]> : tensor<2xi32>
  %b = mlax.constant dense<[2, 0]> : tensor<2xi32>
  %0 = mlax.div %a, %b : tensor<2xi32>
  %1 = mlax.rem %a, %b : tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}

// -----

// INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0; unsigned x / 0 is all ones.
// CHECK-LABEL: func.func @int_min_div_minus_one
// CHECK-DAG: mlax.constant dense<-128> : tensor<i8>
// CHECK-DAG: mlax.constant dense<0> : tensor<i8>
// CHECK-DAG: mlax.constant dense<255> : tensor<ui8>
// CHECK-NOT: mlax.div
func.func @int_min_div_minus_one() -> (tensor<i8>, tensor<i8>, tensor<ui8>) {
  %a = mlax.constant dense<-128> : tensor<i8>
  %b = mlax.constant dense<-1> : tensor<i8>
  %0 = mlax.div %a, %b : tensor<i8>
  %1 = mlax.rem %a, %b : tensor<i8>
  %u = mlax.constant dense<7> : tensor<ui8>
  %z = mlax.constant dense<0> : tensor<ui8>
  %2 = mlax.div %u, %z : tensor<ui8>
  return %0, %1, %2 : tensor<i8>, tensor<i8>, tensor<ui8>
}

// -----

// CHECK-LABEL: func.func @unary_int
// CHECK-DAG: mlax.constant dense<[-128, 5, 0]> : tensor<3xi8>
// CHECK-DAG: mlax.constant dense<[-1, -1, 0]> : tensor<3xi8>
// CHECK-DAG: mlax.constant dense<[127, 4, -1]> : tensor<3xi8>
// CHECK-DAG: mlax.constant dense<[true, false]> : tensor<2xi1>
func.func @unary_int() -> (tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<2xi1>) {
  %a = mlax.constant dense<[-128, -5, 0]> : tensor<3xi8>
  %0 = mlax.abs %a : tensor<3xi8>
  %1 = mlax.sign %a : tensor<3xi8>
  %2 = mlax.not %a : tensor<3xi8>
  %p = mlax.constant dense<[false, true]> : tensor<2xi1>
  %3 = mlax.not %p : tensor<2xi1>
  return %0, %1, %2, %3 : tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<2xi1>
}

// -----

// For integers x * 0 = 0, x - x = 0 and x ^ x = 0 are exact.
// CHECK-LABEL: func.func @int_identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-DAG: %[[Z:.*]] = mlax.constant dense<0> : tensor<4xi32>
// CHECK-NOT: mlax.mul
// CHECK-NOT: mlax.sub
// CHECK-NOT: mlax.xor
// CHECK-NOT: mlax.add
// CHECK: return %[[Z]], %[[Z]], %[[Z]], %[[X]], %[[X]], %[[X]]
func.func @int_identities(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %zero = mlax.constant dense<0> : tensor<4xi32>
  %one = mlax.constant dense<1> : tensor<4xi32>
  %0 = mlax.mul %x, %zero : tensor<4xi32>
  %1 = mlax.sub %x, %x : tensor<4xi32>
  %2 = mlax.xor %x, %x : tensor<4xi32>
  %3 = mlax.add %zero, %x : tensor<4xi32>
  %4 = mlax.mul %x, %one : tensor<4xi32>
  %5 = mlax.min %x, %x : tensor<4xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @bool_logic
// CHECK-SAME: (%[[P:.*]]: tensor<4xi1>)
// CHECK-DAG: %[[T:.*]] = mlax.constant dense<true> : tensor<4xi1>
// CHECK-DAG: %[[F:.*]] = mlax.constant dense<false> : tensor<4xi1>
// CHECK: return %[[P]], %[[F]], %[[T]], %[[P]], %[[P]]
func.func @bool_logic(%p: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %t = mlax.constant dense<true> : tensor<4xi1>
  %f = mlax.constant dense<false> : tensor<4xi1>
  %0 = mlax.and %p, %t : tensor<4xi1>
  %1 = mlax.and %p, %f : tensor<4xi1>
  %2 = mlax.or %t, %p : tensor<4xi1>
  %3 = mlax.or %p, %f : tensor<4xi1>
  %4 = mlax.xor %p, %f : tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @max_min_unsigned
// CHECK-DAG: mlax.constant dense<[200, 3]> : tensor<2xui8>
// CHECK-DAG: mlax.constant dense<[-56, 1]> : tensor<2xi8>
func.func @max_min_unsigned() -> (tensor<2xui8>, tensor<2xi8>) {
  %a = mlax.constant dense<[200, 1]> : tensor<2xui8>
  %b = mlax.constant dense<[3, 3]> : tensor<2xui8>
  %0 = mlax.max %a, %b : tensor<2xui8>
  %c = mlax.constant dense<[-56, 1]> : tensor<2xi8>
  %d = mlax.constant dense<[3, 3]> : tensor<2xi8>
  %1 = mlax.min %c, %d : tensor<2xi8>
  %2 = mlax.max %d, %1 : tensor<2xi8>
  return %0, %1 : tensor<2xui8>, tensor<2xi8>
}

// -----

// NaN is unordered: only NE holds; -0.0 == +0.0.
// CHECK-LABEL: func.func @compare_float
// CHECK-DAG: mlax.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-DAG: mlax.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG: mlax.constant dense<false> : tensor<3xi1>
func.func @compare_float() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %a = mlax.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %b = mlax.constant dense<[0x7FC00000, 0.0, 2.0]> : tensor<3xf32>
  %0 = mlax.compare EQ, %a, %b : tensor<3xf32>
  %1 = mlax.compare NE, %a, %a : tensor<3xf32>
  %2 = mlax.compare GT, %a, %b : tensor<3xf32>
  return %1, %0, %2 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// CHECK-LABEL: func.func @compare_int_signedness
// CHECK-DAG: mlax.constant dense<true> : tensor<i1>
// CHECK-DAG: mlax.constant dense<false> : tensor<i1>
func.func @compare_int_signedness() -> (tensor<i1>, tensor<i1>) {
  %a = mlax.constant dense<-1> : tensor<i8>
  %b = mlax.constant dense<1> : tensor<i8>
  %0 = mlax.compare LT, %a, %b : tensor<i8>
  %c = mlax.constant dense<255> : tensor<ui8>
  %d = mlax.constant dense<1> : tensor<ui8>
  %1 = mlax.compare LT, %c, %d : tensor<ui8>
  return %0, %1 : tensor<i1>, tensor<i1>
}

// -----

// x < x is false and x <= x true for integers, but not known for floats.
// CHECK-LABEL: func.func @compare_self
// CHECK-DAG: %[[F:.*]] = mlax.constant dense<false> : tensor<4xi1>
// CHECK-DAG: %[[T:.*]] = mlax.constant dense<true> : tensor<4xi1>
// CHECK: %[[FL:.*]] = mlax.compare EQ, %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: return %[[F]], %[[T]], %[[FL]]
func.func @compare_self(%i: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = mlax.compare LT, %i, %i : tensor<4xi32>
  %1 = mlax.compare LE, %i, %i : tensor<4xi32>
  %2 = mlax.compare EQ, %f, %f : tensor<4xf32>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// A constant scalar predicate picks a case.
// CHECK-LABEL: func.func @select_constant_predicate
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[B]], %[[A]]
func.func @select_constant_predicate(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = mlax.constant dense<true> : tensor<i1>
  %0 = mlax.select_n %t, %a, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  %z = mlax.constant dense<0> : tensor<4xi32>
  %1 = mlax.select_n %z, %a, %b, %b : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @select_elementwise_constants
// CHECK: mlax.constant dense<[1.000000e+00, 2.000000e+01]> : tensor<2xf32>
// CHECK-NOT: mlax.select_n
func.func @select_elementwise_constants() -> tensor<2xf32> {
  %p = mlax.constant dense<[false, true]> : tensor<2xi1>
  %a = mlax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = mlax.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %0 = mlax.select_n %p, %a, %b : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @select_same_cases
// CHECK-SAME: (%[[P:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[A]]
func.func @select_same_cases(%p: tensor<4xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %p, %a, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An out-of-range constant index is left to the runtime.
// CHECK-LABEL: func.func @select_out_of_range_kept
// CHECK: mlax.select_n
func.func @select_out_of_range_kept(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %w = mlax.constant dense<5> : tensor<i32>
  %0 = mlax.select_n %w, %a, %b : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Float to int truncates towards zero; to bool is x != 0 (NaN is true).
// CHECK-LABEL: func.func @convert_constants
// CHECK-DAG: mlax.constant dense<[2, -2, 0]> : tensor<3xi32>
// CHECK-DAG: mlax.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG: mlax.constant dense<[2.550000e+02, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: mlax.constant dense<[-1, 1]> : tensor<2xi32>
func.func @convert_constants() -> (tensor<3xi32>, tensor<3xi1>, tensor<2xf32>, tensor<2xi32>) {
  %a = mlax.constant dense<[2.7, -2.7, -0.0]> : tensor<3xf32>
  %0 = mlax.convert %a : tensor<3xf32> -> tensor<3xi32>
  %b = mlax.constant dense<[0x7FC00000, 1.0, -0.0]> : tensor<3xf32>
  %1 = mlax.convert %b : tensor<3xf32> -> tensor<3xi1>
  %c = mlax.constant dense<[255, 1]> : tensor<2xui8>
  %2 = mlax.convert %c : tensor<2xui8> -> tensor<2xf32>
  %d = mlax.constant dense<[-1, 1]> : tensor<2xi8>
  %3 = mlax.convert %d : tensor<2xi8> -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<3xi1>, tensor<2xf32>, tensor<2xi32>
}

// -----

// NaN or out-of-range floats to integers are implementation-defined: kept.
// CHECK-LABEL: func.func @convert_undefined_kept
// CHECK: mlax.convert
// CHECK: mlax.convert
func.func @convert_undefined_kept() -> (tensor<i32>, tensor<i8>) {
  %a = mlax.constant dense<0x7FC00000> : tensor<f32>
  %0 = mlax.convert %a : tensor<f32> -> tensor<i32>
  %b = mlax.constant dense<300.0> : tensor<f32>
  %1 = mlax.convert %b : tensor<f32> -> tensor<i8>
  return %0, %1 : tensor<i32>, tensor<i8>
}

// -----

// CHECK-LABEL: func.func @convert_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @convert_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @is_finite
// CHECK: mlax.constant dense<[true, false, false, false]> : tensor<4xi1>
func.func @is_finite() -> tensor<4xi1> {
  %a = mlax.constant dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<4xf32>
  %0 = mlax.is_finite %a : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// -----

// The complex parts fold exactly, NaN and -0.0 parts included.
// CHECK-LABEL: func.func @real_imag_fold
// CHECK-DAG: %[[RE:.*]] = mlax.constant dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG: %[[IM:.*]] = mlax.constant dense<[-2.000000e+00, -0.000000e+00]> : tensor<2xf32>
// CHECK-NOT: mlax.real
// CHECK-NOT: mlax.imag
// CHECK: return %[[RE]], %[[IM]]
func.func @real_imag_fold() -> (tensor<2xf32>, tensor<2xf32>) {
  %z = mlax.constant dense<[(1.0, -2.0), (0x7FC00000, -0.0)]> : tensor<2xcomplex<f32>>
  %0 = mlax.real %z : tensor<2xcomplex<f32>>
  %1 = mlax.imag %z : tensor<2xcomplex<f32>>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @conj_fold
// CHECK: %[[C:.*]] = mlax.constant dense<[(1.000000e+00,2.000000e+00), (-3.000000e+00,-0.000000e+00)]> : tensor<2xcomplex<f64>>
// CHECK-NEXT: return %[[C]]
func.func @conj_fold() -> tensor<2xcomplex<f64>> {
  %z = mlax.constant dense<[(1.0, -2.0), (-3.0, 0.0)]> : tensor<2xcomplex<f64>>
  %0 = mlax.conj %z : tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// -----

// CHECK-LABEL: func.func @complex_fold
// CHECK: %[[C:.*]] = mlax.constant dense<(1.500000e+00,-2.000000e+00)> : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[C]]
func.func @complex_fold() -> tensor<3xcomplex<f32>> {
  %x = mlax.constant dense<1.5> : tensor<3xf32>
  %y = mlax.constant dense<-2.0> : tensor<3xf32>
  %0 = mlax.complex %x, %y : tensor<3xf32>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// real(complex(x, y)) = x, imag(complex(x, y)) = y and conj(conj(z)) = z
// for values that are not constants.
// CHECK-LABEL: func.func @complex_parts_of_complex(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[Z:.*]]: tensor<4xcomplex<f32>>)
// CHECK-NOT: mlax.
// CHECK: return %[[X]], %[[Y]], %[[Z]]
func.func @complex_parts_of_complex(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xcomplex<f32>>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>) {
  %c = mlax.complex %x, %y : tensor<4xf32>
  %0 = mlax.real %c : tensor<4xcomplex<f32>>
  %1 = mlax.imag %c : tensor<4xcomplex<f32>>
  %2 = mlax.conj %z : tensor<4xcomplex<f32>>
  %3 = mlax.conj %2 : tensor<4xcomplex<f32>>
  return %0, %1, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>
}
