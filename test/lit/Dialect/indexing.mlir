// Round trip of the indexing ops (reverse, dynamic_slice,
// dynamic_update_slice, gather, scatter, take). Their result types are
// inferred (reverse's assembly leaves it out; the others state it and the
// verifier compares it with the inferred one).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @reverse(
// CHECK: mlax.reverse %{{.*}}, dims = [1, 0] : tensor<4x3xf32>
func.func @reverse(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = mlax.reverse %x, dims = [1, 0] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @reverse_nothing(
// CHECK: mlax.reverse %{{.*}}, dims = [] : tensor<i32>
func.func @reverse_nothing(%x: tensor<i32>) -> tensor<i32> {
  %0 = mlax.reverse %x, dims = [] : tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: mlax.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}] sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
func.func @dynamic_slice(%x: tensor<4x5xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %0 = mlax.dynamic_slice %x[%i, %j] sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_slice_scalar(
// CHECK: mlax.dynamic_slice %{{.*}}[] sizes = [] : (tensor<f32>) -> tensor<f32>
func.func @dynamic_slice_scalar(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.dynamic_slice %x[] sizes = [] : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dynamic_update_slice(
// CHECK: mlax.dynamic_update_slice %{{.*}}, %{{.*}} at [%{{.*}}, %{{.*}}] : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x5xf32>
func.func @dynamic_update_slice(%x: tensor<4x5xf32>, %u: tensor<2x3xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<4x5xf32> {
  %0 = mlax.dynamic_update_slice %x, %u at [%i, %j] : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @gather_rows(
// CHECK: mlax.gather %{{.*}}[%{{.*}}] offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
func.func @gather_rows(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @gather_batched_sorted(
// CHECK: mlax.gather %{{.*}}[%{{.*}}] offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1] indices_are_sorted : (tensor<4x6xf32>, tensor<4x2x1xi32>) -> tensor<4x2xf32>
func.func @gather_batched_sorted(%x: tensor<4x6xf32>, %i: tensor<4x2x1xi32>) -> tensor<4x2xf32> {
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [1],
      operand_batching_dims = [0], start_indices_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1] indices_are_sorted
      : (tensor<4x6xf32>, tensor<4x2x1xi32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @scatter_add(
// CHECK: mlax.scatter add %{{.*}}[%{{.*}}], %{{.*}} update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
func.func @scatter_add(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [1], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// CHECK-LABEL: func.func @scatter_combiners(
// CHECK: mlax.scatter set {{.*}} unique_indices :
// CHECK: mlax.scatter mul {{.*}} indices_are_sorted unique_indices :
// CHECK: mlax.scatter min
// CHECK: mlax.scatter max
func.func @scatter_combiners(%x: tensor<5xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<5xi32> {
  %0 = mlax.scatter set %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1 unique_indices
      : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  %1 = mlax.scatter mul %0[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1 indices_are_sorted unique_indices
      : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  %2 = mlax.scatter min %1[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  %3 = mlax.scatter max %2[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
  return %3 : tensor<5xi32>
}

// CHECK-LABEL: func.func @dynamic_slice_unsigned_empty(
// CHECK: mlax.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}] sizes = [4, 0] : (tensor<4x5xf32>, tensor<ui8>, tensor<ui8>) -> tensor<4x0xf32>
func.func @dynamic_slice_unsigned_empty(%x: tensor<4x5xf32>, %i: tensor<ui8>) -> tensor<4x0xf32> {
  %0 = mlax.dynamic_slice %x[%i, %i] sizes = [4, 0] : (tensor<4x5xf32>, tensor<ui8>, tensor<ui8>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// Offset dimensions on both sides of the batch dimension.
// CHECK-LABEL: func.func @gather_offsets_around_batch(
// CHECK: mlax.gather {{.*}} offset_dims = [0, 2], collapsed_slice_dims = [1], {{.*}} : (tensor<5x4x3xf32>, tensor<2x1xi32>) -> tensor<5x2x3xf32>
func.func @gather_offsets_around_batch(%x: tensor<5x4x3xf32>, %i: tensor<2x1xi32>) -> tensor<5x2x3xf32> {
  %0 = mlax.gather %x[%i] offset_dims = [0, 2], collapsed_slice_dims = [1],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [1], index_vector_dim = 1, slice_sizes = [5, 1, 3]
      : (tensor<5x4x3xf32>, tensor<2x1xi32>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// index_vector_dim equal to the indices' rank: index vectors of one element.
// CHECK-LABEL: func.func @gather_implicit_index_vector(
// CHECK: mlax.gather {{.*}} index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
func.func @gather_implicit_index_vector(%x: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @scatter_batched(
// CHECK: mlax.scatter set {{.*}} input_batching_dims = [0], scatter_indices_batching_dims = [0], {{.*}} : (tensor<4x6xf32>, tensor<4x2x1xi32>, tensor<4x2xf32>) -> tensor<4x6xf32>
func.func @scatter_batched(%x: tensor<4x6xf32>, %i: tensor<4x2x1xi32>, %u: tensor<4x2xf32>) -> tensor<4x6xf32> {
  %0 = mlax.scatter set %x[%i], %u update_window_dims = [], inserted_window_dims = [1],
      input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2
      : (tensor<4x6xf32>, tensor<4x2x1xi32>, tensor<4x2xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @take(
// CHECK: mlax.take %{{.*}}[%{{.*}}], axis = 1 : (tensor<5x3xf32>, tensor<4x2xi64>) -> tensor<5x4x2xf32>
// CHECK: mlax.take %{{.*}}[%{{.*}}], axis = 0 : (tensor<0x3xf32>, tensor<0xi32>) -> tensor<0x3xf32>
func.func @take(%x: tensor<5x3xf32>, %i: tensor<4x2xi64>, %e: tensor<0x3xf32>, %j: tensor<0xi32>) -> (tensor<5x4x2xf32>, tensor<0x3xf32>) {
  %0 = mlax.take %x[%i], axis = 1 : (tensor<5x3xf32>, tensor<4x2xi64>) -> tensor<5x4x2xf32>
  %1 = mlax.take %e[%j], axis = 0 : (tensor<0x3xf32>, tensor<0xi32>) -> tensor<0x3xf32>
  return %0, %1 : tensor<5x4x2xf32>, tensor<0x3xf32>
}
