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
  // expected-error @+1 {{'mlax.neg' op operand #0 must be statically shaped tensor of floating-point or complex-type or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xf32>'}}
  %0 = "mlax.neg"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @neg_unsigned(%x: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'mlax.neg' op operand #0 must be statically shaped tensor of floating-point or complex-type or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xui32>'}}
  %0 = mlax.neg %x : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @add_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.add' op operand #0 must be statically shaped tensor of floating-point or complex-type or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<4xi1>'}}
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
// compare
//===----------------------------------------------------------------------===//

// -----

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

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast_wrong_dim_count(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op needs one broadcast dimension per operand dimension: operand rank 1, got 2 dimensions}}
  %0 = mlax.broadcast_in_dim %x, dims = [0, 1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dim_out_of_range(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimension 2 is out of range for rank 2}}
  %0 = mlax.broadcast_in_dim %x, dims = [2] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dim_negative(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimension -1 is out of range for rank 2}}
  %0 = mlax.broadcast_in_dim %x, dims = [-1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dims_not_increasing(%x: tensor<2x3xf32>) -> tensor<4x3x2xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimensions must be increasing, got [2, 1]}}
  %0 = mlax.broadcast_in_dim %x, dims = [2, 1] : tensor<2x3xf32> -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

func.func @broadcast_dims_repeated(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimension 1 appears twice}}
  %0 = mlax.broadcast_in_dim %x, dims = [1, 1] : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @broadcast_size_mismatch(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op cannot broadcast operand shape [3] to [2, 3]: operand dimension 0 has size 3 but result dimension 0 has size 2}}
  %0 = mlax.broadcast_in_dim %x, dims = [0] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op keeps the element type; got 'f32' -> 'f64'}}
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.reshape' op cannot reshape [2, 3] (6 elements) to [4] (4 elements)}}
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'mlax.reshape' op keeps the element type; got 'f32' -> 'i32'}}
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_wrong_length(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op permutation [0] does not match operand rank 2}}
  %0 = mlax.transpose %x, permutation = [0] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @transpose_repeated(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op permutation entry 1 appears twice}}
  %0 = mlax.transpose %x, permutation = [1, 1] : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op permutation entry 2 is out of range for rank 2}}
  %0 = mlax.transpose %x, permutation = [0, 2] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @transpose_result_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = mlax.transpose %x, permutation = [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// -----

func.func @slice_limit_out_of_bounds(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 0: need 0 <= start (0) <= limit (5) <= size (4) and stride (1) >= 1}}
  %0 = mlax.slice %x, start = [0], limit = [5], strides = [1] : tensor<4xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 1: need 0 <= start (-1) <= limit (3) <= size (4) and stride (1) >= 1}}
  %0 = mlax.slice %x, start = [0, -1], limit = [3, 3], strides = [1, 1] : tensor<3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @slice_start_after_limit(%x: tensor<4xf32>) -> tensor<0xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 0: need 0 <= start (3) <= limit (1) <= size (4) and stride (1) >= 1}}
  %0 = mlax.slice %x, start = [3], limit = [1], strides = [1] : tensor<4xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @slice_zero_stride(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 0: need 0 <= start (0) <= limit (4) <= size (4) and stride (0) >= 1}}
  %0 = mlax.slice %x, start = [0], limit = [4], strides = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_wrong_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op needs one start, limit and stride per dimension of the rank-1 operand}}
  %0 = mlax.slice %x, start = [0, 0], limit = [4], strides = [1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_result_shape(%x: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = mlax.slice %x, start = [0], limit = [4], strides = [2] : tensor<4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// concatenate (generic form: the shape rules do not depend on the syntax)
//===----------------------------------------------------------------------===//

// -----

func.func @concatenate_mismatched_shapes(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inputs must agree except in dimension 0, got 'tensor<2x3xf32>' and 'tensor<2x4xf32>'}}
  %0 = "mlax.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_mismatched_rank(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inputs must agree except in dimension 0, got 'tensor<2x3xf32>' and 'tensor<3xf32>'}}
  %0 = "mlax.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @concatenate_bad_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op dimension 2 is out of range for rank 2}}
  %0 = "mlax.concatenate"(%x, %x) {dimension = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concatenate_negative_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op dimension -1 is out of range for rank 2}}
  %0 = "mlax.concatenate"(%x, %x) {dimension = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concatenate_element_type(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inputs must agree except in dimension 0, got 'tensor<2x3xf32>' and 'tensor<2x3xi32>'}}
  %0 = "mlax.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_no_inputs() {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op needs at least one input}}
  %0 = "mlax.concatenate"() {dimension = 0 : i64} : () -> tensor<4xf32>
  return
}

// -----

