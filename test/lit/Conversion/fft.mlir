// Lowering of mlax.fft to stablehlo.fft (fft_type and fft_length carried
// over unchanged).
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @fft(
// CHECK-SAME: %[[X:.*]]: tensor<3x8xcomplex<f32>>)
// CHECK: "stablehlo.fft"(%[[X]]) {fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
func.func @fft(%x: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
  %0 = mlax.fft FFT %x, length = [8] : tensor<3x8xcomplex<f32>> -> tensor<3x8xcomplex<f32>>
  return %0 : tensor<3x8xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @ifft(
// CHECK: "stablehlo.fft"(%{{.*}}) {fft_length = array<i64: 2, 3>, fft_type = #stablehlo<fft_type IFFT>} : (tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>>
func.func @ifft(%x: tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>> {
  %0 = mlax.fft IFFT %x, length = [2, 3] : tensor<2x3xcomplex<f64>> -> tensor<2x3xcomplex<f64>>
  return %0 : tensor<2x3xcomplex<f64>>
}

// -----

// CHECK-LABEL: func.func @rfft(
// CHECK: "stablehlo.fft"(%{{.*}}) {fft_length = array<i64: 4, 7>, fft_type = #stablehlo<fft_type RFFT>} : (tensor<5x4x7xf32>) -> tensor<5x4x4xcomplex<f32>>
func.func @rfft(%x: tensor<5x4x7xf32>) -> tensor<5x4x4xcomplex<f32>> {
  %0 = mlax.fft RFFT %x, length = [4, 7] : tensor<5x4x7xf32> -> tensor<5x4x4xcomplex<f32>>
  return %0 : tensor<5x4x4xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @irfft(
// CHECK: "stablehlo.fft"(%{{.*}}) {fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type IRFFT>} : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
func.func @irfft(%x: tensor<5xcomplex<f32>>) -> tensor<8xf32> {
  %0 = mlax.fft IRFFT %x, length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
