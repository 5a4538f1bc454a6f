// Lowering of the indexing ops: reverse, dynamic_slice and
// dynamic_update_slice one to one; gather and scatter with StableHLO's
// dimension numbers; scatter's update computation from its combiner.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

// CHECK-LABEL: func.func @reverse(
// CHECK: "stablehlo.reverse"(%arg0) {dimensions = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @reverse(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = mlax.reverse %x, dims = [1, 0] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) {slice_sizes = array<i64: 2, 3>} : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
func.func @dynamic_slice(%x: tensor<4x5xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %0 = mlax.dynamic_slice %x[%i, %j] sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_update_slice(
// CHECK: "stablehlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %arg2) : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x5xf32>
func.func @dynamic_update_slice(%x: tensor<4x5xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) -> tensor<4x5xf32> {
  %0 = mlax.dynamic_update_slice %x, %u at [%i, %i] : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @gather(
// CHECK: "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Empty lists are left out, as StableHLO prints them.
// CHECK-LABEL: func.func @gather_batching(
// CHECK: "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1>} : (tensor<4x6xf32>, tensor<4x2x1xi32>) -> tensor<4x2xf32>
func.func @gather_batching(%x: tensor<4x6xf32>, %i: tensor<4x2x1xi32>) -> tensor<4x2xf32> {
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [1],
      operand_batching_dims = [0], start_indices_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1] indices_are_sorted
      : (tensor<4x6xf32>, tensor<4x2x1xi32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @scatter_set(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: "stablehlo.return"(%[[B]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], input_batching_dims = [2], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = true} : (tensor<5x3x2xf32>, tensor<2x4x1xi32>, tensor<2x4x3xf32>) -> tensor<5x3x2xf32>
func.func @scatter_set(%x: tensor<5x3x2xf32>, %i: tensor<2x4x1xi32>, %u: tensor<2x4x3xf32>) -> tensor<5x3x2xf32> {
  %0 = mlax.scatter set %x[%i], %u update_window_dims = [2], inserted_window_dims = [0],
      input_batching_dims = [2], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 2 unique_indices
      : (tensor<5x3x2xf32>, tensor<2x4x1xi32>, tensor<2x4x3xf32>) -> tensor<5x3x2xf32>
  return %0 : tensor<5x3x2xf32>
}

// CHECK-LABEL: func.func @scatter_add_f32(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: %[[C:.*]] = "stablehlo.add"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[C]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}
func.func @scatter_add_f32(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @scatter_mul_f32(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: %[[C:.*]] = "stablehlo.multiply"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[C]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}
func.func @scatter_mul_f32(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %0 = mlax.scatter mul %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @scatter_min_i32(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<i32>):
// CHECK-NEXT: %[[C:.*]] = "stablehlo.minimum"(%[[A]], %[[B]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[C]]) : (tensor<i32>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}
func.func @scatter_min_i32(%x: tensor<5xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<5xi32> {
  %0 = mlax.scatter min %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// CHECK-LABEL: func.func @scatter_max_i32(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<i32>):
// CHECK-NEXT: %[[C:.*]] = "stablehlo.maximum"(%[[A]], %[[B]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.return"(%[[C]]) : (tensor<i32>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}
func.func @scatter_max_i32(%x: tensor<5xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<5xi32> {
  %0 = mlax.scatter max %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// CHECK-LABEL: func.func @scatter_add_i1(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i1>, %[[B:.*]]: tensor<i1>):
// CHECK-NEXT: %[[C:.*]] = "stablehlo.or"(%[[A]], %[[B]]) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[C]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}
func.func @scatter_add_i1(%x: tensor<5xi1>, %i: tensor<2x1xi32>, %u: tensor<2xi1>) -> tensor<5xi1> {
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xi1>, tensor<2x1xi32>, tensor<2xi1>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}

// CHECK-LABEL: func.func @scatter_mul_i1(
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i1>, %[[B:.*]]: tensor<i1>):
// CHECK-NEXT: %[[C:.*]] = "stablehlo.and"(%[[A]], %[[B]]) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT: "stablehlo.return"(%[[C]]) : (tensor<i1>) -> ()
// CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}
func.func @scatter_mul_i1(%x: tensor<5xi1>, %i: tensor<2x1xi32>, %u: tensor<2xi1>) -> tensor<5xi1> {
  %0 = mlax.scatter mul %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xi1>, tensor<2x1xi32>, tensor<2xi1>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}
