// The decompositions on GPUs: convert-mlax-to-stablehlo{platform=cuda}
// calls the cuSOLVER kernels of jaxlib's CUDA plugin, platform=rocm the
// hipSOLVER ones, exactly as jax.lax.linalg lowers for those platforms (one
// target per routine for every element type, flags as bools). The rest of
// each lowering (NaN for failed factorizations, reflectors padded or
// sliced, the upper triangle of R) is the CPU one, checked in linalg.mlir,
// which also checks that platform=cpu (the default) calls LAPACK.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo=platform=cuda | FileCheck %s -DSOLVER=cusolver
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo=platform=rocm | FileCheck %s -DSOLVER=hipsolver
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo=platform=cuda | FileCheck %s --check-prefix=NOLAPACK
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo=platform=cuda | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOLAPACK-NOT: lapack_
// NOLAPACK-NOT: mlax.

// CHECK-LABEL: func.func @eigh(
// CHECK: %[[E:.*]]:3 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, backend_config = "", call_target_name = "[[SOLVER]]_syevd_ffi", called_computations = [], has_side_effect = false, mhlo.backend_config = {algorithm = 0 : ui8, lower = true}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>)
// CHECK: "stablehlo.compare"(%[[E]]#2, %{{.*}}) {{{.*}}comparison_direction EQ>}
// CHECK: "stablehlo.select"(%{{.*}}, %[[E]]#0, %{{.*}})
// CHECK: "stablehlo.select"(%{{.*}}, %[[E]]#1, %{{.*}})
// Complex (Hermitian) matrices use the same target; upper triangle.
// CHECK: "stablehlo.custom_call"(%arg1) {{{.*}}call_target_name = "[[SOLVER]]_syevd_ffi"{{.*}}mhlo.backend_config = {algorithm = 0 : ui8, lower = false}, mhlo.frontend_attributes = {num_batch_dims = "0"}{{.*}} : (tensor<4x4xcomplex<f64>>) -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<i32>)
func.func @eigh(%a: tensor<2x3x3xf32>, %b: tensor<4x4xcomplex<f64>>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<4xf64>) {
  %v, %w = mlax.eigh %a, lower = true : tensor<2x3x3xf32> -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
  %v2, %w2 = mlax.eigh %b, lower = false : tensor<4x4xcomplex<f64>> -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>)
  return %v, %w, %w2 : tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<4xf64>
}

// CHECK-LABEL: func.func @qr_tall_full(
// CHECK: %[[H:.*]]:2 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_geqrf_ffi"{{.*}}mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]{{.*}}result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>)
// CHECK: %[[P:.*]] = "stablehlo.pad"(%[[H]]#0, %{{.*}}) {edge_padding_high = array<i64: 0, 0, 2>
// CHECK: "stablehlo.custom_call"(%[[P]], %[[H]]#1) {{{.*}}call_target_name = "[[SOLVER]]_orgqr_ffi"{{.*}}mhlo.backend_config = {}{{.*}}operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]{{.*}} : (tensor<2x5x5xf32>, tensor<2x3xf32>) -> tensor<2x5x5xf32>
func.func @qr_tall_full(%a: tensor<2x5x3xf32>) -> (tensor<2x5x5xf32>, tensor<2x5x3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = true : tensor<2x5x3xf32> -> (tensor<2x5x5xf32>, tensor<2x5x3xf32>)
  return %q, %r : tensor<2x5x5xf32>, tensor<2x5x3xf32>
}

// Complex Q: orgqr is the one target (LAPACK's ungqr on CPU).
// CHECK-LABEL: func.func @qr_wide_complex(
// CHECK: "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_geqrf_ffi"
// CHECK: "stablehlo.custom_call"(%{{.*}}, %{{.*}}) {{{.*}}call_target_name = "[[SOLVER]]_orgqr_ffi"{{.*}} -> tensor<2x2xcomplex<f32>>
func.func @qr_wide_complex(%a: tensor<2x4xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x4xcomplex<f32>>) {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<2x4xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2x4xcomplex<f32>>)
  return %q, %r : tensor<2x2xcomplex<f32>>, tensor<2x4xcomplex<f32>>
}

