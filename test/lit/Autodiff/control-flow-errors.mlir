// Reverse mode through mlax.while fails as jax's does, with a diagnostic at
// the loop (also when the loop sits inside a scan body being differentiated).
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @loop(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.while' op Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values. Try using lax.scan, or using fori_loop with static start/stop.}}
  %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    %c = mlax.constant dense<1.0> : tensor<f32>
    %p = mlax.compare LT, %a, %c : tensor<f32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    %b = mlax.mul %a, %a : tensor<f32>
    mlax.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @vjp_while(%x: tensor<f32>) -> tensor<f32> {
  %a:2 = mlax.vjp @loop(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1 : tensor<f32>
}

// -----

// A while inside a scan body is reached through the scan's vjp.
func.func private @scan_of_while(%c: tensor<f32>) -> tensor<f32> {
  %r = mlax.scan init(%c) xs() consts() length = 2 : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    // expected-error @+1 {{Reverse-mode differentiation does not work for lax.while_loop}}
    %w = mlax.while (%a) : (tensor<f32>) -> tensor<f32> cond {
    ^bb0(%b: tensor<f32>):
      %one = mlax.constant dense<1.0> : tensor<f32>
      %p = mlax.compare LT, %b, %one : tensor<f32>
      mlax.yield %p : tensor<i1>
    } body {
    ^bb0(%b: tensor<f32>):
      %d = mlax.add %b, %b : tensor<f32>
      mlax.yield %d : tensor<f32>
    }
    mlax.yield %w : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @vjp_scan_of_while(%x: tensor<f32>) -> tensor<f32> {
  %a:2 = mlax.vjp @scan_of_while(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1 : tensor<f32>
}

