// Round trip of the ops in MlaxMathOps.td: the elementwise special functions,
// clamp, top_k and the cumulative reductions.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @unary_float(
// CHECK: mlax.sinh %{{.*}} : tensor<4xf32>
// CHECK: mlax.cosh %{{.*}} : tensor<4xf32>
// CHECK: mlax.asin %{{.*}} : tensor<4xf32>
// CHECK: mlax.acos %{{.*}} : tensor<4xf32>
// CHECK: mlax.atan %{{.*}} : tensor<4xf32>
// CHECK: mlax.asinh %{{.*}} : tensor<4xf32>
// CHECK: mlax.acosh %{{.*}} : tensor<4xf32>
// CHECK: mlax.atanh %{{.*}} : tensor<4xf32>
// CHECK: mlax.lgamma %{{.*}} : tensor<4xf32>
// CHECK: mlax.digamma %{{.*}} : tensor<4xf32>
// CHECK: mlax.erfc %{{.*}} : tensor<4xf32>
// CHECK: mlax.cbrt %{{.*}} : tensor<4xf32>
func.func @unary_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sinh %x : tensor<4xf32>
  %1 = mlax.cosh %0 : tensor<4xf32>
  %2 = mlax.asin %1 : tensor<4xf32>
  %3 = mlax.acos %2 : tensor<4xf32>
  %4 = mlax.atan %3 : tensor<4xf32>
  %5 = mlax.asinh %4 : tensor<4xf32>
  %6 = mlax.acosh %5 : tensor<4xf32>
  %7 = mlax.atanh %6 : tensor<4xf32>
  %8 = mlax.lgamma %7 : tensor<4xf32>
  %9 = mlax.digamma %8 : tensor<4xf32>
  %10 = mlax.erfc %9 : tensor<4xf32>
  %11 = mlax.cbrt %10 : tensor<4xf32>
  return %11 : tensor<4xf32>
}

// The trigonometric and hyperbolic functions take complex numbers too.
// CHECK-LABEL: func.func @unary_complex(
// CHECK: mlax.asinh %{{.*}} : tensor<2xcomplex<f32>>
func.func @unary_complex(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = mlax.asinh %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// CHECK-LABEL: func.func @popcnt(
// CHECK: mlax.popcnt %{{.*}} : tensor<3xui8>
func.func @popcnt(%x: tensor<3xui8>) -> tensor<3xui8> {
  %0 = mlax.popcnt %x : tensor<3xui8>
  return %0 : tensor<3xui8>
}

// CHECK-LABEL: func.func @binary_special(
// CHECK: mlax.polygamma %{{.*}}, %{{.*}} : tensor<2x3xf64>
// CHECK: mlax.zeta %{{.*}}, %{{.*}} : tensor<2x3xf64>
func.func @binary_special(%m: tensor<2x3xf64>, %x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = mlax.polygamma %m, %x : tensor<2x3xf64>
  %1 = mlax.zeta %0, %x : tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// CHECK-LABEL: func.func @clamp(
// CHECK: mlax.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<2x3xf32>, tensor<f32>
// CHECK: mlax.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
func.func @clamp(%lo: tensor<f32>, %x: tensor<2x3xf32>, %hi: tensor<f32>) -> tensor<2x3xf32> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<2x3xf32>, tensor<f32>
  %1 = mlax.clamp %x, %0, %hi : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
  return %1 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @clamp_int(
// CHECK: mlax.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<i32>, tensor<5xi32>, tensor<i32>
func.func @clamp_int(%lo: tensor<i32>, %x: tensor<5xi32>, %hi: tensor<i32>) -> tensor<5xi32> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<i32>, tensor<5xi32>, tensor<i32>
  return %0 : tensor<5xi32>
}

// CHECK-LABEL: func.func @top_k(
// CHECK: mlax.top_k %{{.*}}, k = 2 : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi32>
func.func @top_k(%x: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %v, %i = mlax.top_k %x, k = 2 : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi32>
  return %v, %i : tensor<3x2xf32>, tensor<3x2xi32>
}

// CHECK-LABEL: func.func @cumulative(
// CHECK: mlax.cumprod %{{.*}}, axis = 0 : tensor<4x3xf32>
// CHECK: mlax.cummax %{{.*}}, axis = 1 reverse : tensor<4x3xf32>
// CHECK: mlax.cummin %{{.*}}, axis = 0 : tensor<4x3xf32>
// CHECK: mlax.cumlogsumexp %{{.*}}, axis = 1 reverse : tensor<4x3xf32>
func.func @cumulative(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = mlax.cumprod %x, axis = 0 : tensor<4x3xf32>
  %1 = mlax.cummax %0, axis = 1 reverse : tensor<4x3xf32>
  %2 = mlax.cummin %1, axis = 0 : tensor<4x3xf32>
  %3 = mlax.cumlogsumexp %2, axis = 1 reverse : tensor<4x3xf32>
  return %3 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @cumulative_int(
// CHECK: mlax.cumprod %{{.*}}, axis = 0 : tensor<4xui16>
// CHECK: mlax.cummax %{{.*}}, axis = 0 : tensor<4xui16>
func.func @cumulative_int(%x: tensor<4xui16>) -> tensor<4xui16> {
  %0 = mlax.cumprod %x, axis = 0 : tensor<4xui16>
  %1 = mlax.cummax %0, axis = 0 : tensor<4xui16>
  return %1 : tensor<4xui16>
}

// The result types are inferred: top_k's values keep the element type and
// its indices are i32; k may be 0.
// CHECK-LABEL: func.func @top_k_inferred(
// CHECK: mlax.top_k %{{.*}}, k = 0 : tensor<2x4xi8> -> tensor<2x0xi8>, tensor<2x0xi32>
func.func @top_k_inferred(%x: tensor<2x4xi8>) -> (tensor<2x0xi8>, tensor<2x0xi32>) {
  %v, %i = mlax.top_k %x, k = 0 : tensor<2x4xi8> -> tensor<2x0xi8>, tensor<2x0xi32>
  return %v, %i : tensor<2x0xi8>, tensor<2x0xi32>
}

// CHECK-LABEL: func.func @clamp_scalar(
// CHECK: mlax.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<f64>, tensor<f64>, tensor<f64>
func.func @clamp_scalar(%lo: tensor<f64>, %x: tensor<f64>, %hi: tensor<f64>) -> tensor<f64> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<f64>, tensor<f64>, tensor<f64>
  return %0 : tensor<f64>
}
