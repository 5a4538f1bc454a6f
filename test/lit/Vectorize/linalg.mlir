// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched functions mlax-vectorize generates for the linear-algebra ops
// (rules in dialects/Mlax/MlaxLinalgOps.cpp). They all treat leading
// dimensions as a batch, so a batched op is the same op on the batched
// operand; an unbatched triangular_solve operand is broadcast first.
// Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap' and review them.

// CHECK-LABEL: func.func private @chol_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cholesky %[[ARG0]] : tensor<5x3x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3x3xf32>

// CHECK-LABEL: func.func private @trsm_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [1, 2] : tensor<3x3xf32> -> tensor<5x3x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[ARG1]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<5x3x3xf32>, tensor<5x3x2xf32>) -> tensor<5x3x2xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x3x2xf32>

// CHECK-LABEL: func.func private @trsm_vmap_0(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [2, 0, 1] : tensor<3x3x5xf32> -> tensor<5x3x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[ARG1]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<5x3x3xf32>, tensor<5x3x2xf32>) -> tensor<5x3x2xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x3x2xf32>

// CHECK-LABEL: func.func private @decompositions_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3x2xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [2, 0, 1] : tensor<4x3x2xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.qr %[[V1]], full_matrices = false : tensor<2x4x3xf32> -> (tensor<2x4x3xf32>, tensor<2x3x3xf32>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]], %[[V5:[^ ,:)]*]] = mlax.geqrf %[[V1]] : tensor<2x4x3xf32> -> (tensor<2x4x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[V6:[^ ,:)]*]], %[[V7:[^ ,:)]*]], %[[V8:[^ ,:)]*]] = mlax.svd %[[V1]], full_matrices = false : tensor<2x4x3xf32> -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3x3xf32>)
// CHECK-NEXT: %[[V9:[^ ,:)]*]], %[[V10:[^ ,:)]*]] = mlax.eigh %[[V3]], lower = false : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: return %[[V6]], %[[V2]], %[[V5]], %[[V10]] : tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>

func.func private @chol(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = mlax.cholesky %a : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
func.func @test_chol(%a: tensor<5x3x3xf32>) -> tensor<5x3x3xf32> {
  %r = mlax.vmap @chol(%a) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3x3xf32>) -> tensor<5x3x3xf32>
  return %r : tensor<5x3x3xf32>
}

