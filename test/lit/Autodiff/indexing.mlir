// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the indexing ops
// (rules in MlaxIndexingOps.cpp, as jax.lax's): reverse is its
// own transpose, dynamic_slice transposes to a dynamic_update_slice into
// zeros, gather to a scatter-add; an overwriting scatter masks out what it
// overwrote (found by scattering ids), a max scatter averages ties. The
// read-back of a scatter's updates is a gather masked to zero where the
// scatter dropped the update (window out of bounds), as JAX's FILL_OR_DROP
// transpose, and plain zeros where no gather fits (an empty operand).
// Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_(jvp|vjp)$' and review them.

// CHECK-LABEL: func.func private @reverse_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reverse %[[ARG0]], dims = [0] : tensor<4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reverse %[[ARG1]], dims = [0] : tensor<4x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<4x3xf32>, tensor<4x3xf32>

// CHECK-LABEL: func.func private @dynamic_slice_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.dynamic_slice %[[ARG0]][%[[ARG1]], %[[ARG1]]] sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<4x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.dynamic_update_slice %[[V4]], %[[ARG2]] at [%[[ARG1]], %[[ARG1]]] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[V3]], %[[V5]] : tensor<2x3xf32>, tensor<4x3xf32>

// CHECK-LABEL: func.func private @dynamic_update_slice_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<i32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.dynamic_update_slice %[[ARG0]], %[[ARG1]] at [%[[ARG2]], %[[ARG2]]] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.dynamic_update_slice %[[ARG3]], %[[V5]] at [%[[ARG2]], %[[ARG2]]] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.dynamic_slice %[[ARG3]][%[[ARG2]], %[[ARG2]]] sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V4]], %[[V6]], %[[V7]] : tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>

// CHECK-LABEL: func.func private @gather_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<5x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.gather %[[ARG0]][%[[ARG1]]] offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<5x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.scatter add %[[V4]][%[[ARG1]]], %[[ARG2]] update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: return %[[V3]], %[[V5]] : tensor<2x3xf32>, tensor<5x3xf32>

// CHECK-LABEL: func.func private @scatter_add_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.scatter add %[[ARG0]][%[[ARG1]]], %[[ARG2]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.gather %[[ARG3]][%[[ARG1]]] offset_dims = [], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1] : (tensor<5xf32>, tensor<2x1xi32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<4> : tensor<1xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V6]], dims = [1] : tensor<1xi32> -> tensor<2x1xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.compare LE, %[[ARG1]], %[[V7]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.constant dense<0> : tensor<2x1xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare GE, %[[ARG1]], %[[V9]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.and %[[V10]], %[[V8]] : tensor<2x1xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.reduce_and %[[V11]], axes = [1] : tensor<2x1xi1> -> tensor<2xi1>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V13]], %[[V5]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: return %[[V4]], %[[ARG3]], %[[V14]] : tensor<5xf32>, tensor<5xf32>, tensor<2xf32>

