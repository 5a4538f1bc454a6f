// A composite whose operands are not batched is copied into the batched
// function unchanged (its result is not batched either); a batched operand
// is an error (composite-errors.mlir).
//
// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

func.func private @my.double(%y: tensor<2xf32>) -> tensor<2xf32> {
  %z = mlax.add %y, %y : tensor<2xf32>
  return %z : tensor<2xf32>
}
func.func private @f(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %d = mlax.composite "my.double" @my.double(%y) : (tensor<2xf32>) -> tensor<2xf32>
  %r = mlax.mul %x, %d : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func private @f_vmap(
// CHECK-SAME: %[[XS:[^ ,:]*]]: tensor<3x2xf32>, %[[Y:[^ ,:]*]]: tensor<2xf32>)
// CHECK: %[[D:.*]] = mlax.composite "my.double" @my.double(%[[Y]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[DB:.*]] = mlax.broadcast_in_dim %[[D]]
// CHECK: mlax.mul %[[XS]], %[[DB]]
// CHECK-LABEL: func.func @batch_x(
func.func @batch_x(%xs: tensor<3x2xf32>, %y: tensor<2xf32>) -> tensor<3x2xf32> {
  %r = mlax.vmap @f(%xs, %y) in_axes = [0, -1] out_axes = [0] size = 3
      : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
