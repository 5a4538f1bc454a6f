// The linear-algebra derivatives mlax-autodiff refuses, with a diagnostic
// at the op: svd's singular vectors with full_matrices of a non-square
// matrix (forward mode also its singular values, as in JAX), and
// full_matrices QR of a tall matrix.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @svd_u(%a: tensor<4x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'mlax.svd' op reverse-mode derivative with full_matrices of a non-square 4x3 matrix is not implemented (as in JAX; use full_matrices = false)}}
  %s, %u, %vt = mlax.svd %a, full_matrices = true : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x4xf32>, tensor<3x3xf32>)
  return %u : tensor<4x4xf32>
}
func.func @svd_u_vjp(%a: tensor<4x3xf32>, %c: tensor<4x4xf32>) -> tensor<4x3xf32> {
  %r:2 = mlax.vjp @svd_u(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<4x3xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x3xf32>)
  return %r#1 : tensor<4x3xf32>
}

// -----

func.func private @svd_full(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlax.svd' op forward-mode derivative with full_matrices of a non-square 4x3 matrix is not implemented (as in JAX; use full_matrices = false)}}
  %s, %u, %vt = mlax.svd %a, full_matrices = true : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x4xf32>, tensor<3x3xf32>)
  return %s : tensor<3xf32>
}
func.func @svd_full_jvp(%a: tensor<4x3xf32>, %t: tensor<4x3xf32>) -> tensor<3xf32> {
  %r:2 = mlax.jvp @svd_full(%a) tangents(%t) wrt = [0] : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}

// -----

// schur (like hessenberg, tridiagonal and householder_product) has no derivative
// rule, as in JAX.
func.func private @schur(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'mlax.schur' op has no derivative rule (DifferentiableOpInterface); mlax-autodiff cannot differentiate through it}}
  %t, %q = mlax.schur %a, compute_schur_vectors = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %t : tensor<3x3xf32>
}
func.func @schur_jvp(%a: tensor<3x3xf32>, %t: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r:2 = mlax.jvp @schur(%a) tangents(%t) wrt = [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %r#1 : tensor<3x3xf32>
}