func.func private @trsm(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test_trsm_b(%a: tensor<3x3xf32>, %b: tensor<5x3x2xf32>) -> tensor<5x3x2xf32> {
  %r = mlax.vmap @trsm(%a, %b) in_axes = [-1, 0] out_axes = [0] size = 5 : (tensor<3x3xf32>, tensor<5x3x2xf32>) -> tensor<5x3x2xf32>
  return %r : tensor<5x3x2xf32>
}
func.func @test_trsm_both(%a: tensor<3x3x5xf32>, %b: tensor<5x3x2xf32>) -> tensor<5x3x2xf32> {
  %r = mlax.vmap @trsm(%a, %b) in_axes = [2, 0] out_axes = [0] size = 5 : (tensor<3x3x5xf32>, tensor<5x3x2xf32>) -> tensor<5x3x2xf32>
  return %r : tensor<5x3x2xf32>
}

func.func private @decompositions(%a: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3x3xf32>)
  %h, %t = mlax.geqrf %a : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3xf32>)
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
  %v, %w = mlax.eigh %r, lower = false : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
  return %s, %q, %t, %w : tensor<3xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
}
func.func @test_decompositions(%a: tensor<4x3x2xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %r:4 = mlax.vmap @decompositions(%a) in_axes = [2] out_axes = [0, 0, 0, 0] size = 2 : (tensor<4x3x2xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @dot_general_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x2x4xf32>
func.func private @dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @test_dot_general(%a0: tensor<5x2x3xf32>, %a1: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %r = mlax.vmap @dot_general(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %r : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func private @dot_general_batch_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x2x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [0] x [1], contract = [2] x [2] : (tensor<2x3x4xf32>, tensor<5x2x4xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [2, 0, 1] : tensor<2x3x5xf32> -> tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x2x3xf32>
func.func private @dot_general_batch(%a0: tensor<2x3x4xf32>, %a1: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_dot_general_batch(%a0: tensor<2x3x4xf32>, %a1: tensor<5x2x4xf32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @dot_general_batch(%a0, %a1) in_axes = [-1, 0] out_axes = [0] size = 5 : (tensor<2x3x4xf32>, tensor<5x2x4xf32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// The pivots and the permutation are batched like the factors.
// CHECK-LABEL: func.func private @lu_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3x5xf32>) -> (tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x4xi32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [2, 0, 1] : tensor<4x3x5xf32> -> tensor<5x4x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.lu %[[V1]] : tensor<5x4x3xf32> -> (tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x4xi32>)
// CHECK-NEXT: return %[[V2]], %[[V3]], %[[V4]] : tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x4xi32>

func.func private @lu(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xi32>, tensor<4xi32>) {
  %lu, %piv, %perm = mlax.lu %a : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3xi32>, tensor<4xi32>)
  return %lu, %piv, %perm : tensor<4x3xf32>, tensor<3xi32>, tensor<4xi32>
}
func.func @test_lu(%a: tensor<4x3x5xf32>) -> (tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x4xi32>) {
  %r:3 = mlax.vmap @lu(%a) in_axes = [2] out_axes = [0, 0, 0] size = 5 : (tensor<4x3x5xf32>) -> (tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x4xi32>)
  return %r#0, %r#1, %r#2 : tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x4xi32>
}

// CHECK-LABEL: func.func private @eig_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3x5xf32>) -> (tensor<5x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [2, 0, 1] : tensor<3x3x5xf32> -> tensor<5x3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.eig %[[V1]], compute_left = false, compute_right = true : tensor<5x3x3xf32> -> (tensor<5x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>)
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<5x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>

func.func private @eig(%a: tensor<3x3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>) {
  %w, %vl, %vr = mlax.eig %a, compute_left = false, compute_right = true : tensor<3x3xf32> -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
  return %w, %vr : tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>
}
func.func @test_eig(%a: tensor<3x3x5xf32>) -> (tensor<5x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>) {
  %r:2 = mlax.vmap @eig(%a) in_axes = [2] out_axes = [0, 0] size = 5 : (tensor<3x3x5xf32>) -> (tensor<5x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>)
  return %r#0, %r#1 : tensor<5x3xcomplex<f32>>, tensor<5x3x3xcomplex<f32>>
}

// schur, hessenberg, tridiagonal, householder_product (its unbatched taus
// broadcast) and tridiagonal_solve.
// CHECK-LABEL: func.func private @reductions_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<5x3x3xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.schur %[[ARG0]], compute_schur_vectors = true : tensor<5x3x3xf32> -> (tensor<5x3x3xf32>, tensor<5x3x3xf32>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]], %[[V5:[^ ,:)]*]] = mlax.hessenberg %[[ARG0]] : tensor<5x3x3xf32> -> (tensor<5x3x3xf32>, tensor<5x2xf32>)
// CHECK-NEXT: %[[V6:[^ ,:)]*]], %[[V7:[^ ,:)]*]], %[[V8:[^ ,:)]*]], %[[V9:[^ ,:)]*]] = mlax.tridiagonal %[[ARG0]], lower = true : tensor<5x3x3xf32> -> (tensor<5x3x3xf32>, tensor<5x3xf32>, tensor<5x2xf32>, tensor<5x2xf32>)
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<2xf32> -> tensor<5x2xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.householder_product %[[ARG0]], %[[V10]] : (tensor<5x3x3xf32>, tensor<5x2xf32>) -> tensor<5x3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.tridiagonal_solve %[[V7]], %[[V7]], %[[V7]], %[[V11]], perturb_singular = false : (tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3x3xf32>) -> tensor<5x3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.slice %[[V12]], start = [0, 0, 0], limit = [5, 3, 2], strides = [1, 1, 1] : tensor<5x3x3xf32> -> tensor<5x3x2xf32>
// CHECK-NEXT: return %[[V2]], %[[V5]], %[[V7]], %[[V13]] : tensor<5x3x3xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x3x2xf32>

func.func private @reductions(%a: tensor<3x3xf32>, %t: tensor<2xf32>) -> (tensor<3x3xf32>, tensor<2xf32>, tensor<3xf32>, tensor<3x2xf32>) {
  %s, %q = mlax.schur %a, compute_schur_vectors = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3x3xf32>)
  %h, %ht = mlax.hessenberg %a : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<2xf32>)
  %r, %d, %e, %tt = mlax.tridiagonal %a, lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xf32>)
  %p = mlax.householder_product %a, %t : (tensor<3x3xf32>, tensor<2xf32>) -> tensor<3x3xf32>
  %x = mlax.tridiagonal_solve %d, %d, %d, %p, perturb_singular = false : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %y = mlax.slice %x, start = [0, 0], limit = [3, 2], strides = [1, 1] : tensor<3x3xf32> -> tensor<3x2xf32>
  return %s, %ht, %d, %y : tensor<3x3xf32>, tensor<2xf32>, tensor<3xf32>, tensor<3x2xf32>
}
func.func @test_reductions(%a: tensor<5x3x3xf32>, %t: tensor<2xf32>) -> (tensor<5x3x3xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x3x2xf32>) {
  %r:4 = mlax.vmap @reductions(%a, %t) in_axes = [0, -1] out_axes = [0, 0, 0, 0] size = 5 : (tensor<5x3x3xf32>, tensor<2xf32>) -> (tensor<5x3x3xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x3x2xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<5x3x3xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x3x2xf32>
}

// geqp3: an unbatched jpvt is broadcast to the batch.
// CHECK-LABEL: func.func private @geqp3_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<3xi32> -> tensor<5x3xi32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]], %[[V5:[^ ,:)]*]] = mlax.geqp3 %[[ARG0]], %[[V2]] : (tensor<5x4x3xf32>, tensor<5x3xi32>) -> (tensor<5x4x3xf32>, tensor<5x3xi32>, tensor<5x3xf32>)
// CHECK-NEXT: return %[[V4]] : tensor<5x3xi32>

func.func private @geqp3(%a: tensor<4x3xf32>, %p: tensor<3xi32>) -> tensor<3xi32> {
  %r, %jp, %t = mlax.geqp3 %a, %p : (tensor<4x3xf32>, tensor<3xi32>) -> (tensor<4x3xf32>, tensor<3xi32>, tensor<3xf32>)
  return %jp : tensor<3xi32>
}
func.func @test_geqp3(%a: tensor<5x4x3xf32>, %p: tensor<3xi32>) -> tensor<5x3xi32> {
  %r = mlax.vmap @geqp3(%a, %p) in_axes = [0, -1] out_axes = [0] size = 5 : (tensor<5x4x3xf32>, tensor<3xi32>) -> tensor<5x3xi32>
  return %r : tensor<5x3xi32>
}