// CHECK-LABEL: func.func @geqrf(
// CHECK-NEXT: %[[H:.*]]:2 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_geqrf_ffi"{{.*}} : (tensor<4x3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>)
// CHECK-NEXT: return %[[H]]#0, %[[H]]#1
func.func @geqrf(%a: tensor<4x3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>) {
  %h, %t = mlax.geqrf %a : tensor<4x3xf64> -> (tensor<4x3xf64>, tensor<3xf64>)
  return %h, %t : tensor<4x3xf64>, tensor<3xf64>
}

// cholesky symmetrizes, then potrf of the lower triangle.
// CHECK-LABEL: func.func @cholesky(
// CHECK: %[[H:.*]] = "stablehlo.divide"
// CHECK: %[[P:.*]]:2 = "stablehlo.custom_call"(%[[H]]) {{{.*}}call_target_name = "[[SOLVER]]_potrf_ffi"{{.*}}mhlo.backend_config = {lower = true}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]{{.*}}result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)
// CHECK: "stablehlo.select"(%{{.*}}, %[[P]]#0, %{{.*}})
func.func @cholesky(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %0 = mlax.cholesky %a : tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}

// Jacobi SVD up to 32x32 has no economy mode: full U and V come back, V is
// transposed into V^H and both are sliced to the reduced shapes.
// CHECK-LABEL: func.func @svd_small_reduced(
// CHECK: %[[A:.*]]:5 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_gesvdj_ffi"{{.*}}mhlo.backend_config = {compute_uv = true, full_matrices = true}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]{{.*}}result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>, tensor<2x5x5xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
// CHECK: %[[VH:.*]] = "stablehlo.transpose"(%[[A]]#3) {permutation = array<i64: 0, 2, 1>} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
// CHECK: %[[U:.*]] = "stablehlo.slice"(%[[A]]#2) {limit_indices = array<i64: 2, 5, 3>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>} : (tensor<2x5x5xf32>) -> tensor<2x5x3xf32>
// CHECK: %[[V:.*]] = "stablehlo.slice"(%[[VH]]) {limit_indices = array<i64: 2, 3, 3>
// CHECK: "stablehlo.select"(%{{.*}}, %[[A]]#1, %{{.*}})
// CHECK: "stablehlo.select"(%{{.*}}, %[[U]], %{{.*}})
// CHECK: "stablehlo.select"(%{{.*}}, %[[V]], %{{.*}})
func.func @svd_small_reduced(%a: tensor<2x5x3xf32>) -> (tensor<2x3xf32>, tensor<2x5x3xf32>, tensor<2x3x3xf32>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<2x5x3xf32> -> (tensor<2x3xf32>, tensor<2x5x3xf32>, tensor<2x3x3xf32>)
  return %s, %u, %vt : tensor<2x3xf32>, tensor<2x5x3xf32>, tensor<2x3x3xf32>
}

// Complex: V^H is the conjugate transpose.
// CHECK-LABEL: func.func @svd_complex(
// CHECK: %[[A:.*]]:5 = "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_gesvdj_ffi"{{.*}} : (tensor<3x5xcomplex<f32>>) -> (tensor<3x5xcomplex<f32>>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<i32>)
// CHECK: %[[T:.*]] = "stablehlo.transpose"(%[[A]]#3) {permutation = array<i64: 1, 0>}
// CHECK: %[[RE:.*]] = "stablehlo.real"(%[[T]]) : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
// CHECK: %[[IM:.*]] = "stablehlo.imag"(%[[T]])
// CHECK: %[[NEG:.*]] = "stablehlo.negate"(%[[IM]])
// CHECK: "stablehlo.complex"(%[[RE]], %[[NEG]]) : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xcomplex<f32>>
func.func @svd_complex(%a: tensor<3x5xcomplex<f32>>) -> (tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<5x5xcomplex<f32>>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = true : tensor<3x5xcomplex<f32>> -> (tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<5x5xcomplex<f32>>)
  return %s, %u, %vt : tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<5x5xcomplex<f32>>
}

