// Verifier and shape-rule errors of the shape ops. Every message names
// the op it is about.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//


func.func @broadcast_wrong_dim_count(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op needs one broadcast dimension per operand dimension: operand rank 1, got 2 dimensions}}
  %0 = mlax.broadcast_in_dim %x, dims = [0, 1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dim_out_of_range(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimension 2 is out of range for rank 2}}
  %0 = mlax.broadcast_in_dim %x, dims = [2] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dim_negative(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimension -1 is out of range for rank 2}}
  %0 = mlax.broadcast_in_dim %x, dims = [-1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dims_not_increasing(%x: tensor<2x3xf32>) -> tensor<4x3x2xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimensions must be increasing, got [2, 1]}}
  %0 = mlax.broadcast_in_dim %x, dims = [2, 1] : tensor<2x3xf32> -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

func.func @broadcast_dims_repeated(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op broadcast dimension 1 appears twice}}
  %0 = mlax.broadcast_in_dim %x, dims = [1, 1] : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @broadcast_size_mismatch(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op cannot broadcast operand shape [3] to [2, 3]: operand dimension 0 has size 3 but result dimension 0 has size 2}}
  %0 = mlax.broadcast_in_dim %x, dims = [0] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'mlax.broadcast_in_dim' op keeps the element type; got 'f32' -> 'f64'}}
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.reshape' op cannot reshape [2, 3] (6 elements) to [4] (4 elements)}}
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'mlax.reshape' op keeps the element type; got 'f32' -> 'i32'}}
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_wrong_length(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op permutation [0] does not match operand rank 2}}
  %0 = mlax.transpose %x, permutation = [0] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @transpose_repeated(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op permutation entry 1 appears twice}}
  %0 = mlax.transpose %x, permutation = [1, 1] : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op permutation entry 2 is out of range for rank 2}}
  %0 = mlax.transpose %x, permutation = [0, 2] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @transpose_result_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = mlax.transpose %x, permutation = [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// -----

func.func @slice_limit_out_of_bounds(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 0: need 0 <= start (0) <= limit (5) <= size (4) and stride (1) >= 1}}
  %0 = mlax.slice %x, start = [0], limit = [5], strides = [1] : tensor<4xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 1: need 0 <= start (-1) <= limit (3) <= size (4) and stride (1) >= 1}}
  %0 = mlax.slice %x, start = [0, -1], limit = [3, 3], strides = [1, 1] : tensor<3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @slice_start_after_limit(%x: tensor<4xf32>) -> tensor<0xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 0: need 0 <= start (3) <= limit (1) <= size (4) and stride (1) >= 1}}
  %0 = mlax.slice %x, start = [3], limit = [1], strides = [1] : tensor<4xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @slice_zero_stride(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op dimension 0: need 0 <= start (0) <= limit (4) <= size (4) and stride (0) >= 1}}
  %0 = mlax.slice %x, start = [0], limit = [4], strides = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_wrong_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op needs one start, limit and stride per dimension of the rank-1 operand}}
  %0 = mlax.slice %x, start = [0, 0], limit = [4], strides = [1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_result_shape(%x: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'mlax.slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.slice' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = mlax.slice %x, start = [0], limit = [4], strides = [2] : tensor<4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// concatenate (generic form: the shape rules do not depend on the syntax)
//===----------------------------------------------------------------------===//

// -----

func.func @concatenate_mismatched_shapes(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inputs must agree except in dimension 0, got 'tensor<2x3xf32>' and 'tensor<2x4xf32>'}}
  %0 = "mlax.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_mismatched_rank(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inputs must agree except in dimension 0, got 'tensor<2x3xf32>' and 'tensor<3xf32>'}}
  %0 = "mlax.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @concatenate_bad_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op dimension 2 is out of range for rank 2}}
  %0 = "mlax.concatenate"(%x, %x) {dimension = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concatenate_negative_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op dimension -1 is out of range for rank 2}}
  %0 = "mlax.concatenate"(%x, %x) {dimension = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concatenate_element_type(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inputs must agree except in dimension 0, got 'tensor<2x3xf32>' and 'tensor<2x3xi32>'}}
  %0 = "mlax.concatenate"(%x, %y) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_no_inputs() {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op needs at least one input}}
  %0 = "mlax.concatenate"() {dimension = 0 : i64} : () -> tensor<4xf32>
  return
}

// -----

func.func @concatenate_result_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'mlax.concatenate' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.concatenate' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  %0 = "mlax.concatenate"(%x, %x) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

// -----

func.func @pad_non_scalar_value(%x: tensor<4xf32>, %p: tensor<1xf32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op padding value must be a scalar of the operand's element type, got 'tensor<1xf32>'}}
  %0 = mlax.pad %x, %p, low = [0], high = [0], interior = [0] : tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_value_element_type(%x: tensor<4xf32>, %p: tensor<i32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op padding value must be a scalar of the operand's element type, got 'tensor<i32>'}}
  %0 = mlax.pad %x, %p, low = [0], high = [0], interior = [0] : tensor<4xf32>, tensor<i32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_negative_interior(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op interior padding must be non-negative, got -1 in dimension 0}}
  %0 = mlax.pad %x, %p, low = [0], high = [0], interior = [-1] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_overly_negative_edge(%x: tensor<2x4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op negative padding removes more than dimension 1 holds}}
  %0 = mlax.pad %x, %p, low = [0, -3], high = [0, -2], interior = [0, 0] : tensor<2x4xf32>, tensor<f32> -> tensor<2x0xf32>
  return
}

// -----

func.func @pad_wrong_count(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op needs one low, high and interior padding per dimension of the rank-1 operand}}
  %0 = mlax.pad %x, %p, low = [0, 0], high = [0], interior = [0] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @pad_result_shape(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+2 {{'mlax.pad' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.pad' op inferred type(s) 'tensor<5xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = mlax.pad %x, %p, low = [1], high = [0], interior = [0] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// iota
//===----------------------------------------------------------------------===//

// -----

func.func @iota_dim_out_of_range() {
  // expected-error @+1 {{'mlax.iota' op dimension 1 is out of range for result rank 1}}
  %0 = mlax.iota dim = 1 : tensor<4xi32>
  return
}

// -----

func.func @iota_dim_negative() {
  // expected-error @+1 {{'mlax.iota' op dimension -1 is out of range for result rank 2}}
  %0 = mlax.iota dim = -1 : tensor<2x4xf32>
  return
}

// -----

func.func @iota_scalar() {
  // expected-error @+1 {{'mlax.iota' op dimension 0 is out of range for result rank 0}}
  %0 = mlax.iota dim = 0 : tensor<i32>
  return
}

// -----

func.func @iota_bool() {
  // expected-error @+1 {{'mlax.iota' op result #0 must be statically shaped tensor of floating-point or 2-bit signless integer or 4-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or unsigned integer values, but got 'tensor<4xi1>'}}
  %0 = mlax.iota dim = 0 : tensor<4xi1>
  return
}
