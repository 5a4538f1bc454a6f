// Lowering of the linear-algebra ops: triangular_solve, eigh, eig, qr, geqrf, geqp3,
// svd, lu, schur, hessenberg, tridiagonal, householder_product and
// tridiagonal_solve call jaxlib's LAPACK
// kernels as jax.numpy.linalg does on CPU (batch-major, column-major
// layouts; results of a failed factorization replaced by NaN); operands with
// no elements never reach LAPACK. cholesky as JAX lowers it on CPU.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

// LAPACK trsm, as jax.lax.linalg.triangular_solve lowers on CPU: flags as
// characters (side L/R, uplo L/U, trans_x N/T/C, diag N/U), the result in
// b's buffer.
// CHECK-LABEL: func.func @triangular_solve(
// CHECK: "stablehlo.custom_call"(%arg0, %arg1) {api_version = 1 : i32, backend_config = "", call_target_name = "lapack_strsm_ffi", called_computations = [], has_side_effect = false, mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: "stablehlo.custom_call"(%arg0, %arg2) {{{.*}}call_target_name = "lapack_strsm_ffi"{{.*}}mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}{{.*}} : (tensor<2x3x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// An empty right-hand side is a constant.
// CHECK: %[[E:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<3x0xf32>}
// CHECK: "stablehlo.custom_call"(%arg5, %arg6) {{{.*}}call_target_name = "lapack_ztrsm_ffi"{{.*}}mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>]{{.*}} : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
// CHECK: return %{{.*}}, %{{.*}}, %[[E]], %{{.*}}
func.func @triangular_solve(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>, %c: tensor<2x4x3xf32>, %z: tensor<3x0xf32>, %az: tensor<3x3xf32>, %ca: tensor<3x3xcomplex<f64>>, %cb: tensor<3x2xcomplex<f64>>) -> (tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<3x0xf32>, tensor<3x2xcomplex<f64>>) {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = none : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = mlax.triangular_solve %a, %c, left_side = false, lower = false, unit_diagonal = true,
      transpose_a = transpose : (tensor<2x3x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %2 = mlax.triangular_solve %az, %z, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = adjoint : (tensor<3x3xf32>, tensor<3x0xf32>) -> tensor<3x0xf32>
  %3 = mlax.triangular_solve %ca, %cb, left_side = true, lower = false, unit_diagonal = false,
      transpose_a = adjoint : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  return %0, %1, %2, %3 : tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<3x0xf32>, tensor<3x2xcomplex<f64>>
}

// CHECK-LABEL: func.func @eigh(
// CHECK: %[[E:.*]]:3 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_ssyevd_ffi"{{.*}}mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>)
// CHECK: %[[OK:.*]] = "stablehlo.compare"(%[[E]]#2, %{{.*}}) {{{.*}}comparison_direction EQ>}
// CHECK: %[[OKB:.*]] = "stablehlo.broadcast_in_dim"(%[[OK]]) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi1>) -> tensor<2x3x3xi1>
// CHECK: %[[NAN:.*]] = "stablehlo.constant"() {value = dense<0x7FC00000> : tensor<2x3x3xf32>}
// CHECK: "stablehlo.select"(%[[OKB]], %[[E]]#0, %[[NAN]])
// CHECK: "stablehlo.select"(%{{.*}}, %[[E]]#1, %{{.*}}) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: "stablehlo.custom_call"(%arg1) {{{.*}}call_target_name = "lapack_zheevd_ffi"{{.*}}mhlo.backend_config = {mode = 86 : ui8, uplo = 85 : ui8}{{.*}} : (tensor<4x4xcomplex<f64>>) -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<i32>)
func.func @eigh(%a: tensor<2x3x3xf32>, %b: tensor<4x4xcomplex<f64>>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<4xf64>) {
  %v, %w = mlax.eigh %a, lower = true : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
  %v2, %w2 = mlax.eigh %b, lower = false : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>)
  return %v, %w, %w2 : tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<4xf64>
}

