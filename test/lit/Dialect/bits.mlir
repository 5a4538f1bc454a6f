// Round trip of the bit-level and PRNG-support ops (shifts, bitcast_convert,
// erf, erf_inv, next_after, sort, cumsum).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @shift_left(
// CHECK: mlax.shift_left %{{.*}}, %{{.*}} : tensor<4xui32>
func.func @shift_left(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xui32> {
  %0 = mlax.shift_left %x, %y : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// CHECK-LABEL: func.func @shift_right_logical(
// CHECK: mlax.shift_right_logical %{{.*}}, %{{.*}} : tensor<2x3xi32>
func.func @shift_right_logical(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.shift_right_logical %x, %y : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @shift_right_arithmetic(
// CHECK: mlax.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<i8>
func.func @shift_right_arithmetic(%x: tensor<i8>, %y: tensor<i8>) -> tensor<i8> {
  %0 = mlax.shift_right_arithmetic %x, %y : tensor<i8>
  return %0 : tensor<i8>
}

// CHECK-LABEL: func.func @bitcast_same_width(
// CHECK: mlax.bitcast_convert %{{.*}} : tensor<4xui32> -> tensor<4xf32>
func.func @bitcast_same_width(%x: tensor<4xui32>) -> tensor<4xf32> {
  %0 = mlax.bitcast_convert %x : tensor<4xui32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @bitcast_narrowing(
// CHECK: mlax.bitcast_convert %{{.*}} : tensor<3xf32> -> tensor<3x2xbf16>
func.func @bitcast_narrowing(%x: tensor<3xf32>) -> tensor<3x2xbf16> {
  %0 = mlax.bitcast_convert %x : tensor<3xf32> -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

// CHECK-LABEL: func.func @bitcast_widening(
// CHECK: mlax.bitcast_convert %{{.*}} : tensor<3x2xui32> -> tensor<3xui64>
func.func @bitcast_widening(%x: tensor<3x2xui32>) -> tensor<3xui64> {
  %0 = mlax.bitcast_convert %x : tensor<3x2xui32> -> tensor<3xui64>
  return %0 : tensor<3xui64>
}

// CHECK-LABEL: func.func @erf_and_erf_inv(
// CHECK: %[[E:.*]] = mlax.erf %{{.*}} : tensor<4xf16>
// CHECK: mlax.erf_inv %[[E]] : tensor<4xf16>
func.func @erf_and_erf_inv(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = mlax.erf %x : tensor<4xf16>
  %1 = mlax.erf_inv %0 : tensor<4xf16>
  return %1 : tensor<4xf16>
}

// CHECK-LABEL: func.func @next_after(
// CHECK: mlax.next_after %{{.*}}, %{{.*}} : tensor<4xbf16>
func.func @next_after(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = mlax.next_after %x, %y : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @sort_key_val(
// CHECK: mlax.sort %{{.*}}, %{{.*}} {dimension = 1 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<2x4xui32>, tensor<2x4xf32>) -> (tensor<2x4xui32>, tensor<2x4xf32>)
func.func @sort_key_val(%k: tensor<2x4xui32>, %v: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0:2 = mlax.sort %k, %v {dimension = 1 : i64, is_stable = true, num_keys = 1 : i64}
      : (tensor<2x4xui32>, tensor<2x4xf32>) -> (tensor<2x4xui32>, tensor<2x4xf32>)
  return %0#1 : tensor<2x4xf32>
}

// The results take their operands' types (inferred): several keys of
// different element types, and a value operand of complex numbers.
// CHECK-LABEL: func.func @sort_two_keys(
// CHECK: mlax.sort %{{.*}}, %{{.*}}, %{{.*}} {dimension = 0 : i64, is_stable = false, num_keys = 2 : i64} : (tensor<3xi1>, tensor<3xbf16>, tensor<3xcomplex<f32>>) -> (tensor<3xi1>, tensor<3xbf16>, tensor<3xcomplex<f32>>)
func.func @sort_two_keys(%a: tensor<3xi1>, %b: tensor<3xbf16>, %c: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0:3 = mlax.sort %a, %b, %c {dimension = 0 : i64, is_stable = false, num_keys = 2 : i64}
      : (tensor<3xi1>, tensor<3xbf16>, tensor<3xcomplex<f32>>) -> (tensor<3xi1>, tensor<3xbf16>, tensor<3xcomplex<f32>>)
  return %0#2 : tensor<3xcomplex<f32>>
}

// CHECK-LABEL: func.func @cumsum(
// CHECK: mlax.cumsum %{{.*}}, axis = 1 : tensor<2x5xi32>
// CHECK: mlax.cumsum %{{.*}}, axis = 0 reverse : tensor<2x5xi32>
func.func @cumsum(%x: tensor<2x5xi32>) -> tensor<2x5xi32> {
  %0 = mlax.cumsum %x, axis = 1 : tensor<2x5xi32>
  %1 = mlax.cumsum %0, axis = 0 reverse : tensor<2x5xi32>
  return %1 : tensor<2x5xi32>
}

// CHECK-LABEL: func.func @clz(
// CHECK: mlax.clz %{{.*}} : tensor<3xui32>
func.func @clz(%x: tensor<3xui32>) -> tensor<3xui32> {
  %0 = mlax.clz %x : tensor<3xui32>
  return %0 : tensor<3xui32>
}

// CHECK-LABEL: func.func @take(
// CHECK: mlax.take %{{.*}}[%{{.*}}], axis = 1 : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<3x2x6x5xf32>
func.func @take(%x: tensor<3x4x5xf32>, %i: tensor<2x6xi32>) -> tensor<3x2x6x5xf32> {
  %0 = mlax.take %x[%i], axis = 1 : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<3x2x6x5xf32>
  return %0 : tensor<3x2x6x5xf32>
}