// CHECK-LABEL: func.func private @scatter_set_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.scatter set %[[ARG0]][%[[ARG1]]], %[[ARG2]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<2xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1> : tensor<2xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V5]], %[[V6]] : tensor<2xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0> : tensor<5xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.scatter set %[[V8]][%[[ARG1]]], %[[V7]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<5xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.gather %[[V9]][%[[ARG1]]] offset_dims = [], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1] : (tensor<5xi32>, tensor<2x1xi32>) -> tensor<2xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<4> : tensor<1xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V11]], dims = [1] : tensor<1xi32> -> tensor<2x1xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.compare LE, %[[ARG1]], %[[V12]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.constant dense<0> : tensor<2x1xi32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.compare GE, %[[ARG1]], %[[V14]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.and %[[V15]], %[[V13]] : tensor<2x1xi1>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.reduce_and %[[V16]], axes = [1] : tensor<2x1xi1> -> tensor<2xi1>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.constant dense<0> : tensor<2xi32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.select_n %[[V17]], %[[V18]], %[[V10]] : tensor<2xi1>, tensor<2xi32>, tensor<2xi32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.compare EQ, %[[V9]], %[[V8]] : tensor<5xi32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.compare EQ, %[[V7]], %[[V19]] : tensor<2xi32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<5xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.select_n %[[V20]], %[[V22]], %[[ARG3]] : tensor<5xi1>, tensor<5xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.gather %[[ARG3]][%[[ARG1]]] offset_dims = [], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1] : (tensor<5xf32>, tensor<2x1xi32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.constant dense<4> : tensor<1xi32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V26]], dims = [1] : tensor<1xi32> -> tensor<2x1xi32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.compare LE, %[[ARG1]], %[[V27]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<0> : tensor<2x1xi32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.compare GE, %[[ARG1]], %[[V29]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.and %[[V30]], %[[V28]] : tensor<2x1xi1>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.reduce_and %[[V31]], axes = [1] : tensor<2x1xi1> -> tensor<2xi1>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.select_n %[[V32]], %[[V33]], %[[V25]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.select_n %[[V21]], %[[V24]], %[[V34]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: return %[[V4]], %[[V23]], %[[V35]] : tensor<5xf32>, tensor<5xf32>, tensor<2xf32>

// CHECK-LABEL: func.func private @scatter_max_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x1xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG4:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<5xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.scatter max %[[ARG0]][%[[ARG1]]], %[[ARG2]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.compare EQ, %[[ARG0]], %[[V5]] : tensor<5xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.gather %[[V5]][%[[ARG1]]] offset_dims = [], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1] : (tensor<5xf32>, tensor<2x1xi32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<4> : tensor<1xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V8]], dims = [1] : tensor<1xi32> -> tensor<2x1xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare LE, %[[ARG1]], %[[V9]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.constant dense<0> : tensor<2x1xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.compare GE, %[[ARG1]], %[[V11]] : tensor<2x1xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.and %[[V12]], %[[V10]] : tensor<2x1xi1>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.reduce_and %[[V13]], axes = [1] : tensor<2x1xi1> -> tensor<2xi1>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.select_n %[[V14]], %[[V15]], %[[V7]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.compare EQ, %[[ARG2]], %[[V16]] : tensor<2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.convert %[[V17]] : tensor<2xi1> -> tensor<2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.convert %[[V6]] : tensor<5xi1> -> tensor<5xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.scatter add %[[V19]][%[[ARG1]]], %[[V18]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<5xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V21]], %[[ARG3]] : tensor<5xi1>, tensor<5xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.select_n %[[V17]], %[[V23]], %[[ARG4]] : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.scatter add %[[V22]][%[[ARG1]]], %[[V24]] update_window_dims = [], inserted_window_dims = [0], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.div %[[V25]], %[[V20]] : tensor<5xf32>
// CHECK-NEXT: return %[[V5]], %[[V26]] : tensor<5xf32>, tensor<5xf32>

// CHECK-LABEL: func.func private @scatter_set_empty_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<0x1xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<0x2xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<0xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<0x1xf32>) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<0xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.scatter set %[[ARG0]][%[[ARG1]]], %[[ARG2]] update_window_dims = [], inserted_window_dims = [0, 1], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<0x1xf32>, tensor<0x2xi32>, tensor<0xf32>) -> tensor<0x1xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<0xi32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1> : tensor<0xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V5]], %[[V6]] : tensor<0xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0> : tensor<0x1xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.scatter set %[[V8]][%[[ARG1]]], %[[V7]] update_window_dims = [], inserted_window_dims = [0, 1], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<0x1xi32>, tensor<0x2xi32>, tensor<0xi32>) -> tensor<0x1xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0> : tensor<0xi32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.compare EQ, %[[V9]], %[[V8]] : tensor<0x1xi32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.compare EQ, %[[V7]], %[[V10]] : tensor<0xi32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<0x1xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[V13]], %[[ARG3]] : tensor<0x1xi1>, tensor<0x1xf32>, tensor<0x1xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<0xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<0xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.select_n %[[V12]], %[[V15]], %[[V16]] : tensor<0xi1>, tensor<0xf32>, tensor<0xf32>
// CHECK-NEXT: return %[[V4]], %[[V14]], %[[V17]] : tensor<0x1xf32>, tensor<0x1xf32>, tensor<0xf32>

