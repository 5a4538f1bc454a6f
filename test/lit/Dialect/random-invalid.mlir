// Verifier errors of mlax.rng_bit_generator.
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
