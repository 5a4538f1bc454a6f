// Verifier errors of the differentiation ops: each request is checked
// against its callee's signature before any pass sees it.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @no_callee(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.jvp' op callee 'nope' does not name a func.func}}
  %r:2 = mlax.jvp @nope(%x) tangents(%x) wrt = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @wrong_primal(%x: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.jvp' op primals #0 has type 'tensor<2xf32>', expected 'tensor<f32>'}}
  %r:2 = mlax.jvp @f(%x) tangents(%x) wrt = [0] : (tensor<2xf32>, tensor<2xf32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @wrt_out_of_range(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.jvp' op wrt index 1 is out of range [0, 1)}}
  %r:2 = mlax.jvp @f(%x) tangents(%x) wrt = [1] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @g(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @wrt_not_increasing(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.jvp' op wrt indices must be strictly increasing}}
  %r:2 = mlax.jvp @g(%x, %x) tangents(%x, %x) wrt = [1, 0] : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @h(%n: tensor<i32>) -> tensor<i32> { return %n : tensor<i32> }
func.func @wrt_integer(%n: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'mlax.jvp' op wrt argument #0 has type 'tensor<i32>', which has no tangent (not a real float tensor)}}
  %r:2 = mlax.jvp @h(%n) tangents(%n) wrt = [0] : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  return %r#1 : tensor<i32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @missing_tangent(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.jvp' op expects 1 tangents, got 0}}
  %r:2 = mlax.jvp @f(%x) tangents() wrt = [0] : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @jvp_wrong_results(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.jvp' op expects 2 results, got 1}}
  %r = mlax.jvp @f(%x) tangents(%x) wrt = [0] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @h(%x: tensor<f32>) -> tensor<i32> {
  %0 = mlax.convert %x : tensor<f32> -> tensor<i32>
  return %0 : tensor<i32>
}
func.func @seed_integer(%x: tensor<f32>, %c: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.vjp' op seed result #0 has type 'tensor<i32>', which has no cotangent (not a real float tensor)}}
  %r:2 = mlax.vjp @h(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<f32>, tensor<i32>) -> (tensor<i32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @vjp_cotangent_type(%x: tensor<f32>, %c: tensor<f64>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.vjp' op cotangents #0 has type 'tensor<f64>', expected 'tensor<f32>'}}
  %r:2 = mlax.vjp @f(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f64>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @vjp_seed_out_of_range(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.vjp' op seeds index 1 is out of range [0, 1)}}
  %r:2 = mlax.vjp @f(%x) cotangents(%x) wrt = [0] seeds = [1] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func private @bad_rule(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @custom_jvp_rule_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.custom_jvp_call' op jvp_rule 'bad_rule' has type '(tensor<f32>) -> tensor<f32>', expected '(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)' (primals then tangents, to results then tangents)}}
  %r = mlax.custom_jvp_call @f(%x) jvp_rule = @bad_rule : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func private @fwd(%x: tensor<f32>) -> tensor<f64> {
  %0 = mlax.convert %x : tensor<f32> -> tensor<f64>
  return %0 : tensor<f64>
}
func.func private @bwd(%c: tensor<f32>) -> tensor<f32> { return %c : tensor<f32> }
func.func @custom_vjp_fwd_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.custom_vjp_call' op fwd 'fwd' has type '(tensor<f32>) -> tensor<f64>'; it must take the callee's inputs and return its results followed by residuals}}
  %r = mlax.custom_vjp_call @f(%x) fwd = @fwd bwd = @bwd : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func private @fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}
func.func private @bwd(%c: tensor<f32>) -> tensor<f32> { return %c : tensor<f32> }
func.func @custom_vjp_bwd_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.custom_vjp_call' op bwd 'bwd' has type '(tensor<f32>) -> tensor<f32>', expected '(tensor<f32>, tensor<f32>) -> tensor<f32>' (residuals then result cotangents, to operand cotangents)}}
  %r = mlax.custom_vjp_call @f(%x) fwd = @fwd bwd = @bwd : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @stop_gradient_type(%x: tensor<f32>) -> tensor<f64> {
  // expected-error @+1 {{'mlax.stop_gradient' op requires the same type for all operands and results}}
  %r = "mlax.stop_gradient"(%x) : (tensor<f32>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

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
