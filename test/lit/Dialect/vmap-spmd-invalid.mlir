// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func private @body(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @test(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{spmd_axis_name names mesh axis "data" twice}}
  %a = mlax.vmap @body(%x) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["data", "data"] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %a : tensor<8x3xf32>
}

// -----

func.func private @body(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @test(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{spmd_axis_name must name at least one mesh axis}}
  %a = mlax.vmap @body(%x) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = [] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %a : tensor<8x3xf32>
}
