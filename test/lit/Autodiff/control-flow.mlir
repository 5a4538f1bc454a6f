// RUN: mlax-opt %s --mlax-autodiff | FileCheck %s

// Derivatives through mlax.cond, mlax.while and mlax.scan
// (passes/Autodiff.cpp: jvpControlFlow, vjpControlFlow, splitDerivative).
// Each region is outlined into a function and differentiated like any
// other; the new op's regions call the result. Regenerate the CHECK lines
// with tools/generate-test-checks.py --only '_(jvp|vjp|fwd|bwd)$' and review
// them.

//===----------------------------------------------------------------------===//
// cond
//===----------------------------------------------------------------------===//

// branch 0: -x, branch 1: x * x. The jvp is a cond over (x, tx) whose
// branches give (-x, -tx) and (x * x, tx * x + x * tx); the vjp a cond over
// (x, ct) whose branches recompute their forward branch and give -ct and
// ct * x + x * ct.
// CHECK-LABEL: func.func private @cond_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cond %[[ARG0]](%[[ARG1]]) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[ARG4]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V5]] : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG4]], %[[ARG4]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V5]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V6:[^ ,:)]*]]:2 = mlax.cond %[[ARG0]](%[[ARG1]], %[[ARG2]]) : (tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.call @cond_jvp_branch_jvp(%[[ARG4]], %[[ARG7]]) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V5]]#0, %[[V5]]#1 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.call @cond_jvp_branch_0_jvp(%[[ARG4]], %[[ARG7]]) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V5]]#0, %[[V5]]#1 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V6]]#0, %[[V6]]#1 : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cond %[[ARG0]](%[[ARG1]]) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.neg %[[ARG4]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V5]] : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG4]], %[[ARG4]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V5]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.cond %[[ARG0]](%[[ARG1]], %[[ARG2]]) : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.call @cond_vjp_branch_vjp(%[[ARG4]], %[[ARG7]]) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V5]]#1 : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.call @cond_vjp_branch_1_vjp(%[[ARG4]], %[[ARG7]]) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V5]]#1 : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V3]], %[[V6]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_vjp_branch_1_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V3]], %[[V4]] : tensor<f32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_vjp_branch_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<f32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_jvp_branch_0_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V3]], %[[V4]] : tensor<f32>
// CHECK-NEXT: return %[[V2]], %[[V5]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_jvp_branch_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<f32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<f32>, tensor<f32>
func.func private @cond(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %m = mlax.mul %a, %a : tensor<f32>
    mlax.yield %m : tensor<f32>
  }
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func @test_cond_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]]:2 = mlax.call @cond_jvp(%[[ARG0]], %[[ARG1]], %[[ARG2]]) : (tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: return %[[V3]]#1 : tensor<f32>
func.func @test_cond_jvp(%i: tensor<i32>, %x: tensor<f32>, %t: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @cond(%i, %x) tangents(%t) wrt = [1] : (tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}
// CHECK-LABEL: func.func @test_cond_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]]:2 = mlax.call @cond_vjp(%[[ARG0]], %[[ARG1]], %[[ARG2]]) : (tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: return %[[V3]]#1 : tensor<f32>
func.func @test_cond_vjp(%i: tensor<i32>, %x: tensor<f32>, %ct: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.vjp @cond(%i, %x) cotangents(%ct) wrt = [1] seeds = [0] : (tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// Only the differentiated operand (y) gets a tangent operand; the branch
// rules are jvps wrt [1].
// CHECK-LABEL: func.func private @cond_partial_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.cond %[[ARG0]](%[[ARG1]], %[[ARG2]]) : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG5]], %[[ARG6]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V7]] : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: mlax.yield %[[ARG6]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V8:[^ ,:)]*]]:2 = mlax.cond %[[ARG0]](%[[ARG1]], %[[ARG2]], %[[ARG3]]) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V7:[^ ,:)]*]]:2 = mlax.call @cond_partial_jvp_branch_jvp(%[[ARG5]], %[[ARG6]], %[[ARG9]]) : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V7]]#0, %[[V7]]#1 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V7:[^ ,:)]*]]:2 = mlax.call @cond_partial_jvp_branch_2_jvp(%[[ARG5]], %[[ARG6]], %[[ARG9]]) : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V7]]#0, %[[V7]]#1 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V8]]#0, %[[V8]]#1 : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_partial_jvp_branch_2_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: return %[[ARG1]], %[[ARG2]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @cond_partial_jvp_branch_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: return %[[V3]], %[[V4]] : tensor<f32>, tensor<f32>
func.func private @cond_partial(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x, %y) : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = mlax.mul %a, %b : tensor<f32>
    mlax.yield %m : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    mlax.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @test_cond_partial(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>, %t: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @cond_partial(%i, %x, %y) tangents(%t) wrt = [2] : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// while (forward mode)
//===----------------------------------------------------------------------===//

// State (n, a, b, c) with a tangent for a only: b' = b + a makes b active,
// and then c' = c + b makes c active (a fixed point over the body), so the
// jvp loop carries (n, a, b, c, ta, tb, tc) with tb and tc starting at 0.
// The i32 counter n gets no tangent in the loop (its result tangent is 0).
// CHECK-LABEL: func.func private @while_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:4 = mlax.while(%[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]]) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) cond {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<i32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<10> : tensor<i32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.compare LT, %[[ARG6]], %[[V10]] : tensor<i32>
// CHECK-NEXT: mlax.yield %[[V11]] : tensor<i1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<i32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.add %[[ARG6]], %[[V10]] : tensor<i32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.sin %[[ARG7]] : tensor<f32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[ARG8]], %[[ARG7]] : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.add %[[ARG9]], %[[ARG8]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V11]], %[[V12]], %[[V13]], %[[V14]] : tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]]:7 = mlax.while(%[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]], %[[ARG4]], %[[V15]], %[[V16]]) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) cond {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<i32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<f32>, %[[ARG18:[^ ,:)]*]]: tensor<f32>, %[[ARG19:[^ ,:)]*]]: tensor<f32>, %[[ARG20:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.call @while_jvp_cond(%[[ARG6]], %[[ARG7]], %[[ARG8]], %[[ARG9]]) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: mlax.yield %[[V10]] : tensor<i1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<i32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<f32>, %[[ARG18:[^ ,:)]*]]: tensor<f32>, %[[ARG19:[^ ,:)]*]]: tensor<f32>, %[[ARG20:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V10:[^ ,:)]*]]:8 = mlax.call @while_jvp_body_jvp(%[[ARG6]], %[[ARG7]], %[[ARG8]], %[[ARG9]], %[[ARG18]], %[[ARG19]], %[[ARG20]]) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V10]]#0, %[[V10]]#1, %[[V10]]#2, %[[V10]]#3, %[[V10]]#5, %[[V10]]#6, %[[V10]]#7 : tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.constant dense<0> : tensor<i32>
// CHECK-NEXT: return %[[V17]]#0, %[[V17]]#1, %[[V17]]#2, %[[V17]]#3, %[[V21]], %[[V17]]#4, %[[V17]]#5, %[[V17]]#6 : tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @while_jvp_body_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG5:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG6:[^ ,:)]*]]: tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V7]] : tensor<i32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.sin %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.cos %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[ARG4]], %[[V10]] : tensor<f32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.add %[[ARG2]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[ARG5]], %[[ARG4]] : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.add %[[ARG3]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.add %[[ARG6]], %[[ARG5]] : tensor<f32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<0> : tensor<i32>
// CHECK-NEXT: return %[[V8]], %[[V9]], %[[V12]], %[[V14]], %[[V16]], %[[V11]], %[[V13]], %[[V15]] : tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
func.func private @while(%n: tensor<i32>, %a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %r:4 = mlax.while (%n, %a, %b, %c) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) cond {
  ^bb0(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>):
    %ten = mlax.constant dense<10> : tensor<i32>
    %p = mlax.compare LT, %i, %ten : tensor<i32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %i1 = mlax.add %i, %one : tensor<i32>
    %x1 = mlax.sin %x : tensor<f32>
    %y1 = mlax.add %y, %x : tensor<f32>
    %z1 = mlax.add %z, %y : tensor<f32>
    mlax.yield %i1, %x1, %y1, %z1 : tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
}
func.func @test_while(%n: tensor<i32>, %a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %t: tensor<f32>) -> tensor<f32> {
  %r:8 = mlax.jvp @while(%n, %a, %b, %c) tangents(%t) wrt = [1]
      : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
      -> (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>)
  return %r#7 : tensor<f32>
}

// Reverse mode through a program with a while that carries nothing active
// (an integer loop) is fine: the loop gets no cotangent and stays as it is.
// CHECK-LABEL: func.func private @int_while_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.while(%[[ARG1]]) : (tensor<i32>) -> tensor<i32> cond {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<10> : tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.compare LT, %[[ARG4]], %[[V5]] : tensor<i32>
// CHECK-NEXT: mlax.yield %[[V6]] : tensor<i1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG4]], %[[ARG4]] : tensor<i32>
// CHECK-NEXT: mlax.yield %[[V5]] : tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[V8]] : tensor<f32>
// CHECK-NEXT: return %[[V7]], %[[V3]], %[[V9]] : tensor<f32>, tensor<i32>, tensor<f32>
func.func private @int_while(%x: tensor<f32>, %n: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %r = mlax.while (%n) : (tensor<i32>) -> tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %ten = mlax.constant dense<10> : tensor<i32>
    %p = mlax.compare LT, %i, %ten : tensor<i32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>):
    %d = mlax.add %i, %i : tensor<i32>
    mlax.yield %d : tensor<i32>
  }
  %y = mlax.sin %x : tensor<f32>
  return %y, %r : tensor<f32>, tensor<i32>
}
func.func @test_int_while(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %a:3 = mlax.vjp @int_while(%x, %n) cotangents(%x) wrt = [0] seeds = [0] : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f32>)
  return %a#2 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// Body (c, n, x) -> (c * x, n + 1, y = sin c). Its vjp wrt (c, x) with
// seeds (c', y) is ct_c = ct_y * cos c + ct_c' * x, ct_x = c * ct_c'. The
// forward scan also stacks the residuals (cos c, c) of every step (x is
// read from xs); the
// backward scan runs the other way (reverse) over (residuals, ys
// cotangents), carrying ct_c and stacking ct_x. The i32 counter carry n gets
// no cotangent.
// CHECK-LABEL: func.func private @scan_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:3 = mlax.scan init(%[[ARG0]], %[[ARG1]]) xs(%[[ARG2]]) consts() length = 3 : (tensor<f32>, tensor<i32>, tensor<3xf32>) -> (tensor<f32>, tensor<i32>, tensor<3xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<i32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.add %[[ARG7]], %[[V9]] : tensor<i32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[ARG6]], %[[ARG8]] : tensor<f32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.sin %[[ARG6]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V11]], %[[V10]], %[[V12]] : tensor<f32>, tensor<i32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V13:[^ ,:)]*]]:5 = mlax.scan init(%[[ARG0]], %[[ARG1]]) xs(%[[ARG2]]) consts() length = 3 : (tensor<f32>, tensor<i32>, tensor<3xf32>) -> (tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<i32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]]:6 = mlax.call @scan_vjp_fwd(%[[ARG6]], %[[ARG7]], %[[ARG8]]) : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
// The residual x is the scanned input itself: not stacked again.
// CHECK-NEXT: mlax.yield %[[V9]]#0, %[[V9]]#1, %[[V9]]#2, %[[V9]]#3, %[[V9]]#5 : tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V14:[^ ,:)]*]]:2 = mlax.scan init(%[[ARG3]]) xs(%[[V13]]#3, %[[ARG2]], %[[V13]]#4, %[[ARG4]]) consts() length = 3 reverse : (tensor<f32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>, %[[ARG15:[^ ,:)]*]]: tensor<f32>, %[[ARG16:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]]:2 = mlax.call @scan_vjp_bwd(%[[ARG7]], %[[ARG8]], %[[ARG15]], %[[ARG6]], %[[ARG16]]) : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V9]]#0, %[[V9]]#1 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V13]]#0, %[[V13]]#1, %[[V13]]#2, %[[V14]]#0, %[[V14]]#1 : tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>
// CHECK-LABEL: func.func private @scan_vjp_fwd(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V3]] : tensor<i32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<f32>
// CHECK-NEXT: return %[[V5]], %[[V4]], %[[V6]], %[[V7]], %[[ARG2]], %[[ARG0]] : tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @scan_vjp_bwd(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG4]], %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[ARG3]] : tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.add %[[V6]], %[[V7]] : tensor<f32>
// CHECK-NEXT: return %[[V9]], %[[V8]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @scan_vjp_body_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V5]] : tensor<i32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[ARG4]], %[[V9]] : tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG3]] : tensor<f32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V10]], %[[V11]] : tensor<f32>
// CHECK-NEXT: return %[[V7]], %[[V6]], %[[V8]], %[[V13]], %[[V12]] : tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
func.func private @scan(%c: tensor<f32>, %n: tensor<i32>, %xs: tensor<3xf32>) -> (tensor<f32>, tensor<i32>, tensor<3xf32>) {
  %r:3 = mlax.scan init(%c, %n) xs(%xs) consts() length = 3
      : (tensor<f32>, tensor<i32>, tensor<3xf32>) -> (tensor<f32>, tensor<i32>, tensor<3xf32>) {
  ^bb0(%a: tensor<f32>, %i: tensor<i32>, %x: tensor<f32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %i1 = mlax.add %i, %one : tensor<i32>
    %m = mlax.mul %a, %x : tensor<f32>
    %s = mlax.sin %a : tensor<f32>
    mlax.yield %m, %i1, %s : tensor<f32>, tensor<i32>, tensor<f32>
  }
  return %r#0, %r#1, %r#2 : tensor<f32>, tensor<i32>, tensor<3xf32>
}
func.func @test_scan(%c: tensor<f32>, %n: tensor<i32>, %xs: tensor<3xf32>, %ct: tensor<f32>, %cys: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %r:5 = mlax.vjp @scan(%c, %n, %xs) cotangents(%ct, %cys) wrt = [0, 2] seeds = [0, 2]
      : (tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> (tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>)
  return %r#3, %r#4 : tensor<f32>, tensor<3xf32>
}

// A reverse scan (c' = c * k + x, y = c * k) with a const k.
// vjp wrt k, seeding the carry: the carry becomes active through k. The
// backward scan runs forwards (no `reverse`), takes k as a const (recomputed,
// not stacked), stacks only the residual c, and carries ct_c = ct * k and the
// sum of ct_k = c * ct over the steps.
// jvp wrt xs: the carry tangent starts at 0 and the loop carries
// (c, tc), ys (y, ty) with tc' = tc * k + tx, ty = tc * k.
// CHECK-LABEL: func.func private @scan_consts_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:2 = mlax.scan init(%[[ARG0]]) xs(%[[ARG1]]) consts(%[[ARG2]]) length = 2 reverse : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG5]], %[[ARG7]] : tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.add %[[V8]], %[[ARG6]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V9]], %[[V8]] : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V10:[^ ,:)]*]]:3 = mlax.scan init(%[[ARG0]]) xs(%[[ARG1]]) consts(%[[ARG2]]) length = 2 reverse : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]]:3 = mlax.call @scan_consts_vjp_fwd(%[[ARG5]], %[[ARG6]], %[[ARG7]]) : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V8]]#0, %[[V8]]#1, %[[V8]]#2 : tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]]:2 = mlax.scan init(%[[ARG3]], %[[V11]]) xs(%[[V10]]#2) consts(%[[ARG2]]) length = 2 : (tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG13:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]]:2 = mlax.call @scan_consts_vjp_bwd(%[[ARG13]], %[[ARG7]], %[[ARG5]]) : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.add %[[ARG6]], %[[V8]]#1 : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V8]]#0, %[[V9]] : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V10]]#0, %[[V10]]#1, %[[V12]]#1 : tensor<f32>, tensor<2xf32>, tensor<f32>
// CHECK-LABEL: func.func private @scan_consts_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:2 = mlax.scan init(%[[ARG0]]) xs(%[[ARG1]]) consts(%[[ARG2]]) length = 2 reverse : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.mul %[[ARG5]], %[[ARG7]] : tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.add %[[V8]], %[[ARG6]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V9]], %[[V8]] : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]]:4 = mlax.scan init(%[[ARG0]], %[[V10]]) xs(%[[ARG1]], %[[ARG3]]) consts(%[[ARG2]]) length = 2 reverse : (tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG12:[^ ,:)]*]]: tensor<f32>, %[[ARG13:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]]:4 = mlax.call @scan_consts_jvp_body_jvp(%[[ARG5]], %[[ARG7]], %[[ARG13]], %[[ARG6]], %[[ARG12]]) : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
// CHECK-NEXT: mlax.yield %[[V8]]#0, %[[V8]]#2, %[[V8]]#1, %[[V8]]#3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V11]]#0, %[[V11]]#2, %[[V11]]#1, %[[V11]]#3 : tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>
// CHECK-LABEL: func.func private @scan_consts_jvp_body_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V5]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.add %[[V6]], %[[ARG4]] : tensor<f32>
// CHECK-NEXT: return %[[V7]], %[[V5]], %[[V8]], %[[V6]] : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @scan_consts_vjp_fwd(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[V3]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: return %[[V4]], %[[V3]], %[[ARG0]] : tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @scan_consts_vjp_bwd(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG2]], %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: return %[[V3]], %[[V4]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: func.func private @scan_consts_vjp_body_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V4]], %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG3]], %[[ARG2]] : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG3]] : tensor<f32>
// CHECK-NEXT: return %[[V5]], %[[V4]], %[[V6]], %[[V7]] : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
func.func private @scan_consts(%c: tensor<f32>, %xs: tensor<2xf32>, %k: tensor<f32>) -> (tensor<f32>, tensor<2xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts(%k) length = 2 reverse
      : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>, %kk: tensor<f32>):
    %m = mlax.mul %a, %kk : tensor<f32>
    %s = mlax.add %m, %x : tensor<f32>
    mlax.yield %s, %m : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @test_scan_consts_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:3 = mlax.call @scan_consts_vjp(%[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]]) : (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>)
// CHECK-NEXT: return %[[V4]]#2 : tensor<f32>
func.func @test_scan_consts_vjp(%c: tensor<f32>, %xs: tensor<2xf32>, %k: tensor<f32>, %ct: tensor<f32>) -> tensor<f32> {
  %r:3 = mlax.vjp @scan_consts(%c, %xs, %k) cotangents(%ct) wrt = [2] seeds = [0] : (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>)
  return %r#2 : tensor<f32>
}
// CHECK-LABEL: func.func @test_scan_consts_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:4 = mlax.call @scan_consts_jvp(%[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]]) : (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>)
// CHECK-NEXT: return %[[V4]]#3 : tensor<2xf32>
func.func @test_scan_consts_jvp(%c: tensor<f32>, %xs: tensor<2xf32>, %k: tensor<f32>, %t: tensor<2xf32>) -> tensor<2xf32> {
  %r:4 = mlax.jvp @scan_consts(%c, %xs, %k) tangents(%t) wrt = [1] : (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>)
  return %r#3 : tensor<2xf32>
}
