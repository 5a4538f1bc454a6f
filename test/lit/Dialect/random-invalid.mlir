// Verifier errors of mlax.rng_bit_generator and mlax.rng_uniform.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @key_too_short(%k: tensor<2xui32>) {
  // expected-error @+1 {{'mlax.rng_bit_generator' op key must be a uint32 array of shape (4,) (or uint64 of shape (2,)), got 'tensor<2xui32>'}}
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<2xui32> -> tensor<3xui32>
  return
}

// -----

func.func @key_signed(%k: tensor<4xi32>) {
  // expected-error @+1 {{'mlax.rng_bit_generator' op key must be a uint32 array of shape (4,) (or uint64 of shape (2,)), got 'tensor<4xi32>'}}
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xi32> -> tensor<3xui32>
  return
}

// -----

func.func @key_rank2(%k: tensor<1x4xui32>) {
  // expected-error @+1 {{'mlax.rng_bit_generator' op key must be a uint32 array of shape (4,) (or uint64 of shape (2,)), got 'tensor<1x4xui32>'}}
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<1x4xui32> -> tensor<3xui32>
  return
}

// -----

func.func @signed_bits(%k: tensor<4xui32>) {
  // expected-error @+1 {{'mlax.rng_bit_generator' op bits must be ui8, ui16, ui32 or ui64, got 'i32'}}
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xui32> -> tensor<3xi32>
  return
}

// -----

func.func @float_bits(%k: tensor<4xui32>) {
  // expected-error @+1 {{'mlax.rng_bit_generator' op bits must be ui8, ui16, ui32 or ui64, got 'f32'}}
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xui32> -> tensor<3xf32>
  return
}

// -----

func.func @new_key_type(%k: tensor<4xui32>) {
  // expected-error @+1 {{'mlax.rng_bit_generator' op failed to verify that all of {key, new_key} have same type}}
  %nk, %bits = "mlax.rng_bit_generator"(%k) <{algorithm = 0 : i32}> : (tensor<4xui32>) -> (tensor<2xui64>, tensor<3xui32>)
  return
}

// -----

func.func @bad_algorithm(%k: tensor<4xui32>) {
  // expected-error @+1 {{Invalid attribute `algorithm` in property conversion: 7 : i32}}
  %nk, %bits = "mlax.rng_bit_generator"(%k) <{algorithm = 7 : i32}> : (tensor<4xui32>) -> (tensor<4xui32>, tensor<3xui32>)
  return
}

// -----

func.func @uniform_i8(%a: tensor<i8>) {
  // expected-error @+1 {{'mlax.rng_uniform' op operands must be f16, bf16, f32, f64, i32, i64, ui32 or ui64 scalars (the types XLA's RngUniform supports), got 'i8'}}
  %r = mlax.rng_uniform %a, %a : tensor<i8> -> tensor<3xi8>
  return
}

// -----

func.func @uniform_bool(%a: tensor<i1>) {
  // expected-error @+1 {{'mlax.rng_uniform' op operands must be f16, bf16, f32, f64, i32, i64, ui32 or ui64 scalars (the types XLA's RngUniform supports), got 'i1'}}
  %r = mlax.rng_uniform %a, %a : tensor<i1> -> tensor<3xi1>
  return
}

// -----

func.func @uniform_complex(%a: tensor<complex<f32>>) {
  // expected-error @+1 {{'mlax.rng_uniform' op operands must be f16, bf16, f32, f64, i32, i64, ui32 or ui64 scalars (the types XLA's RngUniform supports), got 'complex<f32>'}}
  %r = mlax.rng_uniform %a, %a : tensor<complex<f32>> -> tensor<3xcomplex<f32>>
  return
}

// -----

func.func @uniform_result_type(%a: tensor<f32>) {
  // expected-error @+1 {{'mlax.rng_uniform' op result element type 'f16' must be the operands' 'f32'}}
  %r = mlax.rng_uniform %a, %a : tensor<f32> -> tensor<3xf16>
  return
}

// -----

func.func @uniform_operand_types(%a: tensor<f32>, %b: tensor<f64>) {
  // expected-error @+1 {{'mlax.rng_uniform' op failed to verify that all of {a, b} have same type}}
  %r = "mlax.rng_uniform"(%a, %b) : (tensor<f32>, tensor<f64>) -> tensor<3xf32>
  return
}

// -----

func.func @uniform_not_scalar(%a: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.rng_uniform' op operand #0 must be 0D tensor of}}
  %r = "mlax.rng_uniform"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
  return
}
