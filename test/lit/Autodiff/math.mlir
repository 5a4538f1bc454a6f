// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the ops of
// MlaxMathOps.td (rules in dialects/Mlax/MlaxMathOps.cpp). Regenerate the
// CHECK lines with tools/generate-test-checks.py --only '_(jvp|vjp)$' and
// review them.

// CHECK-LABEL: func.func private @sinh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sinh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cosh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>

func.func private @sinh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sinh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sinh(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sinh(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @cosh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cosh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.sinh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>

func.func private @cosh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cosh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cosh(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @cosh(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @asin_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.asin %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.sub %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.rsqrt %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>

func.func private @asin(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.asin %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_asin(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @asin(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @acos_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.acos %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.sub %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.rsqrt %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.neg %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>

func.func private @acos(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.acos %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_acos(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @acos(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @atan_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.atan %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<3xf32>, tensor<3xf32>

func.func private @atan(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.atan %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_atan(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @atan(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @asinh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.asinh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.rsqrt %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>

func.func private @asinh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.asinh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_asinh(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @asinh(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @acosh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.acosh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.sub %[[ARG0]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[V5]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.rsqrt %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>

func.func private @acosh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.acosh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_acosh(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @acosh(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @atanh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.atanh %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V3]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.sub %[[V3]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.div %[[V6]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>

func.func private @atanh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.atanh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_atanh(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @atanh(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @lgamma_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.lgamma %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.digamma %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<3xf32>, tensor<3xf32>

func.func private @lgamma(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.lgamma %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_lgamma(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @lgamma(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @digamma_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.digamma %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.polygamma %[[V3]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<3xf32>, tensor<3xf32>

func.func private @digamma(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.digamma %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_digamma(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @digamma(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @erfc_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.erfc %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.neg %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.exp %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<-1.12837923> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>

func.func private @erfc(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erfc %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erfc(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @erfc(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @cbrt_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cbrt %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[V2]], %[[V2]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.div %[[V4]], %[[V3]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.333333343> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V8]] : tensor<3xf32>, tensor<3xf32>

func.func private @cbrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cbrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cbrt(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @cbrt(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// polygamma is differentiable in x only: the cotangent of m is NaN.
// CHECK-LABEL: func.func private @polygamma_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.polygamma %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.polygamma %[[V5]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V7]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @polygamma_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.polygamma %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.polygamma %[[V5]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0x7FC00000> : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V7]], %[[V8]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>

func.func private @polygamma(%m: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.polygamma %m, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_polygamma_jvp(%m: tensor<3xf32>, %x: tensor<3xf32>, %t: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @polygamma(%m, %x) tangents(%t) wrt = [1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_polygamma_vjp(%m: tensor<3xf32>, %x: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @polygamma(%m, %x) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @zeta_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.zeta %[[ARG0]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V4]] : tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.zeta %[[V5]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V8]] : tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V9]] : tensor<3xf32>, tensor<3xf32>

func.func private @zeta(%x: tensor<3xf32>, %q: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.zeta %x, %q : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_zeta(%x: tensor<3xf32>, %q: tensor<3xf32>, %t: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @zeta(%x, %q) tangents(%t) wrt = [1] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// clamp: the tangent of the input the result is (jax's select-based rule);
// a scalar bound's cotangent is summed.
// CHECK-LABEL: func.func private @clamp_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.clamp %[[ARG0]], %[[ARG1]], %[[ARG2]] : tensor<f32>, tensor<3xf32>, tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [] : tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [] : tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.compare LT, %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.compare GT, %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.and %[[V8]], %[[V7]] : tensor<3xi1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare LT, %[[V5]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.compare GT, %[[V5]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.and %[[V11]], %[[V10]] : tensor<3xi1>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.compare LT, %[[V6]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V14]], %[[ARG3]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[V15]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @clamp_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.clamp %[[ARG0]], %[[ARG1]], %[[ARG2]] : tensor<f32>, tensor<3xf32>, tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [] : tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [] : tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.compare LT, %[[ARG1]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.compare GT, %[[ARG1]], %[[V5]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.and %[[V8]], %[[V7]] : tensor<3xi1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare LT, %[[V5]], %[[V6]] : tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.compare GT, %[[V5]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.and %[[V11]], %[[V10]] : tensor<3xi1>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.compare LT, %[[V6]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V14]], %[[ARG3]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.reduce_sum %[[V15]], axes = [0] : tensor<3xf32> -> tensor<f32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V14]], %[[ARG3]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.select_n %[[V13]], %[[V14]], %[[ARG3]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.reduce_sum %[[V18]], axes = [0] : tensor<3xf32> -> tensor<f32>
// CHECK-NEXT: return %[[V4]], %[[V16]], %[[V17]] : tensor<3xf32>, tensor<f32>, tensor<3xf32>

func.func private @clamp(%lo: tensor<f32>, %x: tensor<3xf32>, %hi: tensor<f32>) -> tensor<3xf32> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<3xf32>, tensor<f32>
  return %0 : tensor<3xf32>
}
func.func @test_clamp_jvp(%lo: tensor<f32>, %x: tensor<3xf32>, %hi: tensor<f32>, %t: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @clamp(%lo, %x, %hi) tangents(%t) wrt = [1] : (tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_clamp_vjp(%lo: tensor<f32>, %x: tensor<3xf32>, %hi: tensor<f32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @clamp(%lo, %x, %hi) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<f32>, tensor<3xf32>
}

// top_k: the tangent gathered at the indices; the cotangent scattered back.
// CHECK-LABEL: func.func private @top_k_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.top_k %[[ARG0]], k = 3 : tensor<2x4xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[V3]] : tensor<2x3xi32> -> tensor<2x3x1xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.gather %[[ARG1]][%[[V4]]] offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1] : (tensor<2x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<2x3xf32>, tensor<2x3xf32>

// CHECK-LABEL: func.func private @top_k_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.top_k %[[ARG0]], k = 3 : tensor<2x4xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[V3]] : tensor<2x3xi32> -> tensor<2x3x1xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.scatter add %[[V5]][%[[V4]]], %[[ARG1]] update_window_dims = [], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 unique_indices : (tensor<2x4xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<2x3xf32>, tensor<2x4xf32>

func.func private @top_k(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %v, %i = mlax.top_k %x, k = 3 : tensor<2x4xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  return %v : tensor<2x3xf32>
}
func.func @test_top_k_jvp(%x: tensor<2x4xf32>, %t: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.jvp @top_k(%x) tangents(%t) wrt = [0] : (tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xf32>
}
func.func @test_top_k_vjp(%x: tensor<2x4xf32>, %c: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>) {
  %r:2 = mlax.vjp @top_k(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x4xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x4xf32>
}

// The cumulative reductions: a log-step prefix scan (two steps for three
// elements), differentiated in closed form.
// CHECK-LABEL: func.func private @cumprod_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cumprod %[[ARG0]], axis = 0 : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1> : tensor<3xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare GE, %[[V3]], %[[V4]] : tensor<3xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V6]], low = [1], high = [-1], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG0]], %[[V8]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<2> : tensor<3xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.compare GE, %[[V10]], %[[V11]] : tensor<3xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.pad %[[V9]], %[[V13]], low = [2], high = [-2], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V14]] : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V9]], %[[V15]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V17]], low = [1], high = [-1], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V18]] : tensor<3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[V7]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.add %[[V20]], %[[V19]] : tensor<3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG1]], %[[V21]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.pad %[[V22]], %[[V23]], low = [2], high = [-2], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V24]] : tensor<3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.mul %[[V14]], %[[V22]] : tensor<3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.add %[[V26]], %[[V25]] : tensor<3xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V22]], %[[V27]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V28]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @cumprod_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cumprod %[[ARG0]], axis = 0 : tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1> : tensor<3xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare GE, %[[V3]], %[[V4]] : tensor<3xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V6]], low = [1], high = [-1], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V7]] : tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG0]], %[[V8]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<2> : tensor<3xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.compare GE, %[[V10]], %[[V11]] : tensor<3xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.pad %[[V9]], %[[V13]], low = [2], high = [-2], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V14]] : tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V9]], %[[V15]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.mul %[[V14]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[ARG1]], %[[V18]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[V9]], %[[ARG1]] : tensor<3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V17]], %[[V20]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.pad %[[V21]], %[[V22]], low = [-2], high = [2], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.add %[[V19]], %[[V23]] : tensor<3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V24]] : tensor<3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V24]], %[[V25]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V24]] : tensor<3xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V17]], %[[V27]] : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.pad %[[V28]], %[[V29]], low = [-1], high = [1], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.add %[[V26]], %[[V30]] : tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V31]] : tensor<3xf32>, tensor<3xf32>

func.func private @cumprod(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cumprod %x, axis = 0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cumprod_jvp(%x: tensor<3xf32>, %t: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @cumprod(%x) tangents(%t) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_cumprod_vjp(%x: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @cumprod(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @cummax_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cummax %[[ARG0]], axis = 0 reverse : tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<2xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1> : tensor<2xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare LT, %[[V3]], %[[V4]] : tensor<2xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V6]], low = [-1], high = [1], interior = [0] : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.max %[[ARG0]], %[[V7]] : tensor<2xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.compare EQ, %[[V7]], %[[V8]] : tensor<2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V10]], %[[V9]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V8]] : tensor<2xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.select_n %[[V14]], %[[V11]], %[[V13]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V8]] : tensor<2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.select_n %[[V19]], %[[V17]], %[[V16]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.compare EQ, %[[V7]], %[[V8]] : tensor<2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.select_n %[[V21]], %[[V18]], %[[V20]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG0]], %[[V8]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.mul %[[V15]], %[[ARG1]] : tensor<2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG1]], %[[V25]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.mul %[[V22]], %[[ARG1]] : tensor<2xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V24]], %[[V27]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.pad %[[V28]], %[[V29]], low = [1], high = [-1], interior = [0] : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.add %[[V26]], %[[V30]] : tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V31]] : tensor<2xf32>, tensor<2xf32>

func.func private @cummax(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mlax.cummax %x, axis = 0 reverse : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_cummax_vjp(%x: tensor<2xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.vjp @cummax(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func private @cumlogsumexp_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cumlogsumexp %[[ARG0]], axis = 0 : tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<2xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<1> : tensor<2xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.compare GE, %[[V3]], %[[V4]] : tensor<2xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V6]], low = [1], high = [-1], interior = [0] : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.max %[[ARG0]], %[[V7]] : tensor<2xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.sub %[[ARG0]], %[[V7]] : tensor<2xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare NE, %[[V9]], %[[V9]] : tensor<2xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.abs %[[V9]] : tensor<2xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.neg %[[V11]] : tensor<2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.exp %[[V12]] : tensor<2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.log1p %[[V13]] : tensor<2xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.add %[[V8]], %[[V14]] : tensor<2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V7]] : tensor<2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V15]], %[[V16]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.constant dense<0x7F800000> : tensor<2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.compare EQ, %[[V17]], %[[V19]] : tensor<2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.select_n %[[V20]], %[[V17]], %[[V18]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.constant dense<0x7F800000> : tensor<2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V23]] : tensor<2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.select_n %[[V24]], %[[ARG0]], %[[V22]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.sub %[[V25]], %[[V21]] : tensor<2xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.exp %[[V26]] : tensor<2xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<0x7F800000> : tensor<2xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.compare EQ, %[[V7]], %[[V29]] : tensor<2xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.select_n %[[V30]], %[[V7]], %[[V28]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.sub %[[V31]], %[[V21]] : tensor<2xf32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.exp %[[V32]] : tensor<2xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG0]], %[[V17]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V35]], low = [1], high = [-1], interior = [0] : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.mul %[[V33]], %[[V36]] : tensor<2xf32>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.mul %[[V27]], %[[ARG1]] : tensor<2xf32>
// CHECK-NEXT: %[[V39:[^ ,:)]*]] = mlax.add %[[V38]], %[[V37]] : tensor<2xf32>
// CHECK-NEXT: %[[V40:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[ARG1]], %[[V39]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V40]] : tensor<2xf32>, tensor<2xf32>

func.func private @cumlogsumexp(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mlax.cumlogsumexp %x, axis = 0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_cumlogsumexp_jvp(%x: tensor<2xf32>, %t: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @cumlogsumexp(%x) tangents(%t) wrt = [0] : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// A length-1 axis has nothing to combine: the derivative is the identity.
// CHECK-LABEL: func.func private @cummin1_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cummin %[[ARG0]], axis = 0 : tensor<1x2xf32>
// CHECK-NEXT: return %[[V2]], %[[ARG1]] : tensor<1x2xf32>, tensor<1x2xf32>

func.func private @cummin1(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %0 = mlax.cummin %x, axis = 0 : tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
func.func @test_cummin1_jvp(%x: tensor<1x2xf32>, %t: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %r:2 = mlax.jvp @cummin1(%x) tangents(%t) wrt = [0] : (tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  return %r#0, %r#1 : tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

// CHECK-LABEL: func.func private @cumsum_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cumsum %[[ARG0]], axis = 1 : tensor<2x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cumsum %[[ARG1]], axis = 1 : tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<2x3xf32>, tensor<2x3xf32>
func.func private @cumsum(%a0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.cumsum %a0, axis = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_cumsum(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.jvp @cumsum(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @sort_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sort %[[ARG0]] {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]]:2 = mlax.sort %[[ARG0]], %[[ARG1]] {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT: return %[[V2]], %[[V3]]#1 : tensor<3xf32>, tensor<3xf32>
func.func private @sort(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sort %a0 {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sort(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @sort(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

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
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.reshape %[[V4]]#1 : tensor<3xi32> -> tensor<3x1xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.scatter add %[[V6]][%[[V5]]], %[[ARG1]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 unique_indices : (tensor<3xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<3xf32>
func.func private @sort(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sort %a0 {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sort(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @sort(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
