//===- MlaxLinalgOps.td - linear algebra ----------------------------------===//
//
// dot_general, cholesky, triangular_solve, eigh, eig, qr, geqrf, geqp3, svd, lu, schur,
// hessenberg, tridiagonal, householder_product and tridiagonal_solve. Every op
// works on matrices in the two trailing dimensions; leading dimensions are a
// batch. Each op infers its result types (InferTypeOpAdaptor); shape rules,
// verifiers, derivative and batching rules: MlaxLinalgOps.cpp;
// lowerings: ConvertLinalgOps.cpp (stablehlo.triangular_solve, and
// jaxlib's LAPACK kernels potrf, syevd/heevd, geev, geqrf (+ orgqr/ungqr), gesdd, getrf,
// gees, gehrd, sytrd/hetrd and gtsv, the
// calls jax.numpy.linalg makes on CPU).
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_LINALG_OPS_TD
#define MLAX_LINALG_OPS_TD

// f32, f64, complex<f32>, complex<f64>: the types LAPACK has kernels for.
def Mlax_LinalgTensor : StaticShapeTensorOf<[F32, F64, Complex<F32>, Complex<F64>]>;
def Mlax_LinalgRealTensor : StaticShapeTensorOf<[F32, F64]>;
def Mlax_LinalgComplexTensor : StaticShapeTensorOf<[Complex<F32>, Complex<F64>]>;

