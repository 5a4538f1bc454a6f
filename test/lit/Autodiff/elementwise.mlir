// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the elementwise ops, forward
// (_jvp) then reverse (_vjp) mode (moved from rules-jvp.mlir and
// rules-vjp.mlir). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_jvp$' / '_vjp$' and review them.

// CHECK-LABEL: func.func private @neg_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @neg(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.neg %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_neg(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @neg(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @exp_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.exp %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @exp(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.exp %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_exp(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @exp(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @log_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.log %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @log(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.log %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_log(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @log(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sin_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>
func.func private @sin(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sin %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sin(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sin(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @cos_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @cos(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cos %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cos(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @cos(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @tan_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.tan %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @tan(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tan %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tan(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @tan(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @tanh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.tanh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sub %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>
func.func private @tanh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tanh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tanh(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @tanh(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sqrt_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sqrt %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.div %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @sqrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sqrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sqrt(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sqrt(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @rsqrt_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.rsqrt %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.div %[[V2]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<-5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @rsqrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.rsqrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_rsqrt(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @rsqrt(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @abs_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.abs %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare GE, %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V3]], %[[ARG1]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @abs(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.abs %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_abs(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @abs(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sign_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sign %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @sign(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sign %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sign(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sign(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @floor_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.floor %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @floor(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.floor %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_floor(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @floor(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @ceil_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.ceil %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @ceil(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.ceil %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_ceil(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @ceil(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @round_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.round %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @round(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.round %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_round(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @round(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @round_even_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.round_even %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @round_even(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.round_even %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_round_even(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @round_even(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @logistic_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.logistic %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sub %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @logistic(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.logistic %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_logistic(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @logistic(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @log1p_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.log1p %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V3]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @log1p(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.log1p %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_log1p(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @log1p(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @expm1_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.expm1 %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V2]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @expm1(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.expm1 %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_expm1(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @expm1(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// reduce_precision is linear: the tangent is rounded the same way.
// CHECK-LABEL: func.func private @reduce_precision_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_precision %[[ARG0]] {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reduce_precision %[[ARG1]] {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @reduce_precision(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_precision %a0 {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_reduce_precision(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @reduce_precision(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @add_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG2]], %[[ARG3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @add(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.add %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_add(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @add(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sub_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sub %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[ARG3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[ARG2]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @sub(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sub %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sub(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sub(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @mul_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG3]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V5]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V7]] : tensor<3xf32>, tensor<3xf32>
func.func private @mul(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.mul %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_mul(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @mul(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @div_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.div %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.div %[[ARG2]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.neg %[[ARG3]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.div %[[V7]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.add %[[V5]], %[[V8]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V9]] : tensor<3xf32>, tensor<3xf32>
func.func private @div(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.div %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_div(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @div(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @pow_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.sub %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V8]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V11]] : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[ARG0]], %[[V10]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.log %[[V13]] : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[V14]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[V15]] : tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.add %[[V9]], %[[V16]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V17]] : tensor<3xf32>, tensor<3xf32>
func.func private @pow(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.pow %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_pow(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @pow(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// An integer exponent (converted from an integer, or an integral constant:
// JAX's integer_pow) has derivative 0 where it is 0, also at x = 0, and its
// exponent minus one stays an integer for the next order.
// CHECK-LABEL: func.func private @pow_int_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.convert %[[ARG1]] : tensor<3xi32> -> tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.compare EQ, %[[V3]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V3]], %[[V7]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<1> : tensor<3xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0> : tensor<3xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V10]] : tensor<3xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[ARG1]], %[[V9]] : tensor<3xi1>, tensor<3xi32>, tensor<3xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<1> : tensor<3xi32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.sub %[[V12]], %[[V13]] : tensor<3xi32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.convert %[[V14]] : tensor<3xi32> -> tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[V15]] : tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.mul %[[V8]], %[[V16]] : tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V17]], %[[V18]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V19]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V20]] : tensor<3xf32>, tensor<3xf32>
func.func private @pow_int(%a0: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  %0 = mlax.convert %n : tensor<3xi32> -> tensor<3xf32>
  %1 = mlax.pow %a0, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func @test_pow_int(%a0: tensor<3xf32>, %n: tensor<3xi32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @pow_int(%a0, %n) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xi32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @pow_const_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<[0.000000e+00, 1.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare EQ, %[[V2]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V2]], %[[V6]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<[0.000000e+00, 0.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[V8]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V9]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V10]], %[[V11]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V12]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V13]] : tensor<3xf32>, tensor<3xf32>
func.func private @pow_const(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.constant dense<[0.0, 1.0, 3.0]> : tensor<3xf32>
  %1 = mlax.pow %a0, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func @test_pow_const(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @pow_const(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @max_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.max %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V8]], %[[V6]], %[[V5]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V7]], %[[V9]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V11]] : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.select_n %[[V16]], %[[V14]], %[[V13]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.select_n %[[V18]], %[[V15]], %[[V17]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[V19]] : tensor<3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.add %[[V12]], %[[V20]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V21]] : tensor<3xf32>, tensor<3xf32>
func.func private @max(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.max %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_max(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @max(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @min_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.min %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V8]], %[[V6]], %[[V5]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V7]], %[[V9]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V11]] : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.select_n %[[V16]], %[[V14]], %[[V13]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.select_n %[[V18]], %[[V15]], %[[V17]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[V19]] : tensor<3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.add %[[V12]], %[[V20]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V21]] : tensor<3xf32>, tensor<3xf32>
func.func private @min(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.min %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_min(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @min(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @rem_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.rem %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.div %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.abs %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.floor %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.sign %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[V8]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.neg %[[ARG3]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[V10]], %[[V9]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.add %[[ARG2]], %[[V11]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V12]] : tensor<3xf32>, tensor<3xf32>
func.func private @rem(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.rem %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_rem(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @rem(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @atan2_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.atan2 %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V6]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V8]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.add %[[V11]], %[[V10]] : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.div %[[V13]], %[[V12]] : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[V14]] : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.add %[[V9]], %[[V15]] : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V16]] : tensor<3xf32>, tensor<3xf32>
func.func private @atan2(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.atan2 %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_atan2(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @atan2(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @select_n_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xi1>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.select_n %[[ARG0]], %[[ARG1]], %[[ARG2]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[ARG0]], %[[ARG3]], %[[ARG4]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: return %[[V5]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @select_n(%a0: tensor<3xi1>, %a1: tensor<3xf32>, %a2: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.select_n %a0, %a1, %a2 : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_select_n(%a0: tensor<3xi1>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %t0: tensor<3xf32>, %t1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @select_n(%a0, %a1, %a2) tangents(%t0, %t1) wrt = [1, 2] : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @convert_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf16>, tensor<3xf16>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.convert %[[ARG0]] : tensor<3xf32> -> tensor<3xf16>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.convert %[[ARG1]] : tensor<3xf32> -> tensor<3xf16>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf16>, tensor<3xf16>
func.func private @convert(%a0: tensor<3xf32>) -> tensor<3xf16> {
  %0 = mlax.convert %a0 : tensor<3xf32> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
func.func @test_convert(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf16>, tensor<3xf16>) {
  %r:2 = mlax.jvp @convert(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf16>, tensor<3xf16>)
  return %r#0, %r#1 : tensor<3xf16>, tensor<3xf16>
}

// CHECK-LABEL: func.func private @convert_to_int_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xi32>, tensor<3xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.convert %[[ARG0]] : tensor<3xf32> -> tensor<3xi32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0> : tensor<3xi32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xi32>, tensor<3xi32>
func.func private @convert_to_int(%a0: tensor<3xf32>) -> tensor<3xi32> {
  %0 = mlax.convert %a0 : tensor<3xf32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @test_convert_to_int(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %r:2 = mlax.jvp @convert_to_int(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xi32>, tensor<3xi32>)
  return %r#0, %r#1 : tensor<3xi32>, tensor<3xi32>
}

// CHECK-LABEL: func.func private @erf_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.erf %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.neg %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.exp %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1.12837923> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>
func.func private @erf(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erf(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @erf(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @erf_inv_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.erf_inv %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.exp %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.886226952> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[V5]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>
func.func private @erf_inv(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf_inv %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erf_inv(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @erf_inv(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func private @neg_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @neg(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.neg %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_neg(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @neg(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @exp_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.exp %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @exp(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.exp %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_exp(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @exp(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @log_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.log %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @log(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.log %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_log(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @log(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sin_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>
func.func private @sin(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sin %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sin(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @sin(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @cos_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @cos(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cos %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cos(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @cos(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @tan_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.tan %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @tan(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tan %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tan(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @tan(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @tanh_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.tanh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sub %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>
func.func private @tanh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tanh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tanh(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @tanh(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sqrt_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sqrt %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.div %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @sqrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sqrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sqrt(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @sqrt(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @rsqrt_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.rsqrt %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.div %[[V2]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<-5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @rsqrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.rsqrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_rsqrt(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @rsqrt(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @abs_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.abs %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare GE, %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V3]], %[[ARG1]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @abs(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.abs %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_abs(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @abs(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sign_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sign %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @sign(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sign %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sign(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @sign(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @floor_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.floor %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @floor(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.floor %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_floor(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @floor(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @ceil_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.ceil %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @ceil(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.ceil %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_ceil(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @ceil(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @round_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.round %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @round(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.round %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_round(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @round(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @round_even_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.round_even %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @round_even(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.round_even %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_round_even(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @round_even(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @logistic_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.logistic %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sub %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>
func.func private @logistic(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.logistic %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_logistic(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @logistic(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @log1p_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.log1p %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V3]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @log1p(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.log1p %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_log1p(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @log1p(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @expm1_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.expm1 %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V2]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>
func.func private @expm1(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.expm1 %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_expm1(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @expm1(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @reduce_precision_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_precision %[[ARG0]] {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reduce_precision %[[ARG1]] {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
func.func private @reduce_precision(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_precision %a0 {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_reduce_precision(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @reduce_precision(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @add_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[ARG2]], %[[ARG2]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @add(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.add %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_add(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @add(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @sub_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.sub %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.neg %[[ARG2]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[ARG2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @sub(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sub %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sub(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @sub(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @mul_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V5]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @mul(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.mul %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_mul(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @mul(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @div_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.div %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.div %[[ARG2]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[ARG2]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[V5]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.div %[[V6]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V7]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @div(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.div %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_div(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @div(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @pow_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.sub %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V10]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[ARG0]], %[[V9]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.log %[[V12]] : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.mul %[[V13]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V14]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V8]], %[[V15]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @pow(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.pow %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_pow(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @pow(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @max_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.max %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V7]], %[[V5]], %[[V4]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V6]], %[[V8]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V10]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V13]], %[[V12]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.select_n %[[V17]], %[[V14]], %[[V16]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V18]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V11]], %[[V19]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @max(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.max %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_max(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @max(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @min_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.min %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V7]], %[[V5]], %[[V4]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V6]], %[[V8]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V10]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V13]], %[[V12]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.compare EQ, %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.select_n %[[V17]], %[[V14]], %[[V16]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V18]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V11]], %[[V19]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @min(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.min %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_min(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @min(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @rem_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.rem %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.div %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.abs %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.floor %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.sign %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.neg %[[ARG2]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V8]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[ARG2]], %[[V10]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @rem(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.rem %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_rem(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @rem(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @atan2_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.atan2 %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[V5]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.add %[[V10]], %[[V9]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.div %[[V12]], %[[V11]] : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V13]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V8]], %[[V14]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @atan2(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.atan2 %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_atan2(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @atan2(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @select_n_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xi1>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.select_n %[[ARG0]], %[[ARG1]], %[[ARG2]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[ARG0]], %[[ARG3]], %[[V5]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.select_n %[[ARG0]], %[[V5]], %[[ARG3]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V6]], %[[V7]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
func.func private @select_n(%a0: tensor<3xi1>, %a1: tensor<3xf32>, %a2: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.select_n %a0, %a1, %a2 : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_select_n(%a0: tensor<3xi1>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @select_n(%a0, %a1, %a2) cotangents(%c) wrt = [1, 2] seeds = [0] : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @convert_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf16>) -> (tensor<3xf16>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.convert %[[ARG0]] : tensor<3xf32> -> tensor<3xf16>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.convert %[[ARG1]] : tensor<3xf16> -> tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf16>, tensor<3xf32>
func.func private @convert(%a0: tensor<3xf32>) -> tensor<3xf16> {
  %0 = mlax.convert %a0 : tensor<3xf32> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
func.func @test_convert(%a0: tensor<3xf32>, %c: tensor<3xf16>) -> (tensor<3xf16>, tensor<3xf32>) {
  %r:2 = mlax.vjp @convert(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf16>) -> (tensor<3xf16>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf16>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @erf_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.erf %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.neg %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.exp %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1.12837923> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>
func.func private @erf(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erf(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @erf(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @erf_inv_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.erf_inv %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.exp %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.886226952> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[V5]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>
func.func private @erf_inv(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf_inv %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erf_inv(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @erf_inv(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// Complex parts: real, imag, conj, complex (JAX's transposes: real^T(c) =
// complex(c, 0), imag^T(c) = complex(0, -c), conj^T = conj, complex^T(c) =
// (real(c), -imag(c))), and |z|^2 through them.

// CHECK-LABEL: func.func private @real_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.real %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.real %[[ARG1]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
// CHECK-LABEL: func.func private @real_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.real %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.complex %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xcomplex<f32>>
func.func private @real(%a0: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = mlax.real %a0 : tensor<3xcomplex<f32>>
  return %0 : tensor<3xf32>
}
func.func @test_real_jvp(%a0: tensor<3xcomplex<f32>>, %t0: tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @real(%a0) tangents(%t0) wrt = [0] : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_real_vjp(%a0: tensor<3xcomplex<f32>>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>) {
  %r:2 = mlax.vjp @real(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xcomplex<f32>>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xcomplex<f32>>
}

// CHECK-LABEL: func.func private @imag_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.imag %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.imag %[[ARG1]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>
// CHECK-LABEL: func.func private @imag_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.imag %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.complex %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xcomplex<f32>>
func.func private @imag(%a0: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = mlax.imag %a0 : tensor<3xcomplex<f32>>
  return %0 : tensor<3xf32>
}
func.func @test_imag_jvp(%a0: tensor<3xcomplex<f32>>, %t0: tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @imag(%a0) tangents(%t0) wrt = [0] : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_imag_vjp(%a0: tensor<3xcomplex<f32>>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>) {
  %r:2 = mlax.vjp @imag(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xcomplex<f32>>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xcomplex<f32>>
}

// CHECK-LABEL: func.func private @conj_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.conj %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.conj %[[ARG1]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
// CHECK-LABEL: func.func private @conj_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.conj %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.conj %[[ARG1]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
func.func private @conj(%a0: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = mlax.conj %a0 : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @test_conj_jvp(%a0: tensor<3xcomplex<f32>>, %t0: tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) {
  %r:2 = mlax.jvp @conj(%a0) tangents(%t0) wrt = [0] : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
}
func.func @test_conj_vjp(%a0: tensor<3xcomplex<f32>>, %c: tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) {
  %r:2 = mlax.vjp @conj(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
}

// Only the real part is differentiated: the imaginary part's tangent is zero.
// CHECK-LABEL: func.func private @complex_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.complex %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.complex %[[ARG2]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V5]] : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
// CHECK-LABEL: func.func private @complex_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.complex %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.real %[[ARG2]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.imag %[[ARG2]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.neg %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V6]] : tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>
func.func private @complex(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xcomplex<f32>> {
  %0 = mlax.complex %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @test_complex_jvp(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) {
  %r:2 = mlax.jvp @complex(%a0, %a1) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
}
func.func @test_complex_vjp(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %c: tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @complex(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<3xf32>
}

// |z|^2 = real(z * conj(z)): the cotangent of 1 is 2 * conj(z), as JAX's grad.
// CHECK-LABEL: func.func private @abs2_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.conj %[[ARG0]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V2]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.real %[[V3]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.complex %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V2]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V6]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.conj %[[V8]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.add %[[V7]], %[[V9]] : tensor<3xcomplex<f32>>
// CHECK-NEXT: return %[[V4]], %[[V10]] : tensor<3xf32>, tensor<3xcomplex<f32>>
func.func private @abs2(%z: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = mlax.conj %z : tensor<3xcomplex<f32>>
  %1 = mlax.mul %z, %0 : tensor<3xcomplex<f32>>
  %2 = mlax.real %1 : tensor<3xcomplex<f32>>
  return %2 : tensor<3xf32>
}
func.func @test_abs2_vjp(%z: tensor<3xcomplex<f32>>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>) {
  %r:2 = mlax.vjp @abs2(%z) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xcomplex<f32>>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xcomplex<f32>>
}
