// RUN: mlax-opt %s --mlax-autodiff | FileCheck %s

// The derivatives of the ops with an accuracy (`#mlax.accuracy`), as JAX's
// rules: sin' = cos and cos' = -sin at the same accuracy (any); with the
// highest accuracy, expm1' = exp at that accuracy, tanh' =
// 4 logistic(2x) logistic(-2x) (both at that accuracy) and logistic' =
// logistic(x) logistic(-x) (the second at the default accuracy); the
// others' rules use their result or other ops and keep the accuracy on the
// primal op only. Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_jvp$' / '_vjp$' and review them.

// CHECK-LABEL: func.func private @sin_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sin %[[ARG0]] accuracy <atol = 1.000000e-05, rtol = 1.000000e-03> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cos %[[ARG0]] accuracy <atol = 1.000000e-05, rtol = 1.000000e-03> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @cos_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cos %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.sin %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @expm1_highest_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.expm1 %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.exp %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @expm1_tolerance_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.expm1 %[[ARG0]] accuracy <ulps = 2> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V2]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @tanh_highest_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.tanh %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<-2.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[V3]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.logistic %[[V4]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<2.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.logistic %[[V7]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[V8]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<4.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[V10]], %[[V9]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V11]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V12]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @tanh_default_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.tanh %[[ARG0]] accuracy <default> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sub %[[V3]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @logistic_highest_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.logistic %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.logistic %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @cbrt_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cbrt %[[ARG0]] accuracy <highest> : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.div %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.333333343> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>

func.func private @sin(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sin %a0 accuracy <atol = 1.0e-05, rtol = 1.0e-03> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sin(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sin(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @cos(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cos %a0 accuracy <highest> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cos(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @cos(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @expm1_highest(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.expm1 %a0 accuracy <highest> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_expm1_highest(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @expm1_highest(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @expm1_tolerance(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.expm1 %a0 accuracy <ulps = 2> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_expm1_tolerance(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @expm1_tolerance(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @tanh_highest(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tanh %a0 accuracy <highest> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tanh_highest(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @tanh_highest(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @tanh_default(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tanh %a0 accuracy <default> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tanh_default(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @tanh_default(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @logistic_highest(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.logistic %a0 accuracy <highest> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_logistic_highest(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @logistic_highest(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

func.func private @cbrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cbrt %a0 accuracy <highest> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cbrt(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @cbrt(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
