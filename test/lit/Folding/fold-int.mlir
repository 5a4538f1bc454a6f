// RUN: mlax-opt %s --split-input-file --mlax-fold-constants | FileCheck %s

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
