// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched functions mlax-vectorize generates for mlax.cond, mlax.while
// and mlax.scan (passes/Vectorize.cpp: batchControlFlow). Each region is
// outlined and batched like any other function; the new op's regions call
// the result. Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

//===----------------------------------------------------------------------===//
// cond
//===----------------------------------------------------------------------===//

// An unbatched index: one cond whose branches are batched (x batched, y
// not). The result is batched, as branch 1 makes it depend on x.
// CHECK-LABEL: func.func private @cond_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.cond %[[ARG0]](%[[ARG1]], %[[ARG2]]) : (tensor<i32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<4xf32>, %[[ARG5:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.call @cond_branch_vmap(%[[ARG4]], %[[ARG5]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: mlax.yield %[[V6]] : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<4xf32>, %[[ARG5:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.call @cond_branch_0_vmap(%[[ARG4]], %[[ARG5]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: mlax.yield %[[V6]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V3]] : tensor<4xf32>
// CHECK-LABEL: func.func private @cond_branch_0_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[V2]] : tensor<4xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4xf32>
// CHECK-LABEL: func.func private @cond_branch_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.neg %[[ARG1]] : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4xf32>
func.func private @cond(%i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x, %y) : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %n = mlax.neg %b : tensor<f32>
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = mlax.mul %a, %b : tensor<f32>
    mlax.yield %m : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @test_cond(%i: tensor<i32>, %x: tensor<4xf32>, %y: tensor<f32>) -> tensor<4xf32> {
  %r = mlax.vmap @cond(%i, %x, %y) in_axes = [-1, 0, -1] out_axes = [0] size = 4
      : (tensor<i32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A batched index: every branch runs and select_n picks per example, with
// an index outside [0, 3) clamped to the last branch (as stablehlo.case).
// CHECK-LABEL: func.func private @switch_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.call @switch_branch_vmap(%[[ARG1]]) : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.call @switch_branch_1_vmap(%[[ARG1]]) : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.call @switch_branch_2_vmap(%[[ARG1]]) : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V5]], dims = [] : tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.compare LT, %[[ARG0]], %[[V6]] : tensor<4xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<2> : tensor<i32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V8]], dims = [] : tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare GT, %[[ARG0]], %[[V9]] : tensor<4xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.or %[[V7]], %[[V10]] : tensor<4xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<2> : tensor<i32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V12]], dims = [] : tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[ARG0]], %[[V13]] : tensor<4xi1>, tensor<4xi32>, tensor<4xi32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V14]], dims = [0] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V2]], %[[V3]], %[[V4]] : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: return %[[V16]] : tensor<4xf32>
// CHECK-LABEL: func.func private @switch_branch_2_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.exp %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V1]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4xf32>
// CHECK-LABEL: func.func private @switch_branch_1_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<f32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V1]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4xf32>
// CHECK-LABEL: func.func private @switch_branch_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4xf32>
func.func private @switch(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %n = mlax.neg %a : tensor<f32>
    mlax.yield %n : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    %e = mlax.exp %a : tensor<f32>
    mlax.yield %e : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @test_switch(%i: tensor<4xi32>, %x: tensor<f32>) -> tensor<4xf32> {
  %r = mlax.vmap @switch(%i, %x) in_axes = [0, -1] out_axes = [0] size = 4
      : (tensor<4xi32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

// An unbatched predicate (the counter n is unbatched): one while whose body
// is batched in x only.
// CHECK-LABEL: func.func private @while_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = mlax.while(%[[ARG0]], %[[ARG1]]) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) cond {
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<4xf32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.call @while_cond_vmap(%[[ARG3]], %[[ARG4]]) : (tensor<i32>, tensor<4xf32>) -> tensor<i1>
// CHECK-NEXT: mlax.yield %[[V5]] : tensor<i1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[ARG3:[^ ,:)]*]]: tensor<i32>, %[[ARG4:[^ ,:)]*]]: tensor<4xf32>):
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.call @while_body_vmap(%[[ARG3]], %[[ARG4]]) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
// CHECK-NEXT: mlax.yield %[[V5]]#0, %[[V5]]#1 : tensor<i32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V2]]#0, %[[V2]]#1 : tensor<i32>, tensor<4xf32>
// CHECK-LABEL: func.func private @while_body_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V2]] : tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.sin %[[ARG1]] : tensor<4xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]] : tensor<i32>, tensor<4xf32>
// CHECK-LABEL: func.func private @while_cond_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<10> : tensor<i32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.compare LT, %[[ARG0]], %[[V2]] : tensor<i32>
// CHECK-NEXT: return %[[V3]] : tensor<i1>
func.func private @while(%n: tensor<i32>, %x: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  %r:2 = mlax.while (%n, %x) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>) cond {
  ^bb0(%i: tensor<i32>, %a: tensor<f32>):
    %ten = mlax.constant dense<10> : tensor<i32>
    %p = mlax.compare LT, %i, %ten : tensor<i32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %a: tensor<f32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %i1 = mlax.add %i, %one : tensor<i32>
    %a1 = mlax.sin %a : tensor<f32>
    mlax.yield %i1, %a1 : tensor<i32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<f32>
}
func.func @test_while(%n: tensor<i32>, %x: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
  %r:2 = mlax.vmap @while(%n, %x) in_axes = [-1, 0] out_axes = [-1, 0] size = 4
      : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<i32>, tensor<4xf32>
}

// A batched predicate (a per-example bound): the whole state is batched
// (n broadcast), the loop runs while any example's condition holds
// (reduce_or), and examples whose condition is false keep their state
// (select_n in the body).
// CHECK-LABEL: func.func private @while_pred_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [] : tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:3 = mlax.while(%[[V3]], %[[ARG1]], %[[V4]]) : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) cond {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<4xi32>, %[[ARG7:[^ ,:)]*]]: tensor<4xi32>, %[[ARG8:[^ ,:)]*]]: tensor<4xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.call @while_pred_cond_vmap(%[[ARG6]], %[[ARG7]], %[[ARG8]]) : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.reduce_or %[[V9]], axes = [0] : tensor<4xi1> -> tensor<i1>
// CHECK-NEXT: mlax.yield %[[V10]] : tensor<i1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<4xi32>, %[[ARG7:[^ ,:)]*]]: tensor<4xi32>, %[[ARG8:[^ ,:)]*]]: tensor<4xf32>):
// CHECK-NEXT: %[[V9:[^ ,:)]*]]:3 = mlax.call @while_pred_body_vmap(%[[ARG6]], %[[ARG7]], %[[ARG8]]) : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>)
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.call @while_pred_cond_vmap(%[[ARG6]], %[[ARG7]], %[[ARG8]]) : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V10]], dims = [0] : tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[ARG6]], %[[V9]]#0 : tensor<4xi1>, tensor<4xi32>, tensor<4xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V10]], dims = [0] : tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V13]], %[[ARG7]], %[[V9]]#1 : tensor<4xi1>, tensor<4xi32>, tensor<4xi32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V10]], dims = [0] : tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[ARG8]], %[[V9]]#2 : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: mlax.yield %[[V12]], %[[V14]], %[[V16]] : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V5]]#2 : tensor<4xf32>
// CHECK-LABEL: func.func private @while_pred_body_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1> : tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V3]], dims = [] : tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V4]] : tensor<4xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.sin %[[ARG2]] : tensor<4xf32>
// CHECK-NEXT: return %[[V5]], %[[ARG1]], %[[V6]] : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
// CHECK-LABEL: func.func private @while_pred_cond_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.compare LT, %[[ARG0]], %[[ARG1]] : tensor<4xi32>
// CHECK-NEXT: return %[[V3]] : tensor<4xi1>
func.func private @while_pred(%n: tensor<i32>, %lim: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r:3 = mlax.while (%n, %lim, %x) : (tensor<i32>, tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<i32>, tensor<f32>) cond {
  ^bb0(%i: tensor<i32>, %l: tensor<i32>, %a: tensor<f32>):
    %p = mlax.compare LT, %i, %l : tensor<i32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %l: tensor<i32>, %a: tensor<f32>):
    %one = mlax.constant dense<1> : tensor<i32>
    %i1 = mlax.add %i, %one : tensor<i32>
    %a1 = mlax.sin %a : tensor<f32>
    mlax.yield %i1, %l, %a1 : tensor<i32>, tensor<i32>, tensor<f32>
  }
  return %r#2 : tensor<f32>
}
func.func @test_while_pred(%n: tensor<i32>, %lim: tensor<4xi32>, %x: tensor<f32>) -> tensor<4xf32> {
  %r = mlax.vmap @while_pred(%n, %lim, %x) in_axes = [-1, 0, -1] out_axes = [0] size = 4
      : (tensor<i32>, tensor<4xi32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// A batched carry and batched xs: xs [4, 3] (batch, length) is transposed to
// [3, 4] so the scan runs over the length, and the stacked ys [3, 4] back to
// [4, 3]. The const k stays unbatched.
// CHECK-LABEL: func.func private @scan_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<4xf32>, tensor<4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]]:2 = mlax.scan init(%[[ARG0]]) xs(%[[V3]]) consts(%[[ARG2]]) length = 3 : (tensor<4xf32>, tensor<3x4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG5:[^ ,:)]*]]: tensor<4xf32>, %[[ARG6:[^ ,:)]*]]: tensor<4xf32>, %[[ARG7:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]]:2 = mlax.call @scan_body_vmap(%[[ARG5]], %[[ARG6]], %[[ARG7]]) : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: mlax.yield %[[V8]]#0, %[[V8]]#1 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.transpose %[[V4]]#1, permutation = [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK-NEXT: return %[[V4]]#0, %[[V9]] : tensor<4xf32>, tensor<4x3xf32>
// CHECK-LABEL: func.func private @scan_body_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [] : tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[V3]], %[[V4]] : tensor<4xf32>
// CHECK-NEXT: return %[[V5]], %[[V3]] : tensor<4xf32>, tensor<4xf32>
func.func private @scan(%c: tensor<f32>, %xs: tensor<3xf32>, %k: tensor<f32>) -> (tensor<f32>, tensor<3xf32>) {
  %r:2 = mlax.scan init(%c) xs(%xs) consts(%k) length = 3
      : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>) {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>, %kk: tensor<f32>):
    %m = mlax.mul %a, %x : tensor<f32>
    %s = mlax.add %m, %kk : tensor<f32>
    mlax.yield %s, %m : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<3xf32>
}
func.func @test_scan(%c: tensor<4xf32>, %xs: tensor<4x3xf32>, %k: tensor<f32>) -> (tensor<4xf32>, tensor<4x3xf32>) {
  %r:2 = mlax.vmap @scan(%c, %xs, %k) in_axes = [0, 0, -1] out_axes = [0, 0] size = 4
      : (tensor<4xf32>, tensor<4x3xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4x3xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4x3xf32>
}

// Only xs batched: the carry becomes batched through the body (a fixed
// point), so the init is broadcast.
// CHECK-LABEL: func.func private @scan_xs_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<2x5xf32> -> tensor<5x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [] : tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<5x2xf32> -> tensor<2x5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.scan init(%[[V3]]) xs(%[[V4]]) consts() length = 2 reverse : (tensor<5xf32>, tensor<2x5xf32>) -> tensor<5xf32> {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<5xf32>, %[[ARG7:[^ ,:)]*]]: tensor<5xf32>):
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.call @scan_xs_body_vmap(%[[ARG6]], %[[ARG7]]) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: mlax.yield %[[V8]] : tensor<5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V5]] : tensor<5xf32>
// CHECK-LABEL: func.func private @scan_xs_body_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[ARG1]] : tensor<5xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5xf32>
func.func private @scan_xs(%c: tensor<f32>, %xs: tensor<2xf32>) -> tensor<f32> {
  %r = mlax.scan init(%c) xs(%xs) consts() length = 2 reverse
      : (tensor<f32>, tensor<2xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %x: tensor<f32>):
    %s = mlax.add %a, %x : tensor<f32>
    mlax.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @test_scan_xs(%c: tensor<f32>, %xs: tensor<2x5xf32>) -> tensor<5xf32> {
  %r = mlax.vmap @scan_xs(%c, %xs) in_axes = [-1, 1] out_axes = [0] size = 5
      : (tensor<f32>, tensor<2x5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}
