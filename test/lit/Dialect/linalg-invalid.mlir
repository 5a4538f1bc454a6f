// Verifier errors of the linear-algebra ops.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @solve_rank(%a: tensor<3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op needs an array of at least 2 dimensions (shape [..., m, n]) as a, got 'tensor<3xf32>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @solve_not_square(%a: tensor<3x2xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op needs square matrices (shape [..., n, n]) as a, got 'tensor<3x2xf32>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @solve_b_rank(%a: tensor<3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op needs an array of at least 2 dimensions (shape [..., m, n]) as b, got 'tensor<3xf32>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @solve_types(%a: tensor<3x3xf32>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'mlax.triangular_solve' op needs a and b of one element type, got 'f32' and 'f64'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf64>) -> tensor<3x2xf64>
  return
}

// -----

func.func @solve_batch(%a: tensor<2x3x3xf32>, %b: tensor<3x3x2xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op needs a and b with equal batch dimensions, got 'tensor<2x3x3xf32>' and 'tensor<3x3x2xf32>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x3x3xf32>, tensor<3x3x2xf32>) -> tensor<3x3x2xf32>
  return
}

// -----

func.func @solve_batch_rank(%a: tensor<3x3xf32>, %b: tensor<1x3x2xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op needs a and b with equal batch dimensions, got 'tensor<3x3xf32>' and 'tensor<1x3x2xf32>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  return
}

// -----

func.func @solve_left_mismatch(%a: tensor<3x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op b of shape [2, 3] does not fit a of shape [3, 3] on the left (b's rows must number 3)}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @solve_right_mismatch(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op b of shape [3, 2] does not fit a of shape [3, 3] on the right (b's columns must number 3)}}
  %0 = mlax.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @solve_result(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'mlax.triangular_solve' op result type must be b's type 'tensor<3x2xf32>', got 'tensor<2x3xf32>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @solve_f16(%a: tensor<3x3xf16>, %b: tensor<3x2xf16>) {
  // expected-error @+1 {{'mlax.triangular_solve' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<3x3xf16>'}}
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf16>, tensor<3x2xf16>) -> tensor<3x2xf16>
  return
}

// -----

func.func @eigh_not_square(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'mlax.eigh' op needs square matrices (shape [..., n, n]) as operand, got 'tensor<3x2xf32>'}}
  %v, %w = mlax.eigh %a, lower = true : tensor<3x2xf32> -> (tensor<3x2xf32>, tensor<3xf32>)
  return
}

// -----

func.func @eigh_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.eigh' op needs an array of at least 2 dimensions (shape [..., m, n]) as operand, got 'tensor<3xf32>'}}
  %v, %w = mlax.eigh %a, lower = true : tensor<3xf32> -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @eigh_vectors(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.eigh' op eigenvectors type must be 'tensor<3x3xf32>', got 'tensor<3x3xf64>'}}
  %v, %w = mlax.eigh %a, lower = true : tensor<3x3xf32> -> (tensor<3x3xf64>, tensor<3xf32>)
  return
}

// -----

func.func @eigh_values(%a: tensor<3x3xcomplex<f32>>) {
  // expected-error @+1 {{'mlax.eigh' op eigenvalues type must be 'tensor<3xf32>', got 'tensor<3xf64>'}}
  %v, %w = mlax.eigh %a, lower = true : tensor<3x3xcomplex<f32>> -> (tensor<3x3xcomplex<f32>>, tensor<3xf64>)
  return
}

// -----

func.func @qr_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.qr' op needs an array of at least 2 dimensions (shape [..., m, n]) as operand, got 'tensor<3xf32>'}}
  %q, %r = mlax.qr %a, full_matrices = false : tensor<3xf32> -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @qr_q(%a: tensor<5x3xf32>) {
  // expected-error @+1 {{'mlax.qr' op q type must be 'tensor<5x5xf32>', got 'tensor<5x3xf32>'}}
  %q, %r = mlax.qr %a, full_matrices = true : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<5x3xf32>)
  return
}

// -----

func.func @qr_r(%a: tensor<5x3xf32>) {
  // expected-error @+1 {{'mlax.qr' op r type must be 'tensor<3x3xf32>', got 'tensor<5x3xf32>'}}
  %q, %r = mlax.qr %a, full_matrices = false : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<5x3xf32>)
  return
}

// -----

func.func @geqrf_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.geqrf' op needs an array of at least 2 dimensions (shape [..., m, n]) as operand, got 'tensor<3xf32>'}}
  %h, %t = mlax.geqrf %a : tensor<3xf32> -> (tensor<3xf32>, tensor<1xf32>)
  return
}

// -----

