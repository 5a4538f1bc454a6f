// Lowering of ops on complex element types. mlax accepts complex operands
// for reduce_sum, reduce_prod, convert and compare, so each must lower; and
// of the complex parts (real, imag and complex one-to-one; conj, which
// StableHLO lacks, as complex(real(x), -imag(x)) like JAX's lowering).
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @constant_complex(
// CHECK: "stablehlo.constant"() {value = dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
func.func @constant_complex() -> tensor<complex<f32>> {
  %0 = mlax.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}

// -----

// CHECK-LABEL: func.func @add_complex(
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
func.func @add_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = mlax.add %x, %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// Complex numbers compare as FLOAT (StableHLO lets compare_type be left out).
// CHECK-LABEL: func.func @compare_complex(
// CHECK-SAME: %[[X:.*]]: tensor<4xcomplex<f32>>, %[[Y:.*]]: tensor<4xcomplex<f32>>)
// CHECK: "stablehlo.compare"(%[[X]], %[[Y]]) {{.*}}comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
// CHECK-NOT: comparison_type SIGNED
// CHECK-NOT: comparison_type UNSIGNED
func.func @compare_complex(%x: tensor<4xcomplex<f32>>, %y: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  %0 = mlax.compare NE, %x, %y : tensor<4xcomplex<f32>>
  return %0 : tensor<4xi1>
}

// -----

// complex -> bool is `x != 0` like every other conversion to bool.
// CHECK-LABEL: func.func @convert_complex_to_bool(
// CHECK-SAME: %[[X:.*]]: tensor<4xcomplex<f32>>)
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<(0.000000e+00,0.000000e+00)> : tensor<4xcomplex<f32>>} : () -> tensor<4xcomplex<f32>>
// CHECK: %[[R:.*]] = "stablehlo.compare"(%[[X]], %[[Z]]) {{.*}}comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @convert_complex_to_bool(%x: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  %0 = mlax.convert %x : tensor<4xcomplex<f32>> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Complex to a real type takes the real part first, as JAX lowers it (XLA's
// folding of a convert of a complex constant to a real type crashes).
// CHECK-LABEL: func.func @convert_complex_to_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4xcomplex<f32>>)
// CHECK: %[[R:.*]] = "stablehlo.real"(%[[X]]) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK-NOT: stablehlo.convert
// CHECK: return %[[R]] : tensor<4xf32>
func.func @convert_complex_to_f32(%x: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  %0 = mlax.convert %x : tensor<4xcomplex<f32>> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @convert_complex_to_i32(
// CHECK: %[[R:.*]] = "stablehlo.real"(%{{.*}}) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: "stablehlo.convert"(%[[R]]) : (tensor<4xf32>) -> tensor<4xi32>
func.func @convert_complex_to_i32(%x: tensor<4xcomplex<f32>>) -> tensor<4xi32> {
  %0 = mlax.convert %x : tensor<4xcomplex<f32>> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @reduce_sum_complex(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xcomplex<f32>>)
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
// CHECK: %[[R:.*]] = "stablehlo.reduce"(%[[X]], %[[INIT]]) ({
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2xcomplex<f32>>
// CHECK: return %[[R]] : tensor<2xcomplex<f32>>
func.func @reduce_sum_complex(%x: tensor<2x3xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @reduce_prod_complex(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f64>>} : () -> tensor<complex<f64>>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
// CHECK: {dimensions = array<i64: 0>} : (tensor<3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
func.func @reduce_prod_complex(%x: tensor<3xcomplex<f64>>) -> tensor<complex<f64>> {
  %0 = mlax.reduce_prod %x, axes = [0] : tensor<3xcomplex<f64>> -> tensor<complex<f64>>
  return %0 : tensor<complex<f64>>
}

// -----

// CHECK-LABEL: func.func @real_imag(
// CHECK-SAME: %[[Z:.*]]: tensor<4xcomplex<f32>>)
// CHECK: %[[RE:.*]] = "stablehlo.real"(%[[Z]]) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %[[IM:.*]] = "stablehlo.imag"(%[[Z]]) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: return %[[RE]], %[[IM]] : tensor<4xf32>, tensor<4xf32>
func.func @real_imag(%z: tensor<4xcomplex<f32>>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = mlax.real %z : tensor<4xcomplex<f32>>
  %1 = mlax.imag %z : tensor<4xcomplex<f32>>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @complex_parts(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf64>, %[[Y:.*]]: tensor<2x3xf64>)
// CHECK: %[[R:.*]] = "stablehlo.complex"(%[[X]], %[[Y]]) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xcomplex<f64>>
// CHECK: return %[[R]] : tensor<2x3xcomplex<f64>>
func.func @complex_parts(%x: tensor<2x3xf64>, %y: tensor<2x3xf64>) -> tensor<2x3xcomplex<f64>> {
  %0 = mlax.complex %x, %y : tensor<2x3xf64>
  return %0 : tensor<2x3xcomplex<f64>>
}

// -----

// CHECK-LABEL: func.func @conj(
// CHECK-SAME: %[[Z:.*]]: tensor<4xcomplex<f32>>)
// CHECK: %[[RE:.*]] = "stablehlo.real"(%[[Z]]) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %[[IM:.*]] = "stablehlo.imag"(%[[Z]]) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %[[NEG:.*]] = "stablehlo.negate"(%[[IM]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = "stablehlo.complex"(%[[RE]], %[[NEG]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
// CHECK: return %[[R]] : tensor<4xcomplex<f32>>
func.func @conj(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = mlax.conj %z : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