// The reflectors geqrf leaves below R become Q through orgqr; R is the
// upper triangle of the first n rows.
// CHECK-LABEL: func.func @qr_tall(
// CHECK: %[[H:.*]]:2 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_dgeqrf_ffi"{{.*}}operand_layouts = [dense<[0, 1]> : tensor<2xindex>]{{.*}} : (tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3xf64>)
// CHECK: %[[Q:.*]] = "stablehlo.custom_call"(%[[H]]#0, %[[H]]#1) {{{.*}}call_target_name = "lapack_dorgqr_ffi"{{.*}}output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]{{.*}} : (tensor<5x3xf64>, tensor<3xf64>) -> tensor<5x3xf64>
// CHECK: %[[R:.*]] = "stablehlo.slice"(%[[H]]#0) {limit_indices = array<i64: 3, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<5x3xf64>) -> tensor<3x3xf64>
// CHECK: comparison_direction LE
// CHECK: %[[T:.*]] = "stablehlo.select"(%{{.*}}, %[[R]], %{{.*}})
// CHECK: return %[[Q]], %[[T]]
func.func @qr_tall(%a: tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3x3xf64>) {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<5x3xf64> -> (tensor<5x3xf64>, tensor<3x3xf64>)
  return %q, %r : tensor<5x3xf64>, tensor<3x3xf64>
}

// geqp3 calls LAPACK's pivoted QR with jpvt beside the matrix.
// CHECK-LABEL: func.func @geqp3(
// CHECK: %[[H:.*]]:3 = "stablehlo.custom_call"(%arg0, %arg1) {{{.*}}call_target_name = "lapack_sgeqp3_ffi"{{.*}}num_batch_dims = "1"{{.*}} : (tensor<2x5x3xf32>, tensor<2x3xi32>) -> (tensor<2x5x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>)
// CHECK: return %[[H]]#0, %[[H]]#1, %[[H]]#2
func.func @geqp3(%a: tensor<2x5x3xf32>, %p: tensor<2x3xi32>) -> (tensor<2x5x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
  %r, %jp, %t = mlax.geqp3 %a, %p : (tensor<2x5x3xf32>, tensor<2x3xi32>) -> (tensor<2x5x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>)
  return %r, %jp, %t : tensor<2x5x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>
}

// Complete Q of a tall matrix: the reflectors padded to m columns.
// CHECK-LABEL: func.func @qr_tall_full(
// CHECK: %[[H:.*]]:2 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_sgeqrf_ffi"{{.*}}num_batch_dims = "1"{{.*}}
// CHECK: %[[P:.*]] = "stablehlo.pad"(%[[H]]#0, %{{.*}}) {edge_padding_high = array<i64: 0, 0, 2>, edge_padding_low = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>} : (tensor<2x5x3xf32>, tensor<f32>) -> tensor<2x5x5xf32>
// CHECK: "stablehlo.custom_call"(%[[P]], %[[H]]#1) {{{.*}}call_target_name = "lapack_sorgqr_ffi"{{.*}}operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]{{.*}} : (tensor<2x5x5xf32>, tensor<2x3xf32>) -> tensor<2x5x5xf32>
// CHECK: "stablehlo.select"(%{{.*}}, %[[H]]#0, %{{.*}}) : (tensor<2x5x3xi1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
func.func @qr_tall_full(%a: tensor<2x5x3xf32>) -> (tensor<2x5x5xf32>, tensor<2x5x3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = true : tensor<2x5x3xf32> -> (tensor<2x5x5xf32>, tensor<2x5x3xf32>)
  return %q, %r : tensor<2x5x5xf32>, tensor<2x5x3xf32>
}

// A wide matrix: Q from the first m columns of reflectors (complex: ungqr).
// CHECK-LABEL: func.func @qr_wide(
// CHECK: %[[H:.*]]:2 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_cgeqrf_ffi"
// CHECK: %[[S:.*]] = "stablehlo.slice"(%[[H]]#0) {limit_indices = array<i64: 2, 2>{{.*}} -> tensor<2x2xcomplex<f32>>
// CHECK: "stablehlo.custom_call"(%[[S]], %[[H]]#1) {{{.*}}call_target_name = "lapack_cungqr_ffi"
func.func @qr_wide(%a: tensor<2x4xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x4xcomplex<f32>>) {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<2x4xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2x4xcomplex<f32>>)
  return %q, %r : tensor<2x2xcomplex<f32>>, tensor<2x4xcomplex<f32>>
}

