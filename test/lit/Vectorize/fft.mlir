// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batching rule of mlax.fft (MlaxFftOps.cpp): the transform acts on
// trailing dimensions, so the leading batch dimension rides along.

// CHECK-LABEL: func.func private @rfft_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x3x8xf32>) -> tensor<4x3x5xcomplex<f32>>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.fft RFFT %[[ARG0]], length = [8] : tensor<4x3x8xf32> -> tensor<4x3x5xcomplex<f32>>
// CHECK-NEXT: return %[[V1]] : tensor<4x3x5xcomplex<f32>>
func.func private @rfft(%x: tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>> {
  %0 = mlax.fft RFFT %x, length = [8] : tensor<3x8xf32> -> tensor<3x5xcomplex<f32>>
  return %0 : tensor<3x5xcomplex<f32>>
}
func.func @test_rfft(%x: tensor<4x3x8xf32>) -> tensor<4x3x5xcomplex<f32>> {
  %r = mlax.vmap @rfft(%x) in_axes = [0] out_axes = [0] size = 4 : (tensor<4x3x8xf32>) -> tensor<4x3x5xcomplex<f32>>
  return %r : tensor<4x3x5xcomplex<f32>>
}

// CHECK-LABEL: func.func private @irfft2_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x6xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.fft IRFFT %[[ARG0]], length = [3, 6] : tensor<2x3x4xcomplex<f32>> -> tensor<2x3x6xf32>
// CHECK-NEXT: return %[[V1]] : tensor<2x3x6xf32>
func.func private @irfft2(%x: tensor<3x4xcomplex<f32>>) -> tensor<3x6xf32> {
  %0 = mlax.fft IRFFT %x, length = [3, 6] : tensor<3x4xcomplex<f32>> -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
func.func @test_irfft2(%x: tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x6xf32> {
  %r = mlax.vmap @irfft2(%x) in_axes = [0] out_axes = [0] size = 2 : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x6xf32>
  return %r : tensor<2x3x6xf32>
}
