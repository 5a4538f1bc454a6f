// Verifier and shape-rule errors of the mlax dialect. Every message names
// the op it is about.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Type constraints (ODS)
//===----------------------------------------------------------------------===//

func.func @binary_mismatched_operands(%x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.add' op requires the same type for all operands and results}}
  %0 = "mlax.add"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @binary_mismatched_shapes(%x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.mul' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "mlax.mul"(%x, %y) : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @binary_result_type(%x: tensor<4xi32>) -> tensor<4xi64> {
  // expected-error @+1 {{'mlax.sub' op requires the same type for all operands and results}}
  %0 = "mlax.sub"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @float_only_op_on_ints(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlax.exp' op operand #0 must be statically shaped tensor of floating-point or complex-type values, but got 'tensor<4xi32>'}}
  %0 = mlax.exp %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @float_only_binary_on_ints(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlax.pow' op operand #0 must be statically shaped tensor of floating-point or complex-type values, but got 'tensor<4xi32>'}}
  %0 = mlax.pow %x, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @real_float_op_on_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'mlax.floor' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = mlax.floor %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @dynamic_shape_rejected(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'mlax.exp' op operand #0 must be statically shaped tensor of floating-point or complex-type values, but got 'tensor<?xf32>'}}
  %0 = mlax.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @dynamic_shape_rejected_generic(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'mlax.transpose' op operand #0 must be statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'tensor<?x4xf32>'}}
  %0 = "mlax.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @unranked_rejected(%x: tensor<*xf32>) {
  // expected-error @+1 {{'mlax.neg' op operand #0 must be statically shaped tensor of floating-point or complex-type or 2-bit signless integer or 4-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xf32>'}}
  %0 = "mlax.neg"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @neg_unsigned(%x: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'mlax.neg' op operand #0 must be statically shaped tensor of floating-point or complex-type or 2-bit signless integer or 4-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xui32>'}}
  %0 = mlax.neg %x : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @add_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.add' op operand #0 must be statically shaped tensor of floating-point or complex-type or 2-bit signless integer or 4-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<4xi1>'}}
  %0 = mlax.add %x, %x : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @not_on_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.not' op operand #0 must be statically shaped tensor of signless integer or unsigned integer values, but got 'tensor<4xf32>'}}
  %0 = mlax.not %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @and_on_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.and' op operand #0 must be statically shaped tensor of signless integer or unsigned integer values, but got 'tensor<4xf32>'}}
  %0 = mlax.and %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @is_finite_on_int(%x: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.is_finite' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = mlax.is_finite %x : tensor<4xi32>
  return %0 : tensor<4xi1>
}

// -----

func.func @is_finite_result_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.is_finite' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = "mlax.is_finite"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @constant_vector(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.constant' op result #0 must be statically shaped tensor of floating-point or signless integer or unsigned integer or complex-type values, but got 'vector<4xf32>'}}
  %0 = mlax.constant dense<1.0> : vector<4xf32>
  return
}

// -----

func.func @constant_result_type() -> tensor<4xf64> {
  // expected-error @+2 {{'mlax.constant' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.constant' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = "mlax.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

// -----

func.func @call_unknown_symbol(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.call' op 'nope' does not name a func.func}}
  %0 = mlax.call @nope(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

module @not_a_function {}

func.func @call_non_function_symbol(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.call' op 'not_a_function' does not name a func.func}}
  %0 = mlax.call @not_a_function(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @call_wrong_operand_types(%x: tensor<4xf64>) {
  // expected-error @+1 {{'mlax.call' op operand types do not match the callee's inputs '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = mlax.call @callee(%x) : (tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @call_wrong_operand_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.call' op operand types do not match the callee's inputs '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = mlax.call @callee(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @call_wrong_result_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.call' op result types do not match the callee's results '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = mlax.call @callee(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32>

func.func @call_wrong_result_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.call' op result types do not match the callee's results '(tensor<4xf32>) -> tensor<4xf32>'}}
  mlax.call @callee(%x) : (tensor<4xf32>) -> ()
  return
}
