// A decomposition on a platform without its solver kernel is an error that
// names the op and the platform (mlax has no TPU kernels yet); an unknown
// platform name is rejected before anything is lowered.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --convert-mlax-to-stablehlo=platform=tpu
// RUN: not mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo=platform=vulkan 2>&1 | FileCheck %s --check-prefix=UNKNOWN
//
// UNKNOWN: convert-mlax-to-stablehlo: unknown platform 'vulkan' (expected cpu, cuda, rocm or tpu)

func.func @eigh(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'mlax.eigh' op has no lowering for platform 'tpu': its syevd kernel exists for cpu, cuda, rocm}}
  // expected-error @+1 {{failed to legalize operation 'mlax.eigh'}}
  %v, %w = mlax.eigh %a, lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
  return %w : tensor<3xf32>
}

// -----

func.func @cholesky(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  // expected-error @+2 {{'mlax.cholesky' op has no lowering for platform 'tpu': its potrf kernel exists for cpu, cuda, rocm}}
  // expected-error @+1 {{failed to legalize operation 'mlax.cholesky'}}
  %0 = mlax.cholesky %a : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// -----

func.func @svd(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'mlax.svd' op has no lowering for platform 'tpu': its gesdd kernel exists for cpu}}
  // expected-error @+1 {{failed to legalize operation 'mlax.svd'}}
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
  return %s : tensor<3xf32>
}

// -----

func.func @qr(%a: tensor<4x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'mlax.qr' op has no lowering for platform 'tpu': its geqrf kernel exists for cpu, cuda, rocm}}
  // expected-error @+1 {{failed to legalize operation 'mlax.qr'}}
  %q, %r = mlax.qr %a, full_matrices = false : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3x3xf32>)
  return %r : tensor<3x3xf32>
}

// -----

// Ops that need no kernel lower on any platform.
func.func @fine(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = none : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// eig has the CPU (LAPACK geev) kernel only: JAX's GPU eig runs jaxlib's
// hybrid (host LAPACK or MAGMA) kernels, which mlax does not call yet.
func.func @eig(%a: tensor<3x3xf32>) -> tensor<3xcomplex<f32>> {
  // expected-error @+2 {{'mlax.eig' op has no lowering for platform 'tpu': its geev kernel exists for cpu}}
  // expected-error @+1 {{failed to legalize operation 'mlax.eig'}}
  %w, %vl, %vr = mlax.eig %a, compute_left = false, compute_right = false : tensor<3x3xf32> -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
  return %w : tensor<3xcomplex<f32>>
}

// -----

func.func @schur(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'mlax.schur' op has no lowering for platform 'tpu': its gees kernel exists for cpu}}
  // expected-error @+1 {{failed to legalize operation 'mlax.schur'}}
  %t, %q = mlax.schur %a, compute_schur_vectors = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %t : tensor<3x3xf32>
}

// -----

func.func @tridiagonal_solve(%v: tensor<4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+2 {{'mlax.tridiagonal_solve' op has no lowering for platform 'tpu': its gtsv kernel exists for cpu}}
  // expected-error @+1 {{failed to legalize operation 'mlax.tridiagonal_solve'}}
  %x = mlax.tridiagonal_solve %v, %v, %v, %b, perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %x : tensor<4x2xf32>
}