func.func @concatenate_result_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  %0 = "mlax.concatenate"(%x, %x) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

// -----

func.func @pad_non_scalar_value(%x: tensor<4xf32>, %p: tensor<1xf32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op padding value must be a scalar of the operand's element type, got 'tensor<1xf32>'}}
  %0 = mlax.pad %x, %p, low = [0], high = [0], interior = [0] : tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_value_element_type(%x: tensor<4xf32>, %p: tensor<i32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op padding value must be a scalar of the operand's element type, got 'tensor<i32>'}}
  %0 = mlax.pad %x, %p, low = [0], high = [0], interior = [0] : tensor<4xf32>, tensor<i32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_negative_interior(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op interior padding must be non-negative, got -1 in dimension 0}}
  %0 = mlax.pad %x, %p, low = [0], high = [0], interior = [-1] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_overly_negative_edge(%x: tensor<2x4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op negative padding removes more than dimension 1 holds}}
  %0 = mlax.pad %x, %p, low = [0, -3], high = [0, -2], interior = [0, 0] : tensor<2x4xf32>, tensor<f32> -> tensor<2x0xf32>
  return
}

// -----

func.func @pad_wrong_count(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op needs one low, high and interior padding per dimension of the rank-1 operand}}
  %0 = mlax.pad %x, %p, low = [0, 0], high = [0], interior = [0] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_result_shape(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op inferred type(s) 'tensor<5xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = mlax.pad %x, %p, low = [1], high = [0], interior = [0] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// iota
//===----------------------------------------------------------------------===//

// -----

func.func @iota_dim_out_of_range() {
  // expected-error @+1 {{'mlax.iota' op dimension 1 is out of range for result rank 1}}
  %0 = mlax.iota dim = 1 : tensor<4xi32>
  return
}

// -----

func.func @iota_dim_negative() {
  // expected-error @+1 {{'mlax.iota' op dimension -1 is out of range for result rank 2}}
  %0 = mlax.iota dim = -1 : tensor<2x4xf32>
  return
}

// -----

func.func @iota_scalar() {
  // expected-error @+1 {{'mlax.iota' op dimension 0 is out of range for result rank 0}}
  %0 = mlax.iota dim = 0 : tensor<i32>
  return
}

// -----

func.func @iota_bool() {
  // expected-error @+1 {{'mlax.iota' op result #0 must be statically shaped tensor of floating-point or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<4xi1>'}}
  %0 = mlax.iota dim = 0 : tensor<4xi1>
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_sum' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_sum' op axis 2 is out of range for rank 2}}
  %0 = mlax.reduce_sum %x, axes = [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis_negative(%x: tensor<2x3xi1>) {
  // expected-error @+2 {{'mlax.reduce_or' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_or' op axis -1 is out of range for rank 2}}
  %0 = mlax.reduce_or %x, axes = [-1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}

// -----

func.func @reduce_axis_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_max' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_max' op axis 1 appears twice}}
  %0 = mlax.reduce_max %x, axes = [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axes_unsorted(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.reduce_min' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_min' op axes must be sorted, got [1, 0]}}
  %0 = mlax.reduce_min %x, axes = [1, 0] : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_result_shape(%x: tensor<2x3xi32>) {
  // expected-error @+2 {{'mlax.reduce_prod' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_prod' op inferred type(s) 'tensor<2xi32>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xi32> -> tensor<3xi32>
  return
}

// -----

func.func @reduce_and_on_float(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlax.reduce_and' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = mlax.reduce_and %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_sum_on_bool(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'mlax.reduce_sum' op operand #0 must be statically shaped tensor of floating-point or complex-type or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<2x3xi1>'}}
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

// -----

func.func @dot_general_contracting_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 1 (size 3) does not match rhs dimension 0 (size 4); shapes [2, 3] and [4, 5]}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dot_general_batch_sizes(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 0 (size 2) does not match rhs dimension 0 (size 5); shapes [2, 3, 4] and [5, 4, 6]}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @dot_general_batch_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs and rhs need as many batch dimensions, got [0] and []}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @dot_general_contracting_count(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs and rhs need as many contracting dimensions, got [1] and []}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_lhs_dim_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 2 is out of range for rank 2}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [2] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_rhs_dim_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op rhs dimension 5 is out of range for rank 2}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [5] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_batch_and_contract_overlap(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 0 appears twice}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [0] x [1] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @dot_general_result_shape(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op result shape should be [2, 4], got [4, 2]}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @dot_general_batched_result_shape(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op result shape should be [5, 2, 4], got [2, 5, 4]}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<2x5x4xf32>
  return
}

// -----

func.func @dot_general_mixed_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+1 {{'mlax.dot_general' op operands must have one element type, got 'f32' and 'f16'}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
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
