// Verifier errors of mlax.fft.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @no_lengths(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op fft_length needs 1 to 3 entries, got 0}}
  %0 = mlax.fft FFT %x, length = [] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @four_lengths(%x: tensor<1x1x1x1xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op fft_length needs 1 to 3 entries, got 4}}
  %0 = mlax.fft FFT %x, length = [1, 1, 1, 1] : tensor<1x1x1x1xcomplex<f32>> -> tensor<1x1x1x1xcomplex<f32>>
  return
}

// -----

func.func @zero_length(%x: tensor<0xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op fft_length must be positive, got [0]}}
  %0 = mlax.fft FFT %x, length = [0] : tensor<0xcomplex<f32>> -> tensor<0xcomplex<f32>>
  return
}

// -----

func.func @rank(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op operand of rank 1 has fewer than the 2 transformed dimensions}}
  %0 = mlax.fft FFT %x, length = [4, 4] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @fft_real(%x: tensor<4xf32>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op FFT needs a complex<f32> or complex<f64> operand, got 'f32'}}
  %0 = mlax.fft FFT %x, length = [4] : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @irfft_real(%x: tensor<3xf32>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op IRFFT needs a complex<f32> or complex<f64> operand, got 'f32'}}
  %0 = mlax.fft IRFFT %x, length = [4] : tensor<3xf32> -> tensor<4xf32>
  return
}

// -----

func.func @rfft_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op RFFT needs an f32 or f64 operand, got 'complex<f32>'}}
  %0 = mlax.fft RFFT %x, length = [4] : tensor<4xcomplex<f32>> -> tensor<3xcomplex<f32>>
  return
}

// -----

func.func @rfft_f16(%x: tensor<4xf16>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op RFFT needs an f32 or f64 operand, got 'f16'}}
  %0 = mlax.fft RFFT %x, length = [4] : tensor<4xf16> -> tensor<3xcomplex<f16>>
  return
}

// -----

func.func @trailing(%x: tensor<2x5xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op FFT with fft_length [4] needs the operand's trailing dimensions to be [4], got [5]}}
  %0 = mlax.fft FFT %x, length = [4] : tensor<2x5xcomplex<f32>> -> tensor<2x5xcomplex<f32>>
  return
}

// -----

func.func @irfft_trailing(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op IRFFT with fft_length [8] needs the operand's trailing dimensions to be [5], got [4]}}
  %0 = mlax.fft IRFFT %x, length = [8] : tensor<4xcomplex<f32>> -> tensor<8xf32>
  return
}

// -----

func.func @rfft_result(%x: tensor<8xf32>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op inferred type(s) 'tensor<5xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<8xcomplex<f32>>'}}
  %0 = mlax.fft RFFT %x, length = [8] : tensor<8xf32> -> tensor<8xcomplex<f32>>
  return
}

// -----

func.func @irfft_result(%x: tensor<5xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<8xf64>'}}
  %0 = mlax.fft IRFFT %x, length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf64>
  return
}

// -----

func.func @irfft_odd_trailing(%x: tensor<3x3xcomplex<f32>>) {
  // expected-error @+2 {{'mlax.fft' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.fft' op IRFFT with fft_length [3, 7] needs the operand's trailing dimensions to be [3, 4], got [3, 3]}}
  %0 = mlax.fft IRFFT %x, length = [3, 7] : tensor<3x3xcomplex<f32>> -> tensor<3x7xf32>
  return
}
