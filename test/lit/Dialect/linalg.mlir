// Round trip of the linear-algebra ops (cholesky, triangular_solve, eigh, eig,
// qr, geqrf, geqp3, svd, lu, schur, hessenberg, tridiagonal, householder_product,
// tridiagonal_solve).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @triangular_solve(
// CHECK: mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = false, lower = false, unit_diagonal = true, transpose_a = transpose : (tensor<2x4x4xf64>, tensor<2x5x4xf64>) -> tensor<2x5x4xf64>
// CHECK: mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = true, lower = false, unit_diagonal = false, transpose_a = adjoint : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %a2: tensor<2x4x4xf64>,
                            %b2: tensor<2x5x4xf64>, %a3: tensor<2x2xcomplex<f32>>,
                            %b3: tensor<2x1xcomplex<f32>>)
    -> (tensor<3x2xf32>, tensor<2x5x4xf64>, tensor<2x1xcomplex<f32>>) {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = mlax.triangular_solve %a2, %b2, left_side = false, lower = false, unit_diagonal = true,
      transpose_a = transpose : (tensor<2x4x4xf64>, tensor<2x5x4xf64>) -> tensor<2x5x4xf64>
  %2 = mlax.triangular_solve %a3, %b3, left_side = true, lower = false, unit_diagonal = false,
      transpose_a = adjoint
      : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<2x5x4xf64>, tensor<2x1xcomplex<f32>>
}

// CHECK-LABEL: func.func @eigh(
// CHECK: mlax.eigh %{{.*}}, lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
// CHECK: mlax.eigh %{{.*}}, lower = false : tensor<2x4x4xcomplex<f64>> -> (tensor<2x4x4xcomplex<f64>>, tensor<2x4xf64>)
func.func @eigh(%a: tensor<3x3xf32>, %b: tensor<2x4x4xcomplex<f64>>) -> (tensor<3xf32>, tensor<2x4xf64>) {
  %v, %w = mlax.eigh %a, lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
  %v2, %w2 = mlax.eigh %b, lower = false
      : tensor<2x4x4xcomplex<f64>> -> (tensor<2x4x4xcomplex<f64>>, tensor<2x4xf64>)
  return %w, %w2 : tensor<3xf32>, tensor<2x4xf64>
}

// CHECK-LABEL: func.func @qr(
// CHECK: mlax.qr %{{.*}}, full_matrices = false : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<3x3xf32>)
// CHECK: mlax.qr %{{.*}}, full_matrices = true : tensor<5x3xf32> -> (tensor<5x5xf32>, tensor<5x3xf32>)
// CHECK: mlax.qr %{{.*}}, full_matrices = false : tensor<2x2x4xf64> -> (tensor<2x2x2xf64>, tensor<2x2x4xf64>)
// CHECK: mlax.geqrf %{{.*}} : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<3xf32>)
func.func @qr(%a: tensor<5x3xf32>, %b: tensor<2x2x4xf64>) -> (tensor<3x3xf32>, tensor<5x3xf32>, tensor<2x2x4xf64>, tensor<3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<3x3xf32>)
  %q2, %r2 = mlax.qr %a, full_matrices = true : tensor<5x3xf32> -> (tensor<5x5xf32>, tensor<5x3xf32>)
  %q3, %r3 = mlax.qr %b, full_matrices = false
      : tensor<2x2x4xf64> -> (tensor<2x2x2xf64>, tensor<2x2x4xf64>)
  %h, %t = mlax.geqrf %a : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<3xf32>)
  return %r, %r2, %r3, %t : tensor<3x3xf32>, tensor<5x3xf32>, tensor<2x2x4xf64>, tensor<3xf32>
}