func.func @geqrf_r(%a: tensor<5x3xf32>) {
  // expected-error @+1 {{'mlax.geqrf' op r type must be 'tensor<5x3xf32>', got 'tensor<3x3xf32>'}}
  %h, %t = mlax.geqrf %a : tensor<5x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @geqrf_taus(%a: tensor<2x5x3xf32>) {
  // expected-error @+1 {{'mlax.geqrf' op taus type must be 'tensor<2x3xf32>', got 'tensor<3xf32>'}}
  %h, %t = mlax.geqrf %a : tensor<2x5x3xf32> -> (tensor<2x5x3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @geqp3_jpvt(%a: tensor<5x3xf32>, %p: tensor<5xi32>) {
  // expected-error @+1 {{'mlax.geqp3' op needs jpvt of shape [..., n] with the operand's batch dimensions and columns, got 'tensor<5xi32>' for 'tensor<5x3xf32>'}}
  %r, %jp, %t = mlax.geqp3 %a, %p : (tensor<5x3xf32>, tensor<5xi32>) -> (tensor<5x3xf32>, tensor<5xi32>, tensor<3xf32>)
  return
}

// -----

func.func @geqp3_taus(%a: tensor<5x3xf32>, %p: tensor<3xi32>) {
  // expected-error @+1 {{'mlax.geqp3' op taus type must be 'tensor<3xf32>', got 'tensor<5xf32>'}}
  %r, %jp, %t = mlax.geqp3 %a, %p : (tensor<5x3xf32>, tensor<3xi32>) -> (tensor<5x3xf32>, tensor<3xi32>, tensor<5xf32>)
  return
}

// -----

func.func @svd_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.svd' op needs an array of at least 2 dimensions (shape [..., m, n]) as operand, got 'tensor<3xf32>'}}
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<3xf32> -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @svd_s(%a: tensor<5x3xcomplex<f32>>) {
  // expected-error @+1 {{'mlax.svd' op s type must be 'tensor<3xf32>', got 'tensor<5xf32>'}}
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<5x3xcomplex<f32>> -> (tensor<5xf32>, tensor<5x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
  return
}

// -----

func.func @svd_u(%a: tensor<5x3xf32>) {
  // expected-error @+1 {{'mlax.svd' op u type must be 'tensor<5x5xf32>', got 'tensor<5x3xf32>'}}
  %s, %u, %vt = mlax.svd %a, full_matrices = true : tensor<5x3xf32> -> (tensor<3xf32>, tensor<5x3xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @svd_vt(%a: tensor<3x5xf32>) {
  // expected-error @+1 {{'mlax.svd' op vt type must be 'tensor<3x5xf32>', got 'tensor<5x5xf32>'}}
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<3x5xf32> -> (tensor<3xf32>, tensor<3x3xf32>, tensor<5x5xf32>)
  return
}

// -----

func.func @cholesky_not_square(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.cholesky' op needs square matrices (shape [..., n, n]), got 'tensor<2x3xf32>'}}
  %0 = mlax.cholesky %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cholesky_f16(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  // expected-error @+1 {{'mlax.cholesky' op supports f32, f64, complex<f32> and complex<f64> matrices, got 'f16'}}
  %0 = mlax.cholesky %x : tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

// The custom form infers the result type while parsing: the shape rule's message.
func.func @cholesky_vector(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlax.cholesky' op needs square matrices (shape [..., n, n]), got 'tensor<3xf32>'}}
  %0 = mlax.cholesky %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @cholesky_generic_result(%x: tensor<2x2xf32>) -> tensor<2x2xf64> {
  // expected-error @+2 {{'mlax.cholesky' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.cholesky' op inferred type(s) 'tensor<2x2xf32>' are incompatible with return type(s) of operation 'tensor<2x2xf64>'}}
  %0 = "mlax.cholesky"(%x) : (tensor<2x2xf32>) -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
}

// -----

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//


func.func @dot_general_contracting_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 1 (size 3) does not match rhs dimension 0 (size 4); shapes [2, 3] and [4, 5]}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dot_general_batch_sizes(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 0 (size 2) does not match rhs dimension 0 (size 5); shapes [2, 3, 4] and [5, 4, 6]}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @dot_general_batch_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs and rhs need as many batch dimensions, got [0] and []}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @dot_general_contracting_count(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs and rhs need as many contracting dimensions, got [1] and []}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_lhs_dim_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 2 is out of range for rank 2}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [2] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_rhs_dim_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op rhs dimension 5 is out of range for rank 2}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [5] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_batch_and_contract_overlap(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op lhs dimension 0 appears twice}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [0] x [1] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @dot_general_result_shape(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op result shape should be [2, 4], got [4, 2]}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @dot_general_batched_result_shape(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op result shape should be [5, 2, 4], got [2, 5, 4]}}
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<2x5x4xf32>
  return
}

// -----

func.func @dot_general_mixed_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+1 {{'mlax.dot_general' op operands must have one element type, got 'f32' and 'f16'}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

// A result element type of another kind than the operands' (i8 -> f32): the
// custom form reads it as the preferred element type.
func.func @dot_general_preferred_kind(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'mlax.dot_general' op result element type 'f32' is not of the operands' kind ('i8')}}
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xf32>
  return
}

// -----

// The generic form states the preferred element type as an attribute: a
// result of another element type is not the one the rule infers.
func.func @dot_general_generic_widened(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op result type must be 'tensor<2x4xf32>', got 'tensor<2x4xf64>'}}
  %0 = "mlax.dot_general"(%a, %b) <{lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf64>
  return
}

// -----

func.func @dot_general_generic_preferred(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'mlax.dot_general' op result type must be 'tensor<2x4xi32>', got 'tensor<2x4xi16>'}}
  %0 = "mlax.dot_general"(%a, %b) <{lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, preferred_element_type = i32, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>}> : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi16>
  return
}

// -----

func.func @dot_general_generic_preferred_kind(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'mlax.dot_general' op result element type 'i32' is not of the operands' kind ('f32')}}
  %0 = "mlax.dot_general"(%a, %b) <{lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, preferred_element_type = i32, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xi32>
  return
}

// -----

func.func @lu_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.lu' op needs an array of at least 2 dimensions (shape [..., m, n]) as operand, got 'tensor<3xf32>'}}
  %lu, %p, %q = mlax.lu %a : tensor<3xf32> -> (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>)
  return
}

// -----

func.func @lu_element_type(%a: tensor<3x3xi32>) {
  // expected-error @+1 {{'mlax.lu' op operand #0 must be statically shaped tensor of}}
  %lu, %p, %q = mlax.lu %a : tensor<3x3xi32> -> (tensor<3x3xi32>, tensor<3xi32>, tensor<3xi32>)
  return
}

// -----

func.func @lu_result(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'mlax.lu' op lu type must be 'tensor<4x3xf32>', got 'tensor<4x3xf64>'}}
  %lu, %p, %q = mlax.lu %a : tensor<4x3xf32> -> (tensor<4x3xf64>, tensor<3xi32>, tensor<4xi32>)
  return
}

