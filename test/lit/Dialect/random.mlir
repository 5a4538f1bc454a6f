// Round trip of mlax.rng_bit_generator (each algorithm, both key forms,
// each bits dtype) and of mlax.rng_uniform.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @default_u32(
// CHECK: %{{.*}}, %{{.*}} = mlax.rng_bit_generator DEFAULT %{{.*}} : tensor<4xui32> -> tensor<2x3xui32>
func.func @default_u32(%k: tensor<4xui32>) -> (tensor<4xui32>, tensor<2x3xui32>) {
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xui32> -> tensor<2x3xui32>
  return %nk, %bits : tensor<4xui32>, tensor<2x3xui32>
}

// CHECK-LABEL: func.func @three_fry_u8(
// CHECK: mlax.rng_bit_generator THREE_FRY %{{.*}} : tensor<4xui32> -> tensor<5xui8>
func.func @three_fry_u8(%k: tensor<4xui32>) -> tensor<5xui8> {
  %nk, %bits = mlax.rng_bit_generator THREE_FRY %k : tensor<4xui32> -> tensor<5xui8>
  return %bits : tensor<5xui8>
}

// CHECK-LABEL: func.func @philox_u64_key(
// CHECK: mlax.rng_bit_generator PHILOX %{{.*}} : tensor<2xui64> -> tensor<ui16>
func.func @philox_u64_key(%k: tensor<2xui64>) -> (tensor<2xui64>, tensor<ui16>) {
  %nk, %bits = mlax.rng_bit_generator PHILOX %k : tensor<2xui64> -> tensor<ui16>
  return %nk, %bits : tensor<2xui64>, tensor<ui16>
}

// CHECK-LABEL: func.func @u64_bits(
// CHECK: mlax.rng_bit_generator DEFAULT %{{.*}} : tensor<4xui32> -> tensor<0x2xui64>
func.func @u64_bits(%k: tensor<4xui32>) -> tensor<0x2xui64> {
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xui32> -> tensor<0x2xui64>
  return %bits : tensor<0x2xui64>
}

// mlax.rng_uniform: the result has the operands' element type.
// CHECK-LABEL: func.func @uniform_f32(
// CHECK: %{{.*}} = mlax.rng_uniform %{{.*}}, %{{.*}} : tensor<f32> -> tensor<2x3xf32>
func.func @uniform_f32(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %r = mlax.rng_uniform %a, %b : tensor<f32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @uniform_kinds(
// CHECK: mlax.rng_uniform %{{.*}}, %{{.*}} : tensor<i32> -> tensor<4xi32>
// CHECK: mlax.rng_uniform %{{.*}}, %{{.*}} : tensor<ui64> -> tensor<ui64>
// CHECK: mlax.rng_uniform %{{.*}}, %{{.*}} : tensor<bf16> -> tensor<0x2xbf16>
func.func @uniform_kinds(%i: tensor<i32>, %u: tensor<ui64>, %h: tensor<bf16>)
    -> (tensor<4xi32>, tensor<ui64>, tensor<0x2xbf16>) {
  %a = mlax.rng_uniform %i, %i : tensor<i32> -> tensor<4xi32>
  %b = mlax.rng_uniform %u, %u : tensor<ui64> -> tensor<ui64>
  %c = mlax.rng_uniform %h, %h : tensor<bf16> -> tensor<0x2xbf16>
  return %a, %b, %c : tensor<4xi32>, tensor<ui64>, tensor<0x2xbf16>
}
