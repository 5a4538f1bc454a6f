// Lowering of mlax.ffi_call to the stablehlo.custom_call JAX emits
// (jax/_src/ffi.py ffi_lowering): for the typed FFI (api_version 4) its
// attributes are the discardable mhlo.backend_config dictionary beside an
// empty backend_config string and api_version 1; layouts (row-major when
// the op has none) are dense index tensors; a single result's alias has no
// tuple index. Legacy API versions keep their number and opaque string.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @main(
// CHECK: "stablehlo.custom_call"(%{{.*}}) {api_version = 1 : i32, backend_config = "", call_target_name = "rms_norm", called_computations = [], has_side_effect = false, mhlo.backend_config = {eps = 9.99999974E-6 : f32}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: "stablehlo.custom_call"(%{{.*}}, %{{.*}}) {api_version = 1 : i32, backend_config = "", call_target_name = "two", called_computations = [], has_side_effect = true, mhlo.backend_config = {}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<> : tensor<0xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2xi32>)
// CHECK: "stablehlo.custom_call"() {api_version = 2 : i32, backend_config = "opaque", call_target_name = "legacy", called_computations = [], has_side_effect = true, operand_layouts = [], output_operand_aliases = [], result_layouts = [dense<0> : tensor<1xindex>]} : () -> tensor<4xf32>
func.func @main(%x: tensor<2x3xf32>, %n: tensor<i32>) -> (tensor<2x3xf32>, tensor<2xi32>, tensor<4xf32>) {
  %y = mlax.ffi_call "rms_norm"(%x) {backend_config = {eps = 1.0e-05 : f32},
      operand_layouts = [array<i64: 0, 1>], result_layouts = [array<i64: 0, 1>],
      input_output_aliases = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a:2 = mlax.ffi_call "two"(%y, %n) {has_side_effect, input_output_aliases = array<i64: 0, 0>}
      : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2xi32>)
  %l = mlax.ffi_call "legacy"() {api_version = 2 : i32, backend_config = "opaque", has_side_effect} : () -> tensor<4xf32>
  return %a#0, %a#1, %l : tensor<2x3xf32>, tensor<2xi32>, tensor<4xf32>
}