// -----

func.func @lu_pivots(%a: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'mlax.lu' op pivots type must be 'tensor<2x3xi32>', got 'tensor<2x4xi32>'}}
  %lu, %p, %q = mlax.lu %a : tensor<2x4x3xf32> -> (tensor<2x4x3xf32>, tensor<2x4xi32>, tensor<2x4xi32>)
  return
}

// -----

func.func @lu_permutation(%a: tensor<2x5xf32>) {
  // expected-error @+1 {{'mlax.lu' op permutation type must be 'tensor<2xi32>', got 'tensor<5xi32>'}}
  %lu, %p, %q = mlax.lu %a : tensor<2x5xf32> -> (tensor<2x5xf32>, tensor<2xi32>, tensor<5xi32>)
  return
}

// -----

func.func @eig_not_square(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlax.eig' op needs square matrices (shape [..., n, n]) as operand, got 'tensor<2x3xf32>'}}
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true : tensor<2x3xf32> -> (tensor<2xcomplex<f32>>, tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>)
  return
}

// -----

func.func @eig_element_type(%a: tensor<3x3xf16>) {
  // expected-error @+1 {{'mlax.eig' op operand #0 must be statically shaped tensor of}}
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true : tensor<3x3xf16> -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
  return
}

// -----

func.func @eig_real_results(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.eig' op result #0 must be statically shaped tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<3xf32>'}}
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true : tensor<3x3xf32> -> (tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
  return
}

// -----

func.func @eig_values(%a: tensor<2x3x3xf32>) {
  // expected-error @+1 {{'mlax.eig' op eigenvalues type must be 'tensor<2x3xcomplex<f32>>', got 'tensor<2x3xcomplex<f64>>'}}
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true : tensor<2x3x3xf32> -> (tensor<2x3xcomplex<f64>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>)
  return
}

// -----

