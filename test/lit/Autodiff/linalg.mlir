// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the linear-algebra
// ops (rules in dialects/Mlax/MlaxLinalgOps.cpp; the forward rules are
// jax.lax.linalg's, the reverse rules their transposes written out).
// cholesky: dL = L phi(L^-1 sym(dA) L^-T); triangular_solve: dX =
// op(A)^-1 (dB - op(dA) X); eigh: dw = diag(V^T dA V), dV = V (F * V^T dA V);
// qr: jax's thin-QR rule (and its wide-matrix extension); svd: jax's rule
// forward, its transpose reverse (the singular values alone: U diag(sbar) V^T).
// The last section: svd's vectors in reverse mode and complex matrices.
// Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_(jvp|vjp)$' and review them.


// CHECK-LABEL: func.func private @chol_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cholesky %[[ARG0]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V3]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[V4]], %[[V5]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V6]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V7]], left_side = false, lower = true, unit_diagonal = false, transpose_a = transpose : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V9]], %[[V8]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.select_n %[[V14]], %[[V12]], %[[V13]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.mul %[[V11]], %[[V15]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V16]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V17]] : tensor<3x3xf32>, tensor<3x3xf32>

// CHECK-LABEL: func.func private @chol_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cholesky %[[ARG0]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V5]], %[[V4]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V8]], %[[V9]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V11]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V12]], left_side = true, lower = true, unit_diagonal = false, transpose_a = transpose : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V13]], left_side = false, lower = true, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.transpose %[[V14]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.add %[[V14]], %[[V15]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.constant dense<5.000000e-01> : tensor<3x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.mul %[[V16]], %[[V17]] : tensor<3x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V18]] : tensor<3x3xf32>, tensor<3x3xf32>

// CHECK-LABEL: func.func private @trsm_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3x4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x3x3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG1]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x3x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V6]], dims = [1, 2] : tensor<3x3xi1> -> tensor<2x3x3xi1>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V7]], %[[V5]], %[[ARG2]] : tensor<2x3x3xi1>, tensor<2x3x3xf32>, tensor<2x3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.dot_general %[[V8]], %[[V4]], batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.sub %[[ARG3]], %[[V9]] : tensor<2x3x4xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[V10]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[V4]], %[[V11]] : tensor<2x3x4xf32>, tensor<2x3x4xf32>

// CHECK-LABEL: func.func private @trsm_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3x4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x3xf32>, tensor<2x3x4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG1]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG2]], left_side = true, lower = true, unit_diagonal = false, transpose_a = transpose : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dot_general %[[V4]], %[[V5]], batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V8]], dims = [1, 2] : tensor<3x3xi1> -> tensor<2x3x3xi1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V7]], %[[V6]] : tensor<2x3x3xi1>, tensor<2x3x3xf32>, tensor<2x3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.neg %[[V10]] : tensor<2x3x3xf32>
// CHECK-NEXT: return %[[V3]], %[[V11]], %[[V4]] : tensor<2x3x4xf32>, tensor<2x3x3xf32>, tensor<2x3x4xf32>

// CHECK-LABEL: func.func private @trsm_right_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf64>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf64>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<3x3xf64>, tensor<2x3xf64>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG1]], left_side = false, lower = false, unit_diagonal = true, transpose_a = transpose : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG2]], left_side = false, lower = false, unit_diagonal = true, transpose_a = none : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dot_general %[[V5]], %[[V4]], batch = [] x [], contract = [1] x [0] : (tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.transpose %[[V6]], permutation = [1, 0] : tensor<3x3xf64> -> tensor<3x3xf64>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf64>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, true, true], [false, false, true], [false, false, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V8]], %[[V7]] : tensor<3x3xi1>, tensor<3x3xf64>, tensor<3x3xf64>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.neg %[[V10]] : tensor<3x3xf64>
// CHECK-NEXT: return %[[V3]], %[[V11]], %[[V4]] : tensor<2x3xf64>, tensor<3x3xf64>, tensor<2x3xf64>

// CHECK-LABEL: func.func private @eigh_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.eigh %[[ARG0]], lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V4]], %[[ARG1]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V8]], %[[V7]], %[[ARG1]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.transpose %[[V6]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.add %[[V6]], %[[V10]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.add %[[V11]], %[[V9]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.dot_general %[[V12]], %[[V2]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.dot_general %[[V14]], %[[V13]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.select_n %[[V18]], %[[V16]], %[[V17]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V3]], dims = [0] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V3]], dims = [1] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.sub %[[V21]], %[[V20]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.add %[[V19]], %[[V22]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.div %[[V23]], %[[V24]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.sub %[[V25]], %[[V19]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.mul %[[V26]], %[[V15]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V27]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.select_n %[[V30]], %[[V29]], %[[V15]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.reduce_sum %[[V31]], axes = [1] : tensor<3x3xf32> -> tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]], %[[V28]], %[[V32]] : tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @eigh_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.eigh %[[ARG0]], lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [1] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V7]], %[[V6]], %[[V5]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.dot_general %[[V9]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V13]], %[[V11]], %[[V12]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V4]], dims = [0] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V4]], dims = [1] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.sub %[[V16]], %[[V15]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.add %[[V14]], %[[V17]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.div %[[V18]], %[[V19]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.sub %[[V20]], %[[V14]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.mul %[[V21]], %[[V10]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.add %[[V8]], %[[V22]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.dot_general %[[V23]], %[[V24]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V25]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.transpose %[[V26]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.select_n %[[V29]], %[[V28]], %[[V27]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.select_n %[[V32]], %[[V31]], %[[V26]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.add %[[V33]], %[[V30]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.select_n %[[V36]], %[[V35]], %[[V26]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.add %[[V34]], %[[V37]] : tensor<3x3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V38]] : tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>

