// RUN: mlax-opt %s --mlax-autodiff | FileCheck %s

// The reverse-mode derivative function mlax-autodiff generates for one op
// of each kind (cotangent rules in dialects/Mlax/MlaxDerivatives.cpp).
// Regenerate the CHECK lines with tools/generate-test-checks.py --only '_vjp$'
// and review them.

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
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.sign %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>
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

// CHECK-LABEL: func.func private @stop_gradient_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[ARG0]], %[[V2]] : tensor<3xf32>, tensor<3xf32>
func.func private @stop_gradient(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.stop_gradient %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_stop_gradient(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @stop_gradient(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
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

// CHECK-LABEL: func.func private @broadcast_in_dim_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<1x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reduce_sum %[[ARG1]], axes = [0, 1] : tensor<2x4x3xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[V3]] : tensor<3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<2x4x3xf32>, tensor<1x3xf32>
func.func private @broadcast_in_dim(%a0: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = mlax.broadcast_in_dim %a0, dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @test_broadcast_in_dim(%a0: tensor<1x3xf32>, %c: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<1x3xf32>) {
  %r:2 = mlax.vjp @broadcast_in_dim(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<1x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<1x3xf32>)
  return %r#0, %r#1 : tensor<2x4x3xf32>, tensor<1x3xf32>
}

// CHECK-LABEL: func.func private @reshape_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reshape %[[ARG0]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reshape %[[ARG1]] : tensor<6xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<6xf32>, tensor<2x3xf32>
func.func private @reshape(%a0: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %a0 : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @test_reshape(%a0: tensor<2x3xf32>, %c: tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @reshape(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @transpose_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3x2xf32>, tensor<2x3xf32>
func.func private @transpose(%a0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = mlax.transpose %a0, permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test_transpose(%a0: tensor<2x3xf32>, %c: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @transpose(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<3x2xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @slice_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V3]], low = [1], high = [2], interior = [1] : tensor<2xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<2xf32>, tensor<6xf32>
func.func private @slice(%a0: tensor<6xf32>) -> tensor<2xf32> {
  %0 = mlax.slice %a0, start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_slice(%a0: tensor<6xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<6xf32>) {
  %r:2 = mlax.vjp @slice(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<6xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<6xf32>
}

// CHECK-LABEL: func.func private @concatenate_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<2xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.concatenate(%[[ARG0]], %[[ARG1]]) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.slice %[[ARG2]], start = [0], limit = [2], strides = [1] : tensor<5xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.slice %[[ARG2]], start = [2], limit = [5], strides = [1] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V5]] : tensor<5xf32>, tensor<2xf32>, tensor<3xf32>
func.func private @concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>) -> tensor<5xf32> {
  %0 = mlax.concatenate(%a0, %a1) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>, %c: tensor<5xf32>) -> (tensor<5xf32>, tensor<2xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @concatenate(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<2xf32>, tensor<3xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<2xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<5xf32>, tensor<2xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @pad_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[ARG1]], low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.pad %[[ARG2]], %[[V4]], low = [-1], high = [-2], interior = [0] : tensor<8xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.slice %[[V5]], start = [0], limit = [5], strides = [2] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.reduce_sum %[[ARG2]], axes = [0] : tensor<8xf32> -> tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reduce_sum %[[V6]], axes = [0] : tensor<3xf32> -> tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.sub %[[V7]], %[[V8]] : tensor<f32>
// CHECK-NEXT: return %[[V3]], %[[V6]], %[[V9]] : tensor<8xf32>, tensor<3xf32>, tensor<f32>
func.func private @pad(%a0: tensor<3xf32>, %a1: tensor<f32>) -> tensor<8xf32> {
  %0 = mlax.pad %a0, %a1, low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @test_pad(%a0: tensor<3xf32>, %a1: tensor<f32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<f32>) {
  %r:3 = mlax.vjp @pad(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<f32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<f32>)
  return %r#0, %r#1, %r#2 : tensor<8xf32>, tensor<3xf32>, tensor<f32>
}

// CHECK-LABEL: func.func private @reduce_sum_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_sum %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<2xf32>, tensor<2x3xf32>
func.func private @reduce_sum(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_sum %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_sum(%a0: tensor<2x3xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @reduce_sum(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @reduce_prod_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_prod %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V3]], low = [0, -1], high = [0, 1], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V4]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.pad %[[V5]], %[[V3]], low = [0, -2], high = [0, 2], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V5]], %[[V6]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.pad %[[V7]], %[[V3]], low = [0, -1], high = [0, 1], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V3]], low = [0, 1], high = [0, -1], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V9]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.pad %[[V10]], %[[V3]], low = [0, 2], high = [0, -2], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[V10]], %[[V11]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.pad %[[V12]], %[[V3]], low = [0, 1], high = [0, -1], interior = [0, 0] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.mul %[[V13]], %[[V8]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.mul %[[V15]], %[[V14]] : tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V16]] : tensor<2xf32>, tensor<2x3xf32>
func.func private @reduce_prod(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_prod %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_prod(%a0: tensor<2x3xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @reduce_prod(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @reduce_max_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_max %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[V4]] : tensor<2x3xi1> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reduce_sum %[[V5]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V6]] : tensor<2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V7]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[V8]], %[[V5]] : tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V9]] : tensor<2xf32>, tensor<2x3xf32>
func.func private @reduce_max(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_max %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_max(%a0: tensor<2x3xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @reduce_max(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @reduce_min_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_min %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[V4]] : tensor<2x3xi1> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reduce_sum %[[V5]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V6]] : tensor<2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V7]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[V8]], %[[V5]] : tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V9]] : tensor<2xf32>, tensor<2x3xf32>
func.func private @reduce_min(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_min %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_min(%a0: tensor<2x3xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @reduce_min(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2x3xf32>
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

// CHECK-LABEL: func.func private @cumsum_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cumsum %[[ARG0]], axis = 1 : tensor<2x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cumsum %[[ARG1]], axis = 1 reverse : tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<2x3xf32>, tensor<2x3xf32>
func.func private @cumsum(%a0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.cumsum %a0, axis = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_cumsum(%a0: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @cumsum(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @sort_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sort %[[ARG0]] {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:2 = mlax.sort %[[ARG0]], %[[V3]] {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>, tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.sort %[[V4]]#1, %[[ARG1]] {dimension = 0 : i64, is_stable = false, num_keys = 1 : i64} : (tensor<3xi32>, tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>)
// CHECK-NEXT: return %[[V2]], %[[V5]]#1 : tensor<3xf32>, tensor<3xf32>
func.func private @sort(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sort %a0 {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sort(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @sort(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @dot_general_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.dot_general %[[ARG2]], %[[ARG1]], batch = [] x [], contract = [1] x [1] : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.dot_general %[[ARG2]], %[[ARG0]], batch = [] x [], contract = [0] x [0] : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.transpose %[[V5]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V6]] : tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>
func.func private @dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @test_dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>) {
  %r:3 = mlax.vjp @dot_general(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>)
  return %r#0, %r#1, %r#2 : tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>
}