// CHECK-LABEL: func.func @geqp3(
// CHECK: mlax.geqp3 %{{.*}}, %{{.*}} : (tensor<5x3xf32>, tensor<3xi32>) -> (tensor<5x3xf32>, tensor<3xi32>, tensor<3xf32>)
// CHECK: mlax.geqp3 %{{.*}}, %{{.*}} : (tensor<2x3x4xcomplex<f64>>, tensor<2x4xi32>) -> (tensor<2x3x4xcomplex<f64>>, tensor<2x4xi32>, tensor<2x3xcomplex<f64>>)
func.func @geqp3(%a: tensor<5x3xf32>, %p: tensor<3xi32>, %b: tensor<2x3x4xcomplex<f64>>,
                 %q: tensor<2x4xi32>) -> (tensor<3xi32>, tensor<2x3xcomplex<f64>>) {
  %r, %jp, %t = mlax.geqp3 %a, %p : (tensor<5x3xf32>, tensor<3xi32>)
      -> (tensor<5x3xf32>, tensor<3xi32>, tensor<3xf32>)
  %r2, %jp2, %t2 = mlax.geqp3 %b, %q : (tensor<2x3x4xcomplex<f64>>, tensor<2x4xi32>)
      -> (tensor<2x3x4xcomplex<f64>>, tensor<2x4xi32>, tensor<2x3xcomplex<f64>>)
  return %jp, %t2 : tensor<3xi32>, tensor<2x3xcomplex<f64>>
}