func.func @eig_left(%a: tensor<3x3xcomplex<f64>>) {
  // expected-error @+1 {{'mlax.eig' op left eigenvectors type must be 'tensor<3x3xcomplex<f64>>', got 'tensor<3x2xcomplex<f64>>'}}
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true : tensor<3x3xcomplex<f64>> -> (tensor<3xcomplex<f64>>, tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
  return
}

// -----

func.func @eig_right(%a: tensor<3x3xf64>) {
  // expected-error @+1 {{'mlax.eig' op right eigenvectors type must be 'tensor<3x3xcomplex<f64>>', got 'tensor<2x3x3xcomplex<f64>>'}}
  %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true : tensor<3x3xf64> -> (tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<2x3x3xcomplex<f64>>)
  return
}

// -----

func.func @schur_not_square(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'mlax.schur' op needs square matrices (shape [..., n, n]) as operand, got 'tensor<3x2xf32>'}}
  %t, %q = mlax.schur %a, compute_schur_vectors = true : tensor<3x2xf32> -> (tensor<3x2xf32>, tensor<3x2xf32>)
  return
}

// -----

func.func @schur_int(%a: tensor<3x3xi32>) {
  // expected-error @+1 {{'mlax.schur' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<3x3xi32>'}}
  %t, %q = mlax.schur %a, compute_schur_vectors = true : tensor<3x3xi32> -> (tensor<3x3xi32>, tensor<3x3xi32>)
  return
}

// -----

func.func @schur_result(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.schur' op Schur vectors type must be 'tensor<3x3xf32>', got 'tensor<3x3xf64>'}}
  %t, %q = mlax.schur %a, compute_schur_vectors = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3x3xf64>)
  return
}

// -----

func.func @hessenberg_vector(%a: tensor<3xf32>) {
  // expected-error @+1 {{'mlax.hessenberg' op needs an array of at least 2 dimensions (shape [..., m, n]) as operand, got 'tensor<3xf32>'}}
  %h, %t = mlax.hessenberg %a : tensor<3xf32> -> (tensor<3xf32>, tensor<2xf32>)
  return
}

// -----

func.func @hessenberg_taus(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.hessenberg' op taus type must be 'tensor<2xf32>', got 'tensor<3xf32>'}}
  %h, %t = mlax.hessenberg %a : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @tridiagonal_empty(%a: tensor<0x0xf32>) {
  // expected-error @+1 {{'mlax.tridiagonal' op needs square matrices of at least one row, got 'tensor<0x0xf32>'}}
  %r, %d, %e, %t = mlax.tridiagonal %a, lower = true : tensor<0x0xf32> -> (tensor<0x0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>)
  return
}

// -----

func.func @tridiagonal_real_d(%a: tensor<3x3xcomplex<f32>>) {
  // expected-error @+1 {{'mlax.tridiagonal' op d type must be 'tensor<3xf32>', got 'tensor<3xf64>'}}
  %r, %d, %e, %t = mlax.tridiagonal %a, lower = true : tensor<3x3xcomplex<f32>> -> (tensor<3x3xcomplex<f32>>, tensor<3xf64>, tensor<2xf32>, tensor<2xcomplex<f32>>)
  return
}

// -----

func.func @householder_wide(%a: tensor<2x3xf32>, %t: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.householder_product' op needs a with at least as many rows as columns, got 'tensor<2x3xf32>'}}
  %q = mlax.householder_product %a, %t : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @householder_taus(%a: tensor<4x3xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.householder_product' op needs at most as many taus as a has columns, got 'tensor<4xf32>' for 'tensor<4x3xf32>'}}
  %q = mlax.householder_product %a, %t : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @householder_batch(%a: tensor<2x4x3xf32>, %t: tensor<3x3xf32>) {
  // expected-error @+1 {{'mlax.householder_product' op needs taus of shape [..., k] with a's batch dimensions, got 'tensor<3x3xf32>' for 'tensor<2x4x3xf32>'}}
  %q = mlax.householder_product %a, %t : (tensor<2x4x3xf32>, tensor<3x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @householder_types(%a: tensor<4x3xf32>, %t: tensor<3xf64>) {
  // expected-error @+1 {{'mlax.householder_product' op needs taus: a statically shaped tensor of a's element type, got 'tensor<3xf64>'}}
  %q = mlax.householder_product %a, %t : (tensor<4x3xf32>, tensor<3xf64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @tridiagonal_solve_diagonals(%v: tensor<4xf32>, %w: tensor<3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'mlax.tridiagonal_solve' op needs diagonals of shape [4] (b's shape without its last dimension), got du of shape [3]}}
  %x = mlax.tridiagonal_solve %v, %v, %w, %b, perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @tridiagonal_solve_b(%v: tensor<4xf32>) {
  // expected-error @+1 {{'mlax.tridiagonal_solve' op needs an array of at least 2 dimensions (shape [..., m, n]) as b, got 'tensor<4xf32>'}}
  %x = mlax.tridiagonal_solve %v, %v, %v, %v, perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @tridiagonal_solve_types(%v: tensor<4xf64>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'mlax.tridiagonal_solve' op needs dl: a statically shaped tensor of b's element type, got 'tensor<4xf64>'}}
  %x = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = false : (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}