// CHECK-LABEL: func.func private @scatter_add_into_empty_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<0x1xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x2xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<0x1xf32>) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.scatter add %[[ARG0]][%[[ARG1]]], %[[ARG2]] update_window_dims = [], inserted_window_dims = [0, 1], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<0x1xf32>, tensor<3x2xi32>, tensor<3xf32>) -> tensor<0x1xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[V4]], %[[ARG3]], %[[V5]] : tensor<0x1xf32>, tensor<0x1xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @scatter_add_windows_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xi32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<4x2x3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<4x2x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.scatter add %[[ARG0]][%[[ARG1]]], %[[ARG2]] update_window_dims = [1, 2], inserted_window_dims = [], input_batching_dims = [], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x2x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.gather %[[ARG3]][%[[ARG1]]] offset_dims = [1, 2], collapsed_slice_dims = [], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [2, 3] : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<3> : tensor<4xi32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.compare LE, %[[ARG1]], %[[V6]] : tensor<4xi32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.compare GE, %[[ARG1]], %[[V8]] : tensor<4xi32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.and %[[V9]], %[[V7]] : tensor<4xi1>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V10]], dims = [0] : tensor<4xi1> -> tensor<4x2x3xi1>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<4x2x3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.select_n %[[V11]], %[[V12]], %[[V5]] : tensor<4x2x3xi1>, tensor<4x2x3xf32>, tensor<4x2x3xf32>
// CHECK-NEXT: return %[[V4]], %[[V13]] : tensor<5x3xf32>, tensor<4x2x3xf32>


