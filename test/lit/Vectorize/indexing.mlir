// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched functions mlax-vectorize generates for the indexing ops
// (rules in MlaxIndexingOps.cpp): reverse and dynamic_slice
// shift their dimensions; per-example start indices turn dynamic_slice into
// a gather and dynamic_update_slice into a scatter (with the starts clamped
// as dynamic_slice and dynamic_update_slice clamp them, so that the gather's
// transpose, a scatter, sees the same in-range windows); gather and scatter gain a batching
// dimension, or, when only the indices are batched, one more index batch
// dimension. Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @reverse_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x4x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reverse %[[ARG0]], dims = [2] : tensor<5x4x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x4x3xf32>

// CHECK-LABEL: func.func private @dynamic_slice_operand_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<i32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.dynamic_slice %[[ARG0]][%[[V2]], %[[ARG1]], %[[ARG1]]] sizes = [5, 2, 3] : (tensor<5x4x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x2x3xf32>

// CHECK-LABEL: func.func private @dynamic_slice_starts_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<i32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<2> : tensor<5xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.min %[[ARG1]], %[[V4]] : tensor<5xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.max %[[V5]], %[[V3]] : tensor<5xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.reshape %[[V6]] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [] : tensor<i32> -> tensor<5xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.min %[[V8]], %[[V10]] : tensor<5xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.max %[[V11]], %[[V9]] : tensor<5xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.reshape %[[V12]] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.concatenate(%[[V7]], %[[V13]]) dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.gather %[[ARG0]][%[[V14]]] offset_dims = [1, 2], collapsed_slice_dims = [], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [2, 3] : (tensor<4x3xf32>, tensor<5x2xi32>) -> tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V15]] : tensor<5x2x3xf32>

// CHECK-LABEL: func.func private @dynamic_slice_operand_and_starts_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<2> : tensor<5xi32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.min %[[ARG1]], %[[V3]] : tensor<5xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.max %[[V4]], %[[V2]] : tensor<5xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reshape %[[V5]] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.min %[[ARG1]], %[[V8]] : tensor<5xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.max %[[V9]], %[[V7]] : tensor<5xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.reshape %[[V10]] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.concatenate(%[[V6]], %[[V11]]) dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.gather %[[ARG0]][%[[V12]]] offset_dims = [1, 2], collapsed_slice_dims = [], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1, slice_sizes = [1, 2, 3] : (tensor<5x4x3xf32>, tensor<5x2xi32>) -> tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V13]] : tensor<5x2x3xf32>

// CHECK-LABEL: func.func private @dynamic_update_slice_starts_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<5xi32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1, 2] : tensor<2x3xf32> -> tensor<5x2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<2> : tensor<5xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.min %[[ARG2]], %[[V5]] : tensor<5xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.max %[[V6]], %[[V4]] : tensor<5xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reshape %[[V7]] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.min %[[ARG2]], %[[V10]] : tensor<5xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.max %[[V11]], %[[V9]] : tensor<5xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.reshape %[[V12]] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.concatenate(%[[V8]], %[[V13]]) dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.scatter set %[[ARG0]][%[[V14]]], %[[V3]] update_window_dims = [1, 2], inserted_window_dims = [], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 1 unique_indices : (tensor<5x4x3xf32>, tensor<5x2xi32>, tensor<5x2x3xf32>) -> tensor<5x4x3xf32>
// CHECK-NEXT: return %[[V15]] : tensor<5x4x3xf32>

// CHECK-LABEL: func.func private @gather_indices_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<7x2x1xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.gather %[[ARG0]][%[[ARG1]]] offset_dims = [2], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 2, slice_sizes = [1, 3] : (tensor<5x3xf32>, tensor<7x2x1xi32>) -> tensor<7x2x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<7x2x3xf32>

// CHECK-LABEL: func.func private @gather_both_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<7x5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<7x2x1xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.gather %[[ARG0]][%[[ARG1]]] offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1, 3] : (tensor<7x5x3xf32>, tensor<7x2x1xi32>) -> tensor<7x2x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<7x2x3xf32>

