// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> { return %x : tensor<3xf32> }
func.func @wrong_operand(%xs: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'mlax.vmap' op operand #0 has type 'tensor<4x3xf32>', expected 'tensor<5x3xf32>'}}
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 5 : (tensor<4x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> { return %x : tensor<3xf32> }
func.func @axis_out_of_range(%xs: tensor<3x5xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'mlax.vmap' op in_axes[0] = 2 is out of range for a batched rank-2 value (use -1 for none)}}
  %r = mlax.vmap @f(%xs) in_axes = [2] out_axes = [0] size = 5 : (tensor<3x5xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> { return %x : tensor<3xf32> }
func.func @axes_count(%xs: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'mlax.vmap' op expects one in axis and one in per callee input (1), got 2 axes and 1 values}}
  %r = mlax.vmap @f(%xs) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> { return %x : tensor<3xf32> }
func.func @unbatched_result_type(%xs: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'mlax.vmap' op result #0 has type 'tensor<5x3xf32>', expected 'tensor<3xf32>'}}
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [-1] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

func.func @no_callee(%xs: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'mlax.vmap' op callee 'nope' does not name a func.func}}
  %r = mlax.vmap @nope(%xs) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

// The size is read signed: a negative one is an error, not a huge size that
// built an invalid tensor type and aborted (found by tools/fuzz-mlax-opt.py).
func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> { return %x : tensor<3xf32> }
func.func @negative_size(%xs: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlax.vmap' op batch size must be non-negative, got -2147483648}}
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = -2147483648 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