func.func private @reverse(%a0: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = mlax.reverse %a0, dims = [0] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @test_reverse(%a0: tensor<4x3xf32>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %r:2 = mlax.vjp @reverse(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return %r#0, %r#1 : tensor<4x3xf32>, tensor<4x3xf32>
}

func.func private @dynamic_slice(%a0: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  %0 = mlax.dynamic_slice %a0[%i, %i] sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_dynamic_slice(%a0: tensor<4x3xf32>, %i: tensor<i32>, %c: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>) {
  %r:2 = mlax.vjp @dynamic_slice(%a0, %i) cotangents(%c) wrt = [0] seeds = [0] : (tensor<4x3xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<4x3xf32>
}

func.func private @dynamic_update_slice(%a0: tensor<4x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) -> tensor<4x3xf32> {
  %0 = mlax.dynamic_update_slice %a0, %u at [%i, %i] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @test_dynamic_update_slice(%a0: tensor<4x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) {
  %r:3 = mlax.vjp @dynamic_update_slice(%a0, %u, %i) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>
}

func.func private @gather(%a0: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = mlax.gather %a0[%i] offset_dims = [1], collapsed_slice_dims = [0],
      operand_batching_dims = [], start_indices_batching_dims = [],
      start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
      : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_gather(%a0: tensor<5x3xf32>, %i: tensor<2x1xi32>, %c: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<5x3xf32>) {
  %r:2 = mlax.vjp @gather(%a0, %i) cotangents(%c) wrt = [0] seeds = [0] : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<5x3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<5x3xf32>
}

func.func private @scatter_add(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %0 = mlax.scatter add %a0[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_scatter_add(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %c: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<2xf32>) {
  %r:3 = mlax.vjp @scatter_add(%a0, %i, %u) cotangents(%c) wrt = [0, 2] seeds = [0] : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<2xf32>)
  return %r#0, %r#1, %r#2 : tensor<5xf32>, tensor<5xf32>, tensor<2xf32>
}

func.func private @scatter_set(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %0 = mlax.scatter set %a0[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_scatter_set(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %c: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<2xf32>) {
  %r:3 = mlax.vjp @scatter_set(%a0, %i, %u) cotangents(%c) wrt = [0, 2] seeds = [0] : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<2xf32>)
  return %r#0, %r#1, %r#2 : tensor<5xf32>, tensor<5xf32>, tensor<2xf32>
}

func.func private @scatter_max(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<5xf32> {
  %0 = mlax.scatter max %a0[%i], %u update_window_dims = [], inserted_window_dims = [0],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_scatter_max(%a0: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %t: tensor<5xf32>, %tu: tensor<2xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %r:2 = mlax.jvp @scatter_max(%a0, %i, %u) tangents(%t, %tu) wrt = [0, 2] : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<5xf32>, tensor<2xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xf32>
}

// The transpose of an overwriting scatter into an empty operand: the read
// back of its (no) updates is zeros, not a gather with slice size 1 on a
// size-0 dimension (which the gather verifier rejects; it used to be emitted).
func.func private @scatter_set_empty(%a0: tensor<0x1xf32>, %i: tensor<0x2xi32>, %u: tensor<0xf32>) -> tensor<0x1xf32> {
  %0 = mlax.scatter set %a0[%i], %u update_window_dims = [], inserted_window_dims = [0, 1],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1
      : (tensor<0x1xf32>, tensor<0x2xi32>, tensor<0xf32>) -> tensor<0x1xf32>
  return %0 : tensor<0x1xf32>
}
func.func @test_scatter_set_empty(%a0: tensor<0x1xf32>, %i: tensor<0x2xi32>, %u: tensor<0xf32>, %c: tensor<0x1xf32>) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<0xf32>) {
  %r:3 = mlax.vjp @scatter_set_empty(%a0, %i, %u) cotangents(%c) wrt = [0, 2] seeds = [0] : (tensor<0x1xf32>, tensor<0x2xi32>, tensor<0xf32>, tensor<0x1xf32>) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<0xf32>)
  return %r#0, %r#1, %r#2 : tensor<0x1xf32>, tensor<0x1xf32>, tensor<0xf32>
}

// Updates into an empty operand (all dropped): their cotangent is zeros.
func.func private @scatter_add_into_empty(%a0: tensor<0x1xf32>, %i: tensor<3x2xi32>, %u: tensor<3xf32>) -> tensor<0x1xf32> {
  %0 = mlax.scatter add %a0[%i], %u update_window_dims = [], inserted_window_dims = [0, 1],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1
      : (tensor<0x1xf32>, tensor<3x2xi32>, tensor<3xf32>) -> tensor<0x1xf32>
  return %0 : tensor<0x1xf32>
}
func.func @test_scatter_add_into_empty(%a0: tensor<0x1xf32>, %i: tensor<3x2xi32>, %u: tensor<3xf32>, %c: tensor<0x1xf32>) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @scatter_add_into_empty(%a0, %i, %u) cotangents(%c) wrt = [0, 2] seeds = [0] : (tensor<0x1xf32>, tensor<3x2xi32>, tensor<3xf32>, tensor<0x1xf32>) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<0x1xf32>, tensor<0x1xf32>, tensor<3xf32>
}

// A scatter of 2x3 windows with the index vector implicit (index_vector_dim
// = rank): the read-back masks out the updates whose window does not fit
// (start in [0, 5 - 2]), which the scatter dropped, as JAX's FILL_OR_DROP.
func.func private @scatter_add_windows(%a0: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x2x3xf32>) -> tensor<5x3xf32> {
  %0 = mlax.scatter add %a0[%i], %u update_window_dims = [1, 2], inserted_window_dims = [],
      input_batching_dims = [], scatter_indices_batching_dims = [],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1
      : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x2x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
func.func @test_scatter_add_windows(%a0: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x2x3xf32>, %c: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<4x2x3xf32>) {
  %r:2 = mlax.vjp @scatter_add_windows(%a0, %i, %u) cotangents(%c) wrt = [2] seeds = [0] : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x2x3xf32>, tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<4x2x3xf32>)
  return %r#0, %r#1 : tensor<5x3xf32>, tensor<4x2x3xf32>
}
