// Lowering of the bit-level and PRNG-support ops: shifts and bitcast_convert
// one to one; erf, erf_inv and next_after to CHLO (XLA expands them as it
// does for JAX); sort and cumsum as JAX lowers them on CPU.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

// CHECK-LABEL: func.func @shifts(
// CHECK: %[[A:.*]] = "stablehlo.shift_left"(%arg0, %arg1) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK: %[[B:.*]] = "stablehlo.shift_right_logical"(%[[A]], %arg1) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK: "stablehlo.shift_right_arithmetic"(%[[B]], %arg1) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
func.func @shifts(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xui32> {
  %0 = mlax.shift_left %x, %y : tensor<4xui32>
  %1 = mlax.shift_right_logical %0, %y : tensor<4xui32>
  %2 = mlax.shift_right_arithmetic %1, %y : tensor<4xui32>
  return %2 : tensor<4xui32>
}

// CHECK-LABEL: func.func @clz(
// CHECK: "stablehlo.count_leading_zeros"(%arg0) : (tensor<4xi64>) -> tensor<4xi64>
func.func @clz(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = mlax.clz %x : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @bitcast(
// CHECK: "stablehlo.bitcast_convert"(%arg0) : (tensor<4xui32>) -> tensor<4xf32>
// CHECK: "stablehlo.bitcast_convert"(%arg0) : (tensor<4xui32>) -> tensor<4x2xui16>
func.func @bitcast(%x: tensor<4xui32>) -> (tensor<4xf32>, tensor<4x2xui16>) {
  %0 = mlax.bitcast_convert %x : tensor<4xui32> -> tensor<4xf32>
  %1 = mlax.bitcast_convert %x : tensor<4xui32> -> tensor<4x2xui16>
  return %0, %1 : tensor<4xf32>, tensor<4x2xui16>
}

// CHECK-LABEL: func.func @chlo_ops(
// CHECK: %[[E:.*]] = "chlo.erf"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[I:.*]] = "chlo.erf_inv"(%[[E]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: "chlo.next_after"(%[[I]], %arg0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
func.func @chlo_ops(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf %x : tensor<3xf32>
  %1 = mlax.erf_inv %0 : tensor<3xf32>
  %2 = mlax.next_after %1, %x : tensor<3xf32>
  return %2 : tensor<3xf32>
}

// Unsigned keys: one LT UNSIGNED comparison.
// CHECK-LABEL: func.func @sort_uint_keys(
// CHECK: "stablehlo.sort"(%arg0, %arg1) ({
// CHECK: ^bb0(%[[A:.*]]: tensor<ui32>, %[[B:.*]]: tensor<ui32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
// CHECK: %[[LT:.*]] = "stablehlo.compare"(%[[A]], %[[B]]) {compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}
// CHECK: "stablehlo.return"(%[[LT]])
// CHECK: }) {dimension = 0 : i64, is_stable = true} : (tensor<5xui32>, tensor<5xf32>) -> (tensor<5xui32>, tensor<5xf32>)
func.func @sort_uint_keys(%k: tensor<5xui32>, %v: tensor<5xf32>) -> tensor<5xf32> {
  %0:2 = mlax.sort %k, %v {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64}
      : (tensor<5xui32>, tensor<5xf32>) -> (tensor<5xui32>, tensor<5xf32>)
  return %0#1 : tensor<5xf32>
}

// Float keys: -0.0 -> 0.0, NaN -> one NaN, then TOTALORDER; two keys
// compare lexicographically.
// CHECK-LABEL: func.func @sort_float_two_keys(
// CHECK: "stablehlo.sort"(%arg0, %arg1)
// CHECK: comparison_direction = #stablehlo<comparison_direction EQ>
// CHECK: "stablehlo.select"
// CHECK: comparison_direction = #stablehlo<comparison_direction NE>
// CHECK: dense<0x7FC00000>
// CHECK: compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>
// CHECK: compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction EQ>
// CHECK: "stablehlo.and"
// CHECK: "stablehlo.or"
// CHECK: {dimension = 0 : i64, is_stable = false}
func.func @sort_float_two_keys(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = mlax.sort %a, %b {dimension = 0 : i64, is_stable = false, num_keys = 2 : i64}
      : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cumsum(
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: "stablehlo.reduce_window"(%arg0, %[[Z]]) ({
// CHECK: "stablehlo.add"
// CHECK: }) {base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 0], [4, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 5>, window_strides = array<i64: 1, 1>}
// CHECK: padding = dense<{{\[\[}}0, 1], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 1>
func.func @cumsum(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = mlax.cumsum %x, axis = 1 : tensor<2x5xf32>
  %1 = mlax.cumsum %0, axis = 0 reverse : tensor<2x5xf32>
  return %1 : tensor<2x5xf32>
}

// A complex cumsum starts from a complex zero (the lowering once asked for
// an integer identity and crashed).
// CHECK-LABEL: func.func @cumsum_complex(
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>}
// CHECK: "stablehlo.reduce_window"(%arg0, %[[Z]]) ({
// CHECK: "stablehlo.add"
func.func @cumsum_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = mlax.cumsum %x, axis = 0 : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// As jnp.take: the indices get a trailing index vector dimension.
// CHECK-LABEL: func.func @take(
// CHECK: %[[I:.*]] = "stablehlo.reshape"(%arg1) : (tensor<2x6xi32>) -> tensor<2x6x1xi32>
// CHECK: "stablehlo.gather"(%arg0, %[[I]]) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 3], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 3, 1, 5>} : (tensor<3x4x5xf32>, tensor<2x6x1xi32>) -> tensor<3x2x6x5xf32>
func.func @take(%x: tensor<3x4x5xf32>, %i: tensor<2x6xi32>) -> tensor<3x2x6x5xf32> {
  %0 = mlax.take %x[%i], axis = 1 : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<3x2x6x5xf32>
  return %0 : tensor<3x2x6x5xf32>
}

// An empty axis has nothing to sum (and XLA rejects empty windows).
// CHECK-LABEL: func.func @cumsum_empty_axis(
// CHECK-NOT: reduce_window
// CHECK: return %arg0 : tensor<0x3xf32>
func.func @cumsum_empty_axis(%x: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = mlax.cumsum %x, axis = 0 : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// An empty take is an empty constant: a gather with a slice of 1 on the
// empty axis would be invalid StableHLO (jaxlib's verifier rejected it).
// CHECK-LABEL: func.func @take_empty(
// CHECK-NOT: stablehlo.gather
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<> : tensor<0x0xi32>} : () -> tensor<0x0xi32>
// CHECK: return %[[C]]
func.func @take_empty(%x: tensor<0x0xi32>, %i: tensor<0xi32>) -> tensor<0x0xi32> {
  %0 = mlax.take %x[%i], axis = 0 : (tensor<0x0xi32>, tensor<0xi32>) -> tensor<0x0xi32>
  return %0 : tensor<0x0xi32>
}
