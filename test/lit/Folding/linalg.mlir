// RUN: mlax-opt %s --split-input-file --mlax-fold-constants | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: mlax.constant dense<{{\[}}[1.900000e+01, 2.200000e+01], [4.300000e+01, 5.000000e+01]]> : tensor<2x2xf32>
// CHECK-NOT: mlax.dot_general
func.func @matmul() -> tensor<2x2xf32> {
  %a = mlax.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = mlax.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %0 = mlax.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Batch dimensions first, then lhs free, then rhs free; contraction over a
// transposed rhs.
// CHECK-LABEL: func.func @batched
// CHECK: mlax.constant dense<{{\[}}[5.000000e+00], [3.900000e+01]]> : tensor<2x1xf64>
func.func @batched() -> tensor<2x1xf64> {
  %a = mlax.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf64>
  %b = mlax.constant dense<[[1.0, 2.0], [5.0, 6.0]]> : tensor<2x2xf64>
  %0 = mlax.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<2x1x2xf64>, tensor<2x2xf64>) -> tensor<2x1xf64>
  return %0 : tensor<2x1xf64>
}

// -----

// Integers widen to the result type (preferred_element_type) before they
// multiply: 127 * 127 - 128 * 1 = 16001, which i8 arithmetic would wrap.
// CHECK-LABEL: func.func @int8_to_int32
// CHECK: mlax.constant dense<16001> : tensor<i32>
func.func @int8_to_int32() -> tensor<i32> {
  %a = mlax.constant dense<[127, -128]> : tensor<2xi8>
  %c = mlax.constant dense<[127, 1]> : tensor<2xi8>
  %0 = mlax.dot_general %a, %c, batch = [] x [], contract = [0] x [0] : (tensor<2xi8>, tensor<2xi8>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// A product with a non-constant operand stays.
// CHECK-LABEL: func.func @not_constant
// CHECK: mlax.dot_general
func.func @not_constant(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %b = mlax.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %0 = mlax.dot_general %x, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
