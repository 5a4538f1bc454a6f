// Round trip of mlax.fft (FFT, IFFT, RFFT, IRFFT over 1 to 3 trailing dims).
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @fft_1d(
// CHECK: mlax.fft FFT %{{.*}}, length = [8] : tensor<3x8xcomplex<f32>> -> tensor<3x8xcomplex<f32>>
func.func @fft_1d(%x: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
  %0 = mlax.fft FFT %x, length = [8] : tensor<3x8xcomplex<f32>> -> tensor<3x8xcomplex<f32>>
  return %0 : tensor<3x8xcomplex<f32>>
}

// CHECK-LABEL: func.func @ifft_3d(
// CHECK: mlax.fft IFFT %{{.*}}, length = [2, 3, 4] : tensor<2x3x4xcomplex<f64>> -> tensor<2x3x4xcomplex<f64>>
func.func @ifft_3d(%x: tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>> {
  %0 = mlax.fft IFFT %x, length = [2, 3, 4] : tensor<2x3x4xcomplex<f64>> -> tensor<2x3x4xcomplex<f64>>
  return %0 : tensor<2x3x4xcomplex<f64>>
}

// CHECK-LABEL: func.func @rfft_2d(
// CHECK: mlax.fft RFFT %{{.*}}, length = [4, 7] : tensor<5x4x7xf32> -> tensor<5x4x4xcomplex<f32>>
func.func @rfft_2d(%x: tensor<5x4x7xf32>) -> tensor<5x4x4xcomplex<f32>> {
  %0 = mlax.fft RFFT %x, length = [4, 7] : tensor<5x4x7xf32> -> tensor<5x4x4xcomplex<f32>>
  return %0 : tensor<5x4x4xcomplex<f32>>
}

// CHECK-LABEL: func.func @irfft_1d(
// CHECK: mlax.fft IRFFT %{{.*}}, length = [8] : tensor<5xcomplex<f64>> -> tensor<8xf64>
func.func @irfft_1d(%x: tensor<5xcomplex<f64>>) -> tensor<8xf64> {
  %0 = mlax.fft IRFFT %x, length = [8] : tensor<5xcomplex<f64>> -> tensor<8xf64>
  return %0 : tensor<8xf64>
}

// The result type is inferred from the operand, fft_type and fft_length:
// an odd IRFFT length keeps length // 2 + 1 operand entries.
// CHECK-LABEL: func.func @irfft_odd_2d(
// CHECK: mlax.fft IRFFT %{{.*}}, length = [3, 7] : tensor<2x3x4xcomplex<f32>> -> tensor<2x3x7xf32>
func.func @irfft_odd_2d(%x: tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x7xf32> {
  %0 = mlax.fft IRFFT %x, length = [3, 7] : tensor<2x3x4xcomplex<f32>> -> tensor<2x3x7xf32>
  return %0 : tensor<2x3x7xf32>
}