def Mlax_CholeskyOp : Mlax_Op<"cholesky", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                           Mlax_Batching]> {
  let summary = "lower Cholesky factor of a Hermitian positive definite matrix";
  let description = [{
    Uses the lower triangle of `(a + a^H) / 2` (`a^H` the conjugate
    transpose; leading dimensions are a batch); the upper triangle of the
    result is zero, and a matrix that is not positive definite gives NaNs.
    ```mlir
    %l = mlax.cholesky %a : tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand);
  let results = (outs Mlax_LinalgTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Mlax_TransposeKind : I32EnumAttr<"TransposeKind",
    "how `mlax.triangular_solve` applies its matrix", [
      I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Transpose", 1, "transpose">,
      I32EnumAttrCase<"Adjoint", 2, "adjoint">]> {
  let cppNamespace = "::mlir::mlax";
}

def Mlax_TriangularSolveOp : Mlax_Op<"triangular_solve",
    [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
  let summary = "solve op(a) x = b (left side) or x op(a) = b for triangular a";
  let description = [{
    `a` is `[..., m, m]`; only its `lower` (or upper) triangle is read, and
    with `unit_diagonal` its diagonal is taken to be ones. `b` is
    `[..., m, n]` when solving on the left and `[..., n, m]` on the right;
    the batch dimensions of `a` and `b` agree. `op(a)` is `a`, its transpose
    or its conjugate transpose (lax.linalg.triangular_solve).
    ```mlir
    %x = mlax.triangular_solve %a, %b, left_side = true, lower = true,
        unit_diagonal = false, transpose_a = none
        : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$a, Mlax_LinalgTensor:$b, BoolAttr:$left_side,
                       BoolAttr:$lower, BoolAttr:$unit_diagonal,
                       Mlax_TransposeKind:$transpose_a);
  let results = (outs Mlax_LinalgTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` `left_side` `=` $left_side `,` `lower` `=` $lower `,`
    `unit_diagonal` `=` $unit_diagonal `,` `transpose_a` `=` $transpose_a
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mlax_EighOp : Mlax_Op<"eigh", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                   Mlax_Batching]> {
  let summary = "eigenvectors and eigenvalues of a symmetric (Hermitian) matrix";
  let description = [{
    Reads the `lower` (or upper) triangle of `[..., n, n]` and returns the
    eigenvectors as the columns of a `[..., n, n]` matrix and the real
    eigenvalues `[..., n]` in ascending order (lax.linalg.eigh). Where LAPACK
    fails, both results are NaN.
    ```mlir
    %v, %w = mlax.eigh %a, lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, BoolAttr:$lower);
  let results = (outs Mlax_LinalgTensor:$vectors, Mlax_LinalgRealTensor:$values);
  let assemblyFormat = [{
    $operand `,` `lower` `=` $lower attr-dict `:` type($operand) `->`
    `(` type($vectors) `,` type($values) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_EigOp : Mlax_Op<"eig", [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "eigenvalues and eigenvectors of a general (nonsymmetric) matrix";
  let description = [{
    For `[..., n, n]` (real or complex): the eigenvalues `w` `[..., n]` and
    the left and right eigenvectors `vl`, `vr` `[..., n, n]` as columns
    (`vl^H a = w vl^H`, `a vr = w vr`), all complex, in LAPACK geev's order
    and normalisation: each vector has unit 2-norm and its largest component
    is real (lax.linalg.eig). `vl` is computed only with `compute_left` and
    `vr` only with `compute_right`; one not computed is zero. Where LAPACK
    fails, the results are NaN. Not differentiable (JAX differentiates it
    through its own rule, which mlax does not have yet).
    ```mlir
    %w, %vl, %vr = mlax.eig %a, compute_left = true, compute_right = true
        : tensor<3x3xf32> -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>,
                              tensor<3x3xcomplex<f32>>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, BoolAttr:$compute_left,
                       BoolAttr:$compute_right);
  let results = (outs Mlax_LinalgComplexTensor:$w, Mlax_LinalgComplexTensor:$vl,
                      Mlax_LinalgComplexTensor:$vr);
  let assemblyFormat = [{
    $operand `,` `compute_left` `=` $compute_left `,` `compute_right` `=` $compute_right
    attr-dict `:` type($operand) `->` `(` type($w) `,` type($vl) `,` type($vr) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_QrOp : Mlax_Op<"qr", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                               Mlax_Batching]> {
  let summary = "QR decomposition by Householder reflections";
  let description = [{
    For `[..., m, n]` with `k = min(m, n)`: `q` is `[..., m, k]` and `r`
    `[..., k, n]`, or `[..., m, m]` and `[..., m, n]` with `full_matrices`
    (lax.linalg.qr). `q` has orthonormal columns and `r` is upper
    triangular; the signs are LAPACK's (geqrf), so `r`'s diagonal may be
    negative.
    ```mlir
    %q, %r = mlax.qr %a, full_matrices = false
        : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3x3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, BoolAttr:$full_matrices);
  let results = (outs Mlax_LinalgTensor:$q, Mlax_LinalgTensor:$r);
  let assemblyFormat = [{
    $operand `,` `full_matrices` `=` $full_matrices attr-dict `:` type($operand) `->`
    `(` type($q) `,` type($r) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_SvdOp : Mlax_Op<"svd", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                 Mlax_Batching]> {
  let summary = "singular value decomposition a = u diag(s) vt";
  let description = [{
    For `[..., m, n]` with `k = min(m, n)`: the singular values `s`
    `[..., k]` (real, descending), `u` `[..., m, k]` and `vt` `[..., k, n]`,
    or `[..., m, m]` and `[..., n, n]` with `full_matrices`
    (lax.linalg.svd). Where LAPACK fails, the results are NaN. Derivatives
    cover every result, of real and complex matrices (not `u`/`vt` with
    `full_matrices` of a non-square matrix, as in JAX).
    ```mlir
    %s, %u, %vt = mlax.svd %a, full_matrices = false
        : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, BoolAttr:$full_matrices);
  let results = (outs Mlax_LinalgRealTensor:$s, Mlax_LinalgTensor:$u,
                      Mlax_LinalgTensor:$vt);
  let assemblyFormat = [{
    $operand `,` `full_matrices` `=` $full_matrices attr-dict `:` type($operand) `->`
    `(` type($s) `,` type($u) `,` type($vt) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_GeqrfOp : Mlax_Op<"geqrf", [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "QR decomposition in LAPACK's compact Householder form";
  let description = [{
    For `[..., m, n]`: `r` holds R in its upper triangle and the Householder
    vectors below it, `taus` `[..., min(m, n)]` their scale factors
    (lax.linalg.geqrf). Not differentiable (as in JAX); `mlax.qr` is.
    ```mlir
    %h, %taus = mlax.geqrf %a : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand);
  let results = (outs Mlax_LinalgTensor:$r, Mlax_LinalgTensor:$taus);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `->` `(` type($r) `,` type($taus) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_Geqp3Op : Mlax_Op<"geqp3", [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "QR decomposition with column pivoting, compact Householder form";
  let description = [{
    LAPACK geqp3 on `[..., m, n]`: `r` as geqrf's (R in its upper triangle,
    the Householder vectors below it), `taus` `[..., min(m, n)]`, and
    `jpvt_out` `[..., n]` the 1-based columns of `a` in the order factored
    (`a[..., jpvt_out - 1] = Q R`). A nonzero `jpvt` entry fixes that column
    to the front, as in LAPACK (jax's internal geqp3; `qr(pivoting=True)`
    passes zeros). Not differentiable, as in JAX.
    ```mlir
    %r, %p, %taus = mlax.geqp3 %a, %jpvt : (tensor<4x3xf32>, tensor<3xi32>)
        -> (tensor<4x3xf32>, tensor<3xi32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, StaticShapeTensorOf<[I32]>:$jpvt);
  let results = (outs Mlax_LinalgTensor:$r, StaticShapeTensorOf<[I32]>:$jpvt_out,
                      Mlax_LinalgTensor:$taus);
  let assemblyFormat = [{
    $operand `,` $jpvt attr-dict `:` `(` type($operand) `,` type($jpvt) `)` `->`
    `(` type($r) `,` type($jpvt_out) `,` type($taus) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_LuOp : Mlax_Op<"lu", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                               Mlax_Batching]> {
  let summary = "LU decomposition with partial pivoting, P a = L U";
  let description = [{
    For `[..., m, n]` with `k = min(m, n)`: `lu` `[..., m, n]` holds L
    (unit diagonal, not stored) below its diagonal and U on and above it;
    `pivots` `[..., k]` the row swapped with row `i` at step `i` (LAPACK's
    getrf, 0-based); `permutation` `[..., m]` the rows of `a` in the order
    of `l @ u` (lax.linalg.lu). A singular matrix still factors (U has a
    zero on its diagonal), as in LAPACK and JAX.
    ```mlir
    %lu, %pivots, %perm = mlax.lu %a
        : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand);
  let results = (outs Mlax_LinalgTensor:$lu, StaticShapeTensorOf<[I32]>:$pivots,
                      StaticShapeTensorOf<[I32]>:$permutation);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `->`
    `(` type($lu) `,` type($pivots) `,` type($permutation) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_SchurOp : Mlax_Op<"schur", [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "Schur decomposition a = q t q^H";
  let description = [{
    For `[..., n, n]`: the Schur form `t` (upper triangular for complex
    input; quasi upper triangular, with 2x2 blocks for complex conjugate
    eigenvalue pairs, for real input) and the unitary Schur vectors `q`
    (LAPACK gees, unsorted; lax.linalg.schur). Without
    `compute_schur_vectors`, `q` is zero. Where LAPACK fails, the results
    are NaN. Not differentiable (as in JAX).
    ```mlir
    %t, %q = mlax.schur %a, compute_schur_vectors = true
        : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3x3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, BoolAttr:$compute_schur_vectors);
  let results = (outs Mlax_LinalgTensor:$t, Mlax_LinalgTensor:$q);
  let assemblyFormat = [{
    $operand `,` `compute_schur_vectors` `=` $compute_schur_vectors attr-dict `:`
    type($operand) `->` `(` type($t) `,` type($q) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_HessenbergOp : Mlax_Op<"hessenberg", [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "reduction to upper Hessenberg form by Householder reflections";
  let description = [{
    For `[..., n, n]`: `h` holds the Hessenberg matrix on and above the
    first subdiagonal and the Householder vectors below it, `taus`
    `[..., n - 1]` their scale factors (LAPACK gehrd; lax.linalg.hessenberg).
    Where LAPACK fails, the results are NaN. Not differentiable (as in JAX).
    ```mlir
    %h, %taus = mlax.hessenberg %a : tensor<4x4xf32> -> (tensor<4x4xf32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand);
  let results = (outs Mlax_LinalgTensor:$h, Mlax_LinalgTensor:$taus);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `->` `(` type($h) `,` type($taus) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_TridiagonalOp : Mlax_Op<"tridiagonal", [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "reduction of a symmetric (Hermitian) matrix to tridiagonal form";
  let description = [{
    Reads the `lower` (or upper) triangle of `[..., n, n]` (n >= 1): `r`
    holds the tridiagonal matrix on the diagonal and the first sub- (super-)
    diagonal and the Householder vectors beyond it, `d` `[..., n]` the
    diagonal and `e` `[..., n - 1]` the off-diagonal (both real), `taus`
    `[..., n - 1]` the reflectors' scale factors (LAPACK sytrd/hetrd;
    lax.linalg.tridiagonal). Where LAPACK fails, the results are NaN. Not
    differentiable (as in JAX).
    ```mlir
    %r, %d, %e, %taus = mlax.tridiagonal %a, lower = true
        : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xf32>)
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$operand, BoolAttr:$lower);
  let results = (outs Mlax_LinalgTensor:$r, Mlax_LinalgRealTensor:$d,
                      Mlax_LinalgRealTensor:$e, Mlax_LinalgTensor:$taus);
  let assemblyFormat = [{
    $operand `,` `lower` `=` $lower attr-dict `:` type($operand) `->`
    `(` type($r) `,` type($d) `,` type($e) `,` type($taus) `)`
  }];
  let hasVerifier = 1;
}

def Mlax_HouseholderProductOp : Mlax_Op<"householder_product",
    [Pure, InferTypeOpAdaptor, Mlax_Batching]> {
  let summary = "product of elementary Householder reflectors";
  let description = [{
    For `a` `[..., m, n]` (m >= n) holding Householder vectors below its
    diagonal and `taus` `[..., k]` (k <= n): the first `n` columns of
    `H_1 ... H_k` (LAPACK orgqr/ungqr; lax.linalg.householder_product).
    Not differentiable (as in JAX).
    ```mlir
    %q = mlax.householder_product %a, %taus
        : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$a, Mlax_LinalgTensor:$taus);
  let results = (outs Mlax_LinalgTensor:$result);
  let assemblyFormat = "$a `,` $taus attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Mlax_TridiagonalSolveOp : Mlax_Op<"tridiagonal_solve",
    [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
  let summary = "solve a tridiagonal system a x = b";
  let description = [{
    `a` is given by its diagonals `dl` (below; `dl[0]` is not read), `d`
    and `du` (above; `du[m - 1]` is not read), each `[..., m]`; `b` is
    `[..., m, n]` (LAPACK gtsv, partial pivoting;
    lax.linalg.tridiagonal_solve). A singular matrix gives NaNs, unless
    `perturb_singular`: then tiny pivots are perturbed so the result is
    finite (jaxlib's own kernel, as JAX's `perturb_singular=True`).
    ```mlir
    %x = mlax.tridiagonal_solve %dl, %d, %du, %b, perturb_singular = false
        : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins Mlax_LinalgTensor:$dl, Mlax_LinalgTensor:$d, Mlax_LinalgTensor:$du,
                       Mlax_LinalgTensor:$b, BoolAttr:$perturb_singular);
  let results = (outs Mlax_LinalgTensor:$result);
  let assemblyFormat = [{
    $dl `,` $d `,` $du `,` $b `,` `perturb_singular` `=` $perturb_singular attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

def Mlax_DotGeneralOp : Mlax_Op<"dot_general", [Pure, InferTypeOpAdaptor, Mlax_Derivative,
                                                 Mlax_Batching]> {
  let hasFolder = 1;
  let summary = "generalised matrix product (lax.dot_general)";
  let description = [{
    The result's dimensions are the batch dimensions, then the lhs free
    dimensions, then the rhs free dimensions. Its element type is the
    operands', or `preferred_element_type` (lax.dot_general's), a type of
    the same kind (integer, float or complex) to accumulate and return in,
    e.g. i32 for i8 operands. The custom form states it as the result's
    element type.
    ```mlir
    %c = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0]
        : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %d = mlax.dot_general %i, %j, batch = [] x [], contract = [1] x [0]
        : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
    ```
  }];
  let arguments = (ins Mlax_Tensor:$lhs, Mlax_Tensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions,
                       OptionalAttr<TypeAttr>:$preferred_element_type);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `batch` `=` $lhs_batching_dimensions `x` $rhs_batching_dimensions
    `,` `contract` `=` $lhs_contracting_dimensions `x` $rhs_contracting_dimensions
    attr-dict `:` custom<DotTypes>(type($lhs), type($rhs), type($result),
                                   $preferred_element_type)
  }];
  let builders = [
    // A product in the operands' element type.
    OpBuilder<(ins "Type":$result, "Value":$lhs, "Value":$rhs,
                   "ArrayRef<int64_t>":$lhs_batching_dimensions,
                   "ArrayRef<int64_t>":$rhs_batching_dimensions,
                   "ArrayRef<int64_t>":$lhs_contracting_dimensions,
                   "ArrayRef<int64_t>":$rhs_contracting_dimensions), [{
      build($_builder, $_state, result, lhs, rhs, lhs_batching_dimensions,
            rhs_batching_dimensions, lhs_contracting_dimensions, rhs_contracting_dimensions,
            TypeAttr());
    }]>
  ];
  let hasVerifier = 1;
}

#endif // MLAX_LINALG_OPS_TD
