// Verifier errors of conv_general_dilated and the window ops.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @conv_ranks(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op needs lhs and rhs of one rank of at least 2, got ranks 3 and 4}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_spec(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op rhs_spec must be a permutation of the 3 dimensions, got [0, 0, 2]}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 0, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf16>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op requires operands of one dtype, got 'f32' and 'f16'}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf16>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_result_kind(%x: tensor<1x3x5xi8>, %k: tensor<4x3x3xi8>) {
  // expected-error @+1 {{'mlax.conv_general_dilated' op result element type 'f32' is not of the kind of 'i8'}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xi8>, tensor<4x3x3xi8>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_group_counts(%x: tensor<2x4x5xf32>, %k: tensor<4x2x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op feature_group_count (2) and batch_group_count (2) cannot both exceed 1}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 2, batch_group_count = 2 : (tensor<2x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_group_positive(%x: tensor<2x4x5xf32>, %k: tensor<4x2x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op feature_group_count and batch_group_count must be positive, got 0 and 1}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 0, batch_group_count = 1 : (tensor<2x4x5xf32>, tensor<4x2x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @conv_features(%x: tensor<1x3x5xf32>, %k: tensor<4x2x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op lhs feature dimension size divided by feature_group_count (3 / 1) must equal the rhs input feature dimension size (2)}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x2x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_feature_groups(%x: tensor<1x3x5xf32>, %k: tensor<4x1x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op lhs feature dimension (size 3) is not a multiple of feature_group_count 2}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 2, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_out_feature_groups(%x: tensor<1x4x5xf32>, %k: tensor<3x2x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op rhs output feature dimension (size 3) is not a multiple of feature_group_count 2}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 2, batch_group_count = 1 : (tensor<1x4x5xf32>, tensor<3x2x3xf32>) -> tensor<1x3x3xf32>
  return
}

// -----

func.func @conv_batch_groups(%x: tensor<3x2x5xf32>, %k: tensor<4x2x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op lhs batch dimension (size 3) is not a multiple of batch_group_count 2}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 2 : (tensor<3x2x5xf32>, tensor<4x2x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_batch_groups_out(%x: tensor<4x2x5xf32>, %k: tensor<3x2x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op rhs output feature dimension (size 3) is not a multiple of batch_group_count 2}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 2 : (tensor<4x2x5xf32>, tensor<3x2x3xf32>) -> tensor<2x3x3xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op window_strides must be positive, got [0]}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [0], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_padding_count(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op padding needs 2 entries (lhs spatial rank 1, a (low, high) pair each), got 1}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_dilation(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op rhs_dilation must be positive, got [0]}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [0], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_negative_padding(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op padding (-3, -3) removes more than lhs spatial dimension 0 (size 5) holds}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [-3, -3], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x0xf32>
  return
}

// -----

func.func @conv_result_shape(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op inferred type(s) 'tensor<1x4x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x5xf32>'}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x5xf32>
  return
}

// -----

func.func @reduce_window_count(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op window_strides needs 2 entries (operand rank 2), got 1}}
  %0 = mlax.reduce_window add %x, window = [2, 2], strides = [1], padding = [0, 0, 0, 0], base_dilation = [1, 1], window_dilation = [1, 1] : tensor<4x4xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @reduce_window_window(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op window_dimensions must be positive, got [0]}}
  %0 = mlax.reduce_window add %x, window = [0], strides = [1], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<4xf32> -> tensor<5xf32>
  return
}

// -----

func.func @reduce_window_base_dilation(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op base_dilation must be positive, got [0]}}
  %0 = mlax.reduce_window add %x, window = [1], strides = [1], padding = [0, 0], base_dilation = [0], window_dilation = [1] : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_window_shape(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = mlax.reduce_window max %x, window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @reduce_window_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xf16>'}}
  %0 = mlax.reduce_window max %x, window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<4xf32> -> tensor<2xf16>
  return
}

// -----

func.func @reduce_window_complex_max(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op max is not defined on complex numbers}}
  %0 = mlax.reduce_window max %x, window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<4xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return
}

// -----

func.func @select_and_gather_direction(%t: tensor<6xf32>, %x: tensor<6xf32>) {
  // expected-error @+1 {{'mlax.select_and_gather_add' op selects with GE (max) or LE (min), got EQ}}
  %0 = mlax.select_and_gather_add EQ %t, %x, window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @select_and_gather_types(%t: tensor<5xf32>, %x: tensor<6xf32>) {
  // expected-error @+1 {{'mlax.select_and_gather_add' op tangents type 'tensor<5xf32>' differs from the operand type 'tensor<6xf32>'}}
  %0 = mlax.select_and_gather_add GE %t, %x, window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<5xf32>, tensor<6xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @select_and_scatter_source(%s: tensor<2xf32>, %x: tensor<6xf32>) {
  // expected-error @+1 {{'mlax.select_and_scatter_add' op source shape [2] does not match the window count [3]}}
  %0 = mlax.select_and_scatter_add GE %s, %x, window = [2], strides = [2], padding = [0, 0] : (tensor<2xf32>, tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @select_and_scatter_result(%s: tensor<3xf32>, %x: tensor<6xf32>) {
  // expected-error @+1 {{'mlax.select_and_scatter_add' op result type 'tensor<7xf32>' differs from the operand type 'tensor<6xf32>'}}
  %0 = mlax.select_and_scatter_add GE %s, %x, window = [2], strides = [2], padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @reduce_window_padding(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_window' op padding (-3, -2) removes more than operand dimension 0 (size 4) holds}}
  %0 = mlax.reduce_window add %x, window = [1], strides = [1], padding = [-3, -2], base_dilation = [1], window_dilation = [1] : tensor<4xf32> -> tensor<0xf32>
  return
}

// -----

func.func @conv_lhs_spec_length(%x: tensor<1x3x5xf32>, %k: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op lhs_spec must be a permutation of the 3 dimensions, got [0, 1]}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x3xf32>) -> tensor<1x4x3xf32>
  return
}

// -----

func.func @conv_rhs_spatial(%x: tensor<1x3x5xf32>, %k: tensor<4x3x0xf32>) {
  // expected-error @+2 {{'mlax.conv_general_dilated' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.conv_general_dilated' op rhs spatial size must be positive, got [0]}}
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x5xf32>, tensor<4x3x0xf32>) -> tensor<1x4x6xf32>
  return
}
