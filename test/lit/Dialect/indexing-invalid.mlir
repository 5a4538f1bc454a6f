// Shape-rule errors of the indexing ops (each also fails type inference).
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @reverse_twice(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlax.reverse' op dimensions [0, 0] must be distinct axes of the rank-2 operand: 0 appears twice}}
  %0 = mlax.reverse %x, dims = [0, 0] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @reverse_out_of_range(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlax.reverse' op dimensions [2] must be distinct axes of the rank-2 operand: 2 is out of range}}
  %0 = mlax.reverse %x, dims = [2] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @dynamic_slice_too_few_indices(%x: tensor<4x5xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.dynamic_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_slice' op needs one start index per operand dimension: rank 2, got 1 indices}}
  %0 = mlax.dynamic_slice %x[%i] sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_slice_vector_index(%x: tensor<4xf32>, %i: tensor<1xi32>) -> tensor<2xf32> {
  // expected-error @+2 {{'mlax.dynamic_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_slice' op start indices must be integer scalars, got 'tensor<1xi32>'}}
  %0 = mlax.dynamic_slice %x[%i] sizes = [2] : (tensor<4xf32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_mixed_index_types(%x: tensor<4x5xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.dynamic_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_slice' op start indices must have one type, got 'tensor<i32>' and 'tensor<i64>'}}
  %0 = mlax.dynamic_slice %x[%i, %j] sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_slice_float_index(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlax.dynamic_slice' op operand #1 must be variadic of statically shaped tensor of}}
  %0 = mlax.dynamic_slice %x[%i] sizes = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_size_count(%x: tensor<4x5xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // expected-error @+2 {{'mlax.dynamic_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_slice' op needs one slice size per operand dimension: rank 2, got slice_sizes [2]}}
  %0 = mlax.dynamic_slice %x[%i, %i] sizes = [2] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_too_big(%x: tensor<4x5xf32>, %i: tensor<i32>) -> tensor<6x3xf32> {
  // expected-error @+2 {{'mlax.dynamic_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_slice' op slice_sizes [6, 3] do not fit operand shape [4, 5]: slice size 6 in dimension 0}}
  %0 = mlax.dynamic_slice %x[%i, %i] sizes = [6, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

func.func @dynamic_slice_wrong_result(%x: tensor<4x5xf32>, %i: tensor<i32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'mlax.dynamic_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_slice' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %0 = mlax.dynamic_slice %x[%i, %i] sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @dus_element_type(%x: tensor<4xf32>, %u: tensor<2xf64>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.dynamic_update_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_update_slice' op update dtype 'f64' differs from the operand's 'f32'}}
  %0 = mlax.dynamic_update_slice %x, %u at [%i] : (tensor<4xf32>, tensor<2xf64>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dus_rank(%x: tensor<4xf32>, %u: tensor<1x2xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.dynamic_update_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_update_slice' op update rank 2 differs from operand rank 1}}
  %0 = mlax.dynamic_update_slice %x, %u at [%i] : (tensor<4xf32>, tensor<1x2xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dus_too_big(%x: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.dynamic_update_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_update_slice' op update shape [5] must fit operand shape [4]}}
  %0 = mlax.dynamic_update_slice %x, %u at [%i] : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dus_result(%x: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  // expected-error @+2 {{'mlax.dynamic_update_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_update_slice' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  %0 = mlax.dynamic_update_slice %x, %u at [%i] : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @dus_vector_index(%x: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<1xi32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.dynamic_update_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_update_slice' op start indices must be integer scalars, got 'tensor<1xi32>'}}
  %0 = mlax.dynamic_update_slice %x, %u at [%i] : (tensor<4xf32>, tensor<2xf32>, tensor<1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dus_too_few_indices(%x: tensor<4x5xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'mlax.dynamic_update_slice' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.dynamic_update_slice' op needs one start index per operand dimension: rank 2, got 1 indices}}
  %0 = mlax.dynamic_update_slice %x, %u at [%i] : (tensor<4x5xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @gather_offset_dims_out_of_range(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op offset_dims [2]: 2 is out of range for rank 2}}
  %0 = mlax.gather %x[%i] offset_dims = [2], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_batching_is_index_vector(%x: tensor<4x6xf32>, %i: tensor<4x1xi32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op start_indices_batching_dims contains index_vector_dim 1}}
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [1],
      operand_batching_dims = [0], start_indices_batching_dims = [1],
      start_index_map = [1], index_vector_dim = 1, slice_sizes = [1, 1]
      : (tensor<4x6xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_index_vector_dim(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op index_vector_dim 3 is out of range for start indices of rank 2}}
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 3, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_slice_size_count(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op needs one slice size per operand dimension: rank 2, got slice_sizes [1]}}
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_slice_too_big(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op slice size 4 in dimension 1 does not fit operand shape [5, 3]}}
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_start_index_map(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op start_index_map [0, 1] needs one entry per index vector element (1)}}
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_collapsed_unsorted(%x: tensor<5x3xf32>, %i: tensor<2x2xi32>) -> tensor<2xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op collapsed_slice_dims must be sorted, got [1, 0]}}
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [1, 0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [1, 1]
      : (tensor<5x3xf32>, tensor<2x2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_collapsed_wide(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op collapsed dimension 0 needs slice size 1, got 2}}
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [2, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_batching_overlap(%x: tensor<4x6xf32>, %i: tensor<4x1xi32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op dimension 0 is in both collapsed_slice_dims and operand_batching_dims}}
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [0, 1],
      operand_batching_dims = [0], start_indices_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 1, slice_sizes = [1, 1]
      : (tensor<4x6xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_batching_sizes(%x: tensor<4x6xf32>, %i: tensor<3x1xi32>) -> tensor<3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op operand batching dimension 0 (size 4) does not match start indices dimension 0 (size 3)}}
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [1],
      operand_batching_dims = [0], start_indices_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 1, slice_sizes = [1, 1]
      : (tensor<4x6xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_offset_dims(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op offset_dims [] needs one entry per slice dimension that is neither collapsed nor batching (1)}}
  %0 = mlax.gather %x[%i] offset_dims = [], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_result(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'mlax.gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.gather' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %0 = mlax.gather %x[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @scatter_result(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op inferred type(s) 'tensor<5xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_update_type(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<5xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op updates dtype 'i32' differs from the operand's 'f32'}}
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @scatter_dims_to_operand_dims(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op scatter_dims_to_operand_dims [] needs one entry per index vector element (1)}}
  %0 = mlax.scatter set %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @scatter_window_dims(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op update_window_dims [] needs one entry per operand dimension that is neither inserted nor batching (1)}}
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_updates_shape(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op updates shape [4, 3] has scatter dimensions [4] but the indices' batch dimensions are [2]}}
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [1], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_window_too_big(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op update window dimension 1 (size 4) exceeds operand dimension 1 (size 3)}}
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [1], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_index_vector_dim(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op index_vector_dim 3 is out of range for scatter indices of rank 2}}
  %0 = mlax.scatter add %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 3
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @scatter_batching_sizes(%x: tensor<4x6xf32>, %i: tensor<3x1xi32>, %u: tensor<3xf32>) -> tensor<4x6xf32> {
  // expected-error @+2 {{'mlax.scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.scatter' op input batching dimension 0 (size 4) does not match scatter indices dimension 0 (size 3)}}
  %0 = mlax.scatter set %x[%i], %u update_window_dims = [], inserted_window_dims = [1],
      input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 1
      : (tensor<4x6xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @scatter_unknown_combiner(%x: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'combiner' [set, add, mul, min, max]}}
  %0 = mlax.scatter sub %x[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
