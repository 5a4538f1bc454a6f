// A composite survives mlax-default-pipeline: its decomposition is neither
// inlined into the caller nor removed by symbol-dce, and two composites
// of one decomposition are not merged (it may hold ops with effects).
//
// RUN: mlax-opt %s --mlax-default-pipeline | FileCheck %s

// CHECK-LABEL: func.func private @my.double(
// CHECK: "stablehlo.add"
// CHECK-LABEL: func.func @main(
// CHECK: %[[A:.*]] = "stablehlo.composite"(%{{.*}}) {decomposition = @my.double, name = "my.double"}
// CHECK: %[[B:.*]] = "stablehlo.composite"(%{{.*}}) {decomposition = @my.double, name = "my.double"}
// CHECK: "stablehlo.multiply"(%[[A]], %[[B]])
func.func private @my.double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = mlax.add %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = mlax.composite "my.double" @my.double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = mlax.composite "my.double" @my.double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %m = mlax.mul %a, %b : tensor<4xf32>
  return %m : tensor<4xf32>
}
