// Verifier and shape-rule errors of the elementwise ops (compare, select_n, convert). Every message names
// the op it is about.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// compare
//===----------------------------------------------------------------------===//


func.func @compare_result_not_bool(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = "mlax.compare"(%x, %x) {comparison_direction = 4 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_result_shape(%x: tensor<4xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'mlax.compare' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "mlax.compare"(%x, %x) {comparison_direction = 4 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @compare_mismatched_operands(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.compare' op requires all operands to have the same type}}
  %0 = "mlax.compare"(%x, %y) {comparison_direction = 0 : i32} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_bad_direction_attr(%x: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.compare' op attribute 'comparison_direction' failed to satisfy constraint: the comparison a `mlax.compare` performs}}
  %0 = "mlax.compare"(%x, %x) {comparison_direction = 9 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_unknown_direction(%x: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{custom op 'mlax.compare' expected string or keyword containing one of the following enum values for attribute 'comparison_direction' [EQ, NE, LT, LE, GT, GE]}}
  %0 = mlax.compare XX, %x, %x : tensor<4xf32>
  return %0 : tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// select_n
//===----------------------------------------------------------------------===//

// -----

func.func @select_n_mismatched_cases(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'mlax.select_n' op cases must have one type, got 'tensor<4xf32>' and 'tensor<4xf64>'}}
  %0 = mlax.select_n %p, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf64>
  return
}

// -----

func.func @select_n_bool_three_cases(%p: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.select_n' op a bool `which` selects between at most 2 cases, got 3}}
  %0 = mlax.select_n %p, %a, %a, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @select_n_which_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.select_n' op `which` must be a scalar or have the cases' shape [4], got [2]}}
  %0 = mlax.select_n %p, %a, %a : tensor<2xi1>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @select_n_which_shape_i32(%w: tensor<2x2xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.select_n' op `which` must be a scalar or have the cases' shape [4], got [2, 2]}}
  %0 = mlax.select_n %w, %a, %a : tensor<2x2xi32>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @select_n_which_element_type(%w: tensor<4xi8>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.select_n' op operand #0 must be statically shaped tensor of 1-bit signless integer or 32-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = mlax.select_n %w, %a, %a : tensor<4xi8>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @select_n_no_cases(%p: tensor<4xi1>) {
  // expected-error @+2 {{'mlax.select_n' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.select_n' op needs at least one case}}
  %0 = "mlax.select_n"(%p) : (tensor<4xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @select_n_result_type(%p: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.select_n' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.select_n' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = "mlax.select_n"(%p, %a, %a) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>
  return
}

//===----------------------------------------------------------------------===//
// convert
//===----------------------------------------------------------------------===//

// -----

func.func @convert_shape_change(%x: tensor<4xf32>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'mlax.convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @convert_rank_change(%x: tensor<1xf32>) -> tensor<i32> {
  // expected-error @+1 {{'mlax.convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = mlax.convert %x : tensor<1xf32> -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

//===----------------------------------------------------------------------===//
// reduce_precision
//===----------------------------------------------------------------------===//

func.func @reduce_precision_no_exponent(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.reduce_precision' op attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %0 = mlax.reduce_precision %x {exponent_bits = 0 : i32, mantissa_bits = 10 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_precision_negative_mantissa(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.reduce_precision' op attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = mlax.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = -1 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_precision_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlax.reduce_precision' op operand #0 must be statically shaped tensor of}}
  %0 = mlax.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

//===----------------------------------------------------------------------===//
// real, imag, conj, complex
//===----------------------------------------------------------------------===//

// -----

func.func @real_of_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // The custom form infers the result type while parsing: the shape rule's message.
  // expected-error @+1 {{'mlax.real' op takes complex64 or complex128, got 'f32'}}
  %0 = mlax.real %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @imag_of_complex_f16(%z: tensor<4xcomplex<f16>>) -> tensor<4xf16> {
  // expected-error @+1 {{'mlax.imag' op takes complex64 or complex128, got 'complex<f16>'}}
  %0 = mlax.imag %z : tensor<4xcomplex<f16>>
  return %0 : tensor<4xf16>
}

// -----

func.func @real_generic_of_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.real' op operand #0 must be statically shaped tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xf32>'}}
  %0 = "mlax.real"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @real_wrong_part_type(%z: tensor<4xcomplex<f32>>) -> tensor<4xf64> {
  // expected-error @+2 {{'mlax.real' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.real' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = "mlax.real"(%z) : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @conj_of_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.conj' op operand #0 must be statically shaped tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xf32>'}}
  %0 = "mlax.conj"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @complex_mismatched_parts(%x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'mlax.complex' op requires all operands to have the same type}}
  %0 = "mlax.complex"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @complex_of_ints(%x: tensor<4xi32>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'mlax.complex' op takes f32 or f64 parts, got 'i32'}}
  %0 = mlax.complex %x, %x : tensor<4xi32>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @complex_wrong_result(%x: tensor<4xf32>) -> tensor<4xcomplex<f64>> {
  // expected-error @+2 {{'mlax.complex' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.complex' op inferred type(s) 'tensor<4xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<4xcomplex<f64>>'}}
  %0 = "mlax.complex"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

// As JAX's lax.abs: no 2- or 4-bit integers (XLA supports basic arithmetic on them).
func.func @abs_i4(%x: tensor<4xi4>) -> tensor<4xi4> {
  // expected-error @+1 {{'mlax.abs' op operand #0 must be statically shaped tensor of floating-point or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi4>'}}
  %0 = mlax.abs %x : tensor<4xi4>
  return %0 : tensor<4xi4>
}