// CHECK-LABEL: func.func private @qr_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.qr %[[ARG0]], full_matrices = false : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.triangular_solve %[[V3]], %[[ARG1]], left_side = false, lower = false, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dot_general %[[V5]], %[[V4]], batch = [] x [], contract = [1] x [0] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V8]], %[[V7]], %[[V6]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.transpose %[[V9]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.sub %[[V9]], %[[V10]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.sub %[[V11]], %[[V6]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V12]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.add %[[V13]], %[[V4]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.sub %[[V6]], %[[V11]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.dot_general %[[V15]], %[[V3]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]], %[[V14]], %[[V16]] : tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>, tensor<3x3xf32>

// CHECK-LABEL: func.func private @qr_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.qr %[[ARG0]], full_matrices = false : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dot_general %[[V5]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.dot_general %[[ARG2]], %[[V7]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.sub %[[V6]], %[[V8]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.transpose %[[V9]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.sub %[[V9]], %[[V10]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V13]], %[[V12]], %[[V11]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.neg %[[V9]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.add %[[V15]], %[[V14]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V16]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V17]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.triangular_solve %[[V4]], %[[V18]], left_side = false, lower = false, unit_diagonal = false, transpose_a = transpose : (tensor<3x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V19]] : tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>

// CHECK-LABEL: func.func private @qr_wide_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.qr %[[ARG0]], full_matrices = false : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.slice %[[ARG1]], start = [0, 0], limit = [2, 2], strides = [1, 1] : tensor<2x3xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.slice %[[ARG1]], start = [0, 2], limit = [2, 3], strides = [1, 1] : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.transpose %[[V5]], permutation = [1, 0] : tensor<2x1xf32> -> tensor<1x2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [0, 2], limit = [2, 3], strides = [1, 1] : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.dot_general %[[V7]], %[[V6]], batch = [] x [], contract = [1] x [0] : (tensor<2x1xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V5]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.slice %[[V3]], start = [0, 0], limit = [2, 2], strides = [1, 1] : tensor<2x3xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.dot_general %[[V11]], %[[V8]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.transpose %[[V10]], permutation = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.dot_general %[[V4]], %[[V13]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.sub %[[V12]], %[[V14]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.transpose %[[V15]], permutation = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.sub %[[V15]], %[[V16]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false], [true, false]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.select_n %[[V19]], %[[V18]], %[[V17]] : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.neg %[[V15]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.add %[[V21]], %[[V20]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V22]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.add %[[V8]], %[[V23]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.triangular_solve %[[V10]], %[[V24]], left_side = false, lower = false, unit_diagonal = false, transpose_a = transpose : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.concatenate(%[[V25]], %[[V9]]) dim = 1 : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V3]], %[[V26]] : tensor<2x3xf32>, tensor<2x3xf32>

// CHECK-LABEL: func.func private @svdvals_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.svd %[[ARG0]], full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dot_general %[[ARG1]], %[[V5]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.dot_general %[[V7]], %[[V6]], batch = [] x [], contract = [1] x [0] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [1] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [0] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V13]], %[[V11]], %[[V12]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.sub %[[V9]], %[[V10]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.add %[[V9]], %[[V10]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.mul %[[V16]], %[[V15]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.add %[[V17]], %[[V14]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.div %[[V19]], %[[V18]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.sub %[[V20]], %[[V14]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V8]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.mul %[[V10]], %[[V8]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.transpose %[[V22]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.add %[[V22]], %[[V24]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.mul %[[V21]], %[[V25]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V26]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.transpose %[[V23]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.add %[[V23]], %[[V28]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.mul %[[V21]], %[[V29]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.dot_general %[[V5]], %[[V30]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.dot_general %[[ARG1]], %[[V5]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.dot_general %[[V33]], %[[V32]], batch = [] x [], contract = [1] x [0] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V34]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.sub %[[V32]], %[[V35]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [1] : tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.div %[[V36]], %[[V37]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V39:[^ ,:)]*]] = mlax.add %[[V27]], %[[V38]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V40:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V41:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V42:[^ ,:)]*]] = mlax.select_n %[[V41]], %[[V40]], %[[V8]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V43:[^ ,:)]*]] = mlax.reduce_sum %[[V42]], axes = [1] : tensor<3x3xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V44:[^ ,:)]*]] = mlax.transpose %[[V31]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V43]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @svdvals_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.svd %[[ARG0]], full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.mul %[[V3]], %[[V5]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.dot_general %[[V6]], %[[V4]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V7]] : tensor<3xf32>, tensor<4x3xf32>

