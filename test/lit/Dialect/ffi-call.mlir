// mlax.ffi_call parses, verifies and prints back. Without has_side_effect
// it has no memory effects: canonicalize and cse drop an unused call and
// merge identical ones; with it, every call stays.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --canonicalize --cse | FileCheck %s --check-prefix=OPT

// CHECK-LABEL: func.func @calls(
// CHECK: mlax.ffi_call "rms_norm"(%{{.*}}) {backend_config = {eps = 9.99999974E-6 : f32}, operand_layouts = [array<i64: 1, 0>], result_layouts = [array<i64: 1, 0>], vmap_method = "broadcast_all"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: mlax.ffi_call "two"(%{{.*}}, %{{.*}}) {backend_config = {k = 3 : i64}, has_side_effect, input_output_aliases = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2xi32>)
// CHECK: mlax.ffi_call "legacy"() {api_version = 2 : i32, backend_config = "opaque"} : () -> tensor<4xf32>
// OPT-LABEL: func.func @calls(
// OPT-COUNT-1: "rms_norm"
// OPT-NOT: "rms_norm"
// OPT-COUNT-2: "two"
// OPT-NOT: "legacy"
func.func @calls(%x: tensor<2x3xf32>, %n: tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %y = mlax.ffi_call "rms_norm"(%x) {backend_config = {eps = 1.0e-05 : f32},
      operand_layouts = [array<i64: 1, 0>], result_layouts = [array<i64: 1, 0>],
      vmap_method = "broadcast_all"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %same = mlax.ffi_call "rms_norm"(%x) {backend_config = {eps = 1.0e-05 : f32},
      operand_layouts = [array<i64: 1, 0>], result_layouts = [array<i64: 1, 0>],
      vmap_method = "broadcast_all"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a:2 = mlax.ffi_call "two"(%x, %n) {backend_config = {k = 3 : i64}, has_side_effect,
      input_output_aliases = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2xi32>)
  %b:2 = mlax.ffi_call "two"(%x, %n) {backend_config = {k = 3 : i64}, has_side_effect,
      input_output_aliases = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2xi32>)
  %unused = mlax.ffi_call "legacy"() {api_version = 2 : i32, backend_config = "opaque"} : () -> tensor<4xf32>
  %s = mlax.add %y, %same : tensor<2x3xf32>
  return %s, %y : tensor<2x3xf32>, tensor<2x3xf32>
}
