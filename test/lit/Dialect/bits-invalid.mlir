// Verifier errors of the bit-level and PRNG-support ops.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @shift_on_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.shift_left' op operand #0 must be statically shaped tensor of}}
  %0 = "mlax.shift_left"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @shift_on_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.shift_right_logical' op operand #0 must be statically shaped tensor of}}
  %0 = "mlax.shift_right_logical"(%x, %x) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @shift_mixed_types(%x: tensor<4xui32>, %y: tensor<4xi32>) -> tensor<4xui32> {
  // expected-error @+1 {{'mlax.shift_right_arithmetic' op requires the same type for all operands and results}}
  %0 = "mlax.shift_right_arithmetic"(%x, %y) : (tensor<4xui32>, tensor<4xi32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @bitcast_bool(%x: tensor<4xi1>) -> tensor<4xui8> {
  // expected-error @+1 {{'mlax.bitcast_convert' op does not accept bool}}
  %0 = mlax.bitcast_convert %x : tensor<4xi1> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @bitcast_shape_changes(%x: tensor<4xui32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlax.bitcast_convert' op between types of one bit width keeps the shape}}
  %0 = mlax.bitcast_convert %x : tensor<4xui32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bitcast_narrowing_wrong_dim(%x: tensor<4xui32>) -> tensor<4x2xui8> {
  // expected-error @+1 {{'mlax.bitcast_convert' op from 32-bit to 8-bit elements adds a last dimension of size 4}}
  %0 = mlax.bitcast_convert %x : tensor<4xui32> -> tensor<4x2xui8>
  return %0 : tensor<4x2xui8>
}

// -----

func.func @bitcast_widening_wrong_dim(%x: tensor<4x3xui32>) -> tensor<4xui64> {
  // expected-error @+1 {{'mlax.bitcast_convert' op from 32-bit to 64-bit elements consumes a last dimension of size 2}}
  %0 = mlax.bitcast_convert %x : tensor<4x3xui32> -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

func.func @erf_inv_on_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlax.erf_inv' op operand #0 must be statically shaped tensor of floating-point values}}
  %0 = "mlax.erf_inv"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @sort_num_keys(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.sort' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.sort' op num_keys must be in [1, 1] (the number of operands), got 2}}
  %0 = mlax.sort %x {dimension = 0 : i64, is_stable = true, num_keys = 2 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_dimension(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.sort' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.sort' op dimension 1 is out of range for rank 1}}
  %0 = mlax.sort %x {dimension = 1 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_shapes(%x: tensor<4xf32>, %y: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.sort' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.sort' op operands must have one shape}}
  %0:2 = mlax.sort %x, %y {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<4xf32>, tensor<3xf32>) -> (tensor<4xf32>, tensor<3xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @sort_result_type(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+2 {{'mlax.sort' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.sort' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = mlax.sort %x {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @sort_complex_key(%x: tensor<4xcomplex<f32>>, %y: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.sort' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.sort' op cannot sort by complex keys (key 0 is 'tensor<4xcomplex<f32>>')}}
  %0:2 = mlax.sort %x, %y {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<4xcomplex<f32>>, tensor<4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>)
  return
}

// -----

func.func @sort_no_operands() {
  // expected-error @+2 {{'mlax.sort' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.sort' op needs at least one operand}}
  mlax.sort {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : () -> ()
  return
}

// -----

func.func @cumsum_result_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.cumsum' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.cumsum' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = "mlax.cumsum"(%x) {axis = 0 : i64} : (tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

func.func @cumsum_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.cumsum' op axis 1 is out of range for rank 1}}
  %0 = mlax.cumsum %x, axis = 1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clz_on_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.clz' op operand #0 must be statically shaped tensor of}}
  %0 = "mlax.clz"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @take_axis(%x: tensor<4xf32>, %i: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+2 {{'mlax.take' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.take' op axis 1 is out of range for rank 1}}
  %0 = mlax.take %x[%i], axis = 1 : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @take_result_shape(%x: tensor<4x3xf32>, %i: tensor<2xi32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'mlax.take' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.take' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %0 = mlax.take %x[%i], axis = 0 : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @take_float_indices(%x: tensor<4xf32>, %i: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlax.take' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = mlax.take %x[%i], axis = 0 : (tensor<4xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @take_from_an_empty_axis(%x: tensor<0x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.take' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.take' op takes 2 indices from axis 0 of size 0}}
  %0 = mlax.take %x[%i], axis = 0 : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
