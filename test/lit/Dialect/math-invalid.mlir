// Verifier errors of the ops in MlaxMathOps.td.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @lgamma_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'mlax.lgamma' op operand #0 must be statically shaped tensor of floating-point values}}
  %0 = "mlax.lgamma"(%x) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @sinh_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlax.sinh' op operand #0 must be statically shaped tensor of}}
  %0 = "mlax.sinh"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @cbrt_result_type(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'mlax.cbrt' op requires the same type for all operands and results}}
  %0 = "mlax.cbrt"(%x) : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @popcnt_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.popcnt' op operand #0 must be statically shaped tensor of}}
  %0 = "mlax.popcnt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @polygamma_mixed(%m: tensor<4xf32>, %x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'mlax.polygamma' op requires the same type for all operands and results}}
  %0 = "mlax.polygamma"(%m, %x) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @clamp_bound_shape(%lo: tensor<3xf32>, %x: tensor<2x3xf32>, %hi: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.clamp' op min must be a scalar or have the operand's shape 'tensor<2x3xf32>', got 'tensor<3xf32>'}}
  %0 = mlax.clamp %lo, %x, %hi : tensor<3xf32>, tensor<2x3xf32>, tensor<f32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @clamp_bound_type(%lo: tensor<f32>, %x: tensor<2x3xf32>, %hi: tensor<f64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.clamp' op max dtype 'f64' must match the operand's element type 'f32'}}
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<2x3xf32>, tensor<f64>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @clamp_bool(%x: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'mlax.clamp' op operand #0 must be statically shaped tensor of}}
  %0 = mlax.clamp %x, %x, %x : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @top_k_scalar(%x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @+2 {{'mlax.top_k' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.top_k' op needs an operand of rank at least 1, got 'tensor<f32>'}}
  %v, %i = mlax.top_k %x, k = 1 : tensor<f32> -> tensor<f32>, tensor<i32>
  return %v, %i : tensor<f32>, tensor<i32>
}

// -----

func.func @top_k_too_large(%x: tensor<3xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // expected-error @+2 {{'mlax.top_k' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.top_k' op k = 4 must be in [0, 3] (the size of the last dimension)}}
  %v, %i = mlax.top_k %x, k = 4 : tensor<3xf32> -> tensor<4xf32>, tensor<4xi32>
  return %v, %i : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @top_k_result_shape(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xi32>) {
  // expected-error @+2 {{'mlax.top_k' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.top_k' op inferred type(s) 'tensor<2x2xf32>', 'tensor<2x2xi32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>', 'tensor<2x2xi32>'}}
  %v, %i = mlax.top_k %x, k = 2 : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xi32>
  return %v, %i : tensor<2x1xf32>, tensor<2x2xi32>
}

// -----

func.func @top_k_index_type(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>) {
  // expected-error @+1 {{'mlax.top_k' op result #1 must be statically shaped tensor of 32-bit signless integer values}}
  %v, %i = mlax.top_k %x, k = 2 : tensor<2x3xf32> -> tensor<2x2xf32>, tensor<2x2xi64>
  return %v, %i : tensor<2x2xf32>, tensor<2x2xi64>
}

// -----

func.func @cumprod_axis(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlax.cumprod' op axis 2 is out of range for rank 2}}
  %0 = mlax.cumprod %x, axis = 2 : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @cummax_negative_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.cummax' op axis -1 is out of range for rank 1}}
  %0 = mlax.cummax %x, axis = -1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cumlogsumexp_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlax.cumlogsumexp' op operand #0 must be statically shaped tensor of floating-point values}}
  %0 = mlax.cumlogsumexp %x, axis = 0 : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @cummin_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlax.cummin' op operand #0 must be statically shaped tensor of}}
  %0 = mlax.cummin %x, axis = 0 : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @top_k_negative(%x: tensor<3xf32>) -> (tensor<0xf32>, tensor<0xi32>) {
  // expected-error @+2 {{'mlax.top_k' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.top_k' op k = -1 must be in [0, 3] (the size of the last dimension)}}
  %v, %i = mlax.top_k %x, k = -1 : tensor<3xf32> -> tensor<0xf32>, tensor<0xi32>
  return %v, %i : tensor<0xf32>, tensor<0xi32>
}

// -----

func.func @clamp_bound_rank(%lo: tensor<f32>, %x: tensor<3xf32>, %hi: tensor<1xf32>) {
  // expected-error @+1 {{'mlax.clamp' op max must be a scalar or have the operand's shape 'tensor<3xf32>', got 'tensor<1xf32>'}}
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<3xf32>, tensor<1xf32>
  return
}

// -----

func.func @cumlogsumexp_generic_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.cumlogsumexp' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.cumlogsumexp' op axis 5 is out of range for rank 2}}
  %0 = "mlax.cumlogsumexp"(%x) {axis = 5 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cummin_result_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.cummin' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.cummin' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = "mlax.cummin"(%x) {axis = 0 : i64} : (tensor<4xf32>) -> tensor<3xf32>
  return
}