func.func private @chol(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = mlax.cholesky %a : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
func.func @test_chol_jvp(%a: tensor<3x3xf32>, %t: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %r:2 = mlax.jvp @chol(%a) tangents(%t) wrt = [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %r#0, %r#1 : tensor<3x3xf32>, tensor<3x3xf32>
}
func.func @test_chol_vjp(%a: tensor<3x3xf32>, %c: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %r:2 = mlax.vjp @chol(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %r#0, %r#1 : tensor<3x3xf32>, tensor<3x3xf32>
}

func.func private @trsm(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = none : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
func.func @test_trsm_jvp(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>, %ta: tensor<2x3x3xf32>, %tb: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %r:2 = mlax.jvp @trsm(%a, %b) tangents(%ta, %tb) wrt = [0, 1] : (tensor<2x3x3xf32>, tensor<2x3x4xf32>, tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  return %r#0, %r#1 : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
func.func @test_trsm_vjp(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>, %c: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x3xf32>, tensor<2x3x4xf32>) {
  %r:3 = mlax.vjp @trsm(%a, %b) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<2x3x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x3xf32>, tensor<2x3x4xf32>)
  return %r#0, %r#1, %r#2 : tensor<2x3x4xf32>, tensor<2x3x3xf32>, tensor<2x3x4xf32>
}

func.func private @trsm_right(%a: tensor<3x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = mlax.triangular_solve %a, %b, left_side = false, lower = false, unit_diagonal = true,
      transpose_a = transpose : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}
func.func @test_trsm_right_vjp(%a: tensor<3x3xf64>, %b: tensor<2x3xf64>, %c: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<3x3xf64>, tensor<2x3xf64>) {
  %r:3 = mlax.vjp @trsm_right(%a, %b) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<3x3xf64>, tensor<2x3xf64>)
  return %r#0, %r#1, %r#2 : tensor<2x3xf64>, tensor<3x3xf64>, tensor<2x3xf64>
}

func.func private @eigh(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>) {
  %v, %w = mlax.eigh %a, lower = true : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xf32>)
  return %v, %w : tensor<3x3xf32>, tensor<3xf32>
}
func.func @test_eigh_jvp(%a: tensor<3x3xf32>, %t: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>) {
  %r:4 = mlax.jvp @eigh(%a) tangents(%t) wrt = [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<3xf32>)
  return %r#2, %r#3 : tensor<3x3xf32>, tensor<3xf32>
}
func.func @test_eigh_vjp(%a: tensor<3x3xf32>, %cv: tensor<3x3xf32>, %cw: tensor<3xf32>) -> tensor<3x3xf32> {
  %r:3 = mlax.vjp @eigh(%a) cotangents(%cv, %cw) wrt = [0] seeds = [0, 1] : (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>)
  return %r#2 : tensor<3x3xf32>
}

func.func private @qr(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<4x3xf32> -> (tensor<4x3xf32>, tensor<3x3xf32>)
  return %q, %r : tensor<4x3xf32>, tensor<3x3xf32>
}
func.func @test_qr_jvp(%a: tensor<4x3xf32>, %t: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  %r:4 = mlax.jvp @qr(%a) tangents(%t) wrt = [0] : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
  return %r#2, %r#3 : tensor<4x3xf32>, tensor<3x3xf32>
}
func.func @test_qr_vjp(%a: tensor<4x3xf32>, %cq: tensor<4x3xf32>, %cr: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %r:3 = mlax.vjp @qr(%a) cotangents(%cq, %cr) wrt = [0] seeds = [0, 1] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<3x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>)
  return %r#2 : tensor<4x3xf32>
}

func.func private @qr_wide(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return %r : tensor<2x3xf32>
}
func.func @test_qr_wide_vjp(%a: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r:2 = mlax.vjp @qr_wide(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#1 : tensor<2x3xf32>
}

func.func private @svdvals(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
  return %s : tensor<3xf32>
}
func.func @test_svdvals_jvp(%a: tensor<4x3xf32>, %t: tensor<4x3xf32>) -> tensor<3xf32> {
  %r:2 = mlax.jvp @svdvals(%a) tangents(%t) wrt = [0] : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}
func.func @test_svdvals_vjp(%a: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<4x3xf32> {
  %r:2 = mlax.vjp @svdvals(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  return %r#1 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func private @dot_general_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.dot_general %[[ARG2]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG3]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V5]], %[[V6]] : tensor<2x4xf32>
// CHECK-NEXT: return %[[V4]], %[[V7]] : tensor<2x4xf32>, tensor<2x4xf32>
func.func private @dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @test_dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>, %t0: tensor<2x3xf32>, %t1: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %r:2 = mlax.jvp @dot_general(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func private @dot_general_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.dot_general %[[ARG2]], %[[ARG1]], batch = [] x [], contract = [1] x [1] : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.dot_general %[[ARG2]], %[[ARG0]], batch = [] x [], contract = [0] x [0] : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.transpose %[[V5]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V6]] : tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>
func.func private @dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @test_dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>) {
  %r:3 = mlax.vjp @dot_general(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>)
  return %r#0, %r#1, %r#2 : tensor<2x4xf32>, tensor<2x3xf32>, tensor<3x4xf32>
}

// -----

// lu: jax's rule, X = L^-1 P dA U^-1, dLU = L tril(X, -1) + triu(X) U (P the
// one-hot permutation matrix); the reverse rule is its transpose.
// CHECK-LABEL: func.func private @lu_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.lu %[[ARG0]] : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V7]], %[[V6]], %[[V2]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[V9]], %[[V10]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V8]], %[[V12]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, true, true], [false, true, true], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V14]], %[[V2]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V4]], dims = [0] : tensor<3xi32> -> tensor<3x3xi32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.iota dim = 1 : tensor<3x3xi32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.compare EQ, %[[V17]], %[[V18]] : tensor<3x3xi32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.select_n %[[V19]], %[[V20]], %[[V21]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.dot_general %[[V22]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.triangular_solve %[[V13]], %[[V23]], left_side = true, lower = true, unit_diagonal = true, transpose_a = none : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.triangular_solve %[[V16]], %[[V24]], left_side = false, lower = false, unit_diagonal = false, transpose_a = none : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, true, true], [false, true, true], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.select_n %[[V27]], %[[V26]], %[[V25]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.dot_general %[[V28]], %[[V16]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.select_n %[[V31]], %[[V30]], %[[V25]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.dot_general %[[V13]], %[[V32]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.add %[[V33]], %[[V29]] : tensor<3x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V34]] : tensor<3x3xf32>, tensor<3x3xf32>

// CHECK-LABEL: func.func private @lu_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.lu %[[ARG0]] : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V7]], %[[V6]], %[[V2]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[V9]], %[[V10]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V8]], %[[V12]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, true, true], [false, true, true], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V14]], %[[V2]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.transpose %[[V16]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.dot_general %[[ARG1]], %[[V17]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, true, true], [false, true, true], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.select_n %[[V20]], %[[V19]], %[[V18]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.transpose %[[V13]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.dot_general %[[V22]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false, false], [true, false, false], [true, true, false]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.select_n %[[V25]], %[[V24]], %[[V23]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.add %[[V26]], %[[V21]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.triangular_solve %[[V16]], %[[V27]], left_side = false, lower = false, unit_diagonal = false, transpose_a = transpose : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.triangular_solve %[[V13]], %[[V28]], left_side = true, lower = true, unit_diagonal = true, transpose_a = transpose : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V4]], dims = [0] : tensor<3xi32> -> tensor<3x3xi32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.iota dim = 1 : tensor<3x3xi32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.compare EQ, %[[V30]], %[[V31]] : tensor<3x3xi32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.select_n %[[V32]], %[[V33]], %[[V34]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.transpose %[[V35]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.dot_general %[[V36]], %[[V29]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V37]] : tensor<3x3xf32>, tensor<3x3xf32>

// CHECK-LABEL: func.func @test_lu_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = mlax.call @lu_jvp(%[[ARG0]], %[[ARG1]]) : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: return %[[V2]]#1 : tensor<3x3xf32>

// CHECK-LABEL: func.func @test_lu_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = mlax.call @lu_vjp(%[[ARG0]], %[[ARG1]]) : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: return %[[V2]]#1 : tensor<3x3xf32>

func.func private @lu(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %lu, %piv, %perm = mlax.lu %a : tensor<3x3xf32> -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
  return %lu : tensor<3x3xf32>
}
func.func @test_lu_jvp(%a: tensor<3x3xf32>, %t: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r:2 = mlax.jvp @lu(%a) tangents(%t) wrt = [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %r#1 : tensor<3x3xf32>
}
func.func @test_lu_vjp(%a: tensor<3x3xf32>, %c: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r:2 = mlax.vjp @lu(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %r#1 : tensor<3x3xf32>
}

// -----

// tridiagonal_solve: a dX = dB - da X, da the tridiagonal matrix of the
// diagonals' tangents (jax's rule); reverse: Bbar solves with a^T (the
// diagonals moved), each diagonal's cotangent is minus Bbar against X on it.
// CHECK-LABEL: func.func private @gtsv_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<4x2xf32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG5:[^ ,:)]*]]: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.tridiagonal_solve %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]], perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.slice %[[V6]], start = [0, 0], limit = [3, 2], strides = [1, 1] : tensor<4x2xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.pad %[[V7]], %[[V8]], low = [1, 0], high = [0, 0], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG4]], dims = [0] : tensor<4xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.mul %[[V10]], %[[V9]] : tensor<4x2xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.sub %[[ARG5]], %[[V11]] : tensor<4x2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.tridiagonal_solve %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[V12]], perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return %[[V6]], %[[V13]] : tensor<4x2xf32>, tensor<4x2xf32>

// CHECK-LABEL: func.func private @gtsv_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<4x2xf32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4xf32>, tensor<4x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.tridiagonal_solve %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]], perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.slice %[[ARG2]], start = [0], limit = [3], strides = [1] : tensor<4xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.pad %[[V6]], %[[V7]], low = [1], high = [0], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [1], limit = [4], strides = [1] : tensor<4xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.pad %[[V9]], %[[V10]], low = [0], high = [1], interior = [0] : tensor<3xf32>, tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.tridiagonal_solve %[[V8]], %[[ARG1]], %[[V11]], %[[ARG4]], perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.slice %[[V5]], start = [0, 0], limit = [3, 2], strides = [1, 1] : tensor<4x2xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.pad %[[V13]], %[[V14]], low = [1, 0], high = [0, 0], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V15]] : tensor<4x2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.reduce_sum %[[V16]], axes = [1] : tensor<4x2xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.neg %[[V17]] : tensor<4xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V5]] : tensor<4x2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.reduce_sum %[[V19]], axes = [1] : tensor<4x2xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.neg %[[V20]] : tensor<4xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.slice %[[V5]], start = [1, 0], limit = [4, 2], strides = [1, 1] : tensor<4x2xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.pad %[[V22]], %[[V23]], low = [0, 0], high = [1, 0], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V24]] : tensor<4x2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.reduce_sum %[[V25]], axes = [1] : tensor<4x2xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.neg %[[V26]] : tensor<4xf32>
// CHECK-NEXT: return %[[V5]], %[[V21]], %[[V12]] : tensor<4x2xf32>, tensor<4xf32>, tensor<4x2xf32>

// CHECK-LABEL: func.func @test_gtsv_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<4x2xf32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG5:[^ ,:)]*]]: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]]:2 = mlax.call @gtsv_jvp(%[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]], %[[ARG4]], %[[ARG5]]) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<4xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
// CHECK-NEXT: return %[[V6]]#0, %[[V6]]#1 : tensor<4x2xf32>, tensor<4x2xf32>

// CHECK-LABEL: func.func @test_gtsv_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<4x2xf32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<4x2xf32>) -> (tensor<4xf32>, tensor<4x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:3 = mlax.call @gtsv_vjp(%[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]], %[[ARG4]]) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4xf32>, tensor<4x2xf32>)
// CHECK-NEXT: return %[[V5]]#1, %[[V5]]#2 : tensor<4xf32>, tensor<4x2xf32>

func.func private @gtsv(%dl: tensor<4xf32>, %d: tensor<4xf32>, %du: tensor<4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %x = mlax.tridiagonal_solve %dl, %d, %du, %b, perturb_singular = false : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %x : tensor<4x2xf32>
}
func.func @test_gtsv_jvp(%dl: tensor<4xf32>, %d: tensor<4xf32>, %du: tensor<4xf32>, %b: tensor<4x2xf32>, %tdl: tensor<4xf32>, %tb: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %r:2 = mlax.jvp @gtsv(%dl, %d, %du, %b) tangents(%tdl, %tb) wrt = [0, 3] : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<4xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return %r#0, %r#1 : tensor<4x2xf32>, tensor<4x2xf32>
}
func.func @test_gtsv_vjp(%dl: tensor<4xf32>, %d: tensor<4xf32>, %du: tensor<4xf32>, %b: tensor<4x2xf32>, %c: tensor<4x2xf32>) -> (tensor<4xf32>, tensor<4x2xf32>) {
  %r:3 = mlax.vjp @gtsv(%dl, %d, %du, %b) cotangents(%c) wrt = [1, 3] seeds = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4xf32>, tensor<4x2xf32>)
  return %r#1, %r#2 : tensor<4xf32>, tensor<4x2xf32>
}

// -----

// svd's singular vectors in reverse mode (tall: the (I - U U^H) term; wide:
// the (I - V V^H) term), and complex matrices (cholesky last): conjugate
// transposes in the forward rules, plain transposes (conj(U), conj(vt)
// where U^H, V were taken) in the reverse ones, the real parts JAX takes.

// CHECK-LABEL: func.func private @svd_vectors_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]], %[[V5:[^ ,:)]*]] = mlax.svd %[[ARG0]], full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V3]], dims = [1] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V3]], dims = [0] : tensor<3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false, false], [false, true, false], [false, false, true]]> : tensor<3x3xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V8]], %[[V9]] : tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.sub %[[V6]], %[[V7]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V6]], %[[V7]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.mul %[[V13]], %[[V12]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.add %[[V14]], %[[V11]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.div %[[V16]], %[[V15]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.sub %[[V17]], %[[V11]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.dot_general %[[V19]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.mul %[[V18]], %[[V20]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.transpose %[[V21]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.add %[[V21]], %[[V22]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.mul %[[V23]], %[[V6]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V3]], dims = [1] : tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.div %[[ARG1]], %[[V25]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.dot_general %[[V27]], %[[V26]], batch = [] x [], contract = [1] x [0] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.dot_general %[[V4]], %[[V28]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.sub %[[V26]], %[[V29]] : tensor<4x3xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.dot_general %[[V30]], %[[V5]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.transpose %[[ARG2]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.dot_general %[[V5]], %[[V32]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.mul %[[V18]], %[[V33]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.transpose %[[V34]], permutation = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.add %[[V34]], %[[V35]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V36]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.add %[[V24]], %[[V37]] : tensor<3x3xf32>
// CHECK-NEXT: %[[V39:[^ ,:)]*]] = mlax.dot_general %[[V38]], %[[V5]], batch = [] x [], contract = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[V40:[^ ,:)]*]] = mlax.dot_general %[[V4]], %[[V39]], batch = [] x [], contract = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V41:[^ ,:)]*]] = mlax.add %[[V31]], %[[V40]] : tensor<4x3xf32>
// CHECK-NEXT: return %[[V4]], %[[V5]], %[[V41]] : tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>

// CHECK-LABEL: func.func private @svd_wide_vt_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.svd %[[ARG0]], full_matrices = false : tensor<2x3xf32> -> (tensor<2xf32>, tensor<2x2xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [0] : tensor<2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.select_n %[[V9]], %[[V7]], %[[V8]] : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.sub %[[V5]], %[[V6]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.add %[[V5]], %[[V6]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V11]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.add %[[V13]], %[[V10]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.div %[[V15]], %[[V14]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.sub %[[V16]], %[[V10]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.dot_general %[[V4]], %[[V18]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[V17]], %[[V19]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.transpose %[[V20]], permutation = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.add %[[V20]], %[[V21]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V22]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [1] : tensor<2xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.div %[[V18]], %[[V24]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.transpose %[[V25]], permutation = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.dot_general %[[V26]], %[[V27]], batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.dot_general %[[V28]], %[[V4]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.sub %[[V26]], %[[V29]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V30]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.dot_general %[[V23]], %[[V4]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V32]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.add %[[V31]], %[[V33]] : tensor<2x3xf32>
// CHECK-NEXT: return %[[V4]], %[[V34]] : tensor<2x3xf32>, tensor<2x3xf32>

// CHECK-LABEL: func.func private @svd_complex_u_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.svd %[[ARG0]], full_matrices = false : tensor<2x2xcomplex<f32>> -> (tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.conj %[[V5]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.dot_general %[[ARG1]], %[[V6]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.conj %[[V8]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.dot_general %[[V9]], %[[V7]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.convert %[[V2]] : tensor<2xf32> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V11]], dims = [1] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V11]], dims = [0] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.select_n %[[V16]], %[[V14]], %[[V15]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.sub %[[V12]], %[[V13]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.add %[[V12]], %[[V13]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[V19]], %[[V18]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.add %[[V20]], %[[V17]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.div %[[V22]], %[[V21]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.sub %[[V23]], %[[V17]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.compare EQ, %[[V25]], %[[V26]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.select_n %[[V27]], %[[V25]], %[[V28]] : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.div %[[V28]], %[[V29]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.select_n %[[V27]], %[[V30]], %[[V31]] : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.convert %[[V32]] : tensor<2x2xf32> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.select_n %[[V35]], %[[V34]], %[[V33]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V10]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.mul %[[V13]], %[[V10]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V39:[^ ,:)]*]] = mlax.transpose %[[V37]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V40:[^ ,:)]*]] = mlax.conj %[[V39]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V41:[^ ,:)]*]] = mlax.add %[[V37]], %[[V40]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V42:[^ ,:)]*]] = mlax.mul %[[V24]], %[[V41]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V43:[^ ,:)]*]] = mlax.transpose %[[V10]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V44:[^ ,:)]*]] = mlax.conj %[[V43]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V45:[^ ,:)]*]] = mlax.sub %[[V10]], %[[V44]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V46:[^ ,:)]*]] = mlax.constant dense<(5.000000e-01,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V47:[^ ,:)]*]] = mlax.mul %[[V45]], %[[V46]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V48:[^ ,:)]*]] = mlax.mul %[[V47]], %[[V36]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V49:[^ ,:)]*]] = mlax.add %[[V42]], %[[V48]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V50:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[V49]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V51:[^ ,:)]*]] = mlax.transpose %[[V38]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V52:[^ ,:)]*]] = mlax.conj %[[V51]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V53:[^ ,:)]*]] = mlax.add %[[V38]], %[[V52]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V54:[^ ,:)]*]] = mlax.mul %[[V24]], %[[V53]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V55:[^ ,:)]*]] = mlax.dot_general %[[V6]], %[[V54]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V56:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V57:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V58:[^ ,:)]*]] = mlax.select_n %[[V57]], %[[V56]], %[[V10]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V59:[^ ,:)]*]] = mlax.reduce_sum %[[V58]], axes = [1] : tensor<2x2xcomplex<f32>> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V60:[^ ,:)]*]] = mlax.real %[[V59]] : tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V61:[^ ,:)]*]] = mlax.transpose %[[V55]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V62:[^ ,:)]*]] = mlax.conj %[[V61]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V3]], %[[V50]] : tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>

// CHECK-LABEL: func.func private @svd_complex_u_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.svd %[[ARG0]], full_matrices = false : tensor<2x2xcomplex<f32>> -> (tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[V2]] : tensor<2xf32> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V5]], dims = [1] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V5]], dims = [0] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V8]], %[[V9]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.sub %[[V6]], %[[V7]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V6]], %[[V7]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.mul %[[V13]], %[[V12]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.add %[[V14]], %[[V11]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.div %[[V16]], %[[V15]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.sub %[[V17]], %[[V11]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V2]], dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.compare EQ, %[[V19]], %[[V20]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.select_n %[[V21]], %[[V19]], %[[V22]] : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.div %[[V22]], %[[V23]] : tensor<2x2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.select_n %[[V21]], %[[V24]], %[[V25]] : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.convert %[[V26]] : tensor<2x2xf32> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.select_n %[[V29]], %[[V28]], %[[V27]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.conj %[[V4]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.dot_general %[[V32]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.mul %[[V18]], %[[V33]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.transpose %[[V34]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.conj %[[V35]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.add %[[V34]], %[[V36]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.mul %[[V37]], %[[V6]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V39:[^ ,:)]*]] = mlax.constant dense<(5.000000e-01,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V40:[^ ,:)]*]] = mlax.mul %[[V33]], %[[V39]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V41:[^ ,:)]*]] = mlax.mul %[[V40]], %[[V30]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V42:[^ ,:)]*]] = mlax.transpose %[[V41]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V43:[^ ,:)]*]] = mlax.conj %[[V42]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V44:[^ ,:)]*]] = mlax.sub %[[V41]], %[[V43]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V45:[^ ,:)]*]] = mlax.add %[[V38]], %[[V44]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V46:[^ ,:)]*]] = mlax.dot_general %[[V45]], %[[V31]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V47:[^ ,:)]*]] = mlax.conj %[[V3]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V48:[^ ,:)]*]] = mlax.dot_general %[[V47]], %[[V46]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V3]], %[[V48]] : tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>

// CHECK-LABEL: func.func private @trsm_adjoint_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xcomplex<f32>>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x1xcomplex<f32>>, tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG1]], left_side = true, lower = true, unit_diagonal = false, transpose_a = adjoint : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [true, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V4]], %[[ARG2]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.transpose %[[V6]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.conj %[[V7]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.dot_general %[[V8]], %[[V3]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.neg %[[V9]] : tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[V10]], left_side = true, lower = true, unit_diagonal = false, transpose_a = adjoint : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
// CHECK-NEXT: return %[[V3]], %[[V11]] : tensor<2x1xcomplex<f32>>, tensor<2x1xcomplex<f32>>

// CHECK-LABEL: func.func private @trsm_adjoint_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xcomplex<f32>>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x1xcomplex<f32>>) -> (tensor<2x1xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[ARG1]], left_side = true, lower = true, unit_diagonal = false, transpose_a = adjoint : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.conj %[[ARG2]] : tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.triangular_solve %[[ARG0]], %[[V4]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.conj %[[V5]] : tensor<2x1xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<2x1xcomplex<f32>> -> tensor<1x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.dot_general %[[V6]], %[[V7]], batch = [] x [], contract = [1] x [0] : (tensor<2x1xcomplex<f32>>, tensor<1x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.transpose %[[V8]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.conj %[[V9]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [true, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V11]], %[[V10]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.neg %[[V13]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V3]], %[[V14]], %[[V6]] : tensor<2x1xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>

// CHECK-LABEL: func.func private @eigh_complex_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.eigh %[[ARG0]], lower = true : tensor<2x2xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false], [true, false]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_n %[[V5]], %[[V4]], %[[ARG1]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V8]], %[[V7]], %[[ARG1]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.real %[[V9]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.convert %[[V10]] : tensor<2x2xf32> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.transpose %[[V6]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.conj %[[V12]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.add %[[V6]], %[[V13]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.add %[[V14]], %[[V11]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.dot_general %[[V15]], %[[V2]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.conj %[[V17]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.dot_general %[[V18]], %[[V16]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.select_n %[[V22]], %[[V20]], %[[V21]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.convert %[[V3]] : tensor<2xf32> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V24]], dims = [0] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V24]], dims = [1] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.sub %[[V26]], %[[V25]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.add %[[V23]], %[[V27]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.div %[[V28]], %[[V29]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.sub %[[V30]], %[[V23]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.mul %[[V31]], %[[V19]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V32]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.select_n %[[V35]], %[[V34]], %[[V19]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.reduce_sum %[[V36]], axes = [1] : tensor<2x2xcomplex<f32>> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.real %[[V37]] : tensor<2xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V3]], %[[V33]], %[[V38]] : tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2xf32>

// CHECK-LABEL: func.func private @eigh_complex_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]], %[[V4:[^ ,:)]*]] = mlax.eigh %[[ARG0]], lower = true : tensor<2x2xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>)
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[ARG2]] : tensor<2xf32> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V5]], dims = [1] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.select_n %[[V8]], %[[V7]], %[[V6]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.dot_general %[[V10]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.select_n %[[V14]], %[[V12]], %[[V13]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.convert %[[V4]] : tensor<2xf32> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V16]], dims = [0] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V16]], dims = [1] : tensor<2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.sub %[[V18]], %[[V17]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.add %[[V15]], %[[V19]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.div %[[V20]], %[[V21]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.sub %[[V22]], %[[V15]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.mul %[[V23]], %[[V11]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.add %[[V9]], %[[V24]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.transpose %[[V3]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.dot_general %[[V25]], %[[V26]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.conj %[[V3]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.dot_general %[[V28]], %[[V27]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.transpose %[[V29]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.conj %[[V30]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false], [true, false]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.select_n %[[V33]], %[[V32]], %[[V31]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false], [true, false]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.select_n %[[V36]], %[[V35]], %[[V29]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V38:[^ ,:)]*]] = mlax.add %[[V37]], %[[V34]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V39:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V40:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V41:[^ ,:)]*]] = mlax.select_n %[[V40]], %[[V39]], %[[V29]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V42:[^ ,:)]*]] = mlax.real %[[V41]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V43:[^ ,:)]*]] = mlax.convert %[[V42]] : tensor<2x2xf32> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V44:[^ ,:)]*]] = mlax.add %[[V38]], %[[V43]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V44]] : tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>

// CHECK-LABEL: func.func private @qr_complex_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]], %[[V3:[^ ,:)]*]] = mlax.qr %[[ARG0]], full_matrices = false : tensor<2x2xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.dot_general %[[V4]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.transpose %[[V5]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.conj %[[V6]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.sub %[[V5]], %[[V7]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}false, false], [true, false]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V9]], %[[V8]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.neg %[[V5]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.add %[[V12]], %[[V11]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V14]], %[[V5]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.real %[[V16]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.convert %[[V17]] : tensor<2x2xf32> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.sub %[[V16]], %[[V18]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.add %[[V13]], %[[V19]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.conj %[[V2]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.dot_general %[[V21]], %[[V20]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V22]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.triangular_solve %[[V3]], %[[V23]], left_side = false, lower = false, unit_diagonal = false, transpose_a = transpose : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V24]] : tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>

func.func private @svd_vectors(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<4x3xf32> -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>)
  return %u, %vt : tensor<4x3xf32>, tensor<3x3xf32>
}
func.func @test_svd_vectors_vjp(%a: tensor<4x3xf32>, %cu: tensor<4x3xf32>, %cv: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %r:3 = mlax.vjp @svd_vectors(%a) cotangents(%cu, %cv) wrt = [0] seeds = [0, 1] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<3x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>)
  return %r#2 : tensor<4x3xf32>
}

