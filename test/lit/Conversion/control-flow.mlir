// Lowering of the control-flow ops to (generic-form, unregistered) StableHLO
// (passes/ConvertControlFlow.cpp): mlax.cond becomes stablehlo.case,
// mlax.while stablehlo.while, and mlax.scan a stablehlo.while over
// (counter, carry, ys buffers, xs, consts) that reads xs[t] with
// dynamic_slice and writes ys[t] with dynamic_update_slice. `reverse` reads
// and writes index length-1-t; `unroll` clones the body per trip and runs
// the length % unroll remaining steps after the loop.
// Regenerate the CHECK lines with tools/generate-test-checks.py and review
// them.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s --implicit-check-not=mlax.
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

//===----------------------------------------------------------------------===//
// cond
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cond(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.case"(%[[ARG0]]) ({
// CHECK-NEXT: "stablehlo.return"(%[[ARG1]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.negate"(%[[ARG1]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[V3]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT: return %[[V2]] : tensor<f32>
func.func @cond(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// CHECK-LABEL: func.func @cond_one_branch_two_results(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2xi32>) -> (tensor<2xi32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]]:2 = "stablehlo.case"(%[[ARG0]]) ({
// CHECK-NEXT: "stablehlo.return"(%[[ARG2]], %[[ARG1]]) : (tensor<2xi32>, tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>) -> (tensor<2xi32>, tensor<f32>)
// CHECK-NEXT: return %[[V3]]#0, %[[V3]]#1 : tensor<2xi32>, tensor<f32>
func.func @cond_one_branch_two_results(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<2xi32>) -> (tensor<2xi32>, tensor<f32>) {
  %r:2 = mlax.cond %i (%x, %y) : (tensor<i32>, tensor<f32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<f32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<2xi32>):
    mlax.yield %b, %a : tensor<2xi32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<2xi32>, tensor<f32>
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @while(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>) -> (tensor<i32>, tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = "stablehlo.while"(%[[ARG0]], %[[ARG1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG3]], %[[V5]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = "stablehlo.add"(%[[ARG3]], %[[V5]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = "stablehlo.multiply"(%[[ARG4]], %[[ARG4]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[V6]], %[[V7]]) : (tensor<i32>, tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// CHECK-NEXT: return %[[V2]]#0, %[[V2]]#1 : tensor<i32>, tensor<f32>
func.func @while(%n: tensor<i32>, %x: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  %r:2 = mlax.while (%n, %x) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>) cond {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>):
    %ten = mlax.constant dense<10> : tensor<i32>
    %p = mlax.compare LT, %a, %ten : tensor<i32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %a1 = mlax.add %a, %one : tensor<i32>
    %b1 = mlax.mul %b, %b : tensor<f32>
    mlax.yield %a1, %b1 : tensor<i32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<f32>
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// xs of rank 2 (slice at [t, 0]) and a const carried through the loop.
// CHECK-LABEL: func.func @scan(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<f32>, tensor<3x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:5 = "stablehlo.while"(%[[V4]], %[[ARG0]], %[[V3]], %[[ARG1]], %[[ARG2]]) ({
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<i32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<3x2xf32>, %[[ARG9:[^ ,:)]*]]: tensor<3x2xf32>, %[[ARG10:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG6]], %[[V11]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V12]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<i32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>, %[[ARG8:[^ ,:)]*]]: tensor<3x2xf32>, %[[ARG9:[^ ,:)]*]]: tensor<3x2xf32>, %[[ARG10:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG9]], %[[ARG6]], %[[V11]]) {slice_sizes = array<i64: 1, 2>} : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = "stablehlo.reshape"(%[[V12]]) : (tensor<1x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = "stablehlo.add"(%[[ARG7]], %[[ARG10]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = "stablehlo.reshape"(%[[V13]]) : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[ARG8]], %[[V15]], %[[ARG6]], %[[V16]]) : (tensor<3x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = "stablehlo.add"(%[[ARG6]], %[[V18]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V19]], %[[V14]], %[[V17]], %[[ARG9]], %[[ARG10]]) : (tensor<i32>, tensor<f32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<f32>) -> (tensor<i32>, tensor<f32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<f32>)
// CHECK-NEXT: return %[[V5]]#1, %[[V5]]#2 : tensor<f32>, tensor<3x2xf32>
func.func @scan(%c: tensor<f32>, %xs: tensor<3x2xf32>, %k: tensor<f32>) -> (tensor<f32>, tensor<3x2xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts(%k) length = 3
      : (tensor<f32>, tensor<3x2xf32>, tensor<f32>) -> (tensor<f32>, tensor<3x2xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<2xf32>, %kk: tensor<f32>):
    %s = mlax.add %a, %kk : tensor<f32>
    mlax.yield %s, %x : tensor<f32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<3x2xf32>
}

// reverse: step t reads and writes index 3 - t.
// CHECK-LABEL: func.func @scan_reverse(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:4 = "stablehlo.while"(%[[V3]], %[[ARG0]], %[[V2]], %[[ARG1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<i32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<4xf32>, %[[ARG8:[^ ,:)]*]]: tensor<4xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG5]], %[[V9]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V10]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<i32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<4xf32>, %[[ARG8:[^ ,:)]*]]: tensor<4xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.subtract"(%[[V9]], %[[ARG5]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG8]], %[[V10]]) {slice_sizes = array<i64: 1>} : (tensor<4xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = "stablehlo.reshape"(%[[V11]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = "stablehlo.add"(%[[ARG6]], %[[V12]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = "stablehlo.reshape"(%[[V13]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[ARG7]], %[[V14]], %[[V10]]) : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = "stablehlo.add"(%[[ARG5]], %[[V16]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V17]], %[[V13]], %[[V15]], %[[ARG8]]) : (tensor<i32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<i32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: return %[[V4]]#1, %[[V4]]#2 : tensor<f32>, tensor<4xf32>
func.func @scan_reverse(%c: tensor<f32>, %xs: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 4 reverse
      : (tensor<f32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    %s = mlax.add %a, %x : tensor<f32>
    mlax.yield %s, %s : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<4xf32>
}

// length 5, unroll 2: a loop of 2 trips (t < 4) running the body twice per
// trip, then the fifth step (index 4) after the loop.
// CHECK-LABEL: func.func @scan_unroll(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<5xf32>} : () -> tensor<5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:4 = "stablehlo.while"(%[[V3]], %[[ARG0]], %[[V2]], %[[ARG1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<i32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<5xf32>, %[[ARG8:[^ ,:)]*]]: tensor<5xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG5]], %[[V9]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V10]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<i32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<5xf32>, %[[ARG8:[^ ,:)]*]]: tensor<5xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG8]], %[[ARG5]]) {slice_sizes = array<i64: 1>} : (tensor<5xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.reshape"(%[[V9]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.add"(%[[ARG6]], %[[V10]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = "stablehlo.reshape"(%[[V11]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[ARG7]], %[[V12]], %[[ARG5]]) : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = "stablehlo.add"(%[[ARG5]], %[[V14]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG8]], %[[V15]]) {slice_sizes = array<i64: 1>} : (tensor<5xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = "stablehlo.reshape"(%[[V16]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = "stablehlo.add"(%[[V11]], %[[V17]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = "stablehlo.reshape"(%[[V18]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[V13]], %[[V19]], %[[V15]]) : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = "stablehlo.add"(%[[V15]], %[[V21]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V22]], %[[V18]], %[[V20]], %[[ARG8]]) : (tensor<i32>, tensor<f32>, tensor<5xf32>, tensor<5xf32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<i32>, tensor<f32>, tensor<5xf32>, tensor<5xf32>)
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG1]], %[[V23]]) {slice_sizes = array<i64: 1>} : (tensor<5xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = "stablehlo.reshape"(%[[V24]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = "stablehlo.add"(%[[V4]]#1, %[[V25]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = "stablehlo.reshape"(%[[V26]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[V4]]#2, %[[V27]], %[[V23]]) : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
// CHECK-NEXT: return %[[V26]], %[[V28]] : tensor<f32>, tensor<5xf32>
func.func @scan_unroll(%c: tensor<f32>, %xs: tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 5 {unroll = 2 : i64}
      : (tensor<f32>, tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    %s = mlax.add %a, %x : tensor<f32>
    mlax.yield %s, %s : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<5xf32>
}

// reverse with unroll 2 and length 3: the loop runs steps 0 and 1 (indices 2
// and 1), the step after the loop index 0.
// CHECK-LABEL: func.func @scan_reverse_unroll(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:4 = "stablehlo.while"(%[[V3]], %[[ARG0]], %[[V2]], %[[ARG1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<i32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<3xf32>, %[[ARG8:[^ ,:)]*]]: tensor<3xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG5]], %[[V9]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V10]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<i32>, %[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<3xf32>, %[[ARG8:[^ ,:)]*]]: tensor<3xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.subtract"(%[[V9]], %[[ARG5]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG8]], %[[V10]]) {slice_sizes = array<i64: 1>} : (tensor<3xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = "stablehlo.reshape"(%[[V11]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = "stablehlo.multiply"(%[[ARG6]], %[[V12]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = "stablehlo.reshape"(%[[V12]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[ARG7]], %[[V14]], %[[V10]]) : (tensor<3xf32>, tensor<1xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = "stablehlo.add"(%[[ARG5]], %[[V16]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = "stablehlo.subtract"(%[[V18]], %[[V17]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG8]], %[[V19]]) {slice_sizes = array<i64: 1>} : (tensor<3xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = "stablehlo.reshape"(%[[V20]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = "stablehlo.multiply"(%[[V13]], %[[V21]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = "stablehlo.reshape"(%[[V21]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[V15]], %[[V23]], %[[V19]]) : (tensor<3xf32>, tensor<1xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = "stablehlo.add"(%[[V17]], %[[V25]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V26]], %[[V22]], %[[V24]], %[[ARG8]]) : (tensor<i32>, tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<i32>, tensor<f32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = "stablehlo.subtract"(%[[V28]], %[[V27]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG1]], %[[V29]]) {slice_sizes = array<i64: 1>} : (tensor<3xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = "stablehlo.reshape"(%[[V30]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = "stablehlo.multiply"(%[[V4]]#1, %[[V31]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = "stablehlo.reshape"(%[[V31]]) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = "stablehlo.dynamic_update_slice"(%[[V4]]#2, %[[V33]], %[[V29]]) : (tensor<3xf32>, tensor<1xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK-NEXT: return %[[V32]], %[[V34]] : tensor<f32>, tensor<3xf32>
func.func @scan_reverse_unroll(%c: tensor<f32>, %xs: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 3 reverse {unroll = 2 : i64}
      : (tensor<f32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    %s = mlax.mul %a, %x : tensor<f32>
    mlax.yield %s, %x : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<3xf32>
}

// unroll >= length: one trip running every step, nothing after the loop.
// CHECK-LABEL: func.func @scan_unroll_whole(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = "stablehlo.while"(%[[V1]], %[[ARG0]]) ({
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG3]], %[[V5]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V6]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = "stablehlo.exponential"(%[[ARG4]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = "stablehlo.add"(%[[ARG3]], %[[V6]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = "stablehlo.exponential"(%[[V5]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.add"(%[[V7]], %[[V9]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V10]], %[[V8]]) : (tensor<i32>, tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// CHECK-NEXT: return %[[V2]]#1 : tensor<f32>
func.func @scan_unroll_whole(%c: tensor<f32>) -> tensor<f32> {
  %r = mlax.scan init(%c) xs() consts() length = 2 {unroll = 8 : i64}
      : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %s = mlax.exp %a : tensor<f32>
    mlax.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// length 0: no loop; the carry is the init and the ys are zeros.
// CHECK-LABEL: func.func @scan_zero_length(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<0xf32>) -> (tensor<f32>, tensor<0xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<0xf32>} : () -> tensor<0xf32>
// CHECK-NEXT: return %[[ARG0]], %[[V2]] : tensor<f32>, tensor<0xf32>
func.func @scan_zero_length(%c: tensor<f32>, %xs: tensor<0xf32>) -> (tensor<f32>, tensor<0xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts() length = 0
      : (tensor<f32>, tensor<0xf32>) -> (tensor<f32>, tensor<0xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    %s = mlax.add %a, %x : tensor<f32>
    mlax.yield %s, %s : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<0xf32>
}

// A cond inside a scan body is lowered too.
// CHECK-LABEL: func.func @scan_of_cond(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]]:3 = "stablehlo.while"(%[[V2]], %[[ARG0]], %[[ARG1]]) ({
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<i32>, %[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<2xi32>):
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = "stablehlo.compare"(%[[ARG4]], %[[V7]]) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[V8]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<i32>, %[[ARG5:[^ ,:)]*]]: tensor<f32>, %[[ARG6:[^ ,:)]*]]: tensor<2xi32>):
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = "stablehlo.dynamic_slice"(%[[ARG6]], %[[ARG4]]) {slice_sizes = array<i64: 1>} : (tensor<2xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = "stablehlo.reshape"(%[[V7]]) : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = "stablehlo.case"(%[[V8]]) ({
// CHECK-NEXT: "stablehlo.return"(%[[ARG5]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = "stablehlo.negate"(%[[ARG5]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[V10]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = "stablehlo.add"(%[[ARG4]], %[[V11]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[V12]], %[[V9]], %[[ARG6]]) : (tensor<i32>, tensor<f32>, tensor<2xi32>) -> ()
// CHECK-NEXT: }) : (tensor<i32>, tensor<f32>, tensor<2xi32>) -> (tensor<i32>, tensor<f32>, tensor<2xi32>)
// CHECK-NEXT: return %[[V3]]#1 : tensor<f32>
func.func @scan_of_cond(%c: tensor<f32>, %is: tensor<2xi32>) -> tensor<f32> {
  %r = mlax.scan init(%c) xs(%is) consts() length = 2
      : (tensor<f32>, tensor<2xi32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %i: tensor<i32>):
    %s = mlax.cond %i (%a) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%b: tensor<f32>):
      mlax.yield %b : tensor<f32>
    }, {
    ^bb0(%b: tensor<f32>):
      %n = mlax.neg %b : tensor<f32>
      mlax.yield %n : tensor<f32>
    }
    mlax.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
