// mlax.vmap's spmd_axis_name (jax.vmap(spmd_axis_name=...)): the mesh axes
// the mapped dimension is split over; parse, verify and print back, in the
// custom and generic forms, alone and with axis_name.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

func.func private @body(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// CHECK-LABEL: func.func @test(
// CHECK: mlax.vmap @body(%{{.*}}) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["data"] :
// CHECK: mlax.vmap @body(%{{.*}}) in_axes = [0] out_axes = [0] size = 8 axis_name = "i" spmd_axis_name = ["data", "model"] :
func.func @test(%x: tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<8x3xf32>) {
  %a = mlax.vmap @body(%x) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["data"] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  %b = mlax.vmap @body(%x) in_axes = [0] out_axes = [0] size = 8 axis_name = "i" spmd_axis_name = ["data", "model"] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %a, %b : tensor<8x3xf32>, tensor<8x3xf32>
}
