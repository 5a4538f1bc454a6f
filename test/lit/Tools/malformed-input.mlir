// Malformed input is reported with its location and a non-zero exit code;
// mlax-opt must not crash on it.
//
// RUN: not mlax-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not mlax-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=NOCRASH
//
// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump

// CHECK: malformed-input.mlir:[[@LINE+2]]:8: error: custom op 'mlax.bogus' is unknown
func.func @unknown_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.bogus %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: malformed-input.mlir:[[@LINE+2]]:8: error: unregistered operation 'mlax.bogus' found in dialect ('mlax') that does not allow unknown operations
func.func @unknown_op_generic(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlax.bogus"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: malformed-input.mlir:[[@LINE+2]]:31: error: expected non-function type
func.func @bad_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.neg %x : tensor<4xfoo>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: malformed-input.mlir:[[@LINE+2]]:34: error: expected '>' in tensor type
func.func @unterminated_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.neg %x : tensor<4xf32
  return %0 : tensor<4xf32>
}

// -----

// CHECK: malformed-input.mlir:[[@LINE+2]]:22: error: custom op 'mlax.neg' invalid kind of type specified: expected builtin.tensor, but found 'f32'
func.func @scalar_type(%x: f32) -> f32 {
  %0 = mlax.neg %x : f32
  return %0 : f32
}

// -----

// CHECK: malformed-input.mlir:[[@LINE+2]]:21: error: custom op 'mlax.compare' expected string or keyword containing one of the following enum values for attribute 'comparison_direction' [EQ, NE, LT, LE, GT, GE]
func.func @bad_enum(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare BIGGER, %x, %x : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// -----

// A well-formed op that breaks a shape rule is a verifier error.
// CHECK: malformed-input.mlir:[[@LINE+2]]:8: error: 'mlax.reshape' op cannot reshape [2, 3] (6 elements) to [4] (4 elements)
func.func @verifier_error(%x: tensor<2x3xf32>) -> tensor<4xf32> {
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: malformed-input.mlir:[[@LINE+3]]:20: error: expected SSA operand
// The input ends in the middle of an op.
func.func @truncated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.add %x,