func.func private @svd_wide_vt(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<2x3xf32> -> (tensor<2xf32>, tensor<2x2xf32>, tensor<2x3xf32>)
  return %vt : tensor<2x3xf32>
}
func.func @test_svd_wide_vt_vjp(%a: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r:2 = mlax.vjp @svd_wide_vt(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r#1 : tensor<2x3xf32>
}

func.func private @svd_complex_u(%a: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %s, %u, %vt = mlax.svd %a, full_matrices = false : tensor<2x2xcomplex<f32>> -> (tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %u : tensor<2x2xcomplex<f32>>
}
func.func @test_svd_complex_u_jvp(%a: tensor<2x2xcomplex<f32>>, %t: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %r:2 = mlax.jvp @svd_complex_u(%a) tangents(%t) wrt = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %r#1 : tensor<2x2xcomplex<f32>>
}
func.func @test_svd_complex_u_vjp(%a: tensor<2x2xcomplex<f32>>, %c: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %r:2 = mlax.vjp @svd_complex_u(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %r#1 : tensor<2x2xcomplex<f32>>
}

func.func private @trsm_adjoint(%a: tensor<2x2xcomplex<f32>>, %b: tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>> {
  %0 = mlax.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false,
      transpose_a = adjoint : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  return %0 : tensor<2x1xcomplex<f32>>
}
func.func @test_trsm_adjoint_jvp(%a: tensor<2x2xcomplex<f32>>, %b: tensor<2x1xcomplex<f32>>, %ta: tensor<2x2xcomplex<f32>>) -> tensor<2x1xcomplex<f32>> {
  %r:2 = mlax.jvp @trsm_adjoint(%a, %b) tangents(%ta) wrt = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x1xcomplex<f32>>, tensor<2x1xcomplex<f32>>)
  return %r#1 : tensor<2x1xcomplex<f32>>
}
func.func @test_trsm_adjoint_vjp(%a: tensor<2x2xcomplex<f32>>, %b: tensor<2x1xcomplex<f32>>, %c: tensor<2x1xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) {
  %r:3 = mlax.vjp @trsm_adjoint(%a, %b) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> (tensor<2x1xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>)
  return %r#1, %r#2 : tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>
}

func.func private @eigh_complex(%a: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>) {
  %v, %w = mlax.eigh %a, lower = true : tensor<2x2xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>)
  return %v, %w : tensor<2x2xcomplex<f32>>, tensor<2xf32>
}
func.func @test_eigh_complex_jvp(%a: tensor<2x2xcomplex<f32>>, %t: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>) {
  %r:4 = mlax.jvp @eigh_complex(%a) tangents(%t) wrt = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2xf32>)
  return %r#2, %r#3 : tensor<2x2xcomplex<f32>>, tensor<2xf32>
}
func.func @test_eigh_complex_vjp(%a: tensor<2x2xcomplex<f32>>, %cv: tensor<2x2xcomplex<f32>>, %cw: tensor<2xf32>) -> tensor<2x2xcomplex<f32>> {
  %r:3 = mlax.vjp @eigh_complex(%a) cotangents(%cv, %cw) wrt = [0] seeds = [0, 1] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<2xf32>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>, tensor<2x2xcomplex<f32>>)
  return %r#2 : tensor<2x2xcomplex<f32>>
}