// CHECK-LABEL: func.func @svd(
// CHECK: mlax.svd %{{.*}}, full_matrices = false : tensor<5x3xf32> -> (tensor<3xf32>, tensor<5x3xf32>, tensor<3x3xf32>)
// CHECK: mlax.svd %{{.*}}, full_matrices = true : tensor<2x3x4xcomplex<f32>> -> (tensor<2x3xf32>, tensor<2x3x3xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>)
func.func @svd(%a: tensor<5x3xf32>, %b: tensor<2x3x4xcomplex<f32>>) -> (tensor<3xf32>, tensor<2x3xf32>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = false
      : tensor<5x3xf32> -> (tensor<3xf32>, tensor<5x3xf32>, tensor<3x3xf32>)
  %s2, %u2, %vt2 = mlax.svd %b, full_matrices = true
      : tensor<2x3x4xcomplex<f32>> -> (tensor<2x3xf32>, tensor<2x3x3xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>)
  return %s, %s2 : tensor<3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cholesky(
// CHECK: mlax.cholesky %{{.*}} : tensor<3x3xf64>
func.func @cholesky(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = mlax.cholesky %a : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// CHECK-LABEL: func.func @cholesky_complex(
// CHECK: mlax.cholesky %{{.*}} : tensor<2x3x3xcomplex<f32>>
func.func @cholesky_complex(%a: tensor<2x3x3xcomplex<f32>>) -> tensor<2x3x3xcomplex<f32>> {
  %0 = mlax.cholesky %a : tensor<2x3x3xcomplex<f32>>
  return %0 : tensor<2x3x3xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dot_general_matmul(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>)
// CHECK: %[[R:.*]] = mlax.dot_general %[[A]], %[[B]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: return %[[R]] : tensor<2x4xf32>
// GENERIC-LABEL: sym_name = "dot_general_matmul"
// GENERIC: "mlax.dot_general"(%{{.*}}, %{{.*}}) <{lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @dot_general_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_batched(
// CHECK-SAME: %[[A:.*]]: tensor<5x2x3xf32>, %[[B:.*]]: tensor<5x3x4xf32>)
// CHECK: mlax.dot_general %[[A]], %[[B]], batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
func.func @dot_general_batched(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_vector_dot(
// CHECK: mlax.dot_general %{{.*}}, %{{.*}}, batch = [] x [], contract = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
func.func @dot_general_vector_dot(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dot_general_outer(
// CHECK: mlax.dot_general %{{.*}}, %{{.*}}, batch = [] x [], contract = [] x [] : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
func.func @dot_general_outer(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [] x [] : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// The result element type may be wider than the operands': the op's
// preferred_element_type, which the generic form shows.
// CHECK-LABEL: func.func @dot_general_preferred_type(
// CHECK: mlax.dot_general %{{.*}}, %{{.*}}, batch = [] x [], contract = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
// GENERIC-LABEL: sym_name = "dot_general_preferred_type"
// GENERIC: "mlax.dot_general"(%{{.*}}, %{{.*}}) <{lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, preferred_element_type = i32, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>}> : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
func.func @dot_general_preferred_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @lu(
// CHECK: mlax.lu %{{.*}} : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
// CHECK: mlax.lu %{{.*}} : tensor<2x4x3xcomplex<f64>> -> (tensor<2x4x3xcomplex<f64>>, tensor<2x3xi32>, tensor<2x4xi32>)
// CHECK: mlax.lu %{{.*}} : tensor<2x5xf64> -> (tensor<2x5xf64>, tensor<2xi32>, tensor<2xi32>)
func.func @lu(%a: tensor<3x3xf32>, %b: tensor<2x4x3xcomplex<f64>>, %c: tensor<2x5xf64>)
    -> (tensor<3x3xf32>, tensor<2x4xi32>, tensor<2xi32>) {
  %lu, %piv, %perm = mlax.lu %a
      : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
  %lu2, %piv2, %perm2 = mlax.lu %b
      : tensor<2x4x3xcomplex<f64>> -> (tensor<2x4x3xcomplex<f64>>, tensor<2x3xi32>, tensor<2x4xi32>)
  %lu3, %piv3, %perm3 = mlax.lu %c
      : tensor<2x5xf64> -> (tensor<2x5xf64>, tensor<2xi32>, tensor<2xi32>)
  return %lu, %perm2, %piv3 : tensor<3x3xf32>, tensor<2x4xi32>, tensor<2xi32>
}

// CHECK-LABEL: func.func @eig(
// CHECK: mlax.eig %{{.*}}, compute_left = true, compute_right = true : tensor<3x3xf32> -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
// CHECK: mlax.eig %{{.*}}, compute_left = false, compute_right = true : tensor<2x4x4xcomplex<f64>> -> (tensor<2x4xcomplex<f64>>, tensor<2x4x4xcomplex<f64>>, tensor<2x4x4xcomplex<f64>>)
// GENERIC: "mlax.eig"(%{{.*}}) <{compute_left = true, compute_right = true}>
func.func @eig(%a: tensor<3x3xf32>, %b: tensor<2x4x4xcomplex<f64>>)
    -> (tensor<3xcomplex<f32>>, tensor<2x4x4xcomplex<f64>>) {
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true
      : tensor<3x3xf32> -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
  %w2, %vl2, %vr2 = mlax.eig %b, compute_left = false, compute_right = true
      : tensor<2x4x4xcomplex<f64>> -> (tensor<2x4xcomplex<f64>>, tensor<2x4x4xcomplex<f64>>, tensor<2x4x4xcomplex<f64>>)
  return %w, %vr2 : tensor<3xcomplex<f32>>, tensor<2x4x4xcomplex<f64>>
}

// The result types below are the ones the shape rules infer (each verifier
// compares the stated ones with them; cholesky's custom form infers its own).
// CHECK-LABEL: func.func @inferred_shapes(
// CHECK: mlax.cholesky %{{.*}} : tensor<2x3x3xf32>
// CHECK: mlax.triangular_solve %{{.*}}, %{{.*}}, left_side = false, lower = true, unit_diagonal = false, transpose_a = adjoint : (tensor<2x3x3xcomplex<f64>>, tensor<2x5x3xcomplex<f64>>) -> tensor<2x5x3xcomplex<f64>>
// CHECK: mlax.qr %{{.*}}, full_matrices = true : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x4xf32>)
// CHECK: mlax.svd %{{.*}}, full_matrices = true : tensor<3x5xf64> -> (tensor<3xf64>, tensor<3x3xf64>, tensor<5x5xf64>)
// CHECK: mlax.svd %{{.*}}, full_matrices = false : tensor<3x5xf64> -> (tensor<3xf64>, tensor<3x3xf64>, tensor<3x5xf64>)
// CHECK: mlax.geqrf %{{.*}} : tensor<2x2x4xcomplex<f32>> -> (tensor<2x2x4xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
// CHECK: mlax.lu %{{.*}} : tensor<5x2xf32> -> (tensor<5x2xf32>, tensor<2xi32>, tensor<5xi32>)
// CHECK: mlax.eigh %{{.*}}, lower = false : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
// CHECK: mlax.eig %{{.*}}, compute_left = false, compute_right = false : tensor<2x3x3xf32> -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>)
// CHECK: mlax.dot_general %{{.*}}, %{{.*}}, batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf64>
func.func @inferred_shapes(%sq: tensor<2x3x3xf32>, %ac: tensor<2x3x3xcomplex<f64>>,
                           %bc: tensor<2x5x3xcomplex<f64>>, %wide: tensor<2x4xf32>,
                           %w64: tensor<3x5xf64>, %wc: tensor<2x2x4xcomplex<f32>>,
                           %tall: tensor<5x2xf32>) {
  %l = mlax.cholesky %sq : tensor<2x3x3xf32>
  %x = mlax.triangular_solve %ac, %bc, left_side = false, lower = true, unit_diagonal = false,
      transpose_a = adjoint
      : (tensor<2x3x3xcomplex<f64>>, tensor<2x5x3xcomplex<f64>>) -> tensor<2x5x3xcomplex<f64>>
  %q, %r = mlax.qr %wide, full_matrices = true
      : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x4xf32>)
  %s, %u, %vt = mlax.svd %w64, full_matrices = true
      : tensor<3x5xf64> -> (tensor<3xf64>, tensor<3x3xf64>, tensor<5x5xf64>)
  %s2, %u2, %vt2 = mlax.svd %w64, full_matrices = false
      : tensor<3x5xf64> -> (tensor<3xf64>, tensor<3x3xf64>, tensor<3x5xf64>)
  %h, %t = mlax.geqrf %wc
      : tensor<2x2x4xcomplex<f32>> -> (tensor<2x2x4xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  %lu, %piv, %perm = mlax.lu %tall
      : tensor<5x2xf32> -> (tensor<5x2xf32>, tensor<2xi32>, tensor<5xi32>)
  %v, %ev = mlax.eigh %sq, lower = false
      : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
  %w, %vl, %vr = mlax.eig %sq, compute_left = false, compute_right = false
      : tensor<2x3x3xf32> -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>)
  %p = mlax.dot_general %sq, %sq, batch = [0] x [0], contract = [2] x [1]
      : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf64>
  return
}

// CHECK-LABEL: func.func @reductions(
// CHECK: mlax.schur %{{.*}}, compute_schur_vectors = true : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>)
// CHECK: mlax.schur %{{.*}}, compute_schur_vectors = false : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>)
// CHECK: mlax.hessenberg %{{.*}} : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x2xf32>)
// CHECK: mlax.tridiagonal %{{.*}}, lower = false : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<3xf64>, tensor<3xcomplex<f64>>)
// CHECK: mlax.householder_product %{{.*}}, %{{.*}} : (tensor<2x4x3xf32>, tensor<2x2xf32>) -> tensor<2x4x3xf32>
// CHECK: mlax.tridiagonal_solve %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, perturb_singular = false : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// CHECK: mlax.tridiagonal_solve %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, perturb_singular = true
// GENERIC: "mlax.schur"(%{{.*}}) <{compute_schur_vectors = true}>
// GENERIC: "mlax.hessenberg"(%{{.*}}) : (tensor<2x3x3xf32>)
// GENERIC: "mlax.tridiagonal"(%{{.*}}) <{lower = false}>
// GENERIC: "mlax.householder_product"(%{{.*}}, %{{.*}}) : (tensor<2x4x3xf32>, tensor<2x2xf32>)
// GENERIC: "mlax.tridiagonal_solve"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{perturb_singular = false}>
func.func @reductions(%a: tensor<2x3x3xf32>, %c: tensor<4x4xcomplex<f64>>, %h: tensor<2x4x3xf32>,
                      %taus: tensor<2x2xf32>, %v: tensor<2x4xf32>, %b: tensor<2x4x3xf32>)
    -> (tensor<2x3x3xf32>, tensor<4x4xcomplex<f64>>, tensor<2x2xf32>, tensor<4xf64>,
        tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>) {
  %t, %q = mlax.schur %a, compute_schur_vectors = true
      : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>)
  %t2, %q2 = mlax.schur %c, compute_schur_vectors = false
      : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>)
  %hh, %ht = mlax.hessenberg %a : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x2xf32>)
  %r, %d, %e, %tt = mlax.tridiagonal %c, lower = false
      : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<3xf64>, tensor<3xcomplex<f64>>)
  %p = mlax.householder_product %h, %taus : (tensor<2x4x3xf32>, tensor<2x2xf32>) -> tensor<2x4x3xf32>
  %x = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = false
      : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %y = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = true
      : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %q, %t2, %ht, %d, %p, %x, %y : tensor<2x3x3xf32>, tensor<4x4xcomplex<f64>>, tensor<2x2xf32>, tensor<4xf64>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>
}