// CHECK-LABEL: func.func private @scatter_updates_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<7x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [1] : tensor<5xf32> -> tensor<7x5xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1, 2] : tensor<2x1xi32> -> tensor<7x2x1xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.scatter add %[[V3]][%[[V4]]], %[[ARG2]] update_window_dims = [], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 : (tensor<7x5xf32>, tensor<7x2x1xi32>, tensor<7x2xf32>) -> tensor<7x5xf32>
// CHECK-NEXT: return %[[V5]] : tensor<7x5xf32>


func.func private @reverse(%a0: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = mlax.reverse %a0, dims = [1] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @test_reverse(%a0: tensor<5x4x3xf32>) -> tensor<5x4x3xf32> {
  %r = mlax.vmap @reverse(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x4x3xf32>) -> tensor<5x4x3xf32>
  return %r : tensor<5x4x3xf32>
}

func.func private @dynamic_slice_operand(%a0: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  %0 = mlax.dynamic_slice %a0[%i, %i] sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_dynamic_slice_operand(%a0: tensor<5x4x3xf32>, %i: tensor<i32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @dynamic_slice_operand(%a0, %i) in_axes = [0, -1] out_axes = [0] size = 5 : (tensor<5x4x3xf32>, tensor<i32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

func.func private @dynamic_slice_starts(%a0: tensor<4x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %0 = mlax.dynamic_slice %a0[%i, %j] sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_dynamic_slice_starts(%a0: tensor<4x3xf32>, %i: tensor<5xi32>, %j: tensor<i32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @dynamic_slice_starts(%a0, %i, %j) in_axes = [-1, 0, -1] out_axes = [0] size = 5 : (tensor<4x3xf32>, tensor<5xi32>, tensor<i32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

func.func private @dynamic_slice_operand_and_starts(%a0: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  %0 = mlax.dynamic_slice %a0[%i, %i] sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_dynamic_slice_operand_and_starts(%a0: tensor<5x4x3xf32>, %i: tensor<5xi32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @dynamic_slice_operand_and_starts(%a0, %i) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x4x3xf32>, tensor<5xi32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

func.func private @dynamic_update_slice_starts(%a0: tensor<4x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) -> tensor<4x3xf32> {
  %0 = mlax.dynamic_update_slice %a0, %u at [%i, %i] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @test_dynamic_update_slice_starts(%a0: tensor<5x4x3xf32>, %u: tensor<2x3xf32>, %i: tensor<5xi32>) -> tensor<5x4x3xf32> {
  %r = mlax.vmap @dynamic_update_slice_starts(%a0, %u, %i) in_axes = [0, -1, 0] out_axes = [0] size = 5 : (tensor<5x4x3xf32>, tensor<2x3xf32>, tensor<5xi32>) -> tensor<5x4x3xf32>
  return %r : tensor<5x4x3xf32>
}

func.func private @gather_indices(%a0: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = mlax.gather %a0[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_gather_indices(%a0: tensor<5x3xf32>, %i: tensor<7x2x1xi32>) -> tensor<7x2x3xf32> {
  %r = mlax.vmap @gather_indices(%a0, %i) in_axes = [-1, 0] out_axes = [0] size = 7 : (tensor<5x3xf32>, tensor<7x2x1xi32>) -> tensor<7x2x3xf32>
  return %r : tensor<7x2x3xf32>
}

func.func private @gather_both(%a0: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = mlax.gather %a0[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_gather_both(%a0: tensor<7x5x3xf32>, %i: tensor<7x2x1xi32>) -> tensor<7x2x3xf32> {
  %r = mlax.vmap @gather_both(%a0, %i) in_axes = [0, 0] out_axes = [0] size = 7 : (tensor<7x5x3xf32>, tensor<7x2x1xi32>) -> tensor<7x2x3xf32>
  return %r : tensor<7x2x3xf32>
}

func.func private @scatter_updates(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %0 = mlax.scatter add %a0[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_scatter_updates(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<7x2xf32>) -> tensor<7x5xf32> {
  %r = mlax.vmap @scatter_updates(%a0, %i, %u) in_axes = [-1, -1, 0] out_axes = [0] size = 7 : (tensor<5xf32>, tensor<2x1xi32>, tensor<7x2xf32>) -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}