func.func private @qr_complex(%a: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %q, %r = mlax.qr %a, full_matrices = false : tensor<2x2xcomplex<f32>> -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %q : tensor<2x2xcomplex<f32>>
}
func.func @test_qr_complex_vjp(%a: tensor<2x2xcomplex<f32>>, %c: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %r:2 = mlax.vjp @qr_complex(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %r#1 : tensor<2x2xcomplex<f32>>
}

// CHECK-LABEL: func.func private @chol_complex_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cholesky %[[ARG0]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.conj %[[V3]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.add %[[ARG1]], %[[V4]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<(5.000000e-01,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.mul %[[V5]], %[[V6]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V7]], left_side = true, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V8]], left_side = false, lower = true, unit_diagonal = false, transpose_a = adjoint : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [true, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[V10]], %[[V9]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<(5.000000e-01,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V15]], %[[V13]], %[[V14]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V16]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.dot_general %[[V2]], %[[V17]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V18]] : tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>

// CHECK-LABEL: func.func private @chol_complex_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cholesky %[[ARG0]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.dot_general %[[V3]], %[[ARG1]], batch = [] x [], contract = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [true, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V5]], %[[V4]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<(1.000000e+00,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<(5.000000e-01,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[V8]], %[[V9]] : tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.mul %[[V7]], %[[V11]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V12]], left_side = true, lower = true, unit_diagonal = false, transpose_a = transpose : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.conj %[[V13]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.triangular_solve %[[V2]], %[[V14]], left_side = false, lower = true, unit_diagonal = false, transpose_a = none : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.conj %[[V15]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.transpose %[[V16]], permutation = [1, 0] : tensor<2x2xcomplex<f32>> -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.conj %[[V17]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.add %[[V16]], %[[V18]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.constant dense<(5.000000e-01,0.000000e+00)> : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.mul %[[V19]], %[[V20]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V21]] : tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>

func.func private @chol_complex(%a: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %0 = mlax.cholesky %a : tensor<2x2xcomplex<f32>>
  return %0 : tensor<2x2xcomplex<f32>>
}
func.func @test_chol_complex_jvp(%a: tensor<2x2xcomplex<f32>>, %t: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %r:2 = mlax.jvp @chol_complex(%a) tangents(%t) wrt = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %r#1 : tensor<2x2xcomplex<f32>>
}
func.func @test_chol_complex_vjp(%a: tensor<2x2xcomplex<f32>>, %c: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %r:2 = mlax.vjp @chol_complex(%a) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>)
  return %r#1 : tensor<2x2xcomplex<f32>>
}
