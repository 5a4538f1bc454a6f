// Errors of vmap(spmd_axis_name=...) at the sharding_constraint / shard_map
// it batches: an axis not in the mesh, an axis the sharding already uses,
// a batch its axes do not divide.
//
// RUN: mlax-opt %s --split-input-file --mlax-vectorize --verify-diagnostics

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{vmap spmd_axis_name names mesh axis "foo", which is not in the mesh ["data"=4, "model"=2]}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test(%xs: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["foo"] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{vmap spmd_axis_name "model" cannot appear in with_sharding_constraint spec, but got #mlax.sharding<["data"=4, "model"=2], [{"model"}]>}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"model"}]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @test(%xs: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["model"] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{vmap spmd_axis_name: the batch size 6 is not divisible by 4, the size of mesh axes {"data"} the mapped dimension is split over}}
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test(%xs: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 6 spmd_axis_name = ["data"] : (tensor<6x3xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

// -----

func.func private @h(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{vmap spmd_axis_name "model" cannot appear in shard_map in_specs}}
  %r = mlax.shard_map @hbody(%x) in [#mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>] out [#mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func private @hbody(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  return %x : tensor<3x2xf32>
}
func.func @test(%xs: tensor<8x3x4xf32>) -> tensor<8x3x4xf32> {
  %r = mlax.vmap @h(%xs) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["model"] : (tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  return %r : tensor<8x3x4xf32>
}

// -----

func.func private @h(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{vmap spmd_axis_name "data" cannot appear in shard_map out_specs}}
  %r:2 = mlax.shard_map @hbody(%x) in [#mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], []>, #mlax.sharding<["data"=4, "model"=2], [{"data"}]>] : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<12x4xf32>)
  %s = mlax.slice %r#1, start = [0, 0], limit = [3, 4], strides = [1, 1] : tensor<12x4xf32> -> tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}
func.func private @hbody(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  return %x, %x : tensor<3x4xf32>, tensor<3x4xf32>
}
func.func @test(%xs: tensor<8x3x4xf32>) -> tensor<8x3x4xf32> {
  %r = mlax.vmap @h(%xs) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["data"] : (tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  return %r : tensor<8x3x4xf32>
}

// -----

func.func private @h(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{vmap spmd_axis_name: the batch size 6 is not divisible by 8, the size of mesh axes {"data", "model"} the mapped dimension is split over}}
  %r = mlax.shard_map @hbody(%x) in [#mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], []>] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func private @hbody(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  return %x : tensor<3x4xf32>
}
func.func @test(%xs: tensor<6x3x4xf32>) -> tensor<6x3x4xf32> {
  %r = mlax.vmap @h(%xs) in_axes = [0] out_axes = [0] size = 6 spmd_axis_name = ["data", "model"] : (tensor<6x3x4xf32>) -> tensor<6x3x4xf32>
  return %r : tensor<6x3x4xf32>
}

// -----

func.func private @h(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{a collective over vmap axis "i" inside a shard_map batched with spmd_axis_name is not implemented}}
  %r = mlax.shard_map @hbody(%x) in [#mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], []>] : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func private @hbody(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=8]> over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test(%xs: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %r = mlax.vmap @h(%xs) in_axes = [0] out_axes = [0] size = 8 axis_name = "i" spmd_axis_name = ["data"] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