// CHECK-LABEL: func.func @geqrf(
// CHECK-NEXT: %[[H:.*]]:2 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_sgeqrf_ffi"{{.*}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
// CHECK-NEXT: return %[[H]]#0, %[[H]]#1
func.func @geqrf(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
  %h, %t = mlax.geqrf %a : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3xf32>)
  return %h, %t : tensor<4x3xf32>, tensor<3xf32>
}

// gesdd's job is 'S' (83) for reduced, 'A' (65) for full matrices.
// CHECK-LABEL: func.func @svd(
// CHECK: %[[A:.*]]:5 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_sgesdd_ffi"{{.*}}mhlo.backend_config = {mode = 83 : ui8}{{.*}}result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>, tensor<i32>)
// CHECK: "stablehlo.select"(%{{.*}}, %[[A]]#1, %{{.*}}) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: "stablehlo.select"(%{{.*}}, %[[A]]#2, %{{.*}}) : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: "stablehlo.select"(%{{.*}}, %[[A]]#3, %{{.*}}) : (tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK: "stablehlo.custom_call"(%arg1) {{{.*}}call_target_name = "lapack_dgesdd_ffi"{{.*}}mhlo.backend_config = {mode = 65 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}{{.*}} : (tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2x3xf64>, tensor<2x3x3xf64>, tensor<2x4x4xf64>, tensor<2xi32>)
func.func @svd(%a: tensor<4x3xf32>, %b: tensor<2x3x4xf64>) -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>, tensor<2x3x3xf64>, tensor<2x4x4xf64>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
  %s2, %u2, %vt2 = mlax.svd %b, full_matrices = true : tensor<2x3x4xf64> -> (tensor<2x3xf64>, tensor<2x3x3xf64>, tensor<2x4x4xf64>)
  return %s, %u, %vt, %u2, %vt2 : tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>, tensor<2x3x3xf64>, tensor<2x4x4xf64>
}

// No elements: no LAPACK call; identity-like q and u, zero r and s.
// CHECK-LABEL: func.func @empty(
// CHECK-NOT: custom_call
// CHECK: comparison_direction EQ
// CHECK: return
func.func @empty(%a: tensor<3x0xf32>) -> (tensor<3x3xf32>, tensor<3x0xf32>, tensor<0xf32>, tensor<3x3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = true : tensor<3x0xf32> -> (tensor<3x3xf32>, tensor<3x0xf32>)
  %s, %u, %vt = mlax.svd %a, full_matrices = true : tensor<3x0xf32> -> (tensor<0xf32>, tensor<3x3xf32>, tensor<0x0xf32>)
  return %q, %r, %s, %u : tensor<3x3xf32>, tensor<3x0xf32>, tensor<0xf32>, tensor<3x3xf32>
}

