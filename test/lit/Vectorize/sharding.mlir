// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// mlax.sharding_constraint's batching rule: the batch dimension (in front)
// is replicated, `{}`, and the spec is first padded with `{}` to the rank.

// CHECK-LABEL: func.func private @full_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<3x8x4xf32>
// CHECK-NEXT: %[[Y:.*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"data"}, {"model"}]>} : tensor<3x8x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func private @full(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {"model"}]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func @test_full(%xs: tensor<3x8x4xf32>) -> tensor<3x8x4xf32> {
  %r = mlax.vmap @full(%xs) in_axes = [0] out_axes = [0] size = 3 : (tensor<3x8x4xf32>) -> tensor<3x8x4xf32>
  return %r : tensor<3x8x4xf32>
}

// A short spec is padded to the rank before the batch entry goes in front.
// CHECK-LABEL: func.func private @short_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<5x8x4xf32>
// CHECK-NEXT: %[[Y:.*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"data", "model"}, {}]>} : tensor<5x8x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func private @short(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func @test_short(%xs: tensor<5x8x4xf32>) -> tensor<5x8x4xf32> {
  %r = mlax.vmap @short(%xs) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x8x4xf32>) -> tensor<5x8x4xf32>
  return %r : tensor<5x8x4xf32>
}

// A scalar's empty spec becomes one replicated entry; an operand batched
// along another axis is moved to the front first.
// CHECK-LABEL: func.func private @scalar_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<7xf32>
// CHECK-NEXT: %[[Y:.*]] = mlax.sharding_constraint %[[X]] {sharding = #mlax.sharding<["x"=2], [{}]>} : tensor<7xf32>
func.func private @scalar(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["x"=2], []>} : tensor<f32>
  return %0 : tensor<f32>
}
func.func @test_scalar(%xs: tensor<7xf32>) -> tensor<7xf32> {
  %r = mlax.vmap @scalar(%xs) in_axes = [0] out_axes = [0] size = 7 : (tensor<7xf32>) -> tensor<7xf32>
  return %r : tensor<7xf32>
}

// CHECK-LABEL: func.func private @moved_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<4x6xf32>
// CHECK-NEXT: %[[T:.*]] = mlax.transpose %[[X]], permutation = [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
// CHECK-NEXT: %[[Y:.*]] = mlax.sharding_constraint %[[T]] {sharding = #mlax.sharding<["x"=2], [{}, {"x"}]>} : tensor<6x4xf32>
func.func private @moved(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["x"=2], [{"x"}]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @test_moved(%xs: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %r = mlax.vmap @moved(%xs) in_axes = [1] out_axes = [0] size = 6 : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
