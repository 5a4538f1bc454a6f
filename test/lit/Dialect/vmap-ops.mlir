// Round trip of mlax.vmap, and its verifier.
//
// RUN: mlax-opt %s --split-input-file | FileCheck %s
// RUN: mlax-opt %s --split-input-file --mlir-print-op-generic | mlax-opt --split-input-file | FileCheck %s

func.func private @f(%x: tensor<3xf32>, %w: tensor<3x3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// CHECK-LABEL: func.func @round_trip(
// CHECK: mlax.vmap @f(%{{.*}}, %{{.*}}) in_axes = [1, -1] out_axes = [0] size = 10 : (tensor<3x10xf32>, tensor<3x3xf32>) -> tensor<10x3xf32>
func.func @round_trip(%xs: tensor<3x10xf32>, %w: tensor<3x3xf32>) -> tensor<10x3xf32> {
  %r = mlax.vmap @f(%xs, %w) in_axes = [1, -1] out_axes = [0] size = 10
      : (tensor<3x10xf32>, tensor<3x3xf32>) -> tensor<10x3xf32>
  return %r : tensor<10x3xf32>
}