// CHECK-LABEL: func.func @cholesky(
// CHECK: %[[T:.*]] = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>}
// CHECK: %[[S:.*]] = "stablehlo.add"(%arg0, %[[T]])
// CHECK: %[[H:.*]] = "stablehlo.divide"(%[[S]], %{{.*}})
// CHECK: %[[P:.*]]:2 = "stablehlo.custom_call"(%[[H]]) {{{.*}}call_target_name = "lapack_dpotrf_ffi"{{.*}}mhlo.backend_config = {uplo = 76 : ui8}{{.*}}} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
// CHECK: "stablehlo.compare"(%[[P]]#1, %{{.*}}) {{{.*}}comparison_direction EQ>}
// CHECK: "stablehlo.select"(%{{.*}}, %[[P]]#0, %{{.*}})
// CHECK: comparison_direction GE
// CHECK: "stablehlo.select"
func.func @cholesky(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = mlax.cholesky %a : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// Complex: the Hermitian part (a + conj(a^T)) / 2, factored by zpotrf.
// CHECK-LABEL: func.func @cholesky_complex(
// CHECK: %[[T:.*]] = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>}
// CHECK: %[[IM:.*]] = "stablehlo.imag"(%[[T]])
// CHECK: %[[NIM:.*]] = "stablehlo.negate"(%[[IM]])
// CHECK: %[[RE:.*]] = "stablehlo.real"(%[[T]])
// CHECK: %[[C:.*]] = "stablehlo.complex"(%[[RE]], %[[NIM]]) : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xcomplex<f64>>
// CHECK: %[[S:.*]] = "stablehlo.add"(%arg0, %[[C]])
// CHECK: "stablehlo.custom_call"({{.*}}call_target_name = "lapack_zpotrf_ffi"{{.*}} : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<i32>)
func.func @cholesky_complex(%a: tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>> {
  %0 = mlax.cholesky %a : tensor<3x3xcomplex<f64>>
  return %0 : tensor<3x3xcomplex<f64>>
}

// A batch of matrices: LAPACK's batch dimensions lead, the layouts keep each
// matrix column-major, and the per-matrix status broadcasts over its matrix.
// CHECK-LABEL: func.func @cholesky_batched(
// CHECK: "stablehlo.transpose"(%arg0) {permutation = array<i64: 0, 2, 1>}
// CHECK: "stablehlo.custom_call"({{.*}}mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]{{.*}}result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)
// CHECK: "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi1>) -> tensor<2x3x3xi1>
// CHECK: "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3x3xi32>
// CHECK: "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x3x3xi32>
func.func @cholesky_batched(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %0 = mlax.cholesky %a : tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}

//===----------------------------------------------------------------------===//
// dot_general: #stablehlo.dot without its empty fields
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dot_general_matmul(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.dot_general"(%[[A]], %[[B]]) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: return %[[R]]
func.func @dot_general_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_batched(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
func.func @dot_general_batched(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_vector_dot(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
func.func @dot_general_vector_dot(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dot_general_outer(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<>} : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
func.func @dot_general_outer(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [] x [] : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @dot_general_batch_only(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>} : (tensor<5x3xf32>, tensor<5x4xf32>) -> tensor<5x3x4xf32>
func.func @dot_general_batch_only(%a: tensor<5x3xf32>, %b: tensor<5x4xf32>) -> tensor<5x3x4xf32> {
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [] x [] : (tensor<5x3xf32>, tensor<5x4xf32>) -> tensor<5x3x4xf32>
  return %0 : tensor<5x3x4xf32>
}

// CHECK-LABEL: func.func @dot_general_preferred_type(
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
func.func @dot_general_preferred_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// lu: getrf as jax.lax.linalg.lu calls it on CPU; its 1-based pivots made
// 0-based, NaNs where info < 0, then a loop of row swaps over the pivots
// gives the permutation.
// CHECK-LABEL: func.func @lu(
// CHECK: %[[F:.*]]:3 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, backend_config = "", call_target_name = "lapack_sgetrf_ffi", called_computations = [], has_side_effect = false, mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
// CHECK: %[[ONE:.*]] = "stablehlo.constant"() {value = dense<1> : tensor<2x3xi32>}
// CHECK: %[[PIV:.*]] = "stablehlo.subtract"(%[[F]]#1, %[[ONE]])
// CHECK: %[[OK:.*]] = "stablehlo.compare"(%[[F]]#2, %{{.*}}) {{{.*}}comparison_direction = #stablehlo<comparison_direction GE>}
// CHECK: %[[OKALL:.*]] = "stablehlo.broadcast_in_dim"(%[[OK]]) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi1>) -> tensor<2x4x3xi1>
// CHECK: %[[LU:.*]] = "stablehlo.select"(%[[OKALL]], %[[F]]#0, %{{.*}})
// CHECK: %[[IOTA:.*]] = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x4xi32>
// CHECK: %[[LOOP:.*]]:3 = "stablehlo.while"(%{{.*}}, %[[PIV]], %[[IOTA]])
// CHECK: "stablehlo.dynamic_slice"
// CHECK: "stablehlo.reduce"
// CHECK: return %[[LU]], %[[PIV]], %[[LOOP]]#2
func.func @lu(%a: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2x4xi32>) {
  %lu, %piv, %perm = mlax.lu %a : tensor<2x4x3xf32> -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2x4xi32>)
  return %lu, %piv, %perm : tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2x4xi32>
}

// CHECK-LABEL: func.func @lu_complex(
// CHECK: "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_zgetrf_ffi"{{.*}}num_batch_dims = "0"{{.*}}result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xi32>, tensor<i32>)
// CHECK: "stablehlo.while"
func.func @lu_complex(%a: tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xi32>) {
  %lu, %piv, %perm = mlax.lu %a : tensor<3x3xcomplex<f64>> -> (tensor<3x3xcomplex<f64>>, tensor<3xi32>, tensor<3xi32>)
  return %lu, %perm : tensor<3x3xcomplex<f64>>, tensor<3xi32>
}

// No elements: no LAPACK call and no swaps.
// CHECK-LABEL: func.func @lu_empty(
// CHECK-NOT: custom_call
// CHECK-NOT: stablehlo.while
// CHECK: %[[P:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<0xi32>}
// CHECK: %[[I:.*]] = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xi32>
// CHECK: return %arg0, %[[P]], %[[I]]
func.func @lu_empty(%a: tensor<3x0xf32>) -> (tensor<3x0xf32>, tensor<0xi32>, tensor<3xi32>) {
  %lu, %piv, %perm = mlax.lu %a : tensor<3x0xf32> -> (tensor<3x0xf32>, tensor<0xi32>, tensor<3xi32>)
  return %lu, %piv, %perm : tensor<3x0xf32>, tensor<0xi32>, tensor<3xi32>
}

// eig: geev as jax.lax.linalg.eig calls it on CPU (no buffer aliasing; jobvl
// and jobvr 'V' (86) or 'N' (78)). Real input: the kernel returns the real
// and imaginary parts of the eigenvalues, combined here, and complex
// eigenvectors. Every result is NaN where info != 0; eigenvectors not asked
// for are zeros.
// CHECK-LABEL: func.func @eig(
// CHECK: %[[E:.*]]:5 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, backend_config = "", call_target_name = "lapack_sgeev_ffi", called_computations = [], has_side_effect = false, mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2xi32>)
// CHECK: %[[W:.*]] = "stablehlo.complex"(%[[E]]#0, %[[E]]#1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
// CHECK-DAG: "stablehlo.compare"(%[[E]]#4, %{{.*}}) {{{.*}}comparison_direction EQ>}
// CHECK-DAG: %[[Z:.*]] = "stablehlo.constant"() {value = dense<(0.000000e+00,0.000000e+00)> : tensor<2x3x3xcomplex<f32>>}
// CHECK-DAG: "stablehlo.constant"() {value = dense<(0x7FC00000,0x7FC00000)> : tensor<2x3x3xcomplex<f32>>}
// CHECK-DAG: %[[VR:.*]] = "stablehlo.select"(%{{.*}}, %[[E]]#3, %{{.*}}) : (tensor<2x3x3xi1>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>)
// CHECK-DAG: %[[WN:.*]] = "stablehlo.select"(%{{.*}}, %[[W]], %{{.*}}) : (tensor<2x3xi1>, tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>)
// CHECK: return %[[WN]], %[[Z]], %[[VR]]
// Complex input: one eigenvalue result.
// CHECK-LABEL: func.func @eig_complex(
// CHECK: %[[C:.*]]:4 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_zgeev_ffi"{{.*}}mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}{{.*}} : (tensor<4x4xcomplex<f64>>) -> (tensor<4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<i32>)
// CHECK-DAG: "stablehlo.select"(%{{.*}}, %[[C]]#0, %{{.*}})
// CHECK-DAG: "stablehlo.select"(%{{.*}}, %[[C]]#1, %{{.*}})
// An empty matrix never reaches LAPACK.
// CHECK-NOT: stablehlo.custom_call
// CHECK: return
func.func @eig(%a: tensor<2x3x3xf32>)
    -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>) {
  %w, %vl, %vr = mlax.eig %a, compute_left = false, compute_right = true
      : tensor<2x3x3xf32> -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>)
  return %w, %vl, %vr : tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>
}

func.func @eig_complex(%b: tensor<4x4xcomplex<f64>>, %z: tensor<0x0xf64>)
    -> (tensor<4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<0xcomplex<f64>>) {
  %w, %vl, %vr = mlax.eig %b, compute_left = true, compute_right = false
      : tensor<4x4xcomplex<f64>> -> (tensor<4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>)
  %w0, %vl0, %vr0 = mlax.eig %z, compute_left = true, compute_right = true
      : tensor<0x0xf64> -> (tensor<0xcomplex<f64>>, tensor<0x0xcomplex<f64>>, tensor<0x0xcomplex<f64>>)
  return %w, %vl, %w0 : tensor<4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<0xcomplex<f64>>
}

// schur: gees as jax.lax.linalg.schur calls it on CPU (jobvs 'V' (86) or
// 'N' (78), no sorting (sort 'N')). For real input the kernel also returns
// the eigenvalues' real and imaginary parts; then the number of selected
// eigenvalues and info. NaNs where info != 0; Schur vectors not asked for
// are zeros.
// CHECK-LABEL: func.func @schur(
// CHECK: %[[ZQ:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<2x3x3xf32>}
// CHECK: %[[S:.*]]:6 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, backend_config = "", call_target_name = "lapack_sgees_ffi", called_computations = [], has_side_effect = false, mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>)
// CHECK: "stablehlo.compare"(%[[S]]#5, %{{.*}}) {{{.*}}comparison_direction EQ>}
// CHECK: %[[T:.*]] = "stablehlo.select"(%{{.*}}, %[[S]]#0, %{{.*}})
// CHECK: %[[Q:.*]] = "stablehlo.select"(%{{.*}}, %[[S]]#1, %{{.*}})
// CHECK: %[[Z0:.*]] = "stablehlo.constant"() {value = dense<(0.000000e+00,0.000000e+00)> : tensor<4x4xcomplex<f64>>}
// CHECK: %[[C:.*]]:5 = "stablehlo.custom_call"(%arg1) {{{.*}}call_target_name = "lapack_zgees_ffi"{{.*}}mhlo.backend_config = {mode = 78 : ui8, sort = 78 : ui8}{{.*}} : (tensor<4x4xcomplex<f64>>) -> (tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<4xcomplex<f64>>, tensor<i32>, tensor<i32>)
// CHECK: %[[T2:.*]] = "stablehlo.select"(%{{.*}}, %[[C]]#0, %{{.*}})
// CHECK: return %[[T]], %[[Q]], %[[T2]], %[[Z0]]
func.func @schur(%a: tensor<2x3x3xf32>, %c: tensor<4x4xcomplex<f64>>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>) {
  %t, %q = mlax.schur %a, compute_schur_vectors = true : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>)
  %t2, %q2 = mlax.schur %c, compute_schur_vectors = false : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>)
  return %t, %q, %t2, %q2 : tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>
}

// hessenberg: gehrd with ilo = 1, ihi = n, as jax.lax.linalg.hessenberg.
// CHECK-LABEL: func.func @hessenberg(
// CHECK: %[[H:.*]]:3 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_dgehrd_ffi"{{.*}}mhlo.backend_config = {high = 4 : i32, low = 1 : i32}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x4x4xf64>) -> (tensor<2x4x4xf64>, tensor<2x3xf64>, tensor<2xi32>)
// CHECK: "stablehlo.select"(%{{.*}}, %[[H]]#0, %{{.*}})
// CHECK: "stablehlo.select"(%{{.*}}, %[[H]]#1, %{{.*}}) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
func.func @hessenberg(%a: tensor<2x4x4xf64>) -> (tensor<2x4x4xf64>, tensor<2x3xf64>) {
  %h, %t = mlax.hessenberg %a : tensor<2x4x4xf64> -> (tensor<2x4x4xf64>, tensor<2x3xf64>)
  return %h, %t : tensor<2x4x4xf64>, tensor<2x3xf64>
}

// tridiagonal: sytrd (hetrd for complex) with uplo 'L' (76) or 'U' (85);
// every result NaN where info != 0.
// CHECK-LABEL: func.func @tridiagonal(
// CHECK: %[[R:.*]]:5 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "lapack_ssytrd_ffi"{{.*}}mhlo.backend_config = {uplo = 85 : ui8}{{.*}}result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi32>)
// CHECK-COUNT-4: "stablehlo.select"
// CHECK: "stablehlo.custom_call"(%arg1) {{{.*}}call_target_name = "lapack_chetrd_ffi"{{.*}}mhlo.backend_config = {uplo = 76 : ui8}{{.*}} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<i32>)
func.func @tridiagonal(%a: tensor<2x3x3xf32>, %c: tensor<3x3xcomplex<f32>>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %r, %d, %e, %t = mlax.tridiagonal %a, lower = false : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %r2, %d2, %e2, %t2 = mlax.tridiagonal %c, lower = true : tensor<3x3xcomplex<f32>> -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>)
  return %d, %e2 : tensor<2x3xf32>, tensor<2xf32>
}

// householder_product: orgqr (ungqr for complex), the result in a's buffer.
// CHECK-LABEL: func.func @householder_product(
// CHECK: %[[P:.*]] = "stablehlo.custom_call"(%arg0, %arg1) {{{.*}}call_target_name = "lapack_cungqr_ffi"{{.*}}mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<4x3xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
// CHECK: return %[[P]]
func.func @householder_product(%a: tensor<4x3xcomplex<f32>>, %t: tensor<2xcomplex<f32>>) -> tensor<4x3xcomplex<f32>> {
  %q = mlax.householder_product %a, %t : (tensor<4x3xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  return %q : tensor<4x3xcomplex<f32>>
}

// tridiagonal_solve: gtsv (which also returns its overwritten diagonals),
// NaN where info != 0; with perturb_singular jaxlib's own kernel, which
// reports no status.
// CHECK-LABEL: func.func @tridiagonal_solve(
// CHECK: %[[G:.*]]:5 = "stablehlo.custom_call"(%arg0, %arg0, %arg0, %arg1) {{{.*}}call_target_name = "lapack_dgtsv_ffi"{{.*}}mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>]{{.*}} : (tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4x3xf64>) -> (tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4x3xf64>, tensor<2xi32>)
// CHECK: %[[X:.*]] = "stablehlo.select"(%{{.*}}, %[[G]]#3, %{{.*}})
// CHECK: %[[Y:.*]] = "stablehlo.custom_call"(%arg0, %arg0, %arg0, %arg1) {{{.*}}call_target_name = "tridiagonal_solve_perturbed_ffi"{{.*}}output_operand_aliases = []{{.*}} : (tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
// CHECK: return %[[X]], %[[Y]]
func.func @tridiagonal_solve(%v: tensor<2x4xf64>, %b: tensor<2x4x3xf64>) -> (tensor<2x4x3xf64>, tensor<2x4x3xf64>) {
  %x = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = false : (tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
  %y = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = true : (tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
  return %x, %y : tensor<2x4x3xf64>, tensor<2x4x3xf64>
}

// Operands with no elements never reach LAPACK.
// CHECK-LABEL: func.func @reductions_empty(
// CHECK-NOT: custom_call
// CHECK: return
func.func @reductions_empty(%a: tensor<0x3x3xf32>, %h: tensor<0x4x3xf32>, %t: tensor<0x3xf32>, %v: tensor<0xf32>, %b: tensor<0x2xf32>) -> (tensor<0x3x3xf32>, tensor<0x3x3xf32>, tensor<0x2xf32>, tensor<0x3xf32>, tensor<0x4x3xf32>, tensor<0x2xf32>) {
  %s, %q = mlax.schur %a, compute_schur_vectors = true : tensor<0x3x3xf32> -> (tensor<0x3x3xf32>, tensor<0x3x3xf32>)
  %hh, %ht = mlax.hessenberg %a : tensor<0x3x3xf32> -> (tensor<0x3x3xf32>, tensor<0x2xf32>)
  %r, %d, %e, %tt = mlax.tridiagonal %a, lower = true : tensor<0x3x3xf32> -> (tensor<0x3x3xf32>, tensor<0x3xf32>, tensor<0x2xf32>, tensor<0x2xf32>)
  %p = mlax.householder_product %h, %t : (tensor<0x4x3xf32>, tensor<0x3xf32>) -> tensor<0x4x3xf32>
  %x = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = false : (tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0x2xf32>) -> tensor<0x2xf32>
  return %s, %q, %ht, %d, %p, %x : tensor<0x3x3xf32>, tensor<0x3x3xf32>, tensor<0x2xf32>, tensor<0x3xf32>, tensor<0x4x3xf32>, tensor<0x2xf32>
}
