// Diagnostics of bad `#mlax.accuracy` values: tolerances must be
// non-negative (NaN is not), at least one positive, each given once; a mode
// takes none; only the transcendental ops take one.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @negative_atol(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{accuracy tolerances must be non-negative; got atol = -1.000000e-05, rtol = 0.000000e+00, ulps = 0}}
  %0 = mlax.exp %x accuracy <atol = -1.0e-05> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_ulps(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{accuracy tolerances must be non-negative}}
  %0 = mlax.sin %x accuracy <rtol = 1.0e-03, ulps = -2> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @nan_rtol(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{accuracy tolerances must be non-negative}}
  %0 = mlax.cos %x accuracy <rtol = 0x7FF8000000000000> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @all_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{accuracy tolerances: at least one of atol, rtol or ulps must be positive}}
  %0 = mlax.tanh %x accuracy <atol = 0.0, ulps = 0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @repeated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tolerance 'atol' given twice}}
  %0 = mlax.log %x accuracy <atol = 1.0e-03, atol = 2.0e-03> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_key(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'highest', 'default' or tolerances (atol = <float>, rtol = <float>, ulps = <integer>)}}
  %0 = mlax.sqrt %x accuracy <fast> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @decimal_integer_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = mlax.rsqrt %x accuracy <atol = 1> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An empty list is neither a mode nor tolerances.
func.func @empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'highest', 'default' or tolerances}}
  %0 = mlax.cbrt %x accuracy <> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_an_accuracy(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.exp' op attribute 'result_accuracy' failed to satisfy constraint}}
  %0 = "mlax.exp"(%x) {result_accuracy = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Ops without an accuracy take none (abs is not transcendental).
func.func @abs_takes_none(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected ':'}}
  %0 = mlax.abs %x accuracy <highest> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