// Above 32x32 Jacobi has an economy mode: no slices.
// CHECK-LABEL: func.func @svd_econ(
// CHECK: "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_gesvdj_ffi"{{.*}}mhlo.backend_config = {compute_uv = true, full_matrices = false}{{.*}} : (tensor<64x48xf32>) -> (tensor<64x48xf32>, tensor<48xf32>, tensor<64x48xf32>, tensor<48x48xf32>, tensor<i32>)
// CHECK-NOT: stablehlo.slice
// CHECK: return
func.func @svd_econ(%a: tensor<64x48xf32>) -> (tensor<48xf32>, tensor<64x48xf32>, tensor<48x48xf32>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<64x48xf32> -> (tensor<48xf32>, tensor<64x48xf32>, tensor<48x48xf32>)
  return %s, %u, %vt : tensor<48xf32>, tensor<64x48xf32>, tensor<48x48xf32>
}

// Above 1024, QR-iteration gesvd; a wide matrix is factored as its
// transpose: row-major layouts, U and V^H trade places.
// CHECK-LABEL: func.func @svd_large(
// CHECK: "stablehlo.custom_call"(%arg0) {{{.*}}call_target_name = "[[SOLVER]]_gesvd_ffi"{{.*}}mhlo.backend_config = {compute_uv = true, full_matrices = false, transposed = false}{{.*}}operand_layouts = [dense<[0, 1]> : tensor<2xindex>]{{.*}} : (tensor<1100x1030xf32>) -> (tensor<1100x1030xf32>, tensor<1030xf32>, tensor<1100x1030xf32>, tensor<1030x1030xf32>, tensor<i32>)
// CHECK: %[[W:.*]]:5 = "stablehlo.custom_call"(%arg1) {{{.*}}call_target_name = "[[SOLVER]]_gesvd_ffi"{{.*}}mhlo.backend_config = {compute_uv = true, full_matrices = true, transposed = true}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>]{{.*}}result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<1030x1100xf32>) -> (tensor<1030x1100xf32>, tensor<1030xf32>, tensor<1100x1100xf32>, tensor<1030x1030xf32>, tensor<i32>)
// CHECK: %[[U:.*]] = "stablehlo.select"(%{{.*}}, %[[W]]#3, %{{.*}}) : (tensor<1030x1030xi1>
// CHECK: %[[V:.*]] = "stablehlo.select"(%{{.*}}, %[[W]]#2, %{{.*}}) : (tensor<1100x1100xi1>
// CHECK: return %{{.*}}, %{{.*}}, %[[U]], %[[V]]
func.func @svd_large(%a: tensor<1100x1030xf32>, %b: tensor<1030x1100xf32>) -> (tensor<1030xf32>, tensor<1030xf32>, tensor<1030x1030xf32>, tensor<1100x1100xf32>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<1100x1030xf32> -> (tensor<1030xf32>, tensor<1100x1030xf32>, tensor<1030x1030xf32>)
  %s2, %u2, %vt2 = mlax.svd %b, full_matrices = true : tensor<1030x1100xf32> -> (tensor<1030xf32>, tensor<1030x1030xf32>, tensor<1100x1100xf32>)
  return %s, %s2, %u2, %vt2 : tensor<1030xf32>, tensor<1030xf32>, tensor<1030x1030xf32>, tensor<1100x1100xf32>
}

// triangular_solve on GPUs: stablehlo.triangular_solve, as JAX lowers it there.
// CHECK-LABEL: func.func @triangular_solve(
// CHECK: "stablehlo.triangular_solve"(%arg0, %arg1)
func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
