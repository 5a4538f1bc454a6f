// RUN: mlax-opt %s --split-input-file --mlax-fold-constants | FileCheck %s

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
