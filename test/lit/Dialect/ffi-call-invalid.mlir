// Verifier errors of mlax.ffi_call.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @empty_name(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.ffi_call' op target_name is empty}}
  %y = mlax.ffi_call ""(%x) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @bad_version(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.ffi_call' op api_version must be 0-4, got 5}}
  %y = mlax.ffi_call "t"(%x) {api_version = 5 : i32} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @string_config_typed_ffi(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.ffi_call' op with api_version 4 (typed FFI) takes its attributes as a dictionary backend_config, got "opaque"}}
  %y = mlax.ffi_call "t"(%x) {backend_config = "opaque"} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @dict_config_legacy(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.ffi_call' op with api_version 2 takes a string backend_config, got {a = 1 : i64}}}
  %y = mlax.ffi_call "t"(%x) {api_version = 2 : i32, backend_config = {a = 1}} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @bad_vmap_method(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.ffi_call' op vmap_method must be one of "sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"; got "parallel"}}
  %y = mlax.ffi_call "t"(%x) {vmap_method = "parallel"} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @layout_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op has 2 operand_layouts for 1 operands}}
  %y = mlax.ffi_call "t"(%x) {operand_layouts = [array<i64: 0>, array<i64: 0>]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @layout_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op result_layouts[0] = array<i64: 1, 1> is not a permutation of the 2 dimensions of 'tensor<2x3xf32>'}}
  %y = mlax.ffi_call "t"(%x) {result_layouts = [array<i64: 1, 1>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @layout_not_array(%x: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op operand_layouts[0] is not an array<i64>}}
  %y = mlax.ffi_call "t"(%x) {operand_layouts = [0 : i64]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_odd(%x: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op input_output_aliases must hold (operand, result) pairs}}
  %y = mlax.ffi_call "t"(%x) {input_output_aliases = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_range(%x: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op input_output_aliases pair (1, 0) is out of range for 1 operands and 1 results}}
  %y = mlax.ffi_call "t"(%x) {input_output_aliases = array<i64: 1, 0>} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op input_output_aliases pair (0, 0) aliases an operand and a result of different types or layouts}}
  %y = mlax.ffi_call "t"(%x) {input_output_aliases = array<i64: 0, 0>} : (tensor<2xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @alias_layout(%x: tensor<2x2xf32>) {
  // expected-error @+1 {{'mlax.ffi_call' op input_output_aliases pair (0, 0) aliases an operand and a result of different types or layouts}}
  %y = mlax.ffi_call "t"(%x) {input_output_aliases = array<i64: 0, 0>, operand_layouts = [array<i64: 0, 1>]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}
