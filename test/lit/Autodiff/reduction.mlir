// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the reduction ops, forward
// (_jvp) then reverse (_vjp) mode (moved from rules-jvp.mlir and
// rules-vjp.mlir). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_jvp$' / '_vjp$' and review them.

// CHECK-LABEL: func.func private @reduce_sum_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_sum %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reduce_sum %[[ARG1]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<2xf32>, tensor<2xf32>
func.func private @reduce_sum(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_sum %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_sum(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @reduce_sum(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func private @reduce_prod_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>
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
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V14]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.reduce_sum %[[V15]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V16]] : tensor<2xf32>, tensor<2xf32>
func.func private @reduce_prod(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_prod %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_prod(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @reduce_prod(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func private @reduce_max_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_max %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[V4]] : tensor<2x3xi1> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reduce_sum %[[V5]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reduce_sum %[[V7]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.div %[[V8]], %[[V6]] : tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V9]] : tensor<2xf32>, tensor<2xf32>
func.func private @reduce_max(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_max %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_max(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @reduce_max(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func private @reduce_min_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_min %[[ARG0]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [0] : tensor<2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V3]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[V4]] : tensor<2x3xi1> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reduce_sum %[[V5]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[V5]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reduce_sum %[[V7]], axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.div %[[V8]], %[[V6]] : tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V9]] : tensor<2xf32>, tensor<2xf32>
func.func private @reduce_min(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_min %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_min(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @reduce_min(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

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

// -----

// reduce (general): the jvp is one reduce of (primal, tangent) pairs whose
// body is the body's jvp, the tangents' init zero.
// CHECK-LABEL: func.func private @reduce_general_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reduce(%[[ARG0]]) init(%[[V2]]) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
// CHECK-NEXT: ^bb0(%[[ARG4:[^ ,:)]*]]: tensor<f32>, %[[ARG5:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[ARG4]], %[[ARG5]] : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V6]], %[[ARG4]] : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.add %[[V7]], %[[ARG5]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V8]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]]:2 = mlax.reduce(%[[ARG0]], %[[ARG1]]) init(%[[V2]], %[[V9]]) dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%[[ARG4]]: tensor<f32>, %[[ARG5]]: tensor<f32>, %[[ARG11:[^ ,:)]*]]: tensor<f32>, %[[ARG12:[^ ,:)]*]]: tensor<f32>):
// CHECK-NEXT: %[[V6]] = mlax.mul %[[ARG4]], %[[ARG11]] : tensor<f32>
// CHECK-NEXT: %[[V7]] = mlax.mul %[[ARG5]], %[[ARG11]] : tensor<f32>
// CHECK-NEXT: %[[V8]] = mlax.mul %[[ARG4]], %[[ARG12]] : tensor<f32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V7]], %[[V8]] : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.add %[[V6]], %[[ARG4]] : tensor<f32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.add %[[V13]], %[[ARG5]] : tensor<f32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.add %[[V14]], %[[ARG11]] : tensor<f32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.add %[[V15]], %[[ARG12]] : tensor<f32>
// CHECK-NEXT: mlax.yield %[[V16]], %[[V17]] : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V3]], %[[V10]]#1 : tensor<2xf32>, tensor<2xf32>
func.func private @reduce_general(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %c = mlax.constant dense<0.0> : tensor<f32>
  %r = mlax.reduce(%a0) init(%c) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = mlax.mul %p, %q : tensor<f32>
    %t = mlax.add %s, %p : tensor<f32>
    %u = mlax.add %t, %q : tensor<f32>
    mlax.yield %u : tensor<f32>
  }
  return %r : tensor<2xf32>
}
func.func @test_reduce_general(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @reduce_general(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// reduce (general), reverse mode: exclusive prefix and suffix reductions
// (pads with the init value, reduces over stacked pairs), then one reduce
// of (prefix, x, suffix) triples with the body's jvp and a tangent of one
// on x; the init value gets no cotangent.
// CHECK-LABEL: func.func private @reduce_general_vjp_vjp(
// CHECK: mlax.pad
// CHECK: mlax.concatenate
// CHECK: mlax.reduce(%{{.*}}) init(%{{.*}}) dimensions = [0] : (tensor<2x2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: mlax.reduce(%{{.*}}, %{{.*}}) init(%{{.*}}, %{{.*}}) dimensions = [0] : (tensor<3x2x3xf32>, tensor<3x2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: return
func.func private @reduce_general_vjp(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %c = mlax.constant dense<0.0> : tensor<f32>
  %r = mlax.reduce(%a0) init(%c) dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = mlax.mul %p, %q : tensor<f32>
    %t = mlax.add %s, %p : tensor<f32>
    %u = mlax.add %t, %q : tensor<f32>
    mlax.yield %u : tensor<f32>
  }
  return %r : tensor<2xf32>
}
func.func @test_reduce_general_vjp(%a0: tensor<2x3xf32>, %ct: tensor<2xf32>) -> tensor<2x3xf32> {
  %r:2 = mlax.vjp @reduce_general_vjp(%a0) cotangents(%ct) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %r#1 : tensor<2x3xf32>
}
