// Lowering of mlax.rng_bit_generator to stablehlo.rng_bit_generator, as jax
// lowers lax.rng_bit_generator: a ui32[4] key is bitcast to the ui64[2]
// XLA takes and the new key bitcast back; a ui64[2] key goes as it is.
// mlax.rng_uniform lowers to stablehlo.rng (end of file).
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @u32_key(
// CHECK-SAME: %[[K:.*]]: tensor<4xui32>)
// CHECK: %[[P:.*]] = "stablehlo.reshape"(%[[K]]) : (tensor<4xui32>) -> tensor<2x2xui32>
// CHECK: %[[K64:.*]] = "stablehlo.bitcast_convert"(%[[P]]) : (tensor<2x2xui32>) -> tensor<2xui64>
// CHECK: %[[G:.*]]:2 = "stablehlo.rng_bit_generator"(%[[K64]]) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
// CHECK: %[[NP:.*]] = "stablehlo.bitcast_convert"(%[[G]]#0) : (tensor<2xui64>) -> tensor<2x2xui32>
// CHECK: %[[NK:.*]] = "stablehlo.reshape"(%[[NP]]) : (tensor<2x2xui32>) -> tensor<4xui32>
// CHECK: return %[[NK]], %[[G]]#1
func.func @u32_key(%k: tensor<4xui32>) -> (tensor<4xui32>, tensor<2x3xui32>) {
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xui32> -> tensor<2x3xui32>
  return %nk, %bits : tensor<4xui32>, tensor<2x3xui32>
}

// -----

// CHECK-LABEL: func.func @three_fry_u8(
// CHECK: "stablehlo.rng_bit_generator"(%{{.*}}) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui8>)
func.func @three_fry_u8(%k: tensor<4xui32>) -> tensor<5xui8> {
  %nk, %bits = mlax.rng_bit_generator THREE_FRY %k : tensor<4xui32> -> tensor<5xui8>
  return %bits : tensor<5xui8>
}

// -----

// CHECK-LABEL: func.func @philox_u64_key(
// CHECK-SAME: %[[K:.*]]: tensor<2xui64>)
// CHECK-NOT: bitcast_convert
// CHECK: %[[G:.*]]:2 = "stablehlo.rng_bit_generator"(%[[K]]) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui16>)
// CHECK: return %[[G]]#0, %[[G]]#1
func.func @philox_u64_key(%k: tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui16>) {
  %nk, %bits = mlax.rng_bit_generator PHILOX %k : tensor<2xui64> -> tensor<7xui16>
  return %nk, %bits : tensor<2xui64>, tensor<7xui16>
}

// -----

// mlax.rng_uniform -> stablehlo.rng UNIFORM with the shape as a constant, as
// jax lowers lax.rng_uniform.
// CHECK-LABEL: func.func @uniform(
// CHECK-SAME: %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>)
// CHECK: %[[S:.*]] = "stablehlo.constant"() {value = dense<[4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK: %[[R:.*]] = "stablehlo.rng"(%[[A]], %[[B]], %[[S]]) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK: return %[[R]]
func.func @uniform(%a: tensor<f32>, %b: tensor<f32>) -> tensor<4x2xf32> {
  %r = mlax.rng_uniform %a, %b : tensor<f32> -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// A scalar result: an empty shape.
// CHECK-LABEL: func.func @uniform_scalar(
// CHECK: %[[S:.*]] = "stablehlo.constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
// CHECK: "stablehlo.rng"(%{{.*}}, %{{.*}}, %[[S]]) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<ui32>, tensor<ui32>, tensor<0xi64>) -> tensor<ui32>
func.func @uniform_scalar(%a: tensor<ui32>, %b: tensor<ui32>) -> tensor<ui32> {
  %r = mlax.rng_uniform %a, %b : tensor<ui32> -> tensor<ui32>
  return %r : tensor<ui32>
}
